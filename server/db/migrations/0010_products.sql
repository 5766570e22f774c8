CREATE TABLE "product_sends" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"product_row_id" text NOT NULL,
	"kind" text NOT NULL,
	"warehouse_id" text DEFAULT '' NOT NULL,
	"batch_id" text,
	"payload" jsonb NOT NULL,
	"outcome" text DEFAULT 'sent' NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "products" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"shop_id" integer NOT NULL,
	"shop_name" text DEFAULT '' NOT NULL,
	"product_id" text NOT NULL,
	"offer_id" text DEFAULT '' NOT NULL,
	"sku" text DEFAULT '' NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"barcode" text DEFAULT '' NOT NULL,
	"image" text DEFAULT '' NOT NULL,
	"status" text NOT NULL,
	"moderation" text DEFAULT '' NOT NULL,
	"visibility" text NOT NULL,
	"currency" text DEFAULT 'CNY' NOT NULL,
	"price" numeric(14, 2) DEFAULT 0 NOT NULL,
	"old_price" numeric(14, 2) DEFAULT 0 NOT NULL,
	"min_price" numeric(14, 2) DEFAULT 0 NOT NULL,
	"fbs_stock" integer DEFAULT 0 NOT NULL,
	"fbo_stock" integer DEFAULT 0 NOT NULL,
	"error_count" integer DEFAULT 0 NOT NULL,
	"units_30d" integer DEFAULT 0 NOT NULL,
	"revenue_30d" numeric(14, 2) DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"changed_at" timestamp with time zone NOT NULL,
	"stocks" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"deleted" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "product_sends" ADD CONSTRAINT "product_sends_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "product_sends_rate_idx" ON "product_sends" USING btree ("product_row_id","kind","warehouse_id","sent_at");--> statement-breakpoint
CREATE INDEX "product_sends_batch_idx" ON "product_sends" USING btree ("user_id","batch_id");--> statement-breakpoint
CREATE INDEX "products_sync_idx" ON "products" USING btree ("user_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "products_shop_offer_idx" ON "products" USING btree ("shop_id","offer_id");