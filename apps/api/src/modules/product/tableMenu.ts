import type { TableMenuProduct } from '@balcao/core/tableMenu';
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { categoryService } from '../product-category/service.ts';
import { imageUrls } from './imageUrls.ts';
import { productImages, products } from './schema.ts';

/**
 * What the QR-code menu at the table offers (issue 35): the shop's active products with stock, by
 * category and name, each with its first photo. Nothing else of the product (cost, codes, stock) leaves.
 */
export async function tableMenuProducts(db: Executor, clientId: number): Promise<TableMenuProduct[]> {
  const result = (await db.execute(sql`
    select ${products.id} as id, ${products.name} as name, ${products.salePriceCents} as "priceCents",
      ${categoryService.nameOf(products.categoryId)} as category,
      (select i.storage_key from ${productImages} i where i.product_id = ${products.id}
        order by i.position, i.id limit 1) as "storageKey"
    from ${products}
    where ${products.clientId} = ${clientId} and ${products.active} and ${products.stock} > 0
    order by 4 nulls last, 2
    limit 500`)) as unknown as {
    rows: {
      id: number;
      name: string;
      priceCents: number;
      category: string | null;
      storageKey: string | null;
    }[];
  };
  return result.rows.map((r) => ({
    id: Number(r.id),
    name: r.name,
    priceCents: Number(r.priceCents),
    category: r.category,
    imageUrl: r.storageKey ? imageUrls(r.storageKey).thumbUrl : null,
  }));
}
