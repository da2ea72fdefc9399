import { type ListQuery, type ListResult, parseSort, type SortSpec } from '@balcao/core/list';
import { type AnyColumn, asc, desc, ilike, or, type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from '../db/client.ts';
import { AppError } from '../errors.ts';

/** LIMIT/OFFSET of a list query. */
export function pageWindow(query: Pick<ListQuery, 'page' | 'pageSize'>): { limit: number; offset: number } {
  return { limit: query.pageSize, offset: (query.page - 1) * query.pageSize };
}

/**
 * ORDER BY from the list's `sort` ("name" / "-name") over the columns a list allows.
 * An unknown field is a 400 with a Portuguese message. `id` is always the tie-breaker so pages are stable.
 */
export function orderByOf<F extends string>(
  sort: string | undefined,
  columns: Record<F, AnyColumn | SQL>,
  fallback: SortSpec<NoInfer<F>>,
  idColumn?: AnyColumn,
): SQL[] {
  const spec = parseSort(sort, Object.keys(columns) as F[], fallback);
  if (!spec)
    throw new AppError(400, `Ordenação inválida: use um destes campos: ${Object.keys(columns).join(', ')}`);
  const column = columns[spec.field];
  const order = [spec.direction === 'desc' ? desc(column) : asc(column)];
  if (idColumn) order.push(spec.direction === 'desc' ? desc(idColumn) : asc(idColumn));
  return order;
}

/** Escapes LIKE wildcards in user text. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** `q` matched as a case-insensitive substring of any of the columns (undefined when no q). */
export function searchAny(q: string | undefined, columns: (AnyColumn | SQL)[]): SQL | undefined {
  if (!q) return undefined;
  const pattern = `%${escapeLike(q)}%`;
  return or(...columns.map((c) => ilike(c, pattern)));
}

/** The list answer (DESIGN.md). */
export function listResult<T>(
  items: T[],
  total: number,
  query: Pick<ListQuery, 'page' | 'pageSize'>,
): ListResult<T> {
  return { items, total: Number(total), page: query.page, pageSize: query.pageSize };
}

/** `count(*)` as a number on both PGlite and node-postgres. */
export const countAll = sql<number>`count(*)::int`;

/** How many rows of `table` match `where` (a list's total). */
export async function countRows(db: Executor, table: PgTable, where: SQL | undefined): Promise<number> {
  const [{ total }] = await db.select({ total: countAll }).from(table).where(where);
  return total;
}
