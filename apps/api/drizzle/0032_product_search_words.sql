CREATE TABLE "product_search_vocabulary" (
	"client_id" integer NOT NULL,
	"word" text NOT NULL,
	CONSTRAINT "product_search_vocabulary_client_id_word_pk" PRIMARY KEY("client_id","word")
);
--> statement-breakpoint
CREATE TABLE "product_search_words" (
	"client_id" integer NOT NULL,
	"word" text NOT NULL,
	"name_key" text NOT NULL,
	"product_id" integer NOT NULL,
	CONSTRAINT "product_search_words_client_id_word_name_key_product_id_pk" PRIMARY KEY("client_id","word","name_key","product_id")
);
--> statement-breakpoint
CREATE INDEX "product_search_vocabulary_trgm_idx" ON "product_search_vocabulary" USING gin ("word" gin_trgm_ops);