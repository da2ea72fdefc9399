ALTER TABLE "comanda_table_qrs" ADD COLUMN "token_sealed" text;--> statement-breakpoint
ALTER TABLE "system_settings" ADD COLUMN "table_orders_direct" boolean DEFAULT false NOT NULL;