CREATE TABLE "captcha_settings" (
	"id" integer PRIMARY KEY NOT NULL,
	"type" text DEFAULT 'text' NOT NULL,
	"complexity" integer DEFAULT 3 NOT NULL,
	"app_key" text DEFAULT '' NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mail_settings" (
	"org_id" integer PRIMARY KEY NOT NULL,
	"smtp_host" text NOT NULL,
	"smtp_port" integer NOT NULL,
	"smtp_security" text DEFAULT 'starttls' NOT NULL,
	"pop_host" text DEFAULT '' NOT NULL,
	"pop_port" integer DEFAULT 995 NOT NULL,
	"imap_host" text DEFAULT '' NOT NULL,
	"imap_port" integer DEFAULT 993 NOT NULL,
	"username" text DEFAULT '' NOT NULL,
	"password_enc" text,
	"from_address" text NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sent_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"purpose" text NOT NULL,
	"channel" text NOT NULL,
	"destination" text NOT NULL,
	"ip" text DEFAULT '' NOT NULL,
	"code_hash" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "sms_settings" (
	"org_id" integer PRIMARY KEY NOT NULL,
	"provider" text DEFAULT 'aliyun' NOT NULL,
	"app_key" text NOT NULL,
	"app_secret_enc" text,
	"sign_name" text NOT NULL,
	"template" text NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mail_settings" ADD CONSTRAINT "mail_settings_org_id_users_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sent_codes" ADD CONSTRAINT "sent_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sms_settings" ADD CONSTRAINT "sms_settings_org_id_users_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sent_codes_user_idx" ON "sent_codes" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "sent_codes_ip_idx" ON "sent_codes" USING btree ("ip","created_at");--> statement-breakpoint
CREATE INDEX "sent_codes_dest_idx" ON "sent_codes" USING btree ("destination","created_at");