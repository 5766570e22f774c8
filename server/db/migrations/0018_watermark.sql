CREATE TABLE "watermark_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"job_id" integer NOT NULL,
	"product_id" text NOT NULL,
	"idx" integer NOT NULL,
	"source_url" text NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"message" jsonb,
	"image_id" integer,
	"output_url" text
);
--> statement-breakpoint
CREATE TABLE "watermark_jobs" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"shop_id" integer NOT NULL,
	"shop_name" text DEFAULT '' NOT NULL,
	"kind" text NOT NULL,
	"template_name" text DEFAULT '' NOT NULL,
	"mark" jsonb NOT NULL,
	"picture" "bytea",
	"send" boolean NOT NULL,
	"state" text NOT NULL,
	"public_base" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "watermark_products" (
	"job_id" integer NOT NULL,
	"product_id" text NOT NULL,
	"position" integer NOT NULL,
	"offer_id" text DEFAULT '' NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"send" text DEFAULT 'pending' NOT NULL,
	"message" jsonb,
	"ozon" jsonb DEFAULT '[]'::jsonb NOT NULL,
	CONSTRAINT "watermark_products_job_id_product_id_pk" PRIMARY KEY("job_id","product_id")
);
--> statement-breakpoint
CREATE TABLE "watermark_templates" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"text" text DEFAULT '' NOT NULL,
	"color" text DEFAULT '#ffffff' NOT NULL,
	"position" text NOT NULL,
	"opacity" real NOT NULL,
	"scale" real NOT NULL,
	"margin" real NOT NULL,
	"tile" boolean DEFAULT false NOT NULL,
	"picture" "bytea",
	"picture_type" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "edit_images" ADD COLUMN "origin" text DEFAULT 'upload' NOT NULL;--> statement-breakpoint
ALTER TABLE "edit_images" ADD COLUMN "public_token" text;--> statement-breakpoint
ALTER TABLE "edit_images" ADD COLUMN "source_url" text;--> statement-breakpoint
ALTER TABLE "watermark_items" ADD CONSTRAINT "watermark_items_job_id_watermark_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."watermark_jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watermark_jobs" ADD CONSTRAINT "watermark_jobs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watermark_products" ADD CONSTRAINT "watermark_products_job_id_watermark_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."watermark_jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watermark_templates" ADD CONSTRAINT "watermark_templates_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "watermark_items_job_product_idx" ON "watermark_items" USING btree ("job_id","product_id","idx");--> statement-breakpoint
CREATE INDEX "watermark_items_state_idx" ON "watermark_items" USING btree ("job_id","state");--> statement-breakpoint
CREATE INDEX "watermark_jobs_user_idx" ON "watermark_jobs" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "watermark_jobs_state_idx" ON "watermark_jobs" USING btree ("state");--> statement-breakpoint
CREATE INDEX "watermark_templates_user_idx" ON "watermark_templates" USING btree ("user_id","updated_at");--> statement-breakpoint
CREATE UNIQUE INDEX "edit_images_token_idx" ON "edit_images" USING btree ("public_token");