CREATE TABLE "company_settings" (
	"client_id" integer PRIMARY KEY NOT NULL,
	"legal_name" text,
	"state_registration" text,
	"whatsapp" text,
	"email" text,
	"zip_code" text,
	"street" text,
	"number" text,
	"complement" text,
	"neighborhood" text,
	"city" text,
	"state" text,
	"receipt_header" text,
	"receipt_footer" text,
	"updated_by_user_id" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "system_settings" (
	"client_id" integer PRIMARY KEY NOT NULL,
	"discount_limits" jsonb NOT NULL,
	"budget_validity_days" integer NOT NULL,
	"service_fee_percent" integer NOT NULL,
	"couvert_cents" integer NOT NULL,
	"tab_idle_minutes" integer NOT NULL,
	"delivery" jsonb NOT NULL,
	"updated_by_user_id" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "working_hours" (
	"client_id" integer PRIMARY KEY NOT NULL,
	"weekly" jsonb NOT NULL,
	"exceptions" jsonb NOT NULL,
	"paused" boolean DEFAULT false NOT NULL,
	"pause_reason" text DEFAULT '' NOT NULL,
	"paused_until" timestamp with time zone,
	"updated_by_user_id" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "time_zone" text DEFAULT 'America/Sao_Paulo' NOT NULL;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "logo_key" text;--> statement-breakpoint
ALTER TABLE "sales" ADD COLUMN "discount_approved_by_user_id" integer;--> statement-breakpoint
ALTER TABLE "company_settings" ADD CONSTRAINT "company_settings_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_settings" ADD CONSTRAINT "company_settings_updated_by_user_id_users_id_fk" FOREIGN KEY ("updated_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "system_settings" ADD CONSTRAINT "system_settings_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "system_settings" ADD CONSTRAINT "system_settings_updated_by_user_id_users_id_fk" FOREIGN KEY ("updated_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "working_hours" ADD CONSTRAINT "working_hours_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "working_hours" ADD CONSTRAINT "working_hours_updated_by_user_id_users_id_fk" FOREIGN KEY ("updated_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales" ADD CONSTRAINT "sales_discount_approved_by_user_id_users_id_fk" FOREIGN KEY ("discount_approved_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;