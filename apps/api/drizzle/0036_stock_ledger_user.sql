-- The ledger's adjustment rows for a level typed by hand (the product form, a variant's stock, the CSV
-- import) name who typed it (issue 30): the writing service sets the transaction-local
-- balcao.user_id; without it (a migration, a script) the row has no user ("Sistema").
CREATE OR REPLACE FUNCTION stock_ledger_sync_product() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ledger numeric(14, 3);
BEGIN
  IF current_setting('balcao.stock_ledger', true) = 'on' THEN
    RETURN NULL;
  END IF;
  SELECT coalesce(sum(quantity), 0) INTO ledger FROM stock_movements WHERE product_id = NEW.id;
  IF NEW.stock <> ledger THEN
    INSERT INTO stock_movements (client_id, product_id, type, quantity, reason, user_id)
    VALUES (NEW.client_id, NEW.id, 'adjustment', NEW.stock - ledger,
      CASE WHEN TG_OP = 'INSERT' THEN 'initial-stock' ELSE 'product-form' END,
      nullif(current_setting('balcao.user_id', true), '')::integer);
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
    INSERT INTO stock_movements (client_id, product_id, variant_id, type, quantity, reason, user_id)
    VALUES (NEW.client_id, NEW.product_id, NEW.id, 'adjustment', NEW.stock - ledger,
      CASE WHEN TG_OP = 'INSERT' THEN 'initial-stock' ELSE 'product-form' END,
      nullif(current_setting('balcao.user_id', true), '')::integer);
  END IF;
  RETURN NULL;
END;
$$;
