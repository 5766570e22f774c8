CREATE TABLE "fx_rates" (
	"date" date NOT NULL,
	"code" text NOT NULL,
	"cbr_id" text NOT NULL,
	"num_code" text NOT NULL,
	"nominal" integer NOT NULL,
	"name" text NOT NULL,
	"value" numeric(18, 4) NOT NULL,
	"fetched_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fx_rates_date_code_pk" PRIMARY KEY("date","code")
);
--> statement-breakpoint
CREATE INDEX "fx_rates_code_date" ON "fx_rates" USING btree ("code","date");