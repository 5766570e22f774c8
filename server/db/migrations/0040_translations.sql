-- The translation cache (issue 47 item 8): each text the provider translated, by provider, language pair and the
-- SHA-256 of the text, so a repeat costs no provider call.
CREATE TABLE "translations" (
	"provider" text NOT NULL,
	"source" text NOT NULL,
	"target" text NOT NULL,
	"hash" text NOT NULL,
	"translation" text NOT NULL,
	"chars" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "translations_provider_source_target_hash_pk" PRIMARY KEY("provider","source","target","hash")
);
