CREATE TABLE "sale_daily_payments" (
	"client_id" integer NOT NULL,
	"day" date NOT NULL,
	"method" text NOT NULL,
	"amount_cents" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "sale_daily_payments_client_id_day_method_pk" PRIMARY KEY("client_id","day","method")
);
--> statement-breakpoint
CREATE TABLE "sale_daily_totals" (
	"client_id" integer NOT NULL,
	"day" date NOT NULL,
	"sales_count" integer DEFAULT 0 NOT NULL,
	"amount_cents" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "sale_daily_totals_client_id_day_pk" PRIMARY KEY("client_id","day")
);
--> statement-breakpoint
CREATE TABLE "sale_monthly_products" (
	"client_id" integer NOT NULL,
	"month" date NOT NULL,
	"product_id" integer NOT NULL,
	"quantity" numeric(14, 3) DEFAULT 0 NOT NULL,
	"amount_cents" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "sale_monthly_products_client_id_month_product_id_pk" PRIMARY KEY("client_id","month","product_id")
);
--> statement-breakpoint
ALTER TABLE "sale_daily_payments" ADD CONSTRAINT "sale_daily_payments_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sale_daily_totals" ADD CONSTRAINT "sale_daily_totals_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sale_monthly_products" ADD CONSTRAINT "sale_monthly_products_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sale_monthly_products_top_idx" ON "sale_monthly_products" USING btree ("client_id","month","amount_cents" DESC NULLS LAST,"product_id");--> statement-breakpoint
CREATE INDEX "products_client_low_stock_idx" ON "products" USING btree ("client_id") WHERE "products"."stock_control" and "products"."min_stock" > 0 and "products"."stock" <= "products"."min_stock";--> statement-breakpoint
CREATE INDEX "receivables_client_due_pending_idx" ON "receivables" USING btree ("client_id","due_date") WHERE "receivables"."status" = 'pending';