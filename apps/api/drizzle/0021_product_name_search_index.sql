-- Product search at scale (issue 21): the (client, name) index carries the search text and the
-- active flag, so the search's walks in name order (modules/product/search.ts) and the capped
-- count of a common word read the index alone (index-only scans), not one heap row per product.
-- It replaces products_client_name_idx (same keys), which 0020 drops. Drizzle has no INCLUDE:
-- the index lives here, not in schema.ts.
CREATE INDEX IF NOT EXISTS "products_client_name_search_idx" ON "products" USING btree ("client_id", "name_key", "id") INCLUDE ("search_text", "active");
