ALTER TABLE "delivery_orders" ADD COLUMN "cash_register_id" integer;--> statement-breakpoint
ALTER TABLE "delivery_orders" ADD COLUMN "float_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "delivery_settings" ADD COLUMN "accept_outside_hours" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "driver_settlements" ADD COLUMN "cash_register_id" integer;--> statement-breakpoint
ALTER TABLE "delivery_orders" ADD CONSTRAINT "delivery_orders_cash_register_id_cash_registers_id_fk" FOREIGN KEY ("cash_register_id") REFERENCES "public"."cash_registers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "driver_settlements" ADD CONSTRAINT "driver_settlements_cash_register_id_cash_registers_id_fk" FOREIGN KEY ("cash_register_id") REFERENCES "public"."cash_registers"("id") ON DELETE no action ON UPDATE no action;