-- Each research sort index (and the category's) also holds the figures the filters read (server/areas/research/queries.ts, Where.reads),
-- so a walk along a sort, or a count, reads the index alone (drizzle-kit does not write INCLUDE: custom migration).
DROP INDEX "market_products_sales_7_idx";--> statement-breakpoint
CREATE INDEX "market_products_sales_7_idx" ON "market_products" USING btree ("sales_7","sku") INCLUDE ("type_id","price","sales_30","sales_90","revenue_7","revenue_30","revenue_90","growth","rating","reviews","first_seen","seller_country","potential_score");--> statement-breakpoint
DROP INDEX "market_products_sales_30_idx";--> statement-breakpoint
CREATE INDEX "market_products_sales_30_idx" ON "market_products" USING btree ("sales_30","sku") INCLUDE ("type_id","price","sales_7","sales_90","revenue_7","revenue_30","revenue_90","growth","rating","reviews","first_seen","seller_country","potential_score");--> statement-breakpoint
DROP INDEX "market_products_sales_90_idx";--> statement-breakpoint
CREATE INDEX "market_products_sales_90_idx" ON "market_products" USING btree ("sales_90","sku") INCLUDE ("type_id","price","sales_7","sales_30","revenue_7","revenue_30","revenue_90","growth","rating","reviews","first_seen","seller_country","potential_score");--> statement-breakpoint
DROP INDEX "market_products_revenue_7_idx";--> statement-breakpoint
CREATE INDEX "market_products_revenue_7_idx" ON "market_products" USING btree ("revenue_7","sku") INCLUDE ("type_id","price","sales_7","sales_30","sales_90","revenue_30","revenue_90","growth","rating","reviews","first_seen","seller_country","potential_score");--> statement-breakpoint
DROP INDEX "market_products_revenue_30_idx";--> statement-breakpoint
CREATE INDEX "market_products_revenue_30_idx" ON "market_products" USING btree ("revenue_30","sku") INCLUDE ("type_id","price","sales_7","sales_30","sales_90","revenue_7","revenue_90","growth","rating","reviews","first_seen","seller_country","potential_score");--> statement-breakpoint
DROP INDEX "market_products_revenue_90_idx";--> statement-breakpoint
CREATE INDEX "market_products_revenue_90_idx" ON "market_products" USING btree ("revenue_90","sku") INCLUDE ("type_id","price","sales_7","sales_30","sales_90","revenue_7","revenue_30","growth","rating","reviews","first_seen","seller_country","potential_score");--> statement-breakpoint
DROP INDEX "market_products_growth_idx";--> statement-breakpoint
CREATE INDEX "market_products_growth_idx" ON "market_products" USING btree ("growth","sku") INCLUDE ("type_id","price","sales_7","sales_30","sales_90","revenue_7","revenue_30","revenue_90","rating","reviews","first_seen","seller_country","potential_score");--> statement-breakpoint
DROP INDEX "market_products_growth_desc_idx";--> statement-breakpoint
CREATE INDEX "market_products_growth_desc_idx" ON "market_products" USING btree ("growth" desc nulls last,"sku" desc) INCLUDE ("type_id","price","sales_7","sales_30","sales_90","revenue_7","revenue_30","revenue_90","rating","reviews","first_seen","seller_country","potential_score");--> statement-breakpoint
DROP INDEX "market_products_rating_idx";--> statement-breakpoint
CREATE INDEX "market_products_rating_idx" ON "market_products" USING btree ("rating","sku") INCLUDE ("type_id","price","sales_7","sales_30","sales_90","revenue_7","revenue_30","revenue_90","growth","reviews","first_seen","seller_country","potential_score");--> statement-breakpoint
DROP INDEX "market_products_rating_desc_idx";--> statement-breakpoint
CREATE INDEX "market_products_rating_desc_idx" ON "market_products" USING btree ("rating" desc nulls last,"sku" desc) INCLUDE ("type_id","price","sales_7","sales_30","sales_90","revenue_7","revenue_30","revenue_90","growth","reviews","first_seen","seller_country","potential_score");--> statement-breakpoint
DROP INDEX "market_products_reviews_idx";--> statement-breakpoint
CREATE INDEX "market_products_reviews_idx" ON "market_products" USING btree ("reviews","sku") INCLUDE ("type_id","price","sales_7","sales_30","sales_90","revenue_7","revenue_30","revenue_90","growth","rating","first_seen","seller_country","potential_score");--> statement-breakpoint
DROP INDEX "market_products_price_idx";--> statement-breakpoint
CREATE INDEX "market_products_price_idx" ON "market_products" USING btree ("price","sku") INCLUDE ("type_id","sales_7","sales_30","sales_90","revenue_7","revenue_30","revenue_90","growth","rating","reviews","first_seen","seller_country","potential_score");--> statement-breakpoint
DROP INDEX "market_products_first_seen_idx";--> statement-breakpoint
CREATE INDEX "market_products_first_seen_idx" ON "market_products" USING btree ("first_seen","sku") INCLUDE ("type_id","price","sales_7","sales_30","sales_90","revenue_7","revenue_30","revenue_90","growth","rating","reviews","seller_country","potential_score");--> statement-breakpoint
DROP INDEX "market_products_potential_idx";--> statement-breakpoint
CREATE INDEX "market_products_potential_idx" ON "market_products" USING btree ("potential_score","sku") INCLUDE ("type_id","price","sales_7","sales_30","sales_90","revenue_7","revenue_30","revenue_90","growth","rating","reviews","first_seen","seller_country");--> statement-breakpoint
DROP INDEX "market_products_type_sales_idx";--> statement-breakpoint
CREATE INDEX "market_products_type_sales_idx" ON "market_products" USING btree ("type_id","sales_30") INCLUDE ("sku","price","sales_7","sales_90","revenue_7","revenue_30","revenue_90","growth","rating","reviews","first_seen","seller_country","potential_score");
