import {
  type Product,
  type ProductInputParsed,
  type productUpdateSchema,
  searchKey,
} from '@balcao/core/product';
import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db, Executor } from '../../db/client.ts';
import { notFound } from '../../errors.ts';
import { type Actor, actInTransaction } from '../../lib/actor.ts';
import { isSameVersion, mapUnique } from '../../lib/pg.ts';
import { assertNotStale } from '../../lib/version.ts';
import { assertPlanRoom } from '../billing/service.ts';
import { brandService } from '../product-brand/service.ts';
import { categoryService } from '../product-category/service.ts';
import { setProductGroups } from './additionalGroups.ts';
import { findProduct, PRODUCT_NOT_FOUND } from './find.ts';
import { saveGrid } from './grid.ts';
import { countProducts } from './planCount.ts';
import { assertCodesFree, invalidField, refreshDerived, UNIQUE } from './rules.ts';
import { productDeletions, productImages, products, productVariants } from './schema.ts';

/** Product create, update and delete (reading: find.ts and list.ts; the grid: grid.ts). */

type ProductUpdate = z.output<typeof productUpdateSchema>;

async function assertRefs(
  tx: Executor,
  actor: Actor,
  refs: { categoryId: number | null; brandId: number | null },
) {
  if (refs.categoryId !== null && !(await categoryService.exists(tx, actor, refs.categoryId)))
    throw invalidField('categoryId', 'Categoria não encontrada');
  if (refs.brandId !== null && !(await brandService.exists(tx, actor, refs.brandId)))
    throw invalidField('brandId', 'Marca não encontrada');
}

function productValues(input: Omit<ProductInputParsed, 'grid' | 'stock' | 'additionalGroupIds'>) {
  return {
    name: input.name,
    description: input.description,
    sku: input.sku,
    barcode: input.barcode,
    productType: input.productType,
    unit: input.unit,
    salePriceCents: input.salePriceCents,
    costPriceCents: input.costPriceCents,
    categoryId: input.categoryId,
    brandId: input.brandId,
    active: input.active,
    stockControl: input.stockControl,
    minStock: input.minStock,
    weightKg: input.weightKg,
    heightCm: input.heightCm,
    widthCm: input.widthCm,
    lengthCm: input.lengthCm,
    ...(input.scaleCode !== undefined ? { scaleCode: input.scaleCode } : {}),
    nameKey: searchKey(input.name),
    searchText: searchKey([input.name, input.sku, input.barcode].filter(Boolean).join(' ')),
  };
}

/** Insert inside a transaction (the CSV import reuses it). Returns the new id. */
export async function insertProduct(tx: Executor, actor: Actor, input: ProductInputParsed): Promise<number> {
  const clientId = actor.clientId;
  await assertPlanRoom(tx, clientId, 'products', await countProducts(tx, clientId));
  await assertRefs(tx, actor, input);
  await assertCodesFree(tx, clientId, input);
  if (input.grid && input.productType !== 'variants')
    throw invalidField('grid', 'Só produtos com variações (grade) têm cores e tamanhos');
  const [row] = await tx
    .insert(products)
    .values({ clientId, ...productValues(input), stock: input.stock })
    .returning({ id: products.id });
  if (input.grid) await saveGrid(tx, clientId, row.id, input.grid);
  if (input.additionalGroupIds.length) await setProductGroups(tx, actor, row.id, input.additionalGroupIds);
  return row.id;
}

export async function createProduct(db: Db, actor: Actor, input: ProductInputParsed): Promise<Product> {
  const id = await mapUnique(
    () =>
      db.transaction(async (tx) => {
        await actInTransaction(tx, actor);
        return insertProduct(tx, actor, input);
      }),
    UNIQUE,
  );
  return findProduct(db, actor, id);
}

/** Update inside a transaction; `updatedAt` must match (409 otherwise). */
async function applyProductUpdate(tx: Executor, actor: Actor, id: number, input: ProductUpdate) {
  const clientId = actor.clientId;
  await actInTransaction(tx, actor);
  const [current] = await tx
    .select({ productType: products.productType })
    .from(products)
    .where(and(eq(products.clientId, clientId), eq(products.id, id)));
  if (!current) throw notFound(PRODUCT_NOT_FOUND);
  await assertRefs(tx, actor, input);
  await assertCodesFree(tx, clientId, input, { productId: id });
  if (current.productType === 'variants' && input.productType !== 'variants') {
    const [v] = await tx
      .select({ id: productVariants.id })
      .from(productVariants)
      .where(eq(productVariants.productId, id))
      .limit(1);
    if (v)
      throw invalidField('productType', 'Este produto tem variações: exclua a grade antes de mudar o tipo');
  }
  const updated = await tx
    .update(products)
    .set({
      ...productValues(input),
      ...(input.stock !== undefined && input.productType !== 'variants' ? { stock: input.stock } : {}),
      updatedAt: new Date(),
    })
    .where(
      and(
        eq(products.clientId, clientId),
        eq(products.id, id),
        isSameVersion(products.updatedAt, input.updatedAt),
      ),
    )
    .returning({ id: products.id });
  assertNotStale(updated);
  if (input.additionalGroupIds) await setProductGroups(tx, actor, id, input.additionalGroupIds);
  await refreshDerived(tx, id);
}

export async function updateProduct(
  db: Db,
  actor: Actor,
  id: number,
  input: ProductUpdate,
): Promise<Product> {
  await mapUnique(() => db.transaction((tx) => applyProductUpdate(tx, actor, id, input)), UNIQUE);
  return findProduct(db, actor, id);
}

/** Deletes the product with its grid, images and add-on links; returns the image keys to remove. */
export async function deleteProduct(
  db: Db,
  actor: Actor,
  id: number,
): Promise<{ id: number; imageKeys: string[] }> {
  const clientId = actor.clientId;
  return db.transaction(async (tx) => {
    const [p] = await tx
      .select({ id: products.id })
      .from(products)
      .where(and(eq(products.clientId, clientId), eq(products.id, id)));
    if (!p) throw notFound(PRODUCT_NOT_FOUND);
    const images = await tx
      .select({ key: productImages.storageKey })
      .from(productImages)
      .where(eq(productImages.productId, id));
    await tx.delete(products).where(eq(products.id, id));
    await tx.insert(productDeletions).values({ clientId, productId: id });
    return { id, imageKeys: images.map((i) => i.key) };
  });
}
