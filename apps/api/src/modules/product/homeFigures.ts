import { and, count, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import type { Actor } from '../../lib/actor.ts';
import { lowStockCondition } from './list.ts';
import { products } from './schema.ts';

/** How many products are at or below their minimum stock (the home's card; the list's lowStock filter). */
export async function lowStockCount(db: Executor, actor: Actor): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(products)
    .where(and(eq(products.clientId, actor.clientId), lowStockCondition));
  return Number(row?.n ?? 0);
}

/** The current names of some products of the client (a best-sellers list names what it counted). */
export async function productNames(db: Executor, actor: Actor, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: products.id, name: products.name })
    .from(products)
    .where(and(eq(products.clientId, actor.clientId), inArray(products.id, ids)));
  return new Map(rows.map((r) => [r.id, r.name]));
}
