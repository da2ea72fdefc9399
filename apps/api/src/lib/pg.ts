import { type AnyColumn, type SQL, sql } from 'drizzle-orm';

/**
 * Optimistic concurrency: the row still has the `updatedAt` the client read, compared at
 * millisecond precision (what JSON carries; PostgreSQL keeps microseconds).
 */
export function isSameVersion(column: AnyColumn, updatedAt: string): SQL {
  return sql`date_trunc('milliseconds', ${column}) = ${updatedAt}::timestamptz`;
}

/** True when `text` is a timestamp PostgreSQL and JS both read (what `updatedAt` must be). */
export function isTimestamp(text: string): boolean {
  return /^\d{4}-\d{2}-\d{2}T/.test(text) && !Number.isNaN(Date.parse(text));
}

type PgError = { code?: string; constraint?: string; constraint_name?: string; cause?: PgError };

function pgCode(error: unknown, code: string): PgError | undefined {
  let e = error as PgError | undefined;
  for (let depth = 0; e && depth < 4; depth++, e = e.cause) if (e.code === code) return e;
  return undefined;
}

/** The unique constraint broken by a PostgreSQL error (PGlite or node-postgres, maybe wrapped by drizzle). */
export function violatedUnique(error: unknown): string | undefined {
  const e = pgCode(error, '23505');
  return e ? (e.constraint ?? e.constraint_name ?? '') : undefined;
}

export const isForeignKeyViolation = (error: unknown): boolean => pgCode(error, '23503') !== undefined;
