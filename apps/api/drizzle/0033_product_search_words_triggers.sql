-- Product search at scale (issue 21): product_search_words holds one row per distinct word of each
-- product's search_text (split at spaces, as searchKey writes it), with the product's name key;
-- product_search_vocabulary the distinct words of each client. Kept here by triggers, so every
-- path that writes products (the form, the CSV import, variants, seeds) keeps them true in the same
-- transaction. Inserts and deletes are statement-level (a bulk import costs one statement each);
-- an update is row-level and fires only when the search text or the name key changed (a sale's
-- stock update never touches the words).
CREATE OR REPLACE FUNCTION product_search_words_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO product_search_words (client_id, word, name_key, product_id)
    SELECT DISTINCT p.client_id, w.word, p.name_key, p.id
    FROM inserted_products p, unnest(string_to_array(p.search_text, ' ')) AS w(word)
    WHERE w.word <> ''
  ON CONFLICT DO NOTHING;
  INSERT INTO product_search_vocabulary (client_id, word)
    SELECT DISTINCT p.client_id, w.word
    FROM inserted_products p, unnest(string_to_array(p.search_text, ' ')) AS w(word)
    WHERE w.word <> ''
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION product_search_words_remove() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM product_search_words s
    USING deleted_products p, unnest(string_to_array(p.search_text, ' ')) AS w(word)
    WHERE s.client_id = p.client_id AND s.word = w.word AND s.name_key = p.name_key AND s.product_id = p.id;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION product_search_words_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM product_search_words s
    USING unnest(string_to_array(OLD.search_text, ' ')) AS w(word)
    WHERE s.client_id = OLD.client_id AND s.word = w.word AND s.name_key = OLD.name_key AND s.product_id = OLD.id;
  INSERT INTO product_search_words (client_id, word, name_key, product_id)
    SELECT DISTINCT NEW.client_id, w.word, NEW.name_key, NEW.id
    FROM unnest(string_to_array(NEW.search_text, ' ')) AS w(word)
    WHERE w.word <> ''
  ON CONFLICT DO NOTHING;
  INSERT INTO product_search_vocabulary (client_id, word)
    SELECT DISTINCT NEW.client_id, w.word
    FROM unnest(string_to_array(NEW.search_text, ' ')) AS w(word)
    WHERE w.word <> ''
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER products_search_words_insert AFTER INSERT ON products
  REFERENCING NEW TABLE AS inserted_products
  FOR EACH STATEMENT EXECUTE FUNCTION product_search_words_add();
--> statement-breakpoint
CREATE TRIGGER products_search_words_delete AFTER DELETE ON products
  REFERENCING OLD TABLE AS deleted_products
  FOR EACH STATEMENT EXECUTE FUNCTION product_search_words_remove();
--> statement-breakpoint
CREATE TRIGGER products_search_words_update AFTER UPDATE OF search_text, name_key, client_id ON products
  FOR EACH ROW
  WHEN (OLD.search_text IS DISTINCT FROM NEW.search_text OR OLD.name_key IS DISTINCT FROM NEW.name_key
    OR OLD.client_id IS DISTINCT FROM NEW.client_id)
  EXECUTE FUNCTION product_search_words_change();
--> statement-breakpoint
-- The products that exist already (at 1,000,000 products per client: ~1.5 min per client here).
-- The vocabulary's trigram index is built once after its rows (a GIN filled row by row takes
-- many minutes at millions of words), the same definition as 0030's (schema.ts).
DROP INDEX IF EXISTS "product_search_vocabulary_trgm_idx";
--> statement-breakpoint
INSERT INTO product_search_words (client_id, word, name_key, product_id)
  SELECT DISTINCT p.client_id, w.word, p.name_key, p.id
  FROM products p, unnest(string_to_array(p.search_text, ' ')) AS w(word)
  WHERE w.word <> ''
ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO product_search_vocabulary (client_id, word)
  SELECT DISTINCT client_id, word FROM product_search_words
ON CONFLICT DO NOTHING;
--> statement-breakpoint
CREATE INDEX "product_search_vocabulary_trgm_idx" ON "product_search_vocabulary" USING gin ("word" gin_trgm_ops);
--> statement-breakpoint
ANALYZE product_search_words;
--> statement-breakpoint
ANALYZE product_search_vocabulary;
