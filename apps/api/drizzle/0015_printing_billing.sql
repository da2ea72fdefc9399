CREATE TABLE "billing_invoices" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"period_start" date NOT NULL,
	"period_end" date NOT NULL,
	"due_date" date NOT NULL,
	"amount_cents" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"gateway_payment_id" text,
	"pix_payload" text,
	"pix_image" text,
	"pix_expires_at" text,
	"boleto_url" text,
	"boleto_line" text,
	"paid_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "billing_invoices_status_ck" CHECK ("billing_invoices"."status" in ('pending', 'paid', 'overdue', 'canceled'))
);
--> statement-breakpoint
CREATE TABLE "billing_subscriptions" (
	"client_id" integer PRIMARY KEY NOT NULL,
	"plan_code" text NOT NULL,
	"started_on" date NOT NULL,
	"gateway_customer_id" text,
	"updated_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "billing_webhook_events" (
	"event_id" text PRIMARY KEY NOT NULL,
	"event" text NOT NULL,
	"payment_id" text,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "category_sectors" (
	"client_id" integer NOT NULL,
	"category_id" integer NOT NULL,
	"sector_id" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "print_jobs" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"profile_id" integer NOT NULL,
	"sector_id" integer,
	"kind" text NOT NULL,
	"payload" jsonb NOT NULL,
	"idempotency_key" text NOT NULL,
	"reprint_of" integer,
	"status" text DEFAULT 'pending' NOT NULL,
	"station_id" text,
	"station_name" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"error" text,
	"created_by" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"printed_at" timestamp with time zone,
	CONSTRAINT "print_jobs_status_ck" CHECK ("print_jobs"."status" in ('pending', 'sent', 'printed', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "print_sectors" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"key" text NOT NULL,
	"name" text NOT NULL,
	"profile_id" integer,
	"position" integer DEFAULT 0 NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "printer_profiles" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"key" text NOT NULL,
	"name" text NOT NULL,
	"paper_width" integer NOT NULL,
	"columns" integer NOT NULL,
	"code_page" text NOT NULL,
	"copies" integer DEFAULT 1 NOT NULL,
	"cut" boolean DEFAULT true NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "printer_profiles_paper_ck" CHECK ("printer_profiles"."paper_width" in (58, 80)),
	CONSTRAINT "printer_profiles_columns_ck" CHECK ("printer_profiles"."columns" in (32, 42, 48)),
	CONSTRAINT "printer_profiles_copies_ck" CHECK ("printer_profiles"."copies" between 1 and 5)
);
--> statement-breakpoint
CREATE TABLE "printing_settings" (
	"client_id" integer PRIMARY KEY NOT NULL,
	"auto_print_receipt" boolean DEFAULT false NOT NULL,
	"receipt_profile_id" integer,
	"updated_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "billing_invoices" ADD CONSTRAINT "billing_invoices_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_subscriptions" ADD CONSTRAINT "billing_subscriptions_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_subscriptions" ADD CONSTRAINT "billing_subscriptions_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "category_sectors" ADD CONSTRAINT "category_sectors_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "category_sectors" ADD CONSTRAINT "category_sectors_category_id_product_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."product_categories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "category_sectors" ADD CONSTRAINT "category_sectors_sector_id_print_sectors_id_fk" FOREIGN KEY ("sector_id") REFERENCES "public"."print_sectors"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "print_jobs" ADD CONSTRAINT "print_jobs_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "print_jobs" ADD CONSTRAINT "print_jobs_profile_id_printer_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."printer_profiles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "print_jobs" ADD CONSTRAINT "print_jobs_sector_id_print_sectors_id_fk" FOREIGN KEY ("sector_id") REFERENCES "public"."print_sectors"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "print_jobs" ADD CONSTRAINT "print_jobs_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "print_sectors" ADD CONSTRAINT "print_sectors_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "print_sectors" ADD CONSTRAINT "print_sectors_profile_id_printer_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."printer_profiles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "printer_profiles" ADD CONSTRAINT "printer_profiles_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "printing_settings" ADD CONSTRAINT "printing_settings_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "printing_settings" ADD CONSTRAINT "printing_settings_receipt_profile_id_printer_profiles_id_fk" FOREIGN KEY ("receipt_profile_id") REFERENCES "public"."printer_profiles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "printing_settings" ADD CONSTRAINT "printing_settings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "billing_invoices_period_uq" ON "billing_invoices" USING btree ("client_id","period_start");--> statement-breakpoint
CREATE UNIQUE INDEX "billing_invoices_payment_uq" ON "billing_invoices" USING btree ("gateway_payment_id");--> statement-breakpoint
CREATE UNIQUE INDEX "category_sectors_category_uq" ON "category_sectors" USING btree ("client_id","category_id");--> statement-breakpoint
CREATE UNIQUE INDEX "print_jobs_client_key_uq" ON "print_jobs" USING btree ("client_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "print_jobs_waiting_idx" ON "print_jobs" USING btree ("client_id","status","profile_id");--> statement-breakpoint
CREATE INDEX "print_jobs_sender_idx" ON "print_jobs" USING btree ("client_id","created_by","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "print_sectors_client_key_uq" ON "print_sectors" USING btree ("client_id","key") WHERE "print_sectors"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "printer_profiles_client_key_uq" ON "printer_profiles" USING btree ("client_id","key") WHERE "printer_profiles"."deleted_at" is null;