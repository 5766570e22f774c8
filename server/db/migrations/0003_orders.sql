CREATE TABLE "orders" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"shop_id" integer DEFAULT 0 NOT NULL,
	"shop_name" text DEFAULT '' NOT NULL,
	"posting_number" text DEFAULT '' NOT NULL,
	"order_number" text DEFAULT '' NOT NULL,
	"order_id" text DEFAULT '' NOT NULL,
	"status" text NOT NULL,
	"substatus" text DEFAULT '' NOT NULL,
	"warehouse_id" text DEFAULT '' NOT NULL,
	"warehouse_name" text DEFAULT '' NOT NULL,
	"in_process_at" timestamp with time zone NOT NULL,
	"shipment_date" timestamp with time zone,
	"delivering_date" timestamp with time zone,
	"tracking_number" text DEFAULT '' NOT NULL,
	"sku" text DEFAULT '' NOT NULL,
	"offer_id" text DEFAULT '' NOT NULL,
	"product_name" text DEFAULT '' NOT NULL,
	"quantity" integer DEFAULT 1 NOT NULL,
	"amount" numeric(14, 2) DEFAULT 0 NOT NULL,
	"currency" text DEFAULT 'CNY' NOT NULL,
	"source" text NOT NULL,
	"deleted" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "orders_sync_idx" ON "orders" USING btree ("user_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "orders_user_in_process_idx" ON "orders" USING btree ("user_id","in_process_at");--> statement-breakpoint
CREATE INDEX "orders_shop_posting_idx" ON "orders" USING btree ("shop_id","posting_number");--> statement-breakpoint
CREATE INDEX "orders_user_source_idx" ON "orders" USING btree ("user_id","source");