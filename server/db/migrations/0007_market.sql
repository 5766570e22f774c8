CREATE TABLE "market_imports" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer,
	"status" text NOT NULL,
	"progress" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"errors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"message" text,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "market_keywords" (
	"id" serial PRIMARY KEY NOT NULL,
	"keyword" text NOT NULL,
	"category_id" integer,
	"results" integer NOT NULL,
	"freq_7" integer NOT NULL,
	"freq_30" integer NOT NULL,
	"freq_90" integer NOT NULL,
	"growth" real,
	"from_day" date NOT NULL,
	"frequency" integer[] NOT NULL,
	"top_skus" bigint[] NOT NULL
);
--> statement-breakpoint
CREATE TABLE "market_meta" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"as_of" date NOT NULL,
	"source" text NOT NULL,
	"products" integer NOT NULL,
	"keywords" integer NOT NULL,
	"loaded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "market_product_history" (
	"sku" bigint PRIMARY KEY NOT NULL,
	"from_day" date NOT NULL,
	"sales" integer[] NOT NULL,
	"prices" numeric(12, 2)[] NOT NULL
);
--> statement-breakpoint
CREATE TABLE "market_products" (
	"sku" bigint PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"category_id" integer NOT NULL,
	"type_id" integer NOT NULL,
	"brand" text NOT NULL,
	"seller_id" integer NOT NULL,
	"seller_name" text NOT NULL,
	"seller_country" text NOT NULL,
	"price" numeric(12, 2) NOT NULL,
	"rating" real,
	"reviews" integer NOT NULL,
	"first_seen" date NOT NULL,
	"sales_7" integer NOT NULL,
	"sales_30" integer NOT NULL,
	"sales_90" integer NOT NULL,
	"revenue_7" bigint NOT NULL,
	"revenue_30" bigint NOT NULL,
	"revenue_90" bigint NOT NULL,
	"growth" real,
	"potential_score" real NOT NULL,
	"potential_demand" real NOT NULL,
	"potential_competition" real NOT NULL,
	"potential_reviews" real NOT NULL,
	"potential_price" real NOT NULL,
	"type_sellers" integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "market_keywords_keyword_idx" ON "market_keywords" USING btree (lower("keyword"));--> statement-breakpoint
CREATE INDEX "market_keywords_prefix_idx" ON "market_keywords" USING btree (lower("keyword") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "market_keywords_freq_idx" ON "market_keywords" USING btree ("freq_30");--> statement-breakpoint
CREATE INDEX "market_keywords_top_skus_idx" ON "market_keywords" USING gin ("top_skus");--> statement-breakpoint
CREATE INDEX "market_products_type_sales_idx" ON "market_products" USING btree ("type_id","sales_30");--> statement-breakpoint
CREATE INDEX "market_products_sales_7_idx" ON "market_products" USING btree ("sales_7");--> statement-breakpoint
CREATE INDEX "market_products_sales_30_idx" ON "market_products" USING btree ("sales_30");--> statement-breakpoint
CREATE INDEX "market_products_sales_90_idx" ON "market_products" USING btree ("sales_90");--> statement-breakpoint
CREATE INDEX "market_products_revenue_30_idx" ON "market_products" USING btree ("revenue_30");--> statement-breakpoint
CREATE INDEX "market_products_growth_idx" ON "market_products" USING btree ("growth");--> statement-breakpoint
CREATE INDEX "market_products_price_idx" ON "market_products" USING btree ("price");--> statement-breakpoint
CREATE INDEX "market_products_first_seen_idx" ON "market_products" USING btree ("first_seen","sales_30");--> statement-breakpoint
CREATE INDEX "market_products_potential_idx" ON "market_products" USING btree ("potential_score");--> statement-breakpoint
CREATE INDEX "market_products_cn_sales_idx" ON "market_products" USING btree ("sales_30") WHERE seller_country = 'CN';--> statement-breakpoint
CREATE INDEX "market_products_seller_idx" ON "market_products" USING btree ("seller_id");--> statement-breakpoint
CREATE INDEX "market_products_brand_idx" ON "market_products" USING btree (lower("brand"));