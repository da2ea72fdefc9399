import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { products } from './schema.ts';

/**
 * A product's category as a scalar subquery, for another module's statement (a comanda line keeps
 * its category so a send finds the production sector): no round trip of its own. The ids may be
 * values or the statement's own columns.
 */
export function productCategorySql(clientId: number | SQL, productId: number | SQL): SQL<number | null> {
  return sql<number | null>`(select ${products.categoryId} from ${products}
    where ${products.id} = ${productId} and ${products.clientId} = ${clientId})`;
}

/** The categories of some products of a client (a sale's lines routed to production sectors). */
export async function categoriesOfProducts(
  db: Executor,
  clientId: number,
  productIds: number[],
): Promise<Map<number, number | null>> {
  const ids = [...new Set(productIds)];
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: products.id, categoryId: products.categoryId })
    .from(products)
    .where(and(eq(products.clientId, clientId), inArray(products.id, ids)));
  return new Map(rows.map((r) => [r.id, r.categoryId]));
}
