CREATE TABLE "access_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"org_id" integer NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"operator_id" integer,
	"operator" text NOT NULL,
	"ip" text NOT NULL,
	"area" text NOT NULL,
	"call" text NOT NULL,
	"decision" text NOT NULL,
	"policy_id" integer,
	"policy_name" text DEFAULT '' NOT NULL,
	"strategy" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "access_policies" (
	"id" serial PRIMARY KEY NOT NULL,
	"org_id" integer NOT NULL,
	"name" text NOT NULL,
	"founder" text DEFAULT '' NOT NULL,
	"strategy" text NOT NULL,
	"priority" integer DEFAULT 4 NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"dry_run" boolean DEFAULT false NOT NULL,
	"rule" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "api_clients" (
	"id" serial PRIMARY KEY NOT NULL,
	"org_id" integer NOT NULL,
	"name" text NOT NULL,
	"type" text DEFAULT 'script' NOT NULL,
	"source_type" text DEFAULT 'internal' NOT NULL,
	"dept_id" integer,
	"allowed_addresses" text[] DEFAULT '{}'::text[] NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"creator" text DEFAULT '' NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "api_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"org_id" integer NOT NULL,
	"name" text NOT NULL,
	"token_hash" text NOT NULL,
	"prefix" text NOT NULL,
	"role_id" integer NOT NULL,
	"shop_ids" integer[],
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"last_used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "step_up_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "access_policies" ADD CONSTRAINT "access_policies_org_id_users_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_clients" ADD CONSTRAINT "api_clients_org_id_users_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_client_id_api_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."api_clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "access_log_org_at_idx" ON "access_log" USING btree ("org_id","at");--> statement-breakpoint
CREATE INDEX "access_log_at_idx" ON "access_log" USING btree ("at");--> statement-breakpoint
CREATE INDEX "access_policies_org_idx" ON "access_policies" USING btree ("org_id");--> statement-breakpoint
CREATE UNIQUE INDEX "access_policies_name_idx" ON "access_policies" USING btree ("org_id","name");--> statement-breakpoint
CREATE INDEX "api_clients_org_idx" ON "api_clients" USING btree ("org_id");--> statement-breakpoint
CREATE UNIQUE INDEX "api_tokens_hash_idx" ON "api_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "api_tokens_client_idx" ON "api_tokens" USING btree ("client_id");