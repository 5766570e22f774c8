-- order_counts per shop (issue 41 "Teams"): a member scoped to some shops, and a list filtered by shop, answer their
-- total from the shops' counts instead of counting their orders (a first visit's total at 1M orders: a count of half a
-- million rows took seconds). The owner's whole list is the sum of their shops' rows.
ALTER TABLE "order_counts" DROP CONSTRAINT "order_counts_pkey";--> statement-breakpoint
ALTER TABLE "order_counts" ADD COLUMN "shop_id" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
DELETE FROM "order_counts";--> statement-breakpoint
ALTER TABLE "order_counts" ADD CONSTRAINT "order_counts_user_id_shop_id_pk" PRIMARY KEY("user_id","shop_id");--> statement-breakpoint
CREATE OR REPLACE FUNCTION "order_counts_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "order_counts" ("user_id", "shop_id", "live")
    SELECT "user_id", "shop_id", count(*) FROM "inserted_rows" WHERE NOT "deleted" GROUP BY "user_id", "shop_id"
  ON CONFLICT ("user_id", "shop_id") DO UPDATE SET "live" = "order_counts"."live" + excluded."live";
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "order_counts_updated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "order_counts" ("user_id", "shop_id", "live")
    SELECT "user_id", "shop_id", sum("change") FROM (
      SELECT "user_id", "shop_id", 1 AS "change" FROM "new_rows" WHERE NOT "deleted"
      UNION ALL
      SELECT "user_id", "shop_id", -1 FROM "old_rows" WHERE NOT "deleted"
    ) AS "changes" GROUP BY "user_id", "shop_id" HAVING sum("change") <> 0
  ON CONFLICT ("user_id", "shop_id") DO UPDATE SET "live" = "order_counts"."live" + excluded."live";
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "order_counts_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "order_counts" SET "live" = "order_counts"."live" - "gone"."n"
    FROM (SELECT "user_id", "shop_id", count(*) AS "n" FROM "old_rows" WHERE NOT "deleted" GROUP BY "user_id", "shop_id") AS "gone"
    WHERE "order_counts"."user_id" = "gone"."user_id" AND "order_counts"."shop_id" = "gone"."shop_id";
  RETURN NULL;
END $$;
--> statement-breakpoint
INSERT INTO "order_counts" ("user_id", "shop_id", "live") SELECT "user_id", "shop_id", count(*) FROM "orders" WHERE NOT "deleted" GROUP BY "user_id", "shop_id";
