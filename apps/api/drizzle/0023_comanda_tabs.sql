CREATE TABLE "comanda_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"comanda_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"text" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "comanda_lines" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"comanda_id" integer NOT NULL,
	"product_id" integer,
	"variant_id" integer,
	"category_id" integer,
	"description" text NOT NULL,
	"variant_name" text,
	"sku" text,
	"barcode" text,
	"unit" text DEFAULT 'un' NOT NULL,
	"quantity" numeric(14, 3) NOT NULL,
	"unit_price_cents" integer NOT NULL,
	"additionals" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"notes" text,
	"status" text DEFAULT 'active' NOT NULL,
	"send_id" integer,
	"sent_at" timestamp with time zone,
	"transferred_from" integer,
	"added_by" integer NOT NULL,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL,
	"idempotency_key" text,
	"cancel_reason" text,
	"canceled_by" integer,
	"cancel_approved_by" integer,
	"canceled_at" timestamp with time zone,
	CONSTRAINT "comanda_lines_status_ck" CHECK ("comanda_lines"."status" in ('active', 'canceled')),
	CONSTRAINT "comanda_lines_quantity_ck" CHECK ("comanda_lines"."quantity" > 0)
);
--> statement-breakpoint
CREATE TABLE "comanda_payments" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"comanda_id" integer NOT NULL,
	"kind" text NOT NULL,
	"method" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"change_cents" integer DEFAULT 0 NOT NULL,
	"label" text NOT NULL,
	"items" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"received_by" integer NOT NULL,
	"cash_register_id" integer NOT NULL,
	"idempotency_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "comanda_payments_amount_ck" CHECK ("comanda_payments"."amount_cents" > 0)
);
--> statement-breakpoint
CREATE TABLE "comanda_sends" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"comanda_id" integer NOT NULL,
	"idempotency_key" text NOT NULL,
	"job_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"unrouted" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_by" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "comandas" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"number" integer NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"table_label" text,
	"customer_id" integer,
	"customer_name" text,
	"customer_phone" text,
	"people" integer DEFAULT 1 NOT NULL,
	"waiter_id" integer,
	"service_fee_percent" integer NOT NULL,
	"service_fee_reason" text,
	"couvert_per_person_cents" integer DEFAULT 0 NOT NULL,
	"bill_requested_at" timestamp with time zone,
	"opened_by" integer NOT NULL,
	"last_item_at" timestamp with time zone,
	"sale_id" integer,
	"closed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "comandas_status_ck" CHECK ("comandas"."status" in ('active', 'finished', 'canceled')),
	CONSTRAINT "comandas_people_ck" CHECK ("comandas"."people" >= 1)
);
--> statement-breakpoint
ALTER TABLE "comanda_events" ADD CONSTRAINT "comanda_events_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comanda_events" ADD CONSTRAINT "comanda_events_comanda_id_comandas_id_fk" FOREIGN KEY ("comanda_id") REFERENCES "public"."comandas"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comanda_events" ADD CONSTRAINT "comanda_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comanda_lines" ADD CONSTRAINT "comanda_lines_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comanda_lines" ADD CONSTRAINT "comanda_lines_comanda_id_comandas_id_fk" FOREIGN KEY ("comanda_id") REFERENCES "public"."comandas"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comanda_lines" ADD CONSTRAINT "comanda_lines_send_id_comanda_sends_id_fk" FOREIGN KEY ("send_id") REFERENCES "public"."comanda_sends"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comanda_lines" ADD CONSTRAINT "comanda_lines_added_by_users_id_fk" FOREIGN KEY ("added_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comanda_lines" ADD CONSTRAINT "comanda_lines_canceled_by_users_id_fk" FOREIGN KEY ("canceled_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comanda_lines" ADD CONSTRAINT "comanda_lines_cancel_approved_by_users_id_fk" FOREIGN KEY ("cancel_approved_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comanda_payments" ADD CONSTRAINT "comanda_payments_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comanda_payments" ADD CONSTRAINT "comanda_payments_comanda_id_comandas_id_fk" FOREIGN KEY ("comanda_id") REFERENCES "public"."comandas"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comanda_payments" ADD CONSTRAINT "comanda_payments_received_by_users_id_fk" FOREIGN KEY ("received_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comanda_payments" ADD CONSTRAINT "comanda_payments_cash_register_id_cash_registers_id_fk" FOREIGN KEY ("cash_register_id") REFERENCES "public"."cash_registers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comanda_sends" ADD CONSTRAINT "comanda_sends_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comanda_sends" ADD CONSTRAINT "comanda_sends_comanda_id_comandas_id_fk" FOREIGN KEY ("comanda_id") REFERENCES "public"."comandas"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comanda_sends" ADD CONSTRAINT "comanda_sends_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comandas" ADD CONSTRAINT "comandas_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comandas" ADD CONSTRAINT "comandas_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comandas" ADD CONSTRAINT "comandas_waiter_id_users_id_fk" FOREIGN KEY ("waiter_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comandas" ADD CONSTRAINT "comandas_opened_by_users_id_fk" FOREIGN KEY ("opened_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comandas" ADD CONSTRAINT "comandas_sale_id_sales_id_fk" FOREIGN KEY ("sale_id") REFERENCES "public"."sales"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "comanda_events_comanda_idx" ON "comanda_events" USING btree ("comanda_id","id");--> statement-breakpoint
CREATE INDEX "comanda_lines_comanda_idx" ON "comanda_lines" USING btree ("comanda_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "comanda_lines_key_uq" ON "comanda_lines" USING btree ("client_id","idempotency_key") WHERE "comanda_lines"."idempotency_key" is not null;--> statement-breakpoint
CREATE INDEX "comanda_payments_comanda_idx" ON "comanda_payments" USING btree ("comanda_id");--> statement-breakpoint
CREATE UNIQUE INDEX "comanda_payments_key_uq" ON "comanda_payments" USING btree ("client_id","idempotency_key") WHERE "comanda_payments"."idempotency_key" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "comanda_sends_key_uq" ON "comanda_sends" USING btree ("client_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "comanda_sends_comanda_idx" ON "comanda_sends" USING btree ("comanda_id");--> statement-breakpoint
CREATE UNIQUE INDEX "comandas_open_number_uq" ON "comandas" USING btree ("client_id","number") WHERE "comandas"."status" = 'active';--> statement-breakpoint
CREATE INDEX "comandas_client_status_idx" ON "comandas" USING btree ("client_id","status");