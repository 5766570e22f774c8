CREATE TABLE "job_leases" (
	"name" text PRIMARY KEY NOT NULL,
	"owner" text NOT NULL,
	"generation" integer DEFAULT 1 NOT NULL,
	"lease_until" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "push_outbox" (
	"id" serial PRIMARY KEY NOT NULL,
	"payload" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mp_sync_jobs" ADD COLUMN "owner" text;--> statement-breakpoint
ALTER TABLE "mp_sync_jobs" ADD COLUMN "generation" integer DEFAULT 0 NOT NULL;