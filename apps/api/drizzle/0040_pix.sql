CREATE TABLE "pix_accounts" (
	"client_id" integer PRIMARY KEY NOT NULL,
	"api_url" text NOT NULL,
	"token_url" text NOT NULL,
	"scopes" text DEFAULT '' NOT NULL,
	"token_format" text DEFAULT 'form' NOT NULL,
	"credentials_sealed" text DEFAULT '' NOT NULL,
	"certificate_sealed" text DEFAULT '' NOT NULL,
	"client_id_hint" text DEFAULT '' NOT NULL,
	"pix_key" text NOT NULL,
	"expires_in_seconds" integer DEFAULT 600 NOT NULL,
	"webhook_token_hash" text,
	"webhook_registered_at" timestamp with time zone,
	"last_test_error" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pix_charges" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"txid" text NOT NULL,
	"attempt_key" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"status" text DEFAULT 'creating' NOT NULL,
	"pix_copia_e_cola" text DEFAULT '' NOT NULL,
	"location" text DEFAULT '' NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"end_to_end_id" text,
	"paid_cents" integer,
	"paid_at" timestamp with time zone,
	"sale_id" integer,
	"checked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pix_received" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"end_to_end_id" text NOT NULL,
	"txid" text,
	"amount_cents" integer NOT NULL,
	"paid_at" timestamp with time zone NOT NULL,
	"payer_info" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "pix_refunds" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"sale_id" integer NOT NULL,
	"end_to_end_id" text NOT NULL,
	"refund_id" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"status" text DEFAULT 'requested' NOT NULL,
	"reason" text,
	"payload" jsonb,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "pix_accounts" ADD CONSTRAINT "pix_accounts_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pix_charges" ADD CONSTRAINT "pix_charges_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pix_charges" ADD CONSTRAINT "pix_charges_sale_id_sales_id_fk" FOREIGN KEY ("sale_id") REFERENCES "public"."sales"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pix_received" ADD CONSTRAINT "pix_received_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pix_refunds" ADD CONSTRAINT "pix_refunds_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pix_refunds" ADD CONSTRAINT "pix_refunds_sale_id_sales_id_fk" FOREIGN KEY ("sale_id") REFERENCES "public"."sales"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "pix_accounts_webhook_token" ON "pix_accounts" USING btree ("webhook_token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "pix_charges_txid" ON "pix_charges" USING btree ("client_id","txid");--> statement-breakpoint
CREATE INDEX "pix_charges_sale" ON "pix_charges" USING btree ("sale_id");--> statement-breakpoint
CREATE UNIQUE INDEX "pix_received_e2e" ON "pix_received" USING btree ("client_id","end_to_end_id");--> statement-breakpoint
CREATE INDEX "pix_received_pending" ON "pix_received" USING btree ("status") WHERE status = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "pix_refunds_id" ON "pix_refunds" USING btree ("client_id","end_to_end_id","refund_id");