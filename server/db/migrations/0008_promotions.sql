CREATE TABLE "cost_prices" (
	"user_id" integer NOT NULL,
	"offer_id" text NOT NULL,
	"cost" numeric(12, 2) NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cost_prices_user_id_offer_id_pk" PRIMARY KEY("user_id","offer_id")
);
--> statement-breakpoint
CREATE TABLE "price_guard_log" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"shop_id" integer NOT NULL,
	"action_id" bigint NOT NULL,
	"action_title" text NOT NULL,
	"product_id" bigint NOT NULL,
	"offer_id" text NOT NULL,
	"name" text NOT NULL,
	"add_mode" text NOT NULL,
	"action_price" numeric(12, 2) NOT NULL,
	"floor" numeric(12, 2) NOT NULL,
	"mode" text NOT NULL,
	"cost" numeric(12, 2),
	"outcome" text NOT NULL,
	"error" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "price_guard_off_actions" (
	"shop_id" integer NOT NULL,
	"action_id" bigint NOT NULL,
	CONSTRAINT "price_guard_off_actions_shop_id_action_id_pk" PRIMARY KEY("shop_id","action_id")
);
--> statement-breakpoint
CREATE TABLE "price_guards" (
	"shop_id" integer PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"mode" text DEFAULT 'absolute' NOT NULL,
	"min_price" numeric(12, 2) DEFAULT '0' NOT NULL,
	"margin_percent" numeric(7, 2) DEFAULT '0' NOT NULL,
	"last_run_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "cost_prices" ADD CONSTRAINT "cost_prices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "price_guard_log" ADD CONSTRAINT "price_guard_log_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "price_guard_log" ADD CONSTRAINT "price_guard_log_shop_id_mp_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."mp_shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "price_guard_off_actions" ADD CONSTRAINT "price_guard_off_actions_shop_id_mp_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."mp_shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "price_guards" ADD CONSTRAINT "price_guards_shop_id_mp_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."mp_shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cost_prices_updated_idx" ON "cost_prices" USING btree ("user_id","updated_at");--> statement-breakpoint
CREATE INDEX "price_guard_log_user_idx" ON "price_guard_log" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "price_guard_log_product_idx" ON "price_guard_log" USING btree ("shop_id","action_id","product_id");