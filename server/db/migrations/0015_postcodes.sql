CREATE TABLE "postcode_imports" (
	"id" serial PRIMARY KEY NOT NULL,
	"file" text NOT NULL,
	"rows" integer NOT NULL,
	"newest_change" date,
	"imported_by" integer,
	"imported_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "postcodes" (
	"index" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"parent" text NOT NULL,
	"region" text NOT NULL,
	"autonomous" text NOT NULL,
	"area" text NOT NULL,
	"city" text NOT NULL,
	"settlement" text NOT NULL,
	"changed" date,
	"previous_index" text NOT NULL,
	"search" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "postcode_imports" ADD CONSTRAINT "postcode_imports_imported_by_users_id_fk" FOREIGN KEY ("imported_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "postcodes_previous_idx" ON "postcodes" USING btree ("previous_index");