CREATE TABLE "feature_updates" (
	"id" serial PRIMARY KEY NOT NULL,
	"start_date" date NOT NULL,
	"title" jsonb NOT NULL,
	"items" jsonb NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "feature_updates_start_idx" ON "feature_updates" USING btree ("start_date");