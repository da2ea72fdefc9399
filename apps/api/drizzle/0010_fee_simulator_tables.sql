CREATE TABLE "fee_settings" (
	"client_id" integer PRIMARY KEY NOT NULL,
	"active_table_id" integer,
	"pdv_surcharge" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "fee_tables" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"name" text NOT NULL,
	"acquirer" text NOT NULL,
	"preset_key" text,
	"plan" text DEFAULT '' NOT NULL,
	"tier" text DEFAULT '' NOT NULL,
	"settlement_label" text DEFAULT '' NOT NULL,
	"brand_group" text DEFAULT '' NOT NULL,
	"rates_date" date NOT NULL,
	"verified" boolean DEFAULT true NOT NULL,
	"debit_rate_bp" integer,
	"pix_rate_bp" integer,
	"credit_rates_bp" integer[] NOT NULL,
	"anticipation_model" text NOT NULL,
	"anticipation_rate_bp" integer DEFAULT 0 NOT NULL,
	"anticipation_basis" text DEFAULT 'monthly' NOT NULL,
	"linear_skips_first" boolean DEFAULT false NOT NULL,
	"settlement_days" integer NOT NULL,
	"settles_at_once" boolean DEFAULT false NOT NULL,
	"buyer_interest_rate_bp" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fee_tables_model_ck" CHECK ("fee_tables"."anticipation_model" in ('none', 'simple', 'compound', 'linear')),
	CONSTRAINT "fee_tables_basis_ck" CHECK ("fee_tables"."anticipation_basis" in ('monthly', 'daily')),
	CONSTRAINT "fee_tables_rates_ck" CHECK (coalesce("fee_tables"."debit_rate_bp", 0) between 0 and 9999 and coalesce("fee_tables"."pix_rate_bp", 0) between 0 and 9999
        and "fee_tables"."anticipation_rate_bp" between 0 and 9999 and "fee_tables"."buyer_interest_rate_bp" between 0 and 9999),
	CONSTRAINT "fee_tables_credit_ck" CHECK (cardinality("fee_tables"."credit_rates_bp") between 1 and 18 and 0 <= all("fee_tables"."credit_rates_bp") and 9999 >= all("fee_tables"."credit_rates_bp")),
	CONSTRAINT "fee_tables_days_ck" CHECK ("fee_tables"."settlement_days" between 0 and 60)
);
--> statement-breakpoint
ALTER TABLE "fee_settings" ADD CONSTRAINT "fee_settings_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_settings" ADD CONSTRAINT "fee_settings_active_table_id_fee_tables_id_fk" FOREIGN KEY ("active_table_id") REFERENCES "public"."fee_tables"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_tables" ADD CONSTRAINT "fee_tables_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "fee_tables_client_idx" ON "fee_tables" USING btree ("client_id");