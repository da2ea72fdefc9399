CREATE TABLE "coupon_uses" (
	"id" serial PRIMARY KEY NOT NULL,
	"coupon_id" integer NOT NULL,
	"client_id" integer NOT NULL,
	"sale_id" integer,
	"customer_id" integer,
	"discount_cents" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"canceled_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "coupons" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"code" text NOT NULL,
	"discount_type" text NOT NULL,
	"discount_value_hundredths" integer NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"is_single_use" boolean DEFAULT false NOT NULL,
	"max_uses_per_user" integer DEFAULT 0 NOT NULL,
	"min_sale_amount_cents" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "coupons_discount_type_ck" CHECK ("coupons"."discount_type" in ('PERCENTAGE', 'FIXED_AMOUNT')),
	CONSTRAINT "coupons_status_ck" CHECK ("coupons"."status" in ('active', 'inactive', 'deleted')),
	CONSTRAINT "coupons_discount_value_ck" CHECK ("coupons"."discount_value_hundredths" > 0 and ("coupons"."discount_type" <> 'PERCENTAGE' or "coupons"."discount_value_hundredths" <= 10000)),
	CONSTRAINT "coupons_max_uses_ck" CHECK ("coupons"."max_uses_per_user" >= 0),
	CONSTRAINT "coupons_min_sale_ck" CHECK ("coupons"."min_sale_amount_cents" >= 0),
	CONSTRAINT "coupons_dates_ck" CHECK ("coupons"."end_date" >= "coupons"."start_date")
);
--> statement-breakpoint
ALTER TABLE "coupon_uses" ADD CONSTRAINT "coupon_uses_coupon_id_coupons_id_fk" FOREIGN KEY ("coupon_id") REFERENCES "public"."coupons"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coupon_uses" ADD CONSTRAINT "coupon_uses_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coupons" ADD CONSTRAINT "coupons_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "coupon_uses_coupon_idx" ON "coupon_uses" USING btree ("coupon_id","customer_id");--> statement-breakpoint
CREATE INDEX "coupon_uses_client_sale_idx" ON "coupon_uses" USING btree ("client_id","sale_id");--> statement-breakpoint
CREATE UNIQUE INDEX "coupons_client_code_uq" ON "coupons" USING btree ("client_id",lower("code")) WHERE "coupons"."status" <> 'deleted';--> statement-breakpoint
CREATE INDEX "coupons_client_status_idx" ON "coupons" USING btree ("client_id","status");