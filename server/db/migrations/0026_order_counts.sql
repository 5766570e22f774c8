CREATE TABLE "order_counts" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"live" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE FUNCTION "order_counts_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "order_counts" ("user_id", "live")
    SELECT "user_id", count(*) FROM "inserted_rows" WHERE NOT "deleted" GROUP BY "user_id"
  ON CONFLICT ("user_id") DO UPDATE SET "live" = "order_counts"."live" + excluded."live";
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "order_counts_updated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "order_counts" ("user_id", "live")
    SELECT "user_id", sum("change") FROM (
      SELECT "user_id", 1 AS "change" FROM "new_rows" WHERE NOT "deleted"
      UNION ALL
      SELECT "user_id", -1 FROM "old_rows" WHERE NOT "deleted"
    ) AS "changes" GROUP BY "user_id" HAVING sum("change") <> 0
  ON CONFLICT ("user_id") DO UPDATE SET "live" = "order_counts"."live" + excluded."live";
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "order_counts_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "order_counts" SET "live" = "order_counts"."live" - "gone"."n"
    FROM (SELECT "user_id", count(*) AS "n" FROM "old_rows" WHERE NOT "deleted" GROUP BY "user_id") AS "gone"
    WHERE "order_counts"."user_id" = "gone"."user_id";
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "order_counts_truncated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "order_counts";
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "orders_count_insert" AFTER INSERT ON "orders" REFERENCING NEW TABLE AS "inserted_rows" FOR EACH STATEMENT EXECUTE FUNCTION "order_counts_inserted"();
--> statement-breakpoint
CREATE TRIGGER "orders_count_update" AFTER UPDATE ON "orders" REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "order_counts_updated"();
--> statement-breakpoint
CREATE TRIGGER "orders_count_delete" AFTER DELETE ON "orders" REFERENCING OLD TABLE AS "old_rows" FOR EACH STATEMENT EXECUTE FUNCTION "order_counts_deleted"();
--> statement-breakpoint
CREATE TRIGGER "orders_count_truncate" AFTER TRUNCATE ON "orders" FOR EACH STATEMENT EXECUTE FUNCTION "order_counts_truncated"();
--> statement-breakpoint
INSERT INTO "order_counts" ("user_id", "live") SELECT "user_id", count(*) FROM "orders" WHERE NOT "deleted" GROUP BY "user_id";
