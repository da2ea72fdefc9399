CREATE TABLE "payable_attachments" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"payable_id" integer NOT NULL,
	"file_name" text NOT NULL,
	"content_type" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"storage_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payable_series" ADD COLUMN "nfe_key" text;--> statement-breakpoint
ALTER TABLE "payable_attachments" ADD CONSTRAINT "payable_attachments_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payable_attachments" ADD CONSTRAINT "payable_attachments_payable_id_payables_id_fk" FOREIGN KEY ("payable_id") REFERENCES "public"."payables"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payable_attachments_payable_idx" ON "payable_attachments" USING btree ("payable_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "payable_series_client_nfe_uq" ON "payable_series" USING btree ("client_id","nfe_key") WHERE "payable_series"."nfe_key" is not null;