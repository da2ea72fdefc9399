ALTER TABLE "pix_refunds" ALTER COLUMN "sale_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "delivery_orders" ADD COLUMN "pix_end_to_end_id" text;--> statement-breakpoint
ALTER TABLE "pix_refunds" ADD COLUMN "charge_id" integer;--> statement-breakpoint
ALTER TABLE "pix_refunds" ADD CONSTRAINT "pix_refunds_charge_id_pix_charges_id_fk" FOREIGN KEY ("charge_id") REFERENCES "public"."pix_charges"("id") ON DELETE no action ON UPDATE no action;