import { sql } from 'drizzle-orm';
import type { UsageCount } from '../../lib/namedCatalog.ts';
import { products } from './schema.ts';

/**
 * How many products use a category or a brand: the counts the category and brand modules show and
 * check before a delete, handed to them at wiring (modules/index.ts) because products reference them.
 */
export const productsInCategory: UsageCount = (categoryId, clientId) =>
  sql<number>`(select count(*)::int from ${products} where ${products.clientId} = ${clientId} and ${products.categoryId} = ${categoryId})`;

export const productsOfBrand: UsageCount = (brandId, clientId) =>
  sql<number>`(select count(*)::int from ${products} where ${products.clientId} = ${clientId} and ${products.brandId} = ${brandId})`;
