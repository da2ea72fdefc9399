CREATE TABLE "payable_categories" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"name" text NOT NULL,
	"dre_group" text NOT NULL,
	CONSTRAINT "payable_categories_group_ck" CHECK ("payable_categories"."dre_group" in ('cmv', 'operating', 'personnel', 'taxes', 'financial', 'other'))
);
--> statement-breakpoint
CREATE TABLE "payable_payments" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"payable_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"paid_on" date NOT NULL,
	"amount_cents" integer NOT NULL,
	"discount_cents" integer DEFAULT 0 NOT NULL,
	"interest_cents" integer DEFAULT 0 NOT NULL,
	"fine_cents" integer DEFAULT 0 NOT NULL,
	"method" text NOT NULL,
	"source" text NOT NULL,
	"cash_register_id" integer,
	"movement_id" integer,
	"idempotency_key" text,
	"reversed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payable_payments_source_ck" CHECK ("payable_payments"."source" in ('register', 'bank')),
	CONSTRAINT "payable_payments_amount_ck" CHECK ("payable_payments"."amount_cents" > 0 and "payable_payments"."discount_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "payable_series" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"kind" text NOT NULL,
	"count" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payable_series_kind_ck" CHECK ("payable_series"."kind" in ('installments', 'recurrence'))
);
--> statement-breakpoint
CREATE TABLE "payables" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"supplier_id" integer,
	"category_id" integer NOT NULL,
	"description" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"paid_cents" integer DEFAULT 0 NOT NULL,
	"due_date" date NOT NULL,
	"competence_month" date NOT NULL,
	"document_number" text,
	"notes" text,
	"boleto_line" text,
	"series_id" integer,
	"series_index" integer,
	"last_paid_on" date,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payables_amount_ck" CHECK ("payables"."amount_cents" > 0 and "payables"."paid_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "suppliers" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"name" text NOT NULL,
	"document" text,
	"contact_name" text,
	"phone" text,
	"email" text,
	"pix_key" text,
	"notes" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payable_categories" ADD CONSTRAINT "payable_categories_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payable_payments" ADD CONSTRAINT "payable_payments_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payable_payments" ADD CONSTRAINT "payable_payments_payable_id_payables_id_fk" FOREIGN KEY ("payable_id") REFERENCES "public"."payables"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payable_payments" ADD CONSTRAINT "payable_payments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payable_payments" ADD CONSTRAINT "payable_payments_cash_register_id_cash_registers_id_fk" FOREIGN KEY ("cash_register_id") REFERENCES "public"."cash_registers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payable_payments" ADD CONSTRAINT "payable_payments_movement_id_cash_register_movements_id_fk" FOREIGN KEY ("movement_id") REFERENCES "public"."cash_register_movements"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payable_series" ADD CONSTRAINT "payable_series_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payables" ADD CONSTRAINT "payables_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payables" ADD CONSTRAINT "payables_supplier_id_suppliers_id_fk" FOREIGN KEY ("supplier_id") REFERENCES "public"."suppliers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payables" ADD CONSTRAINT "payables_category_id_payable_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."payable_categories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payables" ADD CONSTRAINT "payables_series_id_payable_series_id_fk" FOREIGN KEY ("series_id") REFERENCES "public"."payable_series"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "suppliers" ADD CONSTRAINT "suppliers_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payable_categories_client_name_uq" ON "payable_categories" USING btree ("client_id",lower("name"));--> statement-breakpoint
CREATE INDEX "payable_payments_payable_idx" ON "payable_payments" USING btree ("payable_id");--> statement-breakpoint
CREATE INDEX "payable_payments_client_paid_idx" ON "payable_payments" USING btree ("client_id","paid_on");--> statement-breakpoint
CREATE UNIQUE INDEX "payable_payments_key_uq" ON "payable_payments" USING btree ("client_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "payables_client_due_idx" ON "payables" USING btree ("client_id","due_date","id");--> statement-breakpoint
CREATE INDEX "payables_client_competence_idx" ON "payables" USING btree ("client_id","competence_month","category_id");--> statement-breakpoint
CREATE INDEX "payables_series_idx" ON "payables" USING btree ("series_id","series_index");--> statement-breakpoint
CREATE INDEX "payables_supplier_idx" ON "payables" USING btree ("supplier_id");--> statement-breakpoint
CREATE INDEX "payables_category_idx" ON "payables" USING btree ("category_id");--> statement-breakpoint
CREATE UNIQUE INDEX "suppliers_client_document_uq" ON "suppliers" USING btree ("client_id","document") WHERE "suppliers"."document" is not null;--> statement-breakpoint
CREATE INDEX "suppliers_client_name_idx" ON "suppliers" USING btree ("client_id","name");--> statement-breakpoint
CREATE INDEX "receivables_client_paid_idx" ON "receivables" USING btree ("client_id","paid_at") WHERE "receivables"."status" = 'finished';--> statement-breakpoint
CREATE INDEX "sale_returns_client_created_idx" ON "sale_returns" USING btree ("client_id","created_at");