CREATE TABLE "mp_records" (
	"shop_id" integer NOT NULL,
	"entity" text NOT NULL,
	"external_id" text NOT NULL,
	"data" jsonb NOT NULL,
	"synced_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mp_records_shop_id_entity_external_id_pk" PRIMARY KEY("shop_id","entity","external_id")
);
--> statement-breakpoint
CREATE TABLE "mp_settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mp_shops" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"name" text NOT NULL,
	"marketplace" text DEFAULT 'ozon' NOT NULL,
	"client_id" text NOT NULL,
	"api_key_enc" text NOT NULL,
	"base_url" text,
	"status" text DEFAULT 'active' NOT NULL,
	"status_reason" jsonb,
	"key_expires_at" timestamp with time zone,
	"roles" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_sync_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "mp_sync_jobs" (
	"shop_id" integer NOT NULL,
	"entity" text NOT NULL,
	"status" text DEFAULT 'idle' NOT NULL,
	"cursor" jsonb,
	"watermark" timestamp with time zone,
	"done" integer DEFAULT 0 NOT NULL,
	"error" jsonb,
	"lease_until" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"failures" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "mp_sync_jobs_shop_id_entity_pk" PRIMARY KEY("shop_id","entity")
);
--> statement-breakpoint
ALTER TABLE "mp_records" ADD CONSTRAINT "mp_records_shop_id_mp_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."mp_shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mp_shops" ADD CONSTRAINT "mp_shops_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mp_sync_jobs" ADD CONSTRAINT "mp_sync_jobs_shop_id_mp_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."mp_shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mp_records_synced_idx" ON "mp_records" USING btree ("shop_id","entity","synced_at");--> statement-breakpoint
CREATE UNIQUE INDEX "mp_shops_user_client_idx" ON "mp_shops" USING btree ("user_id","client_id");