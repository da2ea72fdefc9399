-- Product search at scale (issue 21): a finer sample of search_text, so the planner estimates how
-- many products a word matches (LIKE '%word%' uses the histogram only when it has 100+ entries
-- that are not most-common values). With the default (100) every word was estimated at ~200 rows
-- at 1,000,000 products: a word matching 33,000 then went through the trigram index (30-120 ms)
-- instead of a sequential scan that stops at the 1,001st match.
ALTER TABLE "products" ALTER COLUMN "search_text" SET STATISTICS 1000;
