CREATE TABLE "login_challenges" (
	"id" serial PRIMARY KEY NOT NULL,
	"ticket_hash" text NOT NULL,
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"ip" text DEFAULT '' NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "org_security" (
	"org_id" integer PRIMARY KEY NOT NULL,
	"otp_policy" jsonb,
	"otp_role_ids" integer[] DEFAULT '{}'::int[] NOT NULL
);
--> statement-breakpoint
CREATE TABLE "otp_recovery_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"code_hash" text NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "sign_in_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"org_id" integer NOT NULL,
	"user_id" integer,
	"username" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"event" text NOT NULL,
	"method" text NOT NULL,
	"success" boolean NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"ip" text DEFAULT '' NOT NULL,
	"browser" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_otp" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"required" boolean DEFAULT false NOT NULL,
	"secret_enc" text,
	"type" text DEFAULT 'totp' NOT NULL,
	"algorithm" text DEFAULT 'SHA1' NOT NULL,
	"digits" integer DEFAULT 6 NOT NULL,
	"period" integer DEFAULT 30 NOT NULL,
	"window" integer DEFAULT 1 NOT NULL,
	"counter" bigint DEFAULT 0 NOT NULL,
	"last_step" bigint DEFAULT -1 NOT NULL,
	"enabled_at" timestamp with time zone,
	"pending_secret_enc" text,
	"pending_policy" jsonb,
	"failures" integer DEFAULT 0 NOT NULL,
	"locked_until" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "login_challenges" ADD CONSTRAINT "login_challenges_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "org_security" ADD CONSTRAINT "org_security_org_id_users_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "otp_recovery_codes" ADD CONSTRAINT "otp_recovery_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_otp" ADD CONSTRAINT "user_otp_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "login_challenges_ticket_idx" ON "login_challenges" USING btree ("ticket_hash");--> statement-breakpoint
CREATE INDEX "login_challenges_expires_idx" ON "login_challenges" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "otp_recovery_codes_user_idx" ON "otp_recovery_codes" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "sign_in_log_org_at_idx" ON "sign_in_log" USING btree ("org_id","at");--> statement-breakpoint
CREATE INDEX "sign_in_log_user_at_idx" ON "sign_in_log" USING btree ("user_id","at");--> statement-breakpoint
CREATE INDEX "sign_in_log_at_idx" ON "sign_in_log" USING btree ("at");