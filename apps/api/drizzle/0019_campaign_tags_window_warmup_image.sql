ALTER TABLE "whatsapp_instances" ADD COLUMN "warmup_phone" text;--> statement-breakpoint
ALTER TABLE "whatsapp_instances" ADD COLUMN "warmup_started_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "image_key" text;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "tags" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
CREATE INDEX "customers_tags_idx" ON "customers" USING gin ("tags");