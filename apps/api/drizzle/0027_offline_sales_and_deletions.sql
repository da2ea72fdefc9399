CREATE TABLE "customer_deletions" (
	"client_id" integer NOT NULL,
	"customer_id" integer NOT NULL,
	"deleted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "product_deletions" (
	"client_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"deleted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "cash_register_movements" ADD COLUMN "client_movement_id" text;--> statement-breakpoint
ALTER TABLE "sales" ADD COLUMN "made_offline" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "sales" ADD COLUMN "synced_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sales" ADD COLUMN "offline_flags" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "customer_deletions" ADD CONSTRAINT "customer_deletions_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_deletions" ADD CONSTRAINT "product_deletions_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "customer_deletions_client_idx" ON "customer_deletions" USING btree ("client_id","deleted_at");--> statement-breakpoint
CREATE INDEX "product_deletions_client_idx" ON "product_deletions" USING btree ("client_id","deleted_at");--> statement-breakpoint
CREATE UNIQUE INDEX "cash_register_movements_client_movement_uq" ON "cash_register_movements" USING btree ("client_id","client_movement_id");