import { and, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import type { Actor } from '../../lib/actor.ts';
import { products } from './schema.ts';

/** What freight quotes read of a product (the shipping module): weight (kg), box (cm) and price. */
type ProductDimensions = {
  id: number;
  name: string;
  salePriceCents: number;
  weightKg: number | null;
  heightCm: number | null;
  widthCm: number | null;
  lengthCm: number | null;
};

/** The client's products among `ids` with their weight and dimensions (another client's are absent). */
export async function productDimensions(
  db: Executor,
  actor: Actor,
  ids: number[],
): Promise<ProductDimensions[]> {
  if (ids.length === 0) return [];
  return db
    .select({
      id: products.id,
      name: products.name,
      salePriceCents: products.salePriceCents,
      weightKg: products.weightKg,
      heightCm: products.heightCm,
      widthCm: products.widthCm,
      lengthCm: products.lengthCm,
    })
    .from(products)
    .where(and(eq(products.clientId, actor.clientId), inArray(products.id, ids)));
}
