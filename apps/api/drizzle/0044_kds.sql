CREATE TABLE "comanda_table_orders" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"qr_id" integer NOT NULL,
	"table_label" text NOT NULL,
	"lines" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"idempotency_key" text NOT NULL,
	"comanda_id" integer,
	"decided_by" integer,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "comanda_table_orders_status_ck" CHECK ("comanda_table_orders"."status" in ('pending', 'approved', 'rejected'))
);
--> statement-breakpoint
CREATE TABLE "comanda_table_qrs" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"table_label" text NOT NULL,
	"token_hash" text NOT NULL,
	"created_by" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "kds_screens" (
	"client_id" integer NOT NULL,
	"sector_id" integer NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "kds_screens_pk" PRIMARY KEY("client_id","sector_id")
);
--> statement-breakpoint
CREATE TABLE "kds_settings" (
	"client_id" integer PRIMARY KEY NOT NULL,
	"warn_minutes" integer DEFAULT 10 NOT NULL,
	"late_minutes" integer DEFAULT 20 NOT NULL,
	"silence_seconds" integer DEFAULT 60 NOT NULL,
	"updated_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "print_jobs" ADD COLUMN "items" jsonb;--> statement-breakpoint
ALTER TABLE "print_jobs" ADD COLUMN "ready_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "print_jobs" ADD COLUMN "ready_lines" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "print_jobs" ADD COLUMN "ready_by" integer;--> statement-breakpoint
ALTER TABLE "comanda_table_orders" ADD CONSTRAINT "comanda_table_orders_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comanda_table_orders" ADD CONSTRAINT "comanda_table_orders_qr_id_comanda_table_qrs_id_fk" FOREIGN KEY ("qr_id") REFERENCES "public"."comanda_table_qrs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comanda_table_orders" ADD CONSTRAINT "comanda_table_orders_comanda_id_comandas_id_fk" FOREIGN KEY ("comanda_id") REFERENCES "public"."comandas"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comanda_table_orders" ADD CONSTRAINT "comanda_table_orders_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comanda_table_qrs" ADD CONSTRAINT "comanda_table_qrs_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comanda_table_qrs" ADD CONSTRAINT "comanda_table_qrs_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kds_screens" ADD CONSTRAINT "kds_screens_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kds_screens" ADD CONSTRAINT "kds_screens_sector_id_print_sectors_id_fk" FOREIGN KEY ("sector_id") REFERENCES "public"."print_sectors"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kds_settings" ADD CONSTRAINT "kds_settings_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kds_settings" ADD CONSTRAINT "kds_settings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "comanda_table_orders_key_uq" ON "comanda_table_orders" USING btree ("client_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "comanda_table_orders_pending_idx" ON "comanda_table_orders" USING btree ("client_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "comanda_table_qrs_token_uq" ON "comanda_table_qrs" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "comanda_table_qrs_live_uq" ON "comanda_table_qrs" USING btree ("client_id","table_label") WHERE "comanda_table_qrs"."revoked_at" is null;--> statement-breakpoint
ALTER TABLE "print_jobs" ADD CONSTRAINT "print_jobs_ready_by_users_id_fk" FOREIGN KEY ("ready_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "print_jobs_kds_idx" ON "print_jobs" USING btree ("client_id","sector_id","id") WHERE "print_jobs"."kind" = 'ticket';