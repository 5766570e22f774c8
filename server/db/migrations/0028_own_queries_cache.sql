CREATE TABLE "research_own_queries" (
	"shop_id" integer NOT NULL,
	"date_from" text NOT NULL,
	"date_to" text NOT NULL,
	"answer" jsonb NOT NULL,
	"fetched_at" timestamp with time zone NOT NULL,
	CONSTRAINT "research_own_queries_shop_id_date_from_date_to_pk" PRIMARY KEY("shop_id","date_from","date_to")
);
--> statement-breakpoint
ALTER TABLE "research_own_queries" ADD CONSTRAINT "research_own_queries_shop_id_mp_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."mp_shops"("id") ON DELETE cascade ON UPDATE no action;