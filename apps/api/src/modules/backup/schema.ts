import { bigint, boolean, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The instance's backups (issue 37): one row per attempt, the file under DATA_DIR/backups (and in the
 * S3 bucket when configured). Instance-wide, not a shop's: the database holds every shop.
 */
export const backups = pgTable('backups', {
  id: serial('id').primaryKey(),
  /**
   * The shop a per-shop backup belongs to (PostgreSQL shared by several shops: that shop's export ZIP,
   * listed on its Backups page only); null for a backup of the whole database (the operator's).
   */
  clientId: integer('client_id'),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'string' }).notNull().defaultNow(),
  /** manual | scheduled | pre-upgrade */
  kind: text('kind').notNull(),
  /** pglite (the data folder as .tar.gz) | postgres (pg_dump's custom format) | shop (one shop's export ZIP) */
  engine: text('engine').notNull(),
  fileName: text('file_name').notNull(),
  sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull().default(0),
  /** ok | failed */
  status: text('status').notNull(),
  /** Restored into a scratch database and every table's row count matched the source's at dump time. */
  verified: boolean('verified').notNull().default(false),
  /** Table -> rows at dump time. */
  rowCounts: jsonb('row_counts').$type<Record<string, number>>().notNull().default({}),
  uploaded: boolean('uploaded').notNull().default(false),
  durationMs: integer('duration_ms').notNull().default(0),
  error: text('error'),
});

/** The nightly backup's setting (one row, id 1): edited on Configurações > Sistema. */
export const backupSchedule = pgTable('backup_schedule', {
  id: integer('id').primaryKey(),
  enabled: boolean('enabled').notNull().default(true),
  /** The hour (0-23) on the first shop's clock; 3 h by default, when no shop sells. */
  hour: integer('hour').notNull().default(3),
});
