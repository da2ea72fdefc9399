import { CHANGES_MARGIN_MS, type Changes, type ChangesQueryParsed } from '@balcao/core/offline';
import type { Product } from '@balcao/core/product';
import { and, asc, eq, gt, gte, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Actor } from '../../lib/actor.ts';
import { findProduct } from './find.ts';
import { productDeletions, products, productVariants } from './schema.ts';

/**
 * GET /v1/product/changes (issue 21): the whole products (variants, prices, barcodes, add-on groups,
 * stock level) changed since `since`, by id, and the ids deleted since. Without `since`, every
 * product. A product changed when it or one of its variants was edited (updated_at), or when a stock
 * movement (a sale at any till, an entry, an adjustment) moved its level (stock_changed_at).
 */
export async function productChanges(
  db: Db,
  actor: Actor,
  query: ChangesQueryParsed,
): Promise<Changes<Product>> {
  const { clientId } = actor;
  const until = new Date();
  const since = query.since ? new Date(new Date(query.since).getTime() - CHANGES_MARGIN_MS) : null;
  const changed = since
    ? or(
        gte(products.updatedAt, since),
        gte(products.stockChangedAt, since),
        sql`exists (select 1 from ${productVariants} v where v.product_id = ${products.id} and v.updated_at >= ${since.toISOString()})`,
      )
    : undefined;
  const ids = await db
    .select({ id: products.id })
    .from(products)
    .where(and(eq(products.clientId, clientId), gt(products.id, query.afterId), changed))
    .orderBy(asc(products.id))
    .limit(query.limit + 1);
  const page = ids.slice(0, query.limit);
  const items: Product[] = [];
  for (const { id } of page) items.push(await findProduct(db, actor, id));
  const deletedIds =
    since && query.afterId === 0
      ? (
          await db
            .select({ id: productDeletions.productId })
            .from(productDeletions)
            .where(and(eq(productDeletions.clientId, clientId), gte(productDeletions.deletedAt, since)))
        ).map((r) => r.id)
      : [];
  return {
    items,
    deletedIds,
    until: until.toISOString(),
    nextAfterId: ids.length > query.limit ? page[page.length - 1].id : null,
  };
}
