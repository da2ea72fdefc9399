import { type SQL, sql } from 'drizzle-orm';
import { products } from './schema.ts';

/**
 * A product's cost per unit (cents) as a scalar subquery for another module's statement (the DRE's CMV,
 * issue 34): the cost the product holds today (0 when unknown or deleted).
 */
export function productCostSql(productId: SQL): SQL<number> {
  return sql<number>`coalesce((select ${products.costPriceCents} from ${products} where ${products.id} = ${productId}), 0)`;
}
