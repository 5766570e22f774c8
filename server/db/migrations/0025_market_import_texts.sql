-- Reasons are stored in zh, en and pt; a reason stored before stays the plain string it was.
ALTER TABLE "market_imports" ALTER COLUMN "message" SET DATA TYPE jsonb USING to_jsonb("message");
