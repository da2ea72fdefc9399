import { type SQL, sql } from 'drizzle-orm';
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
