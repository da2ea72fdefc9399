import { withCheckDigit } from '@balcao/core/barcode';
import { productInputSchema } from '@balcao/core/product';
import { UserType } from '@balcao/core/userTypes';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import { adminOf } from '../../lib/actor.ts';
import { productIdsBySku } from '../product/find.ts';
import { insertProduct } from '../product/service.ts';
import { categoryService } from '../product-category/service.ts';
import { fractionate, registerEntry, registerExit } from './service.ts';

/** Demo EAN-13 of the stock seed (the catalog seed uses items below 900). */
const ean = (item: number) => withCheckDigit(`7899990${String(item).padStart(5, '0')}`);

/**
 * Demo stock (seed.ts SEED_STEPS, after the catalog): a 12-can pack to fractionate into cans, an
 * invoice entry of drinks, a breakage and one fractioning done by the Estoquista, so the history,
 * the stock card and the remembered ratio have something to show.
 */
export async function seedStock(db: Db, clientId: number): Promise<void> {
  const [stockist] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.clientId, clientId), eq(users.userTypeId, UserType.STOCKIST)))
    .limit(1);
  const actor = await adminOf(db, clientId);
  const bySku = await productIdsBySku(db, actor, ['BEB-001', 'BEB-003', 'BEB-004']);
  const can = bySku.get('BEB-001');
  const bottle = bySku.get('BEB-003');
  const guarana = bySku.get('BEB-004');
  if (!stockist || !can || !bottle || !guarana) return;

  const drinks = (await categoryService.idsByName(db, actor, [])).get('bebidas');
  const pack = await db.transaction((tx) =>
    insertProduct(
      tx,
      actor,
      productInputSchema.parse({
        name: 'Fardo Coca-Cola Lata 350 ml 12 un',
        sku: 'BEB-001-FD12',
        barcode: ean(900),
        salePriceCents: 6600,
        costPriceCents: 3600,
        categoryId: drinks ?? null,
        stock: 0,
        minStock: 1,
        description: 'Fardo fechado: fracione em latas na tela Fracionar',
      }),
    ),
  );

  const ctx = { clientId, userId: stockist.id };
  await registerEntry(db, ctx, {
    document: 'NF 4521',
    note: 'Distribuidora Bebidas Paulista',
    items: [
      { productId: pack, variantId: null, quantity: 6, unitCostCents: 3480 },
      { productId: guarana, variantId: null, quantity: 24, unitCostCents: 300 },
    ],
  });
  await registerExit(db, ctx, {
    reason: 'breakage',
    document: null,
    note: 'Garrafa caiu no estoque',
    items: [{ productId: bottle, variantId: null, quantity: 1 }],
  });
  await fractionate(db, ctx, {
    sourceProductId: pack,
    sourceVariantId: null,
    sourceQuantity: 1,
    targetProductId: can,
    targetVariantId: null,
    targetQuantity: 12,
    note: null,
  });
}
