CREATE TABLE "returns" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"shop_id" integer NOT NULL,
	"shop_name" text DEFAULT '' NOT NULL,
	"external_id" text NOT NULL,
	"return_id" text NOT NULL,
	"scheme" text NOT NULL,
	"type" text DEFAULT '' NOT NULL,
	"status" text DEFAULT '' NOT NULL,
	"status_name" text DEFAULT '' NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"posting_number" text DEFAULT '' NOT NULL,
	"order_number" text DEFAULT '' NOT NULL,
	"sku" text DEFAULT '' NOT NULL,
	"offer_id" text DEFAULT '' NOT NULL,
	"product_name" text DEFAULT '' NOT NULL,
	"quantity" integer DEFAULT 1 NOT NULL,
	"amount" numeric(14, 2) DEFAULT 0 NOT NULL,
	"currency" text DEFAULT '' NOT NULL,
	"actions" text DEFAULT '' NOT NULL,
	"returned_at" timestamp with time zone NOT NULL,
	"changed_at" timestamp with time zone NOT NULL,
	"deleted" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "returns" ADD CONSTRAINT "returns_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "returns_sync_idx" ON "returns" USING btree ("user_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "returns_user_returned_idx" ON "returns" USING btree ("user_id","returned_at");--> statement-breakpoint
CREATE INDEX "returns_shop_posting_idx" ON "returns" USING btree ("shop_id","posting_number");