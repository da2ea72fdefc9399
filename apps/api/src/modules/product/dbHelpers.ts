import { STALE_MESSAGE } from '@balcao/core/product';
import { type AnyColumn, type SQL, sql } from 'drizzle-orm';
import { conflict } from '../../errors.ts';

/**
 * Optimistic concurrency: the row still has the `updatedAt` the client read.
 * Compared at millisecond precision (what JSON carries; PostgreSQL keeps microseconds).
 */
export function isSameVersion(column: AnyColumn, updatedAt: string): SQL {
  return sql`date_trunc('milliseconds', ${column}) = ${updatedAt}::timestamptz`;
}

export const staleEdit = () => conflict(STALE_MESSAGE);

type PgError = { code?: string; constraint?: string; constraint_name?: string; cause?: PgError };

/** The unique constraint a PostgreSQL error (PGlite or node-postgres, possibly wrapped by drizzle) broke. */
export function violatedUnique(error: unknown): string | undefined {
  let e = error as PgError | undefined;
  for (let depth = 0; e && depth < 4; depth++, e = e.cause) {
    if (e.code === '23505') return e.constraint ?? e.constraint_name ?? '';
  }
  return undefined;
}

export function isForeignKeyViolation(error: unknown): boolean {
  let e = error as PgError | undefined;
  for (let depth = 0; e && depth < 4; depth++, e = e.cause) if (e.code === '23503') return true;
  return false;
}

/** Runs a write, turning a unique violation of a known constraint into a 409 with its message. */
export async function mapUnique<T>(work: () => Promise<T>, messages: Record<string, string>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const constraint = violatedUnique(error);
    if (constraint !== undefined) {
      const message = messages[constraint];
      if (message) throw conflict(message);
    }
    throw error;
  }
}

/** numeric columns come back as numbers in 'number' mode; guard against strings from raw SQL. */
export const num = (v: unknown): number => (typeof v === 'number' ? v : Number(v ?? 0));
