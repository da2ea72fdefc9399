CREATE TABLE "fiscal_counters" (
	"client_id" integer NOT NULL,
	"model" integer NOT NULL,
	"series" integer NOT NULL,
	"next_number" integer NOT NULL,
	CONSTRAINT "fiscal_counters_client_id_model_series_pk" PRIMARY KEY("client_id","model","series")
);
--> statement-breakpoint
CREATE TABLE "fiscal_notes" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"sale_id" integer,
	"model" integer DEFAULT 65 NOT NULL,
	"series" integer NOT NULL,
	"number" integer NOT NULL,
	"access_key" text NOT NULL,
	"tp_emis" integer NOT NULL,
	"environment" text NOT NULL,
	"status" text NOT NULL,
	"total_cents" integer NOT NULL,
	"consumer_document" text,
	"xml" text NOT NULL,
	"proc_xml" text,
	"protocol" text,
	"status_code" text,
	"status_text" text,
	"qr_code_url" text,
	"transmit_by" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"cancel_xml" text,
	"cancel_protocol" text,
	"draft" jsonb NOT NULL,
	"first_key" text,
	"first_xml" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"authorised_at" timestamp with time zone,
	CONSTRAINT "fiscal_notes_status_ck" CHECK ("fiscal_notes"."status" in ('pending', 'contingency', 'queued', 'authorised', 'rejected', 'canceled', 'voided'))
);
--> statement-breakpoint
CREATE TABLE "fiscal_product_fields" (
	"client_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"fields" jsonb NOT NULL,
	CONSTRAINT "fiscal_product_fields_client_id_product_id_pk" PRIMARY KEY("client_id","product_id")
);
--> statement-breakpoint
CREATE TABLE "fiscal_settings" (
	"client_id" integer PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"environment" text DEFAULT 'local' NOT NULL,
	"cnpj" text NOT NULL,
	"ie" text NOT NULL,
	"legal_name" text NOT NULL,
	"trade_name" text,
	"crt" text NOT NULL,
	"uf" text NOT NULL,
	"city_code" text NOT NULL,
	"city_name" text NOT NULL,
	"street" text NOT NULL,
	"street_number" text NOT NULL,
	"district" text NOT NULL,
	"zip_code" text NOT NULL,
	"series" integer DEFAULT 1 NOT NULL,
	"csc_id" text NOT NULL,
	"csc_sealed" text DEFAULT '' NOT NULL,
	"defaults" jsonb NOT NULL,
	"certificate_sealed" text DEFAULT '' NOT NULL,
	"certificate_holder" text,
	"certificate_cnpj" text,
	"certificate_not_before" timestamp with time zone,
	"certificate_not_after" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "fiscal_voids" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"model" integer DEFAULT 65 NOT NULL,
	"series" integer NOT NULL,
	"from_number" integer NOT NULL,
	"to_number" integer NOT NULL,
	"reason" text NOT NULL,
	"status_code" text NOT NULL,
	"status_text" text NOT NULL,
	"protocol" text,
	"xml" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "fiscal_counters" ADD CONSTRAINT "fiscal_counters_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fiscal_notes" ADD CONSTRAINT "fiscal_notes_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fiscal_notes" ADD CONSTRAINT "fiscal_notes_sale_id_sales_id_fk" FOREIGN KEY ("sale_id") REFERENCES "public"."sales"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fiscal_product_fields" ADD CONSTRAINT "fiscal_product_fields_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fiscal_product_fields" ADD CONSTRAINT "fiscal_product_fields_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fiscal_settings" ADD CONSTRAINT "fiscal_settings_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fiscal_voids" ADD CONSTRAINT "fiscal_voids_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "fiscal_notes_number_uq" ON "fiscal_notes" USING btree ("client_id","model","series","number");--> statement-breakpoint
CREATE UNIQUE INDEX "fiscal_notes_key_uq" ON "fiscal_notes" USING btree ("access_key");--> statement-breakpoint
CREATE UNIQUE INDEX "fiscal_notes_sale_uq" ON "fiscal_notes" USING btree ("sale_id") WHERE "fiscal_notes"."sale_id" is not null;--> statement-breakpoint
CREATE INDEX "fiscal_notes_client_status_idx" ON "fiscal_notes" USING btree ("client_id","status");