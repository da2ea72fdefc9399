import { count, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import type { ProductCount } from '../billing/service.ts';
import { products } from './schema.ts';

/** How many products the shop has: what the billing plan limits (shown on the billing page, checked on create). */
export const countProducts: ProductCount = async (db: Executor, clientId: number) => {
  const [row] = await db.select({ n: count() }).from(products).where(eq(products.clientId, clientId));
  return Number(row?.n ?? 0);
};
