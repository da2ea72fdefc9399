CREATE TABLE "stock_month_totals" (
	"client_id" integer NOT NULL,
	"month" date NOT NULL,
	"product_id" integer NOT NULL,
	"quantity" numeric(14, 3) DEFAULT '0' NOT NULL,
	"sold_quantity" numeric(14, 3) DEFAULT '0' NOT NULL,
	"sold_cost_cents" numeric DEFAULT '0' NOT NULL,
	"uncosted_quantity" numeric(14, 3) DEFAULT '0' NOT NULL,
	CONSTRAINT "stock_month_totals_client_id_month_product_id_pk" PRIMARY KEY("client_id","month","product_id")
);
--> statement-breakpoint
ALTER TABLE "sale_daily_products" ADD COLUMN "cmv_cents" numeric DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "sale_daily_products" ADD COLUMN "uncosted_quantity" numeric(14, 3) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "stock_month_totals" ADD CONSTRAINT "stock_month_totals_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
-- The DRE's CMV in the reports' daily summary (issue 34): each product's day row also keeps the quantity
-- sold x the unit cost the stock ledger kept on the sale's `sale` row (unrounded), and the quantity sold
-- where it kept none (the DRE costs that at the product's cost of today, as it did reading the sales).
-- Same triggers, same transaction as the sale / cancel; returns do not change it. Only the products part
-- of sale_report_apply and sale_report_rebuild change.
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
  INSERT INTO sale_daily_products AS p (client_id, day, product_id, name, lines_count, quantity, revenue_cents,
      cmv_cents, uncosted_quantity)
    SELECT s.client_id, d, i.product_id, min(i.description), p_sign * count(*),
      p_sign * sum(i.quantity - coalesce(ri.quantity, 0)),
      p_sign * sum(sale_line_revenue(i.total_cents, s.total_cents, s.discount_cents, s.coupon_discount_cents)
        - coalesce(ri.amount, 0)),
      p_sign * coalesce(sum(i.quantity * c.cost), 0),
      p_sign * coalesce(sum(i.quantity) FILTER (WHERE c.cost IS NULL), 0)
    FROM sale_items i
    LEFT JOIN (SELECT x.sale_item_id, sum(x.quantity) AS quantity, sum(x.amount_cents) AS amount
        FROM sale_return_items x JOIN sale_returns r ON r.id = x.return_id
        WHERE r.sale_id = s.id AND p_returns GROUP BY x.sale_item_id) ri ON ri.sale_item_id = i.id
    LEFT JOIN (SELECT m.product_id, max(m.unit_cost_cents) AS cost FROM stock_movements m
        WHERE m.sale_id = s.id AND m.type = 'sale' GROUP BY m.product_id) c ON c.product_id = i.product_id
    WHERE i.sale_id = s.id
    GROUP BY i.product_id
  ON CONFLICT ON CONSTRAINT sale_daily_products_key DO UPDATE
    SET name = least(p.name, EXCLUDED.name), lines_count = p.lines_count + EXCLUDED.lines_count, quantity = p.quantity + EXCLUDED.quantity,
      revenue_cents = p.revenue_cents + EXCLUDED.revenue_cents, cmv_cents = p.cmv_cents + EXCLUDED.cmv_cents,
      uncosted_quantity = p.uncosted_quantity + EXCLUDED.uncosted_quantity;
END;
$$;
--> statement-breakpoint
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
  INSERT INTO sale_daily_products (client_id, day, product_id, name, lines_count, quantity, revenue_cents,
      cmv_cents, uncosted_quantity)
    SELECT s.client_id, (s.created_at AT TIME ZONE c.time_zone)::date, i.product_id, min(i.description), count(*),
      sum(i.quantity - coalesce(ri.quantity, 0)),
      sum(sale_line_revenue(i.total_cents, s.total_cents, s.discount_cents, s.coupon_discount_cents)
        - coalesce(ri.amount, 0)),
      coalesce(sum(i.quantity * k.cost), 0), coalesce(sum(i.quantity) FILTER (WHERE k.cost IS NULL), 0)
    FROM sale_items i JOIN sales s ON s.id = i.sale_id JOIN clients c ON c.id = s.client_id
    LEFT JOIN (SELECT x.sale_item_id, sum(x.quantity) AS quantity, sum(x.amount_cents) AS amount
        FROM sale_return_items x JOIN sale_returns r ON r.id = x.return_id
        WHERE p_client IS NULL OR r.client_id = p_client GROUP BY x.sale_item_id) ri ON ri.sale_item_id = i.id
    LEFT JOIN (SELECT m.sale_id, m.product_id, max(m.unit_cost_cents) AS cost FROM stock_movements m
        WHERE m.type = 'sale' AND m.sale_id IS NOT NULL AND (p_client IS NULL OR m.client_id = p_client)
        GROUP BY m.sale_id, m.product_id) k ON k.sale_id = i.sale_id AND k.product_id = i.product_id
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
-- The stock ledger per product and UTC month (issue 34, the stock turnover): statement triggers with
-- transition tables add what a statement inserted and take off what it deleted (an update: both), in the
-- statement's own transaction; rows are written in key order.
CREATE OR REPLACE FUNCTION stock_month_totals_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    UPDATE stock_month_totals t SET quantity = t.quantity - x.quantity,
        sold_quantity = t.sold_quantity - x.sold_quantity, sold_cost_cents = t.sold_cost_cents - x.sold_cost_cents,
        uncosted_quantity = t.uncosted_quantity - x.uncosted_quantity
      FROM (SELECT o.client_id, date_trunc('month', o.created_at AT TIME ZONE 'UTC')::date AS month, o.product_id,
          sum(o.quantity) AS quantity,
          coalesce(sum(o.quantity) FILTER (WHERE o.type IN ('sale', 'sale-cancel', 'sale-return')), 0) AS sold_quantity,
          coalesce(sum(o.quantity * o.unit_cost_cents) FILTER (WHERE o.type IN ('sale', 'sale-cancel', 'sale-return')), 0)
            AS sold_cost_cents,
          coalesce(sum(o.quantity) FILTER (WHERE o.type IN ('sale', 'sale-cancel', 'sale-return')
            AND o.unit_cost_cents IS NULL), 0) AS uncosted_quantity
        FROM old_rows o GROUP BY 1, 2, 3) x
      WHERE t.client_id = x.client_id AND t.month = x.month AND t.product_id = x.product_id;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO stock_month_totals AS t (client_id, month, product_id, quantity, sold_quantity, sold_cost_cents,
        uncosted_quantity)
      SELECT n.client_id, date_trunc('month', n.created_at AT TIME ZONE 'UTC')::date, n.product_id, sum(n.quantity),
        coalesce(sum(n.quantity) FILTER (WHERE n.type IN ('sale', 'sale-cancel', 'sale-return')), 0),
        coalesce(sum(n.quantity * n.unit_cost_cents) FILTER (WHERE n.type IN ('sale', 'sale-cancel', 'sale-return')), 0),
        coalesce(sum(n.quantity) FILTER (WHERE n.type IN ('sale', 'sale-cancel', 'sale-return')
          AND n.unit_cost_cents IS NULL), 0)
      FROM new_rows n GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (client_id, month, product_id) DO UPDATE
      SET quantity = t.quantity + EXCLUDED.quantity, sold_quantity = t.sold_quantity + EXCLUDED.sold_quantity,
        sold_cost_cents = t.sold_cost_cents + EXCLUDED.sold_cost_cents,
        uncosted_quantity = t.uncosted_quantity + EXCLUDED.uncosted_quantity;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER stock_movements_month_insert AFTER INSERT ON stock_movements
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION stock_month_totals_apply();
--> statement-breakpoint
CREATE TRIGGER stock_movements_month_update AFTER UPDATE ON stock_movements
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION stock_month_totals_apply();
--> statement-breakpoint
CREATE TRIGGER stock_movements_month_delete AFTER DELETE ON stock_movements
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION stock_month_totals_apply();
--> statement-breakpoint
-- Backfill: the existing ledger summed, and the reports' summary rebuilt with its CMV.
INSERT INTO stock_month_totals (client_id, month, product_id, quantity, sold_quantity, sold_cost_cents, uncosted_quantity)
  SELECT m.client_id, date_trunc('month', m.created_at AT TIME ZONE 'UTC')::date, m.product_id, sum(m.quantity),
    coalesce(sum(m.quantity) FILTER (WHERE m.type IN ('sale', 'sale-cancel', 'sale-return')), 0),
    coalesce(sum(m.quantity * m.unit_cost_cents) FILTER (WHERE m.type IN ('sale', 'sale-cancel', 'sale-return')), 0),
    coalesce(sum(m.quantity) FILTER (WHERE m.type IN ('sale', 'sale-cancel', 'sale-return') AND m.unit_cost_cents IS NULL), 0)
  FROM stock_movements m GROUP BY 1, 2, 3;
--> statement-breakpoint
SELECT sale_report_rebuild(NULL);
