-- The stock ledger keeps products.stock and product_variants.stock equal to the sum of their
-- stock_movements rows. The stock service writes the rows and the cached levels together and
-- marks its own writes with the transaction-local setting balcao.stock_ledger = 'on'. Any other
-- write of a cached level (the product form, the CSV import, the grid recomputing a product's
-- total) gets an 'adjustment' row for the difference, so the ledger always explains the level.
CREATE OR REPLACE FUNCTION stock_ledger_sync_product() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ledger numeric(14, 3);
BEGIN
  IF current_setting('balcao.stock_ledger', true) = 'on' THEN
    RETURN NULL;
  END IF;
  SELECT coalesce(sum(quantity), 0) INTO ledger FROM stock_movements WHERE product_id = NEW.id;
  IF NEW.stock <> ledger THEN
    INSERT INTO stock_movements (client_id, product_id, type, quantity, reason)
    VALUES (NEW.client_id, NEW.id, 'adjustment', NEW.stock - ledger,
      CASE WHEN TG_OP = 'INSERT' THEN 'initial-stock' ELSE 'product-form' END);
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION stock_ledger_sync_variant() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ledger numeric(14, 3);
BEGIN
  IF current_setting('balcao.stock_ledger', true) = 'on' THEN
    RETURN NULL;
  END IF;
  SELECT coalesce(sum(quantity), 0) INTO ledger FROM stock_movements WHERE variant_id = NEW.id;
  IF NEW.stock <> ledger THEN
    INSERT INTO stock_movements (client_id, product_id, variant_id, type, quantity, reason)
    VALUES (NEW.client_id, NEW.product_id, NEW.id, 'adjustment', NEW.stock - ledger,
      CASE WHEN TG_OP = 'INSERT' THEN 'initial-stock' ELSE 'product-form' END);
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER products_stock_ledger AFTER INSERT OR UPDATE OF stock ON products
  FOR EACH ROW EXECUTE FUNCTION stock_ledger_sync_product();
--> statement-breakpoint
CREATE TRIGGER product_variants_stock_ledger AFTER INSERT OR UPDATE OF stock ON product_variants
  FOR EACH ROW EXECUTE FUNCTION stock_ledger_sync_variant();
--> statement-breakpoint
-- Levels that existed before the ledger: one opening row per product and variant.
INSERT INTO stock_movements (client_id, product_id, variant_id, type, quantity, reason)
  SELECT v.client_id, v.product_id, v.id, 'adjustment', v.stock, 'initial-stock'
  FROM product_variants v WHERE v.stock <> 0;
--> statement-breakpoint
INSERT INTO stock_movements (client_id, product_id, type, quantity, reason)
  SELECT p.client_id, p.id, 'adjustment', p.stock - coalesce(
    (SELECT sum(v.stock) FROM product_variants v WHERE v.product_id = p.id), 0), 'initial-stock'
  FROM products p
  WHERE p.stock <> coalesce((SELECT sum(v.stock) FROM product_variants v WHERE v.product_id = p.id), 0);
