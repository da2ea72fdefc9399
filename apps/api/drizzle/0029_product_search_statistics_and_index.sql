-- Product search at scale (issue 21): a finer sample of search_text, so the planner estimates how
-- many products a word matches (LIKE '%word%' uses the histogram only when it has 100+ entries
-- that are not most-common values). With the default (100) every word was estimated at ~200 rows
-- at 1,000,000 products: a word matching 33,000 then went through the trigram index (30-120 ms)
-- instead of a sequential scan that stops at the 1,001st match.
ALTER TABLE "products" ALTER COLUMN "search_text" SET STATISTICS 1000;
--> statement-breakpoint
-- Product search at scale (issue 21): the (client, name) index carries the search text and the
-- active flag, so the search's walks in name order (modules/product/search.ts) and the capped
-- count of a common word read the index alone (index-only scans), not one heap row per product.
-- It replaces products_client_name_idx (same keys), which 0028 drops. Drizzle has no INCLUDE:
-- the index lives here, not in schema.ts.
CREATE INDEX IF NOT EXISTS "products_client_name_search_idx" ON "products" USING btree ("client_id", "name_key", "id") INCLUDE ("search_text", "active");
