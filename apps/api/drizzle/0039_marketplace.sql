CREATE TABLE "marketplace_accounts" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"kind" text NOT NULL,
	"provider" text DEFAULT '' NOT NULL,
	"name" text NOT NULL,
	"merchant_id" text NOT NULL,
	"app_client_id" text NOT NULL,
	"client_secret" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"auto_confirm" boolean DEFAULT false NOT NULL,
	"operator_id" integer NOT NULL,
	"last_polled_at" timestamp with time zone,
	"last_error" text,
	"paused_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "marketplace_accounts_kind_ck" CHECK ("marketplace_accounts"."kind" in ('ifood','opendelivery'))
);
--> statement-breakpoint
CREATE TABLE "marketplace_customers" (
	"account_id" integer NOT NULL,
	"external_id" text NOT NULL,
	"customer_id" integer NOT NULL,
	CONSTRAINT "marketplace_customers_account_id_external_id_pk" PRIMARY KEY("account_id","external_id")
);
--> statement-breakpoint
CREATE TABLE "marketplace_item_maps" (
	"client_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"external_code" text NOT NULL,
	"name" text NOT NULL,
	"product_id" integer NOT NULL,
	"product_name" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "marketplace_item_maps_account_id_external_code_pk" PRIMARY KEY("account_id","external_code")
);
--> statement-breakpoint
CREATE TABLE "marketplace_orders" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"external_id" text NOT NULL,
	"display_id" text NOT NULL,
	"status" text DEFAULT 'new' NOT NULL,
	"detail" jsonb NOT NULL,
	"confirm_deadline" timestamp with time zone NOT NULL,
	"cancellation_requested" boolean DEFAULT false NOT NULL,
	"sale_id" integer,
	"sale_number" integer,
	"problem" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "marketplace_orders_status_ck" CHECK ("marketplace_orders"."status" in ('new','mapping','confirmed','canceled'))
);
--> statement-breakpoint
CREATE TABLE "marketplace_status_sends" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"order_id" integer NOT NULL,
	"status" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"skipped" boolean DEFAULT false NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "marketplace_accounts" ADD CONSTRAINT "marketplace_accounts_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "marketplace_accounts" ADD CONSTRAINT "marketplace_accounts_operator_id_users_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "marketplace_customers" ADD CONSTRAINT "marketplace_customers_account_id_marketplace_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."marketplace_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "marketplace_customers" ADD CONSTRAINT "marketplace_customers_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "marketplace_item_maps" ADD CONSTRAINT "marketplace_item_maps_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "marketplace_item_maps" ADD CONSTRAINT "marketplace_item_maps_account_id_marketplace_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."marketplace_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "marketplace_item_maps" ADD CONSTRAINT "marketplace_item_maps_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "marketplace_orders" ADD CONSTRAINT "marketplace_orders_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "marketplace_orders" ADD CONSTRAINT "marketplace_orders_account_id_marketplace_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."marketplace_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "marketplace_orders" ADD CONSTRAINT "marketplace_orders_sale_id_sales_id_fk" FOREIGN KEY ("sale_id") REFERENCES "public"."sales"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "marketplace_status_sends" ADD CONSTRAINT "marketplace_status_sends_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "marketplace_status_sends" ADD CONSTRAINT "marketplace_status_sends_order_id_marketplace_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."marketplace_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "marketplace_accounts_merchant_uq" ON "marketplace_accounts" USING btree ("kind","provider","merchant_id");--> statement-breakpoint
CREATE INDEX "marketplace_accounts_client_idx" ON "marketplace_accounts" USING btree ("client_id");--> statement-breakpoint
CREATE UNIQUE INDEX "marketplace_orders_external_uq" ON "marketplace_orders" USING btree ("account_id","external_id");--> statement-breakpoint
CREATE UNIQUE INDEX "marketplace_orders_sale_uq" ON "marketplace_orders" USING btree ("sale_id");--> statement-breakpoint
CREATE INDEX "marketplace_orders_client_status_idx" ON "marketplace_orders" USING btree ("client_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "marketplace_status_sends_uq" ON "marketplace_status_sends" USING btree ("order_id","status");--> statement-breakpoint
CREATE INDEX "marketplace_status_sends_due_idx" ON "marketplace_status_sends" USING btree ("next_at") WHERE "marketplace_status_sends"."sent_at" is null;