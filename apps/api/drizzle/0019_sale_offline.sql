ALTER TABLE "sales" ADD COLUMN "made_offline" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "sales" ADD COLUMN "synced_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sales" ADD COLUMN "offline_flags" jsonb DEFAULT '[]'::jsonb NOT NULL;