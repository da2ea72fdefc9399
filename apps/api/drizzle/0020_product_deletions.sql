CREATE TABLE "product_deletions" (
	"client_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"deleted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "product_deletions" ADD CONSTRAINT "product_deletions_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "product_deletions_client_idx" ON "product_deletions" USING btree ("client_id","deleted_at");