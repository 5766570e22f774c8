ALTER TABLE "orders" ADD COLUMN "created_by" integer;--> statement-breakpoint
ALTER TABLE "edit_designs" ADD COLUMN "created_by" integer;--> statement-breakpoint
ALTER TABLE "edit_images" ADD COLUMN "created_by" integer;