CREATE TABLE "sales_sku_weekly" (
	"user_id" integer NOT NULL,
	"shop_id" integer NOT NULL,
	"sku" text NOT NULL,
	"week_end" date NOT NULL,
	"days" integer DEFAULT 0 NOT NULL,
	"orders" integer DEFAULT 0 NOT NULL,
	"units" integer DEFAULT 0 NOT NULL,
	"revenue" numeric(18, 2) DEFAULT 0 NOT NULL,
	"cancellations" integer DEFAULT 0 NOT NULL,
	"returns" integer DEFAULT 0 NOT NULL,
	"return_amount" numeric(18, 2) DEFAULT 0 NOT NULL,
	"commission" numeric(18, 2) DEFAULT 0 NOT NULL,
	"fees" numeric(18, 2) DEFAULT 0 NOT NULL,
	"payout" numeric(18, 2) DEFAULT 0 NOT NULL,
	CONSTRAINT "sales_sku_weekly_user_id_shop_id_sku_week_end_pk" PRIMARY KEY("user_id","shop_id","sku","week_end")
);
--> statement-breakpoint
DROP TABLE "sales_sku_running" CASCADE;--> statement-breakpoint
ALTER TABLE "sales_sku_span" ADD COLUMN "days" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "sales_sku_weekly_user_week_idx" ON "sales_sku_weekly" USING btree ("user_id","week_end");