CREATE TABLE "carrier_accounts" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"carrier" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"secrets" text DEFAULT '' NOT NULL,
	"token_expires_at" timestamp with time zone,
	"oauth_state_hash" text,
	"oauth_redirect_uri" text,
	"oauth_state_expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "carrier_accounts_carrier_ck" CHECK ("carrier_accounts"."carrier" in ('melhor_envio', 'rodonaves'))
);
--> statement-breakpoint
ALTER TABLE "shipping_settings" ADD COLUMN "fee_mode" text DEFAULT 'fixed' NOT NULL;--> statement-breakpoint
ALTER TABLE "shipping_settings" ADD COLUMN "neighborhoods" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "shipping_settings" ADD COLUMN "cep_ranges" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "shipping_settings" ADD COLUMN "distance_tiers" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "shipping_settings" ADD COLUMN "min_order_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "shipping_settings" ADD COLUMN "not_served_neighborhoods" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "shipping_settings" ADD COLUMN "not_served_cep_ranges" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "shipping_settings" ADD COLUMN "not_served_message" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "shipping_settings" ADD COLUMN "driver_fee_mode" text DEFAULT 'fixed' NOT NULL;--> statement-breakpoint
ALTER TABLE "shipping_settings" ADD COLUMN "driver_fixed_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "shipping_settings" ADD COLUMN "driver_per_km_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "shipping_settings" ADD COLUMN "driver_neighborhoods" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "shipping_settings" ADD COLUMN "is_default" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "carrier_accounts" ADD CONSTRAINT "carrier_accounts_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "carrier_accounts_client_carrier_uq" ON "carrier_accounts" USING btree ("client_id","carrier");--> statement-breakpoint
CREATE UNIQUE INDEX "shipping_settings_default_uq" ON "shipping_settings" USING btree ("client_id") WHERE "shipping_settings"."is_default";--> statement-breakpoint
ALTER TABLE "shipping_settings" ADD CONSTRAINT "shipping_settings_fee_mode_ck" CHECK ("shipping_settings"."fee_mode" in ('fixed', 'neighborhood', 'cep_range', 'distance'));--> statement-breakpoint
ALTER TABLE "shipping_settings" ADD CONSTRAINT "shipping_settings_driver_fee_mode_ck" CHECK ("shipping_settings"."driver_fee_mode" in ('fixed', 'per_km', 'neighborhood'));