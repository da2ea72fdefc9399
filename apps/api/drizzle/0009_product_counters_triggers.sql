-- product_counters.total = number of products of the client, kept by statement-level triggers
-- (transition tables: one counter update per statement, so a bulk insert costs one row update).
CREATE OR REPLACE FUNCTION product_counters_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO product_counters AS c (client_id, total)
    SELECT client_id, count(*) FROM inserted_products GROUP BY client_id
  ON CONFLICT (client_id) DO UPDATE SET total = c.total + EXCLUDED.total;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION product_counters_remove() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE product_counters c SET total = c.total - d.n
    FROM (SELECT client_id, count(*) AS n FROM deleted_products GROUP BY client_id) d
    WHERE c.client_id = d.client_id;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER products_count_insert AFTER INSERT ON products
  REFERENCING NEW TABLE AS inserted_products
  FOR EACH STATEMENT EXECUTE FUNCTION product_counters_add();
--> statement-breakpoint
CREATE TRIGGER products_count_delete AFTER DELETE ON products
  REFERENCING OLD TABLE AS deleted_products
  FOR EACH STATEMENT EXECUTE FUNCTION product_counters_remove();
--> statement-breakpoint
INSERT INTO product_counters (client_id, total)
  SELECT client_id, count(*) FROM products GROUP BY client_id
ON CONFLICT (client_id) DO UPDATE SET total = EXCLUDED.total;
