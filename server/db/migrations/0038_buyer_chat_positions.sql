CREATE TABLE "buyer_chat_positions" (
	"shop_id" integer PRIMARY KEY NOT NULL,
	"seen" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "buyer_chat_positions" ADD CONSTRAINT "buyer_chat_positions_shop_id_mp_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."mp_shops"("id") ON DELETE cascade ON UPDATE no action;