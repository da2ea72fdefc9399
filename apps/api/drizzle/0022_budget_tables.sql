CREATE TABLE "budget_counters" (
	"client_id" integer PRIMARY KEY NOT NULL,
	"last" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "budget_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"budget_id" integer NOT NULL,
	"client_id" integer NOT NULL,
	"position" integer NOT NULL,
	"product_id" integer,
	"variant_id" integer,
	"description" text NOT NULL,
	"variant_name" text,
	"sku" text,
	"barcode" text,
	"unit" text NOT NULL,
	"quantity" numeric(14, 3) NOT NULL,
	"unit_price_cents" integer NOT NULL,
	"additionals" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"discount_type" text DEFAULT 'fixed_amount' NOT NULL,
	"discount_value" integer DEFAULT 0 NOT NULL,
	"notes" text,
	"unit_total_cents" integer NOT NULL,
	"gross_cents" integer NOT NULL,
	"discount_cents" integer DEFAULT 0 NOT NULL,
	"total_cents" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "budget_links" (
	"id" serial PRIMARY KEY NOT NULL,
	"budget_id" integer NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "budgets" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"number" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"user_id" integer NOT NULL,
	"seller_id" integer,
	"customer_id" integer,
	"type_of_sale" text DEFAULT 'store' NOT NULL,
	"delivery_address" jsonb,
	"total_items" integer NOT NULL,
	"total_quantity" numeric(14, 3) NOT NULL,
	"items_gross_cents" integer NOT NULL,
	"items_discount_cents" integer DEFAULT 0 NOT NULL,
	"total_cents" integer NOT NULL,
	"discount_type" text DEFAULT 'fixed_amount' NOT NULL,
	"discount_value" integer DEFAULT 0 NOT NULL,
	"discount_cents" integer DEFAULT 0 NOT NULL,
	"freight_cents" integer DEFAULT 0 NOT NULL,
	"final_amount_cents" integer NOT NULL,
	"valid_until" date NOT NULL,
	"notes" text,
	"payment_conditions" text,
	"reserve_stock" boolean DEFAULT false NOT NULL,
	"sent_at" timestamp with time zone,
	"viewed_at" timestamp with time zone,
	"answer" text,
	"answered_at" timestamp with time zone,
	"refusal_reason" text,
	"sale_id" integer,
	"sale_number" integer,
	"cancel_reason" text,
	"canceled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "budgets_status_ck" CHECK ("budgets"."status" in ('pending', 'sent', 'finished', 'canceled')),
	CONSTRAINT "budgets_answer_ck" CHECK ("budgets"."answer" is null or "budgets"."answer" in ('approved', 'refused')),
	CONSTRAINT "budgets_finished_sale_ck" CHECK (("budgets"."status" = 'finished') = ("budgets"."sale_id" is not null))
);
--> statement-breakpoint
CREATE TABLE "stock_reservations" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"variant_id" integer,
	"holder_kind" text NOT NULL,
	"holder_id" integer NOT NULL,
	"quantity" numeric(14, 3) NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"released_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stock_reservations_quantity_ck" CHECK ("stock_reservations"."quantity" > 0)
);
--> statement-breakpoint
ALTER TABLE "budget_counters" ADD CONSTRAINT "budget_counters_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budget_items" ADD CONSTRAINT "budget_items_budget_id_budgets_id_fk" FOREIGN KEY ("budget_id") REFERENCES "public"."budgets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budget_items" ADD CONSTRAINT "budget_items_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budget_items" ADD CONSTRAINT "budget_items_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budget_items" ADD CONSTRAINT "budget_items_variant_id_product_variants_id_fk" FOREIGN KEY ("variant_id") REFERENCES "public"."product_variants"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budget_links" ADD CONSTRAINT "budget_links_budget_id_budgets_id_fk" FOREIGN KEY ("budget_id") REFERENCES "public"."budgets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budgets" ADD CONSTRAINT "budgets_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budgets" ADD CONSTRAINT "budgets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budgets" ADD CONSTRAINT "budgets_seller_id_users_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budgets" ADD CONSTRAINT "budgets_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budgets" ADD CONSTRAINT "budgets_sale_id_sales_id_fk" FOREIGN KEY ("sale_id") REFERENCES "public"."sales"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_reservations" ADD CONSTRAINT "stock_reservations_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_reservations" ADD CONSTRAINT "stock_reservations_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_reservations" ADD CONSTRAINT "stock_reservations_variant_id_product_variants_id_fk" FOREIGN KEY ("variant_id") REFERENCES "public"."product_variants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "budget_items_budget_idx" ON "budget_items" USING btree ("budget_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "budget_links_token_uq" ON "budget_links" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "budget_links_budget_idx" ON "budget_links" USING btree ("budget_id");--> statement-breakpoint
CREATE UNIQUE INDEX "budgets_client_number_uq" ON "budgets" USING btree ("client_id","number");--> statement-breakpoint
CREATE INDEX "budgets_client_created_idx" ON "budgets" USING btree ("client_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "budgets_sale_uq" ON "budgets" USING btree ("sale_id");--> statement-breakpoint
CREATE INDEX "stock_reservations_product_idx" ON "stock_reservations" USING btree ("client_id","product_id");--> statement-breakpoint
CREATE INDEX "stock_reservations_holder_idx" ON "stock_reservations" USING btree ("holder_kind","holder_id");