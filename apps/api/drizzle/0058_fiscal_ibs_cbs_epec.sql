ALTER TABLE "fiscal_notes" DROP CONSTRAINT "fiscal_notes_status_ck";--> statement-breakpoint
ALTER TABLE "fiscal_notes" ADD COLUMN "epec_xml" text;--> statement-breakpoint
ALTER TABLE "fiscal_notes" ADD COLUMN "epec_protocol" text;--> statement-breakpoint
ALTER TABLE "fiscal_settings" ADD COLUMN "ibs_cbs_mode" text DEFAULT 'auto' NOT NULL;--> statement-breakpoint
ALTER TABLE "fiscal_notes" ADD CONSTRAINT "fiscal_notes_status_ck" CHECK ("fiscal_notes"."status" in ('pending', 'contingency', 'epec', 'queued', 'authorised', 'rejected', 'canceled', 'voided'));