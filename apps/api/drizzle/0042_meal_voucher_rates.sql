CREATE TABLE "meal_voucher_rates" (
	"client_id" integer NOT NULL,
	"method" text NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"rate_bp" integer DEFAULT 0 NOT NULL,
	"settlement_days" integer DEFAULT 30 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "meal_voucher_rates_client_id_method_pk" PRIMARY KEY("client_id","method"),
	CONSTRAINT "meal_voucher_rates_rate_ck" CHECK ("meal_voucher_rates"."rate_bp" between 0 and 9999),
	CONSTRAINT "meal_voucher_rates_days_ck" CHECK ("meal_voucher_rates"."settlement_days" between 0 and 60)
);
--> statement-breakpoint
ALTER TABLE "meal_voucher_rates" ADD CONSTRAINT "meal_voucher_rates_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;