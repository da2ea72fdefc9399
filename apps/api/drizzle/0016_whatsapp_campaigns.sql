CREATE TABLE "campaign_categories" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"name" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "campaign_recipients" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"campaign_id" integer NOT NULL,
	"customer_id" integer,
	"name" text NOT NULL,
	"phone" text NOT NULL,
	"text" text NOT NULL,
	"status" text DEFAULT 'waiting' NOT NULL,
	"reason" text,
	"message_id" text,
	"claimed_at" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "campaign_recipients_status_ck" CHECK ("campaign_recipients"."status" in ('waiting', 'sending', 'success', 'failed', 'skipped'))
);
--> statement-breakpoint
CREATE TABLE "campaign_senders" (
	"client_id" integer PRIMARY KEY NOT NULL,
	"next_send_at" timestamp with time zone DEFAULT now() NOT NULL,
	"since_break" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "campaigns" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"category_id" integer,
	"coupon_id" integer,
	"name" text NOT NULL,
	"message" text NOT NULL,
	"image_url" text,
	"audience" jsonb NOT NULL,
	"pacing" jsonb NOT NULL,
	"scheduled_at" timestamp with time zone,
	"status" text DEFAULT 'draft' NOT NULL,
	"pause_reason" text,
	"failures_in_row" integer DEFAULT 0 NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"created_by_user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "campaigns_status_ck" CHECK ("campaigns"."status" in ('draft', 'scheduled', 'running', 'paused', 'finished', 'canceled'))
);
--> statement-breakpoint
CREATE TABLE "whatsapp_opt_outs" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"phone" text NOT NULL,
	"source" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "whatsapp_instances" ADD COLUMN "instance_key" text;--> statement-breakpoint
ALTER TABLE "whatsapp_instances" ADD COLUMN "webhook_token_hash" text;--> statement-breakpoint
ALTER TABLE "whatsapp_instances" ADD COLUMN "profile_name" text;--> statement-breakpoint
ALTER TABLE "whatsapp_instances" ADD COLUMN "profile_picture_url" text;--> statement-breakpoint
ALTER TABLE "campaign_categories" ADD CONSTRAINT "campaign_categories_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_recipients" ADD CONSTRAINT "campaign_recipients_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_recipients" ADD CONSTRAINT "campaign_recipients_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_recipients" ADD CONSTRAINT "campaign_recipients_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_senders" ADD CONSTRAINT "campaign_senders_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_category_id_campaign_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."campaign_categories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_coupon_id_coupons_id_fk" FOREIGN KEY ("coupon_id") REFERENCES "public"."coupons"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "whatsapp_opt_outs" ADD CONSTRAINT "whatsapp_opt_outs_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "campaign_categories_client_name_uq" ON "campaign_categories" USING btree ("client_id",lower("name"));--> statement-breakpoint
CREATE INDEX "campaign_categories_client_idx" ON "campaign_categories" USING btree ("client_id");--> statement-breakpoint
CREATE UNIQUE INDEX "campaign_recipients_campaign_phone_uq" ON "campaign_recipients" USING btree ("campaign_id","phone");--> statement-breakpoint
CREATE INDEX "campaign_recipients_campaign_status_idx" ON "campaign_recipients" USING btree ("campaign_id","status","id");--> statement-breakpoint
CREATE INDEX "campaign_recipients_client_claimed_idx" ON "campaign_recipients" USING btree ("client_id","claimed_at");--> statement-breakpoint
CREATE INDEX "campaigns_client_idx" ON "campaigns" USING btree ("client_id","created_at");--> statement-breakpoint
CREATE INDEX "campaigns_status_idx" ON "campaigns" USING btree ("status");--> statement-breakpoint
CREATE UNIQUE INDEX "whatsapp_opt_outs_client_phone_uq" ON "whatsapp_opt_outs" USING btree ("client_id","phone");--> statement-breakpoint
CREATE INDEX "whatsapp_opt_outs_client_idx" ON "whatsapp_opt_outs" USING btree ("client_id");