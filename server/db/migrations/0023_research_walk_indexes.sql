DROP INDEX "market_products_cn_sales_idx";--> statement-breakpoint
DROP INDEX "market_products_sales_7_idx";--> statement-breakpoint
DROP INDEX "market_products_sales_30_idx";--> statement-breakpoint
DROP INDEX "market_products_sales_90_idx";--> statement-breakpoint
DROP INDEX "market_products_revenue_30_idx";--> statement-breakpoint
DROP INDEX "market_products_growth_idx";--> statement-breakpoint
DROP INDEX "market_products_growth_desc_idx";--> statement-breakpoint
DROP INDEX "market_products_rating_idx";--> statement-breakpoint
DROP INDEX "market_products_rating_desc_idx";--> statement-breakpoint
DROP INDEX "market_products_revenue_7_idx";--> statement-breakpoint
DROP INDEX "market_products_revenue_90_idx";--> statement-breakpoint
DROP INDEX "market_products_reviews_idx";--> statement-breakpoint
DROP INDEX "market_products_price_idx";--> statement-breakpoint
DROP INDEX "market_products_first_seen_idx";--> statement-breakpoint
DROP INDEX "market_products_potential_idx";--> statement-breakpoint
CREATE INDEX "market_products_sales_7_idx" ON "market_products" USING btree ("sales_7","sku");--> statement-breakpoint
CREATE INDEX "market_products_sales_30_idx" ON "market_products" USING btree ("sales_30","sku");--> statement-breakpoint
CREATE INDEX "market_products_sales_90_idx" ON "market_products" USING btree ("sales_90","sku");--> statement-breakpoint
CREATE INDEX "market_products_revenue_30_idx" ON "market_products" USING btree ("revenue_30","sku");--> statement-breakpoint
CREATE INDEX "market_products_growth_idx" ON "market_products" USING btree ("growth","sku");--> statement-breakpoint
CREATE INDEX "market_products_growth_desc_idx" ON "market_products" USING btree ("growth" desc nulls last,"sku" desc);--> statement-breakpoint
CREATE INDEX "market_products_rating_idx" ON "market_products" USING btree ("rating","sku");--> statement-breakpoint
CREATE INDEX "market_products_rating_desc_idx" ON "market_products" USING btree ("rating" desc nulls last,"sku" desc);--> statement-breakpoint
CREATE INDEX "market_products_revenue_7_idx" ON "market_products" USING btree ("revenue_7","sku");--> statement-breakpoint
CREATE INDEX "market_products_revenue_90_idx" ON "market_products" USING btree ("revenue_90","sku");--> statement-breakpoint
CREATE INDEX "market_products_reviews_idx" ON "market_products" USING btree ("reviews","sku");--> statement-breakpoint
CREATE INDEX "market_products_price_idx" ON "market_products" USING btree ("price","sku");--> statement-breakpoint
CREATE INDEX "market_products_first_seen_idx" ON "market_products" USING btree ("first_seen","sku");--> statement-breakpoint
CREATE INDEX "market_products_potential_idx" ON "market_products" USING btree ("potential_score","sku");