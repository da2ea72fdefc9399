ALTER TABLE "fiscal_settings" ADD COLUMN "certificate_warned_on" text;--> statement-breakpoint
ALTER TABLE "fiscal_settings" ADD COLUMN "enabled_at" timestamp with time zone;--> statement-breakpoint
UPDATE "fiscal_settings" SET "enabled_at" = now() WHERE "enabled";