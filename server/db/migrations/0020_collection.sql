CREATE TABLE "collection_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"site" text NOT NULL,
	"source_id" text NOT NULL,
	"url" text NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"images" jsonb NOT NULL,
	"price" numeric NOT NULL,
	"currency" text NOT NULL,
	"variants" jsonb NOT NULL,
	"attributes" jsonb NOT NULL,
	"category_id" bigint,
	"type_id" bigint,
	"ozon_attributes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"dimensions" jsonb,
	"via" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "collection_uploads" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"item_id" integer,
	"shop_id" integer NOT NULL,
	"site" text NOT NULL,
	"offer_id" text NOT NULL,
	"name" text NOT NULL,
	"variant" text DEFAULT '' NOT NULL,
	"image" text,
	"price" numeric NOT NULL,
	"currency" text NOT NULL,
	"status" text NOT NULL,
	"task_id" bigint,
	"product_id" bigint,
	"errors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"checked_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "collection_items" ADD CONSTRAINT "collection_items_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collection_uploads" ADD CONSTRAINT "collection_uploads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collection_uploads" ADD CONSTRAINT "collection_uploads_item_id_collection_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."collection_items"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collection_uploads" ADD CONSTRAINT "collection_uploads_shop_id_mp_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."mp_shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "collection_items_source_idx" ON "collection_items" USING btree ("user_id","site","source_id");--> statement-breakpoint
CREATE INDEX "collection_items_user_idx" ON "collection_items" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "collection_uploads_user_idx" ON "collection_uploads" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "collection_uploads_item_idx" ON "collection_uploads" USING btree ("item_id");--> statement-breakpoint
CREATE INDEX "collection_uploads_unsettled_idx" ON "collection_uploads" USING btree ("status") WHERE status in ('importing', 'moderating');