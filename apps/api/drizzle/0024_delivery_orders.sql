CREATE TABLE "delivery_orders" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"sale_id" integer NOT NULL,
	"sale_number" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"customer_name" text,
	"customer_phone" text,
	"address" jsonb,
	"neighborhood" text DEFAULT '' NOT NULL,
	"items_text" text DEFAULT '' NOT NULL,
	"total_cents" integer NOT NULL,
	"freight_cents" integer DEFAULT 0 NOT NULL,
	"collect_cents" integer DEFAULT 0 NOT NULL,
	"on_delivery_method" text,
	"change_for_cents" integer DEFAULT 0 NOT NULL,
	"change_cents" integer DEFAULT 0 NOT NULL,
	"driver_fee_cents" integer,
	"code" text NOT NULL,
	"driver_id" integer,
	"promised_at" timestamp with time zone NOT NULL,
	"failure_reason" text,
	"cancel_reason" text,
	"accepted_at" timestamp with time zone,
	"picked_up_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"settlement_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "delivery_orders_status_ck" CHECK ("delivery_orders"."status" in ('pending','waiting','available','accepted','sending','success','failed','canceled')),
	CONSTRAINT "delivery_orders_code_ck" CHECK ("delivery_orders"."code" ~ '^[0-9]{4}$'),
	CONSTRAINT "delivery_orders_amounts_ck" CHECK ("delivery_orders"."collect_cents" >= 0 and "delivery_orders"."change_cents" >= 0 and "delivery_orders"."change_for_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "delivery_settings" (
	"client_id" integer PRIMARY KEY NOT NULL,
	"notify_customer" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "driver_settlements" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"driver_id" integer NOT NULL,
	"period_from" date NOT NULL,
	"period_to" date NOT NULL,
	"change_cents" integer NOT NULL,
	"cash_cents" integer NOT NULL,
	"other_cents" integer NOT NULL,
	"fees_cents" integer NOT NULL,
	"to_hand_over_cents" integer NOT NULL,
	"counted_cents" integer NOT NULL,
	"lines" jsonb NOT NULL,
	"confirmed_by" integer NOT NULL,
	"confirmed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "driver_shifts" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "delivery_orders" ADD CONSTRAINT "delivery_orders_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delivery_orders" ADD CONSTRAINT "delivery_orders_sale_id_sales_id_fk" FOREIGN KEY ("sale_id") REFERENCES "public"."sales"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delivery_orders" ADD CONSTRAINT "delivery_orders_driver_id_users_id_fk" FOREIGN KEY ("driver_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delivery_orders" ADD CONSTRAINT "delivery_orders_settlement_id_driver_settlements_id_fk" FOREIGN KEY ("settlement_id") REFERENCES "public"."driver_settlements"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delivery_settings" ADD CONSTRAINT "delivery_settings_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "driver_settlements" ADD CONSTRAINT "driver_settlements_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "driver_settlements" ADD CONSTRAINT "driver_settlements_driver_id_users_id_fk" FOREIGN KEY ("driver_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "driver_settlements" ADD CONSTRAINT "driver_settlements_confirmed_by_users_id_fk" FOREIGN KEY ("confirmed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "driver_shifts" ADD CONSTRAINT "driver_shifts_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "driver_shifts" ADD CONSTRAINT "driver_shifts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "delivery_orders_sale_uq" ON "delivery_orders" USING btree ("sale_id");--> statement-breakpoint
CREATE INDEX "delivery_orders_client_status_idx" ON "delivery_orders" USING btree ("client_id","status");--> statement-breakpoint
CREATE INDEX "delivery_orders_driver_idx" ON "delivery_orders" USING btree ("client_id","driver_id","status");--> statement-breakpoint
CREATE INDEX "driver_settlements_client_idx" ON "driver_settlements" USING btree ("client_id","driver_id","confirmed_at");--> statement-breakpoint
CREATE UNIQUE INDEX "driver_shifts_open_uq" ON "driver_shifts" USING btree ("user_id") WHERE "driver_shifts"."ended_at" is null;--> statement-breakpoint
CREATE INDEX "driver_shifts_client_idx" ON "driver_shifts" USING btree ("client_id","ended_at");