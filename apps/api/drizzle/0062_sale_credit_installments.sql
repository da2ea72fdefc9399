CREATE TABLE "sale_daily_credit_installments" (
	"client_id" integer NOT NULL,
	"day" date NOT NULL,
	"installments" integer NOT NULL,
	"amount_cents" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "sale_daily_credit_installments_client_id_day_installments_pk" PRIMARY KEY("client_id","day","installments")
);
--> statement-breakpoint
ALTER TABLE "sale_daily_credit_installments" ADD CONSTRAINT "sale_daily_credit_installments_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- Credit card sales in 2 or more instalments per shop day (issue 34, the cash flow settles each instalment
-- at the fee table's rate for that many): deferred row triggers like the home's summary (0018), a
-- payment adds to its sale's day, a sale turning canceled subtracts its instalment payments.
CREATE OR REPLACE FUNCTION sale_credit_installments_on_payment() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  s record;
BEGIN
  IF NEW.method <> 'creditCard' OR NEW.number_installments < 2 THEN RETURN NULL; END IF;
  SELECT client_id, created_at, status INTO s FROM sales WHERE id = NEW.sale_id;
  IF NOT FOUND OR s.status = 'canceled' THEN RETURN NULL; END IF;
  INSERT INTO sale_daily_credit_installments AS t (client_id, day, installments, amount_cents)
    VALUES (s.client_id, sale_local_day(s.client_id, s.created_at), NEW.number_installments, NEW.amount_cents)
  ON CONFLICT (client_id, day, installments) DO UPDATE SET amount_cents = t.amount_cents + EXCLUDED.amount_cents;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION sale_credit_installments_on_cancel() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO sale_daily_credit_installments AS t (client_id, day, installments, amount_cents)
    SELECT NEW.client_id, sale_local_day(NEW.client_id, NEW.created_at), p.number_installments, -sum(p.amount_cents)
    FROM sale_payments p
    WHERE p.sale_id = NEW.id AND p.method = 'creditCard' AND p.number_installments >= 2
    GROUP BY p.number_installments
  ON CONFLICT (client_id, day, installments) DO UPDATE SET amount_cents = t.amount_cents + EXCLUDED.amount_cents;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER sale_payments_credit_installments AFTER INSERT ON sale_payments
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION sale_credit_installments_on_payment();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER sales_credit_installments_cancel AFTER UPDATE OF status ON sales
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD.status <> 'canceled' AND NEW.status = 'canceled')
  EXECUTE FUNCTION sale_credit_installments_on_cancel();
--> statement-breakpoint
-- The sales written before this migration.
INSERT INTO sale_daily_credit_installments (client_id, day, installments, amount_cents)
  SELECT s.client_id, (s.created_at AT TIME ZONE c.time_zone)::date, p.number_installments, sum(p.amount_cents)
  FROM sale_payments p JOIN sales s ON s.id = p.sale_id JOIN clients c ON c.id = s.client_id
  WHERE s.status <> 'canceled' AND p.method = 'creditCard' AND p.number_installments >= 2
  GROUP BY 1, 2, 3;
