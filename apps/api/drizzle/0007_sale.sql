CREATE TABLE "cash_register_counts" (
	"cash_register_id" integer NOT NULL,
	"client_id" integer NOT NULL,
	"payment_method" text NOT NULL,
	"expected_cents" integer NOT NULL,
	"counted_cents" integer NOT NULL,
	CONSTRAINT "cash_register_counts_cash_register_id_payment_method_pk" PRIMARY KEY("cash_register_id","payment_method")
);
--> statement-breakpoint
CREATE TABLE "cash_register_movements" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"cash_register_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"type" text NOT NULL,
	"payment_method" text DEFAULT 'money' NOT NULL,
	"amount_cents" integer NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"approved_by_user_id" integer,
	"receivable_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cash_register_movements_type_ck" CHECK ("cash_register_movements"."type" in ('deposit', 'withdrawal', 'receipt')),
	CONSTRAINT "cash_register_movements_amount_ck" CHECK ("cash_register_movements"."amount_cents" > 0)
);
--> statement-breakpoint
CREATE TABLE "cash_registers" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"opening_amount_cents" integer DEFAULT 0 NOT NULL,
	"opened_at" timestamp with time zone DEFAULT now() NOT NULL,
	"closed_at" timestamp with time zone,
	"closing_notes" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cash_registers_status_ck" CHECK ("cash_registers"."status" in ('open', 'closed')),
	CONSTRAINT "cash_registers_opening_ck" CHECK ("cash_registers"."opening_amount_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "sale_counters" (
	"client_id" integer PRIMARY KEY NOT NULL,
	"last" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sale_idempotency_keys" (
	"client_id" integer NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"sale_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sale_idempotency_keys_client_id_key_pk" PRIMARY KEY("client_id","key")
);
--> statement-breakpoint
CREATE TABLE "sale_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"sale_id" integer NOT NULL,
	"client_id" integer NOT NULL,
	"position" integer NOT NULL,
	"product_id" integer,
	"variant_id" integer,
	"description" text NOT NULL,
	"variant_name" text,
	"sku" text,
	"barcode" text,
	"unit" text DEFAULT 'un' NOT NULL,
	"quantity" numeric(14, 3) NOT NULL,
	"unit_price_cents" integer NOT NULL,
	"additionals" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"unit_total_cents" integer NOT NULL,
	"gross_cents" integer NOT NULL,
	"discount_type" text DEFAULT 'fixed_amount' NOT NULL,
	"discount_value" integer DEFAULT 0 NOT NULL,
	"discount_cents" integer DEFAULT 0 NOT NULL,
	"total_cents" integer NOT NULL,
	"notes" text
);
--> statement-breakpoint
CREATE TABLE "sale_payments" (
	"id" serial PRIMARY KEY NOT NULL,
	"sale_id" integer NOT NULL,
	"client_id" integer NOT NULL,
	"position" integer NOT NULL,
	"method" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"number_installments" integer DEFAULT 1 NOT NULL,
	"due_date" date,
	"first_installment" integer,
	CONSTRAINT "sale_payments_amount_ck" CHECK ("sale_payments"."amount_cents" > 0)
);
--> statement-breakpoint
CREATE TABLE "sales" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"number" integer NOT NULL,
	"user_id" integer NOT NULL,
	"seller_id" integer,
	"customer_id" integer,
	"cash_register_id" integer,
	"status" text NOT NULL,
	"type_of_sale" text DEFAULT 'store' NOT NULL,
	"origin_sale" text DEFAULT 'pdv' NOT NULL,
	"is_simple" boolean DEFAULT false NOT NULL,
	"total_items" integer NOT NULL,
	"total_quantity" numeric(14, 3) NOT NULL,
	"items_discount_cents" integer DEFAULT 0 NOT NULL,
	"total_cents" integer NOT NULL,
	"discount_type" text DEFAULT 'fixed_amount' NOT NULL,
	"discount_value" integer DEFAULT 0 NOT NULL,
	"discount_cents" integer DEFAULT 0 NOT NULL,
	"coupon_id" integer,
	"coupon_code" text,
	"coupon_discount_cents" integer DEFAULT 0 NOT NULL,
	"freight_cents" integer DEFAULT 0 NOT NULL,
	"final_amount_cents" integer NOT NULL,
	"cash_deposit_amount_cents" integer DEFAULT 0 NOT NULL,
	"change_cents" integer DEFAULT 0 NOT NULL,
	"delivery_address" jsonb,
	"notes" text,
	"cancel_reason" text,
	"canceled_at" timestamp with time zone,
	"canceled_by_user_id" integer,
	"cancel_approved_by_user_id" integer,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sales_status_ck" CHECK ("sales"."status" in ('pending', 'finished', 'canceled')),
	CONSTRAINT "sales_amounts_ck" CHECK ("sales"."final_amount_cents" >= 0 and "sales"."change_cents" >= 0)
);
--> statement-breakpoint
ALTER TABLE "cash_register_counts" ADD CONSTRAINT "cash_register_counts_cash_register_id_cash_registers_id_fk" FOREIGN KEY ("cash_register_id") REFERENCES "public"."cash_registers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cash_register_counts" ADD CONSTRAINT "cash_register_counts_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cash_register_movements" ADD CONSTRAINT "cash_register_movements_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cash_register_movements" ADD CONSTRAINT "cash_register_movements_cash_register_id_cash_registers_id_fk" FOREIGN KEY ("cash_register_id") REFERENCES "public"."cash_registers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cash_register_movements" ADD CONSTRAINT "cash_register_movements_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cash_register_movements" ADD CONSTRAINT "cash_register_movements_approved_by_user_id_users_id_fk" FOREIGN KEY ("approved_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cash_registers" ADD CONSTRAINT "cash_registers_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cash_registers" ADD CONSTRAINT "cash_registers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sale_counters" ADD CONSTRAINT "sale_counters_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sale_idempotency_keys" ADD CONSTRAINT "sale_idempotency_keys_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sale_idempotency_keys" ADD CONSTRAINT "sale_idempotency_keys_sale_id_sales_id_fk" FOREIGN KEY ("sale_id") REFERENCES "public"."sales"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sale_items" ADD CONSTRAINT "sale_items_sale_id_sales_id_fk" FOREIGN KEY ("sale_id") REFERENCES "public"."sales"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sale_items" ADD CONSTRAINT "sale_items_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sale_items" ADD CONSTRAINT "sale_items_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sale_items" ADD CONSTRAINT "sale_items_variant_id_product_variants_id_fk" FOREIGN KEY ("variant_id") REFERENCES "public"."product_variants"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sale_payments" ADD CONSTRAINT "sale_payments_sale_id_sales_id_fk" FOREIGN KEY ("sale_id") REFERENCES "public"."sales"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sale_payments" ADD CONSTRAINT "sale_payments_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales" ADD CONSTRAINT "sales_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales" ADD CONSTRAINT "sales_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales" ADD CONSTRAINT "sales_seller_id_users_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales" ADD CONSTRAINT "sales_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales" ADD CONSTRAINT "sales_cash_register_id_cash_registers_id_fk" FOREIGN KEY ("cash_register_id") REFERENCES "public"."cash_registers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales" ADD CONSTRAINT "sales_coupon_id_coupons_id_fk" FOREIGN KEY ("coupon_id") REFERENCES "public"."coupons"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales" ADD CONSTRAINT "sales_canceled_by_user_id_users_id_fk" FOREIGN KEY ("canceled_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales" ADD CONSTRAINT "sales_cancel_approved_by_user_id_users_id_fk" FOREIGN KEY ("cancel_approved_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cash_register_movements_register_idx" ON "cash_register_movements" USING btree ("cash_register_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "cash_registers_user_open_uq" ON "cash_registers" USING btree ("user_id") WHERE "cash_registers"."status" = 'open';--> statement-breakpoint
CREATE INDEX "cash_registers_client_opened_idx" ON "cash_registers" USING btree ("client_id","opened_at");--> statement-breakpoint
CREATE INDEX "sale_items_sale_idx" ON "sale_items" USING btree ("sale_id","position");--> statement-breakpoint
CREATE INDEX "sale_items_product_idx" ON "sale_items" USING btree ("product_id");--> statement-breakpoint
CREATE INDEX "sale_payments_sale_idx" ON "sale_payments" USING btree ("sale_id");--> statement-breakpoint
CREATE UNIQUE INDEX "sales_client_number_uq" ON "sales" USING btree ("client_id","number");--> statement-breakpoint
CREATE INDEX "sales_client_created_idx" ON "sales" USING btree ("client_id","created_at","id");--> statement-breakpoint
CREATE INDEX "sales_client_customer_idx" ON "sales" USING btree ("client_id","customer_id");--> statement-breakpoint
CREATE INDEX "sales_cash_register_idx" ON "sales" USING btree ("cash_register_id");