CREATE TABLE "tracking_cache" (
	"carrier" text NOT NULL,
	"number" text NOT NULL,
	"lang" text NOT NULL,
	"found" boolean NOT NULL,
	"status" text,
	"events" jsonb NOT NULL,
	"fetched_at" timestamp with time zone NOT NULL,
	CONSTRAINT "tracking_cache_carrier_number_lang_pk" PRIMARY KEY("carrier","number","lang")
);
--> statement-breakpoint
CREATE TABLE "tracking_prefixes" (
	"prefix" text PRIMARY KEY NOT NULL,
	"carrier" text NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tracking_prefixes" ADD CONSTRAINT "tracking_prefixes_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "orders_user_tracking_idx" ON "orders" USING btree ("user_id","tracking_number") WHERE "orders"."tracking_number" <> '';