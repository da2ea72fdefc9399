import {
  gridCombinations,
  type ProductGridInput,
  type ProductVariant,
  type productVariantUpdateSchema,
  skuPart,
} from '@balcao/core/product';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db, Executor } from '../../db/client.ts';
import { notFound } from '../../errors.ts';
import { type Actor, actInTransaction } from '../../lib/actor.ts';
import { isSameVersion, mapUnique } from '../../lib/pg.ts';
import { assertNotStale } from '../../lib/version.ts';
import { findProduct, PRODUCT_NOT_FOUND } from './find.ts';
import { assertCodesFree, invalidField, refreshDerived, UNIQUE } from './rules.ts';
import { productGridColors, productGridSizes, products, productVariants } from './schema.ts';

/** The variants grid: colours x sizes of a product with variants, and each variant's own data. */

type VariantUpdate = z.output<typeof productVariantUpdateSchema>;

type GridRow = { id: number; name: string };

/** Keeps rows whose name (ignoring case) stays, inserts new ones, removes the rest; returns name -> id. */
async function syncNames(
  tx: Executor,
  table: typeof productGridColors | typeof productGridSizes,
  clientId: number,
  productId: number,
  names: string[],
): Promise<Map<string, number>> {
  const t = table as typeof productGridColors;
  const existing: GridRow[] = await tx
    .select({ id: t.id, name: t.name })
    .from(t)
    .where(eq(t.productId, productId));
  const byKey = new Map(existing.map((r) => [r.name.toLocaleLowerCase('pt-BR'), r]));
  const wanted = new Set(names.map((n) => n.toLocaleLowerCase('pt-BR')));
  const removed = existing.filter((r) => !wanted.has(r.name.toLocaleLowerCase('pt-BR'))).map((r) => r.id);
  if (removed.length) await tx.delete(t).where(inArray(t.id, removed));
  const ids = new Map<string, number>();
  for (const [position, name] of names.entries()) {
    const key = name.toLocaleLowerCase('pt-BR');
    const row = byKey.get(key);
    if (row) {
      await tx.update(t).set({ name, position }).where(eq(t.id, row.id));
      ids.set(key, row.id);
    } else {
      const [inserted] = await tx
        .insert(t)
        .values({ clientId, productId, name, position })
        .returning({ id: t.id });
      ids.set(key, inserted.id);
    }
  }
  return ids;
}

/**
 * Generates the grid: one variant per colour x size. Variants of combinations that stay keep
 * their SKU, barcode, price and stock; new ones get a SKU derived from the product's
 * ("CAM-AZUL-M") when it is free; combinations that left are removed.
 */
export async function saveGrid(
  tx: Executor,
  clientId: number,
  productId: number,
  grid: { colors: string[]; sizes: string[] },
) {
  const [product] = await tx.select({ sku: products.sku }).from(products).where(eq(products.id, productId));
  const colorIds = await syncNames(tx, productGridColors, clientId, productId, grid.colors);
  const sizeIds = await syncNames(tx, productGridSizes, clientId, productId, grid.sizes);
  const combos = gridCombinations(grid.colors, grid.sizes).map((c) => ({
    ...c,
    colorId: c.color === null ? null : (colorIds.get(c.color.toLocaleLowerCase('pt-BR')) ?? null),
    sizeId: c.size === null ? null : (sizeIds.get(c.size.toLocaleLowerCase('pt-BR')) ?? null),
  }));
  const comboKey = (colorId: number | null, sizeId: number | null) => `${colorId ?? 0}:${sizeId ?? 0}`;
  const existing = await tx
    .select({ id: productVariants.id, colorId: productVariants.colorId, sizeId: productVariants.sizeId })
    .from(productVariants)
    .where(eq(productVariants.productId, productId));
  const wanted = new Set(combos.map((c) => comboKey(c.colorId, c.sizeId)));
  const stale = existing.filter((v) => !wanted.has(comboKey(v.colorId, v.sizeId))).map((v) => v.id);
  if (stale.length) await tx.delete(productVariants).where(inArray(productVariants.id, stale));
  const have = new Set(existing.map((v) => comboKey(v.colorId, v.sizeId)));
  const fresh = combos.filter((c) => !have.has(comboKey(c.colorId, c.sizeId)));
  if (fresh.length === 0) return;

  const skuOf = (c: (typeof fresh)[number]) =>
    product.sku
      ? [product.sku, c.color && skuPart(c.color), c.size && skuPart(c.size)].filter(Boolean).join('-')
      : null;
  const candidates = fresh.map(skuOf).filter((s): s is string => Boolean(s));
  const taken = new Set<string>();
  if (candidates.length) {
    const lower = candidates.map((s) => s.toLowerCase());
    const [p, v] = await Promise.all([
      tx
        .select({ sku: products.sku })
        .from(products)
        .where(and(eq(products.clientId, clientId), inArray(sql`lower(${products.sku})`, lower))),
      tx
        .select({ sku: productVariants.sku })
        .from(productVariants)
        .where(
          and(eq(productVariants.clientId, clientId), inArray(sql`lower(${productVariants.sku})`, lower)),
        ),
    ]);
    for (const row of [...p, ...v]) if (row.sku) taken.add(row.sku.toLowerCase());
  }
  await tx.insert(productVariants).values(
    fresh.map((c) => {
      const sku = skuOf(c);
      return {
        clientId,
        productId,
        colorId: c.colorId,
        sizeId: c.sizeId,
        sku: sku && !taken.has(sku.toLowerCase()) ? sku : null,
      };
    }),
  );
}

async function assertVariantsProduct(tx: Executor, clientId: number, productId: number) {
  const [p] = await tx
    .select({ productType: products.productType })
    .from(products)
    .where(and(eq(products.clientId, clientId), eq(products.id, productId)));
  if (!p) throw notFound(PRODUCT_NOT_FOUND);
  if (p.productType !== 'variants')
    throw invalidField(
      'productType',
      'Mude o tipo do produto para "Com variações (grade)" antes de gerar a grade',
    );
}

/** PUT /product/:id/grid: regenerates the variants from the chosen colours and sizes. */
export async function setGrid(db: Db, actor: Actor, productId: number, grid: ProductGridInput) {
  const clientId = actor.clientId;
  const g = { colors: grid.colors ?? [], sizes: grid.sizes ?? [] };
  await mapUnique(
    () =>
      db.transaction(async (tx) => {
        await assertVariantsProduct(tx, clientId, productId);
        await saveGrid(tx, clientId, productId, g);
        await refreshDerived(tx, productId);
      }),
    UNIQUE,
  );
  return findProduct(db, actor, productId);
}

/** DELETE /product/:id/grid: removes colours, sizes and variants. */
export async function clearGrid(db: Db, actor: Actor, productId: number) {
  const clientId = actor.clientId;
  await db.transaction(async (tx) => {
    const [p] = await tx
      .select({ id: products.id })
      .from(products)
      .where(and(eq(products.clientId, clientId), eq(products.id, productId)));
    if (!p) throw notFound(PRODUCT_NOT_FOUND);
    await tx.delete(productVariants).where(eq(productVariants.productId, productId));
    await tx.delete(productGridColors).where(eq(productGridColors.productId, productId));
    await tx.delete(productGridSizes).where(eq(productGridSizes.productId, productId));
    await refreshDerived(tx, productId);
  });
  return findProduct(db, actor, productId);
}

/** PUT /product-grid/:id: one variant's SKU, barcode, price override, stock and active flag. */
export async function updateVariant(
  db: Db,
  actor: Actor,
  variantId: number,
  input: VariantUpdate,
): Promise<ProductVariant> {
  const clientId = actor.clientId;
  const productId = await mapUnique(
    () =>
      db.transaction(async (tx) => {
        const [v] = await tx
          .select({ productId: productVariants.productId })
          .from(productVariants)
          .where(and(eq(productVariants.clientId, clientId), eq(productVariants.id, variantId)));
        if (!v) throw notFound('Variação não encontrada');
        await assertCodesFree(tx, clientId, input, { variantId });
        await actInTransaction(tx, actor);
        const updated = await tx
          .update(productVariants)
          .set({
            sku: input.sku,
            barcode: input.barcode,
            priceCents: input.priceCents,
            active: input.active,
            ...(input.stock !== undefined ? { stock: input.stock } : {}),
            updatedAt: new Date(),
          })
          .where(
            and(eq(productVariants.id, variantId), isSameVersion(productVariants.updatedAt, input.updatedAt)),
          )
          .returning({ id: productVariants.id });
        assertNotStale(updated);
        await refreshDerived(tx, v.productId);
        return v.productId;
      }),
    UNIQUE,
  );
  const product = await findProduct(db, actor, productId);
  const variant = product.variants.find((v) => v.id === variantId);
  if (!variant) throw notFound('Variação não encontrada');
  return variant;
}
