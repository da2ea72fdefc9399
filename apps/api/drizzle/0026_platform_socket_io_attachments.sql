-- socket.io's PostgreSQL adapter (plugins/socket.ts, several API instances): messages over NOTIFY's
-- 8000-byte limit travel through this table; the adapter deletes rows older than 30 s. The table
-- shape is the adapter's own (https://socket.io/docs/v4/postgres-adapter/). Unused on PGlite.
CREATE TABLE IF NOT EXISTS "socket_io_attachments" (
	"id" bigserial UNIQUE,
	"created_at" timestamptz DEFAULT now(),
	"payload" bytea
);
