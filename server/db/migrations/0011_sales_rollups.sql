CREATE TABLE "sales_daily" (
	"user_id" integer NOT NULL,
	"shop_id" integer NOT NULL,
	"day" date NOT NULL,
	"sku" text NOT NULL,
	"warehouse_id" text NOT NULL,
	"offer_id" text DEFAULT '' NOT NULL,
	"product_name" text DEFAULT '' NOT NULL,
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
	CONSTRAINT "sales_daily_user_id_shop_id_day_sku_warehouse_id_pk" PRIMARY KEY("user_id","shop_id","day","sku","warehouse_id")
);
--> statement-breakpoint
CREATE INDEX "sales_daily_user_day_idx" ON "sales_daily" USING btree ("user_id","day");--> statement-breakpoint
CREATE INDEX "mp_records_finance_posting_idx" ON "mp_records" USING btree ("shop_id",("data" #>> '{posting,posting_number}')) WHERE "mp_records"."entity" = 'finance';