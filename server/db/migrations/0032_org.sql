CREATE TABLE "operation_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"org_id" integer NOT NULL,
	"actor_id" integer NOT NULL,
	"actor_name" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"ip" text DEFAULT '' NOT NULL,
	"module" text NOT NULL,
	"action" text NOT NULL,
	"record" text DEFAULT '' NOT NULL,
	"shop_ids" integer[] DEFAULT '{}'::int[] NOT NULL,
	"status" integer DEFAULT 200 NOT NULL,
	"before" jsonb,
	"after" jsonb
);
--> statement-breakpoint
CREATE TABLE "org_departments" (
	"id" serial PRIMARY KEY NOT NULL,
	"org_id" integer NOT NULL,
	"parent_id" integer,
	"name" text NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"leader" text DEFAULT '' NOT NULL,
	"shop_ids" integer[] DEFAULT '{}'::int[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "org_members" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"org_id" integer NOT NULL,
	"nick_name" text DEFAULT '' NOT NULL,
	"dept_id" integer,
	"position_id" integer,
	"role_id" integer,
	"shop_ids" integer[],
	"status" text DEFAULT 'enabled' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "org_positions" (
	"id" serial PRIMARY KEY NOT NULL,
	"org_id" integer NOT NULL,
	"name" text NOT NULL,
	"type" text DEFAULT '' NOT NULL,
	"dept_id" integer,
	"director" text DEFAULT '' NOT NULL,
	"number" integer DEFAULT 1 NOT NULL,
	"date" date,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "org_roles" (
	"id" serial PRIMARY KEY NOT NULL,
	"org_id" integer NOT NULL,
	"name" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"source" text DEFAULT 'custom' NOT NULL,
	"creator" text DEFAULT '' NOT NULL,
	"apply_sub_dept" boolean DEFAULT false NOT NULL,
	"permissions" text[] DEFAULT '{}'::text[] NOT NULL,
	"data_scope" text DEFAULT 'all' NOT NULL,
	"shop_ids" integer[] DEFAULT '{}'::int[] NOT NULL,
	"own_records" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "org_departments" ADD CONSTRAINT "org_departments_org_id_users_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "org_departments" ADD CONSTRAINT "org_departments_parent_id_org_departments_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."org_departments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "org_members" ADD CONSTRAINT "org_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "org_members" ADD CONSTRAINT "org_members_org_id_users_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "org_members" ADD CONSTRAINT "org_members_dept_id_org_departments_id_fk" FOREIGN KEY ("dept_id") REFERENCES "public"."org_departments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "org_members" ADD CONSTRAINT "org_members_position_id_org_positions_id_fk" FOREIGN KEY ("position_id") REFERENCES "public"."org_positions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "org_members" ADD CONSTRAINT "org_members_role_id_org_roles_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."org_roles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "org_positions" ADD CONSTRAINT "org_positions_org_id_users_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "org_positions" ADD CONSTRAINT "org_positions_dept_id_org_departments_id_fk" FOREIGN KEY ("dept_id") REFERENCES "public"."org_departments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "org_roles" ADD CONSTRAINT "org_roles_org_id_users_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "operation_log_org_at_idx" ON "operation_log" USING btree ("org_id","at");--> statement-breakpoint
CREATE INDEX "operation_log_actor_idx" ON "operation_log" USING btree ("org_id","actor_id","at");--> statement-breakpoint
CREATE INDEX "operation_log_module_idx" ON "operation_log" USING btree ("org_id","module","action","at");--> statement-breakpoint
CREATE INDEX "operation_log_shops_idx" ON "operation_log" USING gin ("shop_ids");--> statement-breakpoint
CREATE INDEX "operation_log_at_idx" ON "operation_log" USING btree ("at");--> statement-breakpoint
CREATE INDEX "org_departments_org_idx" ON "org_departments" USING btree ("org_id","parent_id");--> statement-breakpoint
CREATE INDEX "org_members_org_idx" ON "org_members" USING btree ("org_id");--> statement-breakpoint
CREATE INDEX "org_members_role_idx" ON "org_members" USING btree ("role_id");--> statement-breakpoint
CREATE INDEX "org_members_dept_idx" ON "org_members" USING btree ("dept_id");--> statement-breakpoint
CREATE INDEX "org_positions_org_idx" ON "org_positions" USING btree ("org_id");--> statement-breakpoint
CREATE UNIQUE INDEX "org_roles_org_name_idx" ON "org_roles" USING btree ("org_id",lower("name"));