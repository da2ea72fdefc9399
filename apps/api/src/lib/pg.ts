import { type AnyColumn, type Column, getTableColumns, type SQL, sql, type Table } from 'drizzle-orm';
import { duplicate } from '../errors.ts';

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

/** A numeric column as a number: 'number' mode columns already are; raw SQL may give strings. */
export const num = (v: unknown): number => (typeof v === 'number' ? v : Number(v ?? 0));

type PgError = { code?: string; constraint?: string; constraint_name?: string; cause?: PgError };

/** The PostgreSQL error with this SQLSTATE in the chain (drizzle wraps the driver's error in `cause`). */
export function pgCode(error: unknown, code: string): PgError | undefined {
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

/** Runs a write, turning a unique violation of a known constraint into a 409 `duplicate` with its message. */
export async function mapUnique<T>(work: () => Promise<T>, messages: Record<string, string>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const constraint = violatedUnique(error);
    if (constraint !== undefined) {
      const message = messages[constraint];
      if (message) throw duplicate(message);
    }
    throw error;
  }
}

/**
 * `INSERT INTO table (columns) SELECT columns FROM jsonb_populate_recordset(...)`: many rows in one
 * statement with one parameter (the rows as JSON, keys = the table's column names). For hot paths:
 * the database parses the JSON, so the driver and the query builder handle one value instead of one
 * per cell. At least one row. The columns are the keys of the first row (all rows must have the
 * same keys); columns left out take their defaults. Usable as a CTE body (`with x as (${...} returning id) ...`).
 */
export function insertJsonRows<T extends Table>(table: T, rows: Partial<T['$inferInsert']>[]): SQL {
  if (rows.length === 0) throw new Error('insertJsonRows: no rows to insert');
  const columns = getTableColumns(table) as Record<string, Column>;
  const keys = Object.keys(rows[0]).filter((k) => columns[k]);
  const names = sql.raw(keys.map((k) => `"${columns[k].name}"`).join(', '));
  const records = rows.map((row) =>
    Object.fromEntries(keys.map((k) => [columns[k].name, (row as Record<string, unknown>)[k] ?? null])),
  );
  return sql`insert into ${table} (${names}) select ${names}
    from jsonb_populate_recordset(null::${table}, ${JSON.stringify(records)}::jsonb)`;
}
