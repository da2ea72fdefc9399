import type { TableMenuProduct } from '@balcao/core/tableMenu';
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { additionalGroupsInOrder } from '../product-additional/service.ts';
import { categoryService } from '../product-category/service.ts';
import { groupIdsOf, groupProductCount } from './additionalGroups.ts';
import { imageUrls } from './imageUrls.ts';
import { productImages, products, productVariants } from './schema.ts';

/**
 * What the QR-code menu at the table offers (issue 35): the shop's active products in stock or made
 * to order (no stock control), by category and name, each with its first photo and its active add-on
 * groups (active items only), so the customer picks the required choices as at the PDV. Products sold
 * by variant (a grid of colour and size) or by weight are left out: the table page has no variant picker
 * and the customer no scale. Nothing
 * else of the product (cost, codes, stock) leaves.
 */
const offered = sql`${products.active}
  -- in stock, or made to order (no stock control: the kitchen's dishes)
  and (${products.stock} > 0 or not ${products.stockControl})
  -- sold by weight: the customer cannot weigh it (the waiter adds it from the scale)
  and ${products.productType} <> 'weighed'
  and not exists (select 1 from ${productVariants} v where v.product_id = ${products.id})`;

/** Which of these products the table's menu offers now (an order is checked against it, not the page). */
export async function tableMenuOffers(
  db: Executor,
  clientId: number,
  productIds: number[],
): Promise<Set<number>> {
  if (productIds.length === 0) return new Set();
  const rows = await db
    .select({ id: products.id })
    .from(products)
    .where(sql`${products.clientId} = ${clientId} and ${products.id} in ${productIds} and ${offered}`);
  return new Set(rows.map((r) => r.id));
}

export async function tableMenuProducts(db: Executor, clientId: number): Promise<TableMenuProduct[]> {
  const result = (await db.execute(sql`
    select ${products.id} as id, ${products.name} as name, ${products.salePriceCents} as "priceCents",
      ${categoryService.nameOf(products.categoryId)} as category,
      (select i.storage_key from ${productImages} i where i.product_id = ${products.id}
        order by i.position, i.id limit 1) as "storageKey",
      ${groupIdsOf(sql`${products.id}`)} as "groupIds"
    from ${products}
    where ${products.clientId} = ${clientId} and ${offered}
    order by 4 nulls last, 2
    limit 500`)) as unknown as {
    rows: {
      id: number;
      name: string;
      priceCents: number;
      category: string | null;
      storageKey: string | null;
      groupIds: number[] | string;
    }[];
  };
  const groupIdsOfRow = (value: number[] | string): number[] =>
    typeof value === 'string'
      ? value.replace(/[{}]/g, '').split(',').filter(Boolean).map(Number)
      : value.map(Number);
  const allIds = [...new Set(result.rows.flatMap((r) => groupIdsOfRow(r.groupIds)))];
  // One read of every group the menu offers (their items in it), active ones only.
  const groups = new Map(
    (await additionalGroupsInOrder(db, allIds, groupProductCount))
      .filter((g) => g.active)
      .map((g) => [
        g.id,
        {
          id: g.id,
          name: g.name,
          minQuantity: g.minQuantity,
          maxQuantity: g.maxQuantity,
          items: g.items
            .filter((i) => i.active)
            .map((i) => ({ id: i.id, name: i.name, priceCents: i.priceCents })),
        },
      ]),
  );
  return result.rows.map((r) => ({
    id: Number(r.id),
    name: r.name,
    priceCents: Number(r.priceCents),
    category: r.category,
    imageUrl: r.storageKey ? imageUrls(r.storageKey).thumbUrl : null,
    additionalGroups: groupIdsOfRow(r.groupIds).flatMap((id) => groups.get(id) ?? []),
  }));
}
