-- The home's summary (sale_daily_totals, sale_daily_payments, sale_monthly_products), kept by deferred row
-- triggers: they run at COMMIT, so the summary rows of a client's day are locked only while the sale
-- commits (parallel tills do not queue behind each other's whole checkout), and they add no round trip.
-- The day (month) is the shop's local date of the sale (clients.time_zone). Sales not canceled count; a cancel
-- subtracts its sale, payments and products.
CREATE OR REPLACE FUNCTION sale_local_day(p_client integer, p_at timestamptz) RETURNS date
LANGUAGE sql STABLE AS $$
  SELECT (p_at AT TIME ZONE c.time_zone)::date FROM clients c WHERE c.id = p_client
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION sale_summary_on_sale() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  d date;
  sign integer;
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF NEW.status = 'canceled' THEN RETURN NULL; END IF;
    sign := 1;
  ELSE
    -- UPDATE: the trigger's WHEN lets only a sale turning canceled through.
    sign := -1;
  END IF;
  d := sale_local_day(NEW.client_id, NEW.created_at);
  INSERT INTO sale_daily_totals AS t (client_id, day, sales_count, amount_cents)
    VALUES (NEW.client_id, d, sign, sign * NEW.final_amount_cents)
  ON CONFLICT (client_id, day) DO UPDATE
    SET sales_count = t.sales_count + EXCLUDED.sales_count, amount_cents = t.amount_cents + EXCLUDED.amount_cents;
  IF sign = -1 THEN
    INSERT INTO sale_daily_payments AS t (client_id, day, method, amount_cents)
      SELECT NEW.client_id, d, p.method, -sum(p.amount_cents) FROM sale_payments p
      WHERE p.sale_id = NEW.id GROUP BY p.method
    ON CONFLICT (client_id, day, method) DO UPDATE SET amount_cents = t.amount_cents + EXCLUDED.amount_cents;
    INSERT INTO sale_monthly_products AS t (client_id, month, product_id, quantity, amount_cents)
      SELECT NEW.client_id, date_trunc('month', d)::date, i.product_id, -sum(i.quantity), -sum(i.total_cents)
      FROM sale_items i WHERE i.sale_id = NEW.id AND i.product_id IS NOT NULL GROUP BY i.product_id
    ON CONFLICT (client_id, month, product_id) DO UPDATE
      SET quantity = t.quantity + EXCLUDED.quantity, amount_cents = t.amount_cents + EXCLUDED.amount_cents;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION sale_summary_on_payment() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  s record;
BEGIN
  SELECT client_id, created_at, status INTO s FROM sales WHERE id = NEW.sale_id;
  IF NOT FOUND OR s.status = 'canceled' THEN RETURN NULL; END IF;
  INSERT INTO sale_daily_payments AS t (client_id, day, method, amount_cents)
    VALUES (s.client_id, sale_local_day(s.client_id, s.created_at), NEW.method, NEW.amount_cents)
  ON CONFLICT (client_id, day, method) DO UPDATE SET amount_cents = t.amount_cents + EXCLUDED.amount_cents;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION sale_summary_on_item() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  s record;
BEGIN
  IF NEW.product_id IS NULL THEN RETURN NULL; END IF;
  SELECT client_id, created_at, status INTO s FROM sales WHERE id = NEW.sale_id;
  IF NOT FOUND OR s.status = 'canceled' THEN RETURN NULL; END IF;
  INSERT INTO sale_monthly_products AS t (client_id, month, product_id, quantity, amount_cents)
    VALUES (s.client_id, date_trunc('month', sale_local_day(s.client_id, s.created_at))::date, NEW.product_id,
      NEW.quantity, NEW.total_cents)
  ON CONFLICT (client_id, month, product_id) DO UPDATE
    SET quantity = t.quantity + EXCLUDED.quantity, amount_cents = t.amount_cents + EXCLUDED.amount_cents;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER sales_summary_insert AFTER INSERT ON sales
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION sale_summary_on_sale();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER sales_summary_cancel AFTER UPDATE OF status ON sales
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD.status <> 'canceled' AND NEW.status = 'canceled')
  EXECUTE FUNCTION sale_summary_on_sale();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER sale_payments_summary_insert AFTER INSERT ON sale_payments
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION sale_summary_on_payment();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER sale_items_summary_insert AFTER INSERT ON sale_items
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION sale_summary_on_item();
--> statement-breakpoint
-- The sales written before this migration (see also rebuildSaleSummary in the bench).
INSERT INTO sale_daily_totals (client_id, day, sales_count, amount_cents)
  SELECT s.client_id, (s.created_at AT TIME ZONE c.time_zone)::date, count(*), sum(s.final_amount_cents)
  FROM sales s JOIN clients c ON c.id = s.client_id WHERE s.status <> 'canceled' GROUP BY 1, 2;
--> statement-breakpoint
INSERT INTO sale_daily_payments (client_id, day, method, amount_cents)
  SELECT s.client_id, (s.created_at AT TIME ZONE c.time_zone)::date, p.method, sum(p.amount_cents)
  FROM sale_payments p JOIN sales s ON s.id = p.sale_id JOIN clients c ON c.id = s.client_id
  WHERE s.status <> 'canceled' GROUP BY 1, 2, 3;
--> statement-breakpoint
INSERT INTO sale_monthly_products (client_id, month, product_id, quantity, amount_cents)
  SELECT s.client_id, date_trunc('month', s.created_at AT TIME ZONE c.time_zone)::date, i.product_id,
    sum(i.quantity), sum(i.total_cents)
  FROM sale_items i JOIN sales s ON s.id = i.sale_id JOIN clients c ON c.id = s.client_id
  WHERE s.status <> 'canceled' AND i.product_id IS NOT NULL GROUP BY 1, 2, 3;
