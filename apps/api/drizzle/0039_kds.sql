CREATE TABLE "kds_screens" (
	"client_id" integer NOT NULL,
	"sector_id" integer NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "kds_screens_pk" PRIMARY KEY("client_id","sector_id")
);
--> statement-breakpoint
CREATE TABLE "kds_settings" (
	"client_id" integer PRIMARY KEY NOT NULL,
	"warn_minutes" integer DEFAULT 10 NOT NULL,
	"late_minutes" integer DEFAULT 20 NOT NULL,
	"silence_seconds" integer DEFAULT 60 NOT NULL,
	"updated_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "print_jobs" ADD COLUMN "items" jsonb;--> statement-breakpoint
ALTER TABLE "print_jobs" ADD COLUMN "ready_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "print_jobs" ADD COLUMN "ready_lines" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "print_jobs" ADD COLUMN "ready_by" integer;--> statement-breakpoint
ALTER TABLE "kds_screens" ADD CONSTRAINT "kds_screens_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kds_screens" ADD CONSTRAINT "kds_screens_sector_id_print_sectors_id_fk" FOREIGN KEY ("sector_id") REFERENCES "public"."print_sectors"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kds_settings" ADD CONSTRAINT "kds_settings_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kds_settings" ADD CONSTRAINT "kds_settings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "print_jobs" ADD CONSTRAINT "print_jobs_ready_by_users_id_fk" FOREIGN KEY ("ready_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "print_jobs_kds_idx" ON "print_jobs" USING btree ("client_id","sector_id","id") WHERE "print_jobs"."kind" = 'ticket';