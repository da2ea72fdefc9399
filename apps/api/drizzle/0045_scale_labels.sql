ALTER TABLE "clients" ADD COLUMN "scale_label_enabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "scale_code_length" integer DEFAULT 5 NOT NULL;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "scale_label_content" text DEFAULT 'price' NOT NULL;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "scale_rounding" text DEFAULT 'round' NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "scale_code" text;--> statement-breakpoint
CREATE UNIQUE INDEX "products_client_scale_code_uq" ON "products" USING btree ("client_id","scale_code");