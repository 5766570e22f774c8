CREATE INDEX "market_products_growth_desc_idx" ON "market_products" USING btree ("growth" desc nulls last);--> statement-breakpoint
CREATE INDEX "market_products_rating_idx" ON "market_products" USING btree ("rating");--> statement-breakpoint
CREATE INDEX "market_products_rating_desc_idx" ON "market_products" USING btree ("rating" desc nulls last);--> statement-breakpoint
CREATE INDEX "market_products_revenue_7_idx" ON "market_products" USING btree ("revenue_7");--> statement-breakpoint
CREATE INDEX "market_products_revenue_90_idx" ON "market_products" USING btree ("revenue_90");--> statement-breakpoint
CREATE INDEX "market_products_reviews_idx" ON "market_products" USING btree ("reviews");