CREATE TABLE "cash_drawer_openings" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"cash_register_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"reason" text NOT NULL,
	"key" text NOT NULL,
	"print_job_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cash_drawer_openings_reason_ck" CHECK ("cash_drawer_openings"."reason" in ('sale', 'withdrawal', 'manual'))
);
--> statement-breakpoint
CREATE TABLE "print_agents" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"name" text NOT NULL,
	"profile_ids" jsonb NOT NULL,
	"pairing_code_hash" text,
	"pairing_expires_at" timestamp with time zone,
	"token_hash" text,
	"printer_state" text DEFAULT 'unknown' NOT NULL,
	"printer_message" text,
	"held_jobs" integer DEFAULT 0 NOT NULL,
	"created_by" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"paired_at" timestamp with time zone,
	"last_seen_at" timestamp with time zone,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "cash_drawer_openings" ADD CONSTRAINT "cash_drawer_openings_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cash_drawer_openings" ADD CONSTRAINT "cash_drawer_openings_cash_register_id_cash_registers_id_fk" FOREIGN KEY ("cash_register_id") REFERENCES "public"."cash_registers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cash_drawer_openings" ADD CONSTRAINT "cash_drawer_openings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "print_agents" ADD CONSTRAINT "print_agents_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "print_agents" ADD CONSTRAINT "print_agents_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "cash_drawer_openings_key_uq" ON "cash_drawer_openings" USING btree ("client_id","key");--> statement-breakpoint
CREATE INDEX "cash_drawer_openings_register_idx" ON "cash_drawer_openings" USING btree ("cash_register_id","created_at");--> statement-breakpoint
CREATE INDEX "print_agents_client_idx" ON "print_agents" USING btree ("client_id");--> statement-breakpoint
CREATE UNIQUE INDEX "print_agents_code_uq" ON "print_agents" USING btree ("pairing_code_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "print_agents_token_uq" ON "print_agents" USING btree ("token_hash");