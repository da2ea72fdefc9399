CREATE TABLE "customer_deletions" (
	"client_id" integer NOT NULL,
	"customer_id" integer NOT NULL,
	"deleted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "customer_deletions" ADD CONSTRAINT "customer_deletions_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "customer_deletions_client_idx" ON "customer_deletions" USING btree ("client_id","deleted_at");