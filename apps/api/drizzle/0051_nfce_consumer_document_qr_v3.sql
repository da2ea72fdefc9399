ALTER TABLE "fiscal_settings" ADD COLUMN "qr_code_version" integer DEFAULT 2 NOT NULL;--> statement-breakpoint
ALTER TABLE "sales" ADD COLUMN "consumer_document" text;