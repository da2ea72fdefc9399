-- Trigram indexes (catalog search) need pg_trgm; drizzle-kit does not emit CREATE EXTENSION.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
