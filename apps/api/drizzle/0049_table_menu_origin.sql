ALTER TABLE "comanda_table_qrs" ADD COLUMN "token_sealed" text;--> statement-breakpoint
ALTER TABLE "delivery_orders" ADD COLUMN "origin" text DEFAULT 'counter' NOT NULL;--> statement-breakpoint
ALTER TABLE "delivery_orders" ADD COLUMN "marketplace_courier" text;--> statement-breakpoint
ALTER TABLE "system_settings" ADD COLUMN "table_orders_direct" boolean DEFAULT false NOT NULL;