ALTER TABLE "pix_accounts" ADD COLUMN "provider" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "pix_accounts" ADD COLUMN "environment" text DEFAULT 'production' NOT NULL;--> statement-breakpoint
ALTER TABLE "pix_accounts" ADD COLUMN "webhook_hmac_hash" text;--> statement-breakpoint
ALTER TABLE "sale_payments" ADD COLUMN "pix_end_to_end_id" text;--> statement-breakpoint
-- Accounts saved when the shop typed the PSP's URLs: the host picks the catalogue entry
-- (modules/pix/catalogue.ts) and environment; a host of none is left '' (the page asks for a PSP).
UPDATE "pix_accounts" SET
  "provider" = CASE
    WHEN "api_url" ~ '^https://pix(-h)?\.api\.efipay\.com\.br' THEN 'efi'
    WHEN "api_url" ~ '^https://(secure\.api\.itau|devportal\.itau\.com\.br)/' THEN 'itau'
    WHEN "api_url" ~ '^https://api(-pix)?(\.hm)?\.bb\.com\.br' THEN 'bb'
    WHEN "api_url" ~ '^https://api\.sicoob\.com\.br' THEN 'sicoob'
    WHEN "api_url" ~ '^https://cdpj(-sandbox)?\.partners\.(bancointer\.com\.br|uatinter\.co)' THEN 'inter'
    WHEN "api_url" ~ '^https://trust-pix(-h)?\.santander\.com\.br' THEN 'santander'
    WHEN "api_url" ~ '^https://(localhost|127\.0\.0\.1)[:/]' THEN 'fake'
    ELSE '' END,
  "environment" = CASE
    WHEN "api_url" ~ '^https://(pix-h\.|devportal\.itau|api(-pix)?\.hm\.bb|cdpj-sandbox\.|trust-pix-h\.)' THEN 'sandbox'
    ELSE 'production' END;--> statement-breakpoint
ALTER TABLE "pix_accounts" DROP COLUMN "api_url";--> statement-breakpoint
ALTER TABLE "pix_accounts" DROP COLUMN "token_url";--> statement-breakpoint
ALTER TABLE "pix_accounts" DROP COLUMN "scopes";--> statement-breakpoint
ALTER TABLE "pix_accounts" DROP COLUMN "token_format";