CREATE TABLE "sales_daily_totals" (
	"user_id" integer NOT NULL,
	"shop_id" integer NOT NULL,
	"day" date NOT NULL,
	"warehouse_id" text NOT NULL,
	"warehouse_name" text DEFAULT '' NOT NULL,
	"orders" integer DEFAULT 0 NOT NULL,
	"units" integer DEFAULT 0 NOT NULL,
	"revenue" numeric(16, 2) DEFAULT 0 NOT NULL,
	"cancellations" integer DEFAULT 0 NOT NULL,
	"returns" integer DEFAULT 0 NOT NULL,
	"return_amount" numeric(16, 2) DEFAULT 0 NOT NULL,
	"commission" numeric(16, 2) DEFAULT 0 NOT NULL,
	"fees" numeric(16, 2) DEFAULT 0 NOT NULL,
	"payout" numeric(16, 2) DEFAULT 0 NOT NULL,
	"cost_rub" numeric(18, 2) DEFAULT 0 NOT NULL,
	CONSTRAINT "sales_daily_totals_user_id_shop_id_day_warehouse_id_pk" PRIMARY KEY("user_id","shop_id","day","warehouse_id")
);
--> statement-breakpoint
CREATE TABLE "sales_rollup_state" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"cost_fingerprint" text DEFAULT '' NOT NULL,
	"version" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sales_sku_running" (
	"user_id" integer NOT NULL,
	"shop_id" integer NOT NULL,
	"sku" text NOT NULL,
	"day" date NOT NULL,
	"offer_id" text DEFAULT '' NOT NULL,
	"product_name" text DEFAULT '' NOT NULL,
	"orders" integer DEFAULT 0 NOT NULL,
	"units" integer DEFAULT 0 NOT NULL,
	"revenue" numeric(18, 2) DEFAULT 0 NOT NULL,
	"cancellations" integer DEFAULT 0 NOT NULL,
	"returns" integer DEFAULT 0 NOT NULL,
	"return_amount" numeric(18, 2) DEFAULT 0 NOT NULL,
	"commission" numeric(18, 2) DEFAULT 0 NOT NULL,
	"fees" numeric(18, 2) DEFAULT 0 NOT NULL,
	"payout" numeric(18, 2) DEFAULT 0 NOT NULL,
	CONSTRAINT "sales_sku_running_user_id_shop_id_sku_day_pk" PRIMARY KEY("user_id","shop_id","sku","day")
);
--> statement-breakpoint
CREATE TABLE "sales_sku_span" (
	"user_id" integer NOT NULL,
	"shop_id" integer NOT NULL,
	"sku" text NOT NULL,
	"first_day" date NOT NULL,
	"last_day" date NOT NULL,
	"offer_id" text DEFAULT '' NOT NULL,
	"product_name" text DEFAULT '' NOT NULL,
	"orders" integer DEFAULT 0 NOT NULL,
	"units" integer DEFAULT 0 NOT NULL,
	"revenue" numeric(18, 2) DEFAULT 0 NOT NULL,
	"cancellations" integer DEFAULT 0 NOT NULL,
	"returns" integer DEFAULT 0 NOT NULL,
	"return_amount" numeric(18, 2) DEFAULT 0 NOT NULL,
	"commission" numeric(18, 2) DEFAULT 0 NOT NULL,
	"fees" numeric(18, 2) DEFAULT 0 NOT NULL,
	"payout" numeric(18, 2) DEFAULT 0 NOT NULL,
	CONSTRAINT "sales_sku_span_user_id_shop_id_sku_pk" PRIMARY KEY("user_id","shop_id","sku")
);
--> statement-breakpoint
CREATE INDEX "sales_daily_totals_user_day_idx" ON "sales_daily_totals" USING btree ("user_id","day");