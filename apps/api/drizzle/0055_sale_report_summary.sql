CREATE TABLE "sale_daily_cancels" (
	"client_id" integer NOT NULL,
	"day" date NOT NULL,
	"user_id" integer,
	"sales_count" integer DEFAULT 0 NOT NULL,
	"amount_cents" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "sale_daily_cancels_key" UNIQUE NULLS NOT DISTINCT("client_id","day","user_id")
);
--> statement-breakpoint
CREATE TABLE "sale_daily_groups" (
	"client_id" integer NOT NULL,
	"day" date NOT NULL,
	"hour" integer NOT NULL,
	"seller_id" integer NOT NULL,
	"origin" text NOT NULL,
	"sales_count" integer DEFAULT 0 NOT NULL,
	"gross_cents" bigint DEFAULT 0 NOT NULL,
	"discounts_cents" bigint DEFAULT 0 NOT NULL,
	"returns_cents" bigint DEFAULT 0 NOT NULL,
	"final_cents" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "sale_daily_groups_client_id_day_hour_seller_id_origin_pk" PRIMARY KEY("client_id","day","hour","seller_id","origin")
);
--> statement-breakpoint
CREATE TABLE "sale_daily_products" (
	"client_id" integer NOT NULL,
	"day" date NOT NULL,
	"product_id" integer,
	"name" text NOT NULL,
	"lines_count" integer DEFAULT 0 NOT NULL,
	"quantity" numeric(14, 3) DEFAULT '0' NOT NULL,
	"revenue_cents" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "sale_daily_products_key" UNIQUE NULLS NOT DISTINCT("client_id","day","product_id")
);
--> statement-breakpoint
ALTER TABLE "sale_daily_cancels" ADD CONSTRAINT "sale_daily_cancels_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sale_daily_groups" ADD CONSTRAINT "sale_daily_groups_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sale_daily_products" ADD CONSTRAINT "sale_daily_products_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- The sales reports' summary (issue 34): sale_daily_groups, sale_daily_products, sale_daily_cancels, kept
-- EXACT by deferred row triggers (they run at COMMIT, in the sale's own transaction, like the home's
-- summary of migration 0018): a sale counts once inserted, moves when its day, seller, origin or amounts
-- change, leaves groups and products for the cancels when canceled; a return takes its value off the sale's
-- day, hour, seller, origin and products. A line's revenue is its total less its share of the sale's
-- discount and coupon, rounded per line (`sale_line_revenue`, also what the raw query of the tests uses).
CREATE OR REPLACE FUNCTION sale_line_revenue(p_line bigint, p_total bigint, p_discount bigint, p_coupon bigint)
RETURNS bigint LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN p_discount + p_coupon = 0 THEN p_line
    ELSE coalesce(round(p_line::numeric * (p_total - p_discount - p_coupon) / nullif(p_total, 0)), 0)::bigint END
$$;
--> statement-breakpoint
-- Adds (p_sign 1) or takes off (-1) what the sale row `s` contributes with its current lines (and, with
-- p_returns, its returns): the groups and products when not canceled, the cancels when canceled.
CREATE OR REPLACE FUNCTION sale_report_apply(s sales, p_sign integer, p_returns boolean) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  t timestamp;
  d date;
  returned bigint := 0;
BEGIN
  SELECT s.created_at AT TIME ZONE c.time_zone INTO t FROM clients c WHERE c.id = s.client_id;
  d := t::date;
  IF s.status = 'canceled' THEN
    INSERT INTO sale_daily_cancels AS x (client_id, day, user_id, sales_count, amount_cents)
      VALUES (s.client_id, d, s.canceled_by_user_id, p_sign, p_sign * s.final_amount_cents)
    ON CONFLICT ON CONSTRAINT sale_daily_cancels_key DO UPDATE
      SET sales_count = x.sales_count + EXCLUDED.sales_count, amount_cents = x.amount_cents + EXCLUDED.amount_cents;
    RETURN;
  END IF;
  IF p_returns THEN
    SELECT coalesce(sum(r.amount_cents), 0) INTO returned FROM sale_returns r WHERE r.sale_id = s.id;
  END IF;
  INSERT INTO sale_daily_groups AS g (client_id, day, hour, seller_id, origin, sales_count, gross_cents,
      discounts_cents, returns_cents, final_cents)
    VALUES (s.client_id, d, extract(hour FROM t)::int, coalesce(s.seller_id, s.user_id), s.origin_sale, p_sign,
      p_sign * (s.total_cents + s.items_discount_cents + s.freight_cents),
      p_sign * (s.items_discount_cents + s.discount_cents + s.coupon_discount_cents),
      p_sign * returned, p_sign * s.final_amount_cents)
  ON CONFLICT (client_id, day, hour, seller_id, origin) DO UPDATE
    SET sales_count = g.sales_count + EXCLUDED.sales_count, gross_cents = g.gross_cents + EXCLUDED.gross_cents,
      discounts_cents = g.discounts_cents + EXCLUDED.discounts_cents,
      returns_cents = g.returns_cents + EXCLUDED.returns_cents, final_cents = g.final_cents + EXCLUDED.final_cents;
  INSERT INTO sale_daily_products AS p (client_id, day, product_id, name, lines_count, quantity, revenue_cents)
    SELECT s.client_id, d, i.product_id, min(i.description), p_sign * count(*),
      p_sign * sum(i.quantity - coalesce(ri.quantity, 0)),
      p_sign * sum(sale_line_revenue(i.total_cents, s.total_cents, s.discount_cents, s.coupon_discount_cents)
        - coalesce(ri.amount, 0))
    FROM sale_items i
    LEFT JOIN (SELECT x.sale_item_id, sum(x.quantity) AS quantity, sum(x.amount_cents) AS amount
        FROM sale_return_items x JOIN sale_returns r ON r.id = x.return_id
        WHERE r.sale_id = s.id AND p_returns GROUP BY x.sale_item_id) ri ON ri.sale_item_id = i.id
    WHERE i.sale_id = s.id
    GROUP BY i.product_id
  ON CONFLICT ON CONSTRAINT sale_daily_products_key DO UPDATE
    SET name = least(p.name, EXCLUDED.name), lines_count = p.lines_count + EXCLUDED.lines_count, quantity = p.quantity + EXCLUDED.quantity,
      revenue_cents = p.revenue_cents + EXCLUDED.revenue_cents;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION sale_report_on_sale() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    -- A new sale's lines are in (deferred: the end of its transaction); its returns come later, each by its own trigger.
    PERFORM sale_report_apply(NEW, 1, false);
  ELSE
    PERFORM sale_report_apply(OLD, -1, true);
    PERFORM sale_report_apply(NEW, 1, true);
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION sale_report_on_return() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  s sales;
  t timestamp;
BEGIN
  SELECT * INTO s FROM sales WHERE id = NEW.sale_id;
  IF NOT FOUND OR s.status = 'canceled' THEN RETURN NULL; END IF;
  SELECT s.created_at AT TIME ZONE c.time_zone INTO t FROM clients c WHERE c.id = s.client_id;
  INSERT INTO sale_daily_groups AS g (client_id, day, hour, seller_id, origin, returns_cents)
    VALUES (s.client_id, t::date, extract(hour FROM t)::int, coalesce(s.seller_id, s.user_id), s.origin_sale,
      NEW.amount_cents)
  ON CONFLICT (client_id, day, hour, seller_id, origin) DO UPDATE
    SET returns_cents = g.returns_cents + EXCLUDED.returns_cents;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION sale_report_on_return_item() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  s sales;
  i record;
BEGIN
  SELECT sale_id, product_id, description INTO i FROM sale_items WHERE id = NEW.sale_item_id;
  IF NOT FOUND THEN RETURN NULL; END IF;
  SELECT * INTO s FROM sales WHERE id = i.sale_id;
  IF NOT FOUND OR s.status = 'canceled' THEN RETURN NULL; END IF;
  INSERT INTO sale_daily_products AS p (client_id, day, product_id, name, quantity, revenue_cents)
    SELECT s.client_id, (s.created_at AT TIME ZONE c.time_zone)::date, i.product_id, i.description,
      -NEW.quantity, -NEW.amount_cents
    FROM clients c WHERE c.id = s.client_id
  ON CONFLICT ON CONSTRAINT sale_daily_products_key DO UPDATE
    SET quantity = p.quantity + EXCLUDED.quantity, revenue_cents = p.revenue_cents + EXCLUDED.revenue_cents;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER sales_report_insert AFTER INSERT ON sales
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION sale_report_on_sale();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER sales_report_update AFTER UPDATE ON sales
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.created_at IS DISTINCT FROM NEW.created_at
    OR OLD.seller_id IS DISTINCT FROM NEW.seller_id OR OLD.user_id IS DISTINCT FROM NEW.user_id
    OR OLD.origin_sale IS DISTINCT FROM NEW.origin_sale OR OLD.total_cents IS DISTINCT FROM NEW.total_cents
    OR OLD.items_discount_cents IS DISTINCT FROM NEW.items_discount_cents
    OR OLD.discount_cents IS DISTINCT FROM NEW.discount_cents
    OR OLD.coupon_discount_cents IS DISTINCT FROM NEW.coupon_discount_cents
    OR OLD.freight_cents IS DISTINCT FROM NEW.freight_cents
    OR OLD.final_amount_cents IS DISTINCT FROM NEW.final_amount_cents
    OR OLD.canceled_by_user_id IS DISTINCT FROM NEW.canceled_by_user_id)
  EXECUTE FUNCTION sale_report_on_sale();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER sale_returns_report_insert AFTER INSERT ON sale_returns
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION sale_report_on_return();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER sale_return_items_report_insert AFTER INSERT ON sale_return_items
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION sale_report_on_return_item();
--> statement-breakpoint
-- Recomputes the summary of one client (p_client) or of all (null) from the sales, set-based: the backfill
-- below, a time zone change, a load with triggers off. Idempotent (its rows are deleted first).
CREATE OR REPLACE FUNCTION sale_report_rebuild(p_client integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM sale_daily_groups WHERE p_client IS NULL OR client_id = p_client;
  DELETE FROM sale_daily_products WHERE p_client IS NULL OR client_id = p_client;
  DELETE FROM sale_daily_cancels WHERE p_client IS NULL OR client_id = p_client;
  INSERT INTO sale_daily_groups (client_id, day, hour, seller_id, origin, sales_count, gross_cents,
      discounts_cents, returns_cents, final_cents)
    SELECT s.client_id, l.t::date, extract(hour FROM l.t)::int, coalesce(s.seller_id, s.user_id), s.origin_sale,
      count(*), sum(s.total_cents + s.items_discount_cents + s.freight_cents),
      sum(s.items_discount_cents + s.discount_cents + s.coupon_discount_cents), coalesce(sum(r.amount), 0),
      sum(s.final_amount_cents)
    FROM sales s JOIN clients c ON c.id = s.client_id
    CROSS JOIN LATERAL (SELECT s.created_at AT TIME ZONE c.time_zone AS t) l
    LEFT JOIN (SELECT sale_id, sum(amount_cents) AS amount FROM sale_returns
        WHERE p_client IS NULL OR client_id = p_client GROUP BY sale_id) r ON r.sale_id = s.id
    WHERE (p_client IS NULL OR s.client_id = p_client) AND s.status <> 'canceled'
    GROUP BY 1, 2, 3, 4, 5;
  INSERT INTO sale_daily_products (client_id, day, product_id, name, lines_count, quantity, revenue_cents)
    SELECT s.client_id, (s.created_at AT TIME ZONE c.time_zone)::date, i.product_id, min(i.description), count(*),
      sum(i.quantity - coalesce(ri.quantity, 0)),
      sum(sale_line_revenue(i.total_cents, s.total_cents, s.discount_cents, s.coupon_discount_cents)
        - coalesce(ri.amount, 0))
    FROM sale_items i JOIN sales s ON s.id = i.sale_id JOIN clients c ON c.id = s.client_id
    LEFT JOIN (SELECT x.sale_item_id, sum(x.quantity) AS quantity, sum(x.amount_cents) AS amount
        FROM sale_return_items x JOIN sale_returns r ON r.id = x.return_id
        WHERE p_client IS NULL OR r.client_id = p_client GROUP BY x.sale_item_id) ri ON ri.sale_item_id = i.id
    WHERE (p_client IS NULL OR s.client_id = p_client) AND s.status <> 'canceled'
    GROUP BY 1, 2, 3;
  INSERT INTO sale_daily_cancels (client_id, day, user_id, sales_count, amount_cents)
    SELECT s.client_id, (s.created_at AT TIME ZONE c.time_zone)::date, s.canceled_by_user_id, count(*),
      sum(s.final_amount_cents)
    FROM sales s JOIN clients c ON c.id = s.client_id
    WHERE (p_client IS NULL OR s.client_id = p_client) AND s.status = 'canceled'
    GROUP BY 1, 2, 3;
END;
$$;
--> statement-breakpoint
SELECT sale_report_rebuild(NULL);
