CREATE TABLE "reupload_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"shop_id" integer NOT NULL,
	"batch_id" text NOT NULL,
	"row_id" text NOT NULL,
	"old_product_id" text NOT NULL,
	"old_offer_id" text NOT NULL,
	"new_offer_id" text NOT NULL,
	"new_product_id" text,
	"name" text NOT NULL,
	"image" text DEFAULT '' NOT NULL,
	"step" text NOT NULL,
	"failed_step" text,
	"old_card" text DEFAULT 'kept' NOT NULL,
	"card" jsonb,
	"task_id" bigint,
	"errors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"lease_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "reupload_items" ADD CONSTRAINT "reupload_items_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reupload_items" ADD CONSTRAINT "reupload_items_shop_id_mp_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."mp_shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "reupload_items_batch_row_idx" ON "reupload_items" USING btree ("user_id","batch_id","row_id");--> statement-breakpoint
CREATE INDEX "reupload_items_user_idx" ON "reupload_items" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "reupload_items_unsettled_idx" ON "reupload_items" USING btree ("user_id") WHERE step not in ('done', 'failed');