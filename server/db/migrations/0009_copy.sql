CREATE TABLE "copy_price_templates" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"name" text NOT NULL,
	"currency" text NOT NULL,
	"markup" numeric NOT NULL,
	"shipping" numeric NOT NULL,
	"fixed" numeric NOT NULL,
	"rounding" text NOT NULL,
	"old_price_factor" numeric,
	"is_default" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "copy_records" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"shop_id" integer NOT NULL,
	"sku" bigint NOT NULL,
	"name" text NOT NULL,
	"image" text,
	"offer_id" text NOT NULL,
	"price" numeric NOT NULL,
	"old_price" numeric,
	"currency" text NOT NULL,
	"mode" text NOT NULL,
	"changes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" text NOT NULL,
	"task_id" bigint,
	"product_id" bigint,
	"errors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"attempts" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"checked_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "copy_price_templates" ADD CONSTRAINT "copy_price_templates_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "copy_records" ADD CONSTRAINT "copy_records_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "copy_records" ADD CONSTRAINT "copy_records_shop_id_mp_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."mp_shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "copy_price_templates_user_idx" ON "copy_price_templates" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "copy_records_user_idx" ON "copy_records" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "copy_records_unsettled_idx" ON "copy_records" USING btree ("status") WHERE status in ('importing', 'moderating');