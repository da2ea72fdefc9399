import { normalizeBarcode } from '@balcao/core/barcode';
import {
  type BarcodeMatch,
  type Product,
  type ProductImage,
  type ProductVariant,
  variantName,
} from '@balcao/core/product';
import { and, asc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client.ts';
import { notFound } from '../../errors.ts';
import type { Actor } from '../../lib/actor.ts';
import { num } from '../../lib/pg.ts';
import { additionalGroupsInOrder } from '../product-additional/service.ts';
import { categoryService } from '../product-category/service.ts';
import { groupIdsOf, groupProductCount } from './additionalGroups.ts';
import { imageUrls } from './imageUrls.ts';
import { type ListRow, toListItem, wholeColumns } from './listRow.ts';
import { productGridColors, productGridSizes, productImages, products, productVariants } from './schema.ts';

export const PRODUCT_NOT_FOUND = 'Produto não encontrado';

async function variantsOf(
  db: Executor,
  productId: number,
  salePriceCents: number,
): Promise<ProductVariant[]> {
  const rows = await db
    .select({
      id: productVariants.id,
      productId: productVariants.productId,
      colorId: productVariants.colorId,
      sizeId: productVariants.sizeId,
      color: productGridColors.name,
      size: productGridSizes.name,
      sku: productVariants.sku,
      barcode: productVariants.barcode,
      priceCents: productVariants.priceCents,
      stock: productVariants.stock,
      active: productVariants.active,
      updatedAt: productVariants.updatedAt,
      colorPosition: productGridColors.position,
      sizePosition: productGridSizes.position,
    })
    .from(productVariants)
    .leftJoin(productGridColors, eq(productGridColors.id, productVariants.colorId))
    .leftJoin(productGridSizes, eq(productGridSizes.id, productVariants.sizeId))
    .where(eq(productVariants.productId, productId))
    .orderBy(asc(productGridColors.position), asc(productGridSizes.position), asc(productVariants.id));
  return rows.map(({ colorPosition: _c, sizePosition: _s, ...v }) => ({
    ...v,
    name: variantName(v.color, v.size),
    stock: num(v.stock),
    effectivePriceCents: v.priceCents ?? salePriceCents,
    updatedAt: v.updatedAt.toISOString(),
  }));
}

async function imagesOf(db: Executor, productId: number): Promise<ProductImage[]> {
  const rows = await db
    .select({
      id: productImages.id,
      position: productImages.position,
      storageKey: productImages.storageKey,
      width: productImages.width,
      height: productImages.height,
    })
    .from(productImages)
    .where(eq(productImages.productId, productId))
    .orderBy(asc(productImages.position), asc(productImages.id));
  return rows.map(({ storageKey, ...image }) => ({ ...image, ...imageUrls(storageKey) }));
}

/** The whole product: images, grid (colours, sizes, variants) and add-on groups. */
export async function findProduct(db: Executor, actor: Actor, id: number): Promise<Product> {
  const product = await findProductWhere(db, actor.clientId, eq(products.id, id));
  if (!product) throw notFound(PRODUCT_NOT_FOUND);
  return product;
}

/**
 * The first product of the client matching `condition`, whole. One query for a plain product;
 * images, grid and add-on groups are read only when it has them (the PDV scans one per beep).
 */
async function findProductWhere(db: Executor, clientId: number, condition: SQL): Promise<Product | null> {
  const [row] = await db
    .select({
      ...wholeColumns,
      groupIds: groupIdsOf(sql`"products"."id"`),
    })
    .from(products)
    .where(and(eq(products.clientId, clientId), condition))
    .limit(1);
  if (!row) return null;
  const id = row.id;
  const hasGrid = row.productType === 'variants' || Number(row.variantCount) > 0;
  const [images, colors, sizes, variants, additionalGroups] = await Promise.all([
    row.coverKey ? imagesOf(db, id) : Promise.resolve([]),
    hasGrid
      ? db
          .select({
            id: productGridColors.id,
            name: productGridColors.name,
            position: productGridColors.position,
          })
          .from(productGridColors)
          .where(eq(productGridColors.productId, id))
          .orderBy(asc(productGridColors.position))
      : Promise.resolve([]),
    hasGrid
      ? db
          .select({
            id: productGridSizes.id,
            name: productGridSizes.name,
            position: productGridSizes.position,
          })
          .from(productGridSizes)
          .where(eq(productGridSizes.productId, id))
          .orderBy(asc(productGridSizes.position))
      : Promise.resolve([]),
    hasGrid ? variantsOf(db, id, row.salePriceCents) : Promise.resolve([]),
    additionalGroupsInOrder(db, row.groupIds, groupProductCount),
  ]);
  return {
    ...toListItem(row as ListRow),
    description: row.description,
    scaleCode: row.scaleCode,
    weightKg: row.weightKg,
    heightCm: row.heightCm,
    widthCm: row.widthCm,
    lengthCm: row.lengthCm,
    images,
    colors,
    sizes,
    variants,
    additionalGroups,
  };
}

/**
 * PDV scanner: the product or variant with this barcode (the SKU, ignoring case, when no barcode
 * matches, so a typed code works too).
 */
export async function findByCode(db: Db, actor: Actor, code: string): Promise<BarcodeMatch> {
  const clientId = actor.clientId;
  const text = code.trim();
  const barcode = normalizeBarcode(text);
  const product = await findProductWhere(db, clientId, eq(products.barcode, barcode));
  if (product) return { product, variant: null };
  const [variant] = await db
    .select({ id: productVariants.id, productId: productVariants.productId })
    .from(productVariants)
    .where(and(eq(productVariants.clientId, clientId), eq(productVariants.barcode, barcode)))
    .limit(1);
  const bySku =
    variant ??
    (
      await db
        .select({ id: productVariants.id, productId: productVariants.productId })
        .from(productVariants)
        .where(
          and(
            eq(productVariants.clientId, clientId),
            eq(sql`lower(${productVariants.sku})`, text.toLowerCase()),
          ),
        )
        .limit(1)
    )[0];
  if (bySku) {
    const found = await findProduct(db, actor, bySku.productId);
    return { product: found, variant: found.variants.find((v) => v.id === bySku.id) ?? null };
  }
  const skuProduct = await findProductWhere(
    db,
    clientId,
    eq(sql`lower(${products.sku})`, text.toLowerCase()),
  );
  if (skuProduct) return { product: skuProduct, variant: null };
  throw notFound('Nenhum produto com este código de barras');
}

/** Ids of the client's products with these exact SKUs, by SKU (the demo seed finds its products). */
export async function productIdsBySku(
  db: Executor,
  actor: Actor,
  skus: string[],
): Promise<Map<string, number>> {
  const rows = await db
    .select({ id: products.id, sku: products.sku })
    .from(products)
    .where(and(eq(products.clientId, actor.clientId), inArray(products.sku, skus)));
  return new Map(rows.map((r) => [r.sku as string, r.id]));
}

/** A product (or one of its variants) as a supplier's note item is matched to it (issue 34). */
export type ProductRef = { productId: number; variantId: number | null; name: string };

/**
 * The shop's products and variants carrying these barcodes (a supplier's cEAN), by barcode. Variants
 * are named "Product - Color / Size" as the PDV shows them.
 */
export async function productsByBarcodes(
  db: Executor,
  clientId: number,
  barcodes: string[],
): Promise<Map<string, ProductRef>> {
  const out = new Map<string, ProductRef>();
  if (barcodes.length === 0) return out;
  const own = await db
    .select({ id: products.id, name: products.name, barcode: products.barcode })
    .from(products)
    .where(and(eq(products.clientId, clientId), inArray(products.barcode, barcodes)));
  for (const p of own) out.set(p.barcode as string, { productId: p.id, variantId: null, name: p.name });
  const variants = await db
    .select({
      id: productVariants.id,
      productId: productVariants.productId,
      barcode: productVariants.barcode,
    })
    .from(productVariants)
    .where(and(eq(productVariants.clientId, clientId), inArray(productVariants.barcode, barcodes)));
  const named = await productRefs(
    db,
    clientId,
    variants.map((v) => ({ productId: v.productId, variantId: v.id })),
  );
  for (const v of variants) {
    const ref = named.get(`${v.productId}:${v.id}`);
    if (ref && !out.has(v.barcode as string)) out.set(v.barcode as string, ref);
  }
  return out;
}

/**
 * These products/variants of the shop with their names, keyed "productId:variantId" ("7:" for a
 * product without variant); the ones not found (another shop's, deleted) are left out.
 */
export async function productRefs(
  db: Executor,
  clientId: number,
  refs: { productId: number; variantId: number | null }[],
): Promise<Map<string, ProductRef>> {
  const out = new Map<string, ProductRef>();
  const ids = [...new Set(refs.map((r) => r.productId))];
  if (ids.length === 0) return out;
  const rows = await db
    .select({ id: products.id, name: products.name })
    .from(products)
    .where(and(eq(products.clientId, clientId), inArray(products.id, ids)));
  const names = new Map(rows.map((r) => [r.id, r.name]));
  const variantIds = refs.flatMap((r) => (r.variantId ? [r.variantId] : []));
  const variantNames = new Map<number, { productId: number; name: string }>();
  for (const productId of new Set(refs.filter((r) => r.variantId).map((r) => r.productId))) {
    const name = names.get(productId);
    if (!name) continue;
    for (const v of await variantsOf(db, productId, 0))
      if (variantIds.includes(v.id)) variantNames.set(v.id, { productId, name: `${name} - ${v.name}` });
  }
  for (const r of refs) {
    const name = names.get(r.productId);
    if (!name) continue;
    if (r.variantId === null) out.set(`${r.productId}:`, { productId: r.productId, variantId: null, name });
    else {
      const v = variantNames.get(r.variantId);
      if (v && v.productId === r.productId)
        out.set(`${r.productId}:${r.variantId}`, {
          productId: r.productId,
          variantId: r.variantId,
          name: v.name,
        });
    }
  }
  return out;
}

/** Name, category name and today's average cost of some products (the stock turnover report, issue 34). */
export async function productReportFacts(
  db: Executor,
  clientId: number,
  ids: number[],
): Promise<Map<number, { name: string; categoryName: string | null; costPriceCents: number }>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({
      id: products.id,
      name: products.name,
      categoryName: categoryService.nameOf(products.categoryId),
      costPriceCents: products.costPriceCents,
    })
    .from(products)
    .where(and(eq(products.clientId, clientId), inArray(products.id, ids)));
  return new Map(
    rows.map((r) => [r.id, { name: r.name, categoryName: r.categoryName, costPriceCents: r.costPriceCents }]),
  );
}

/** Which of these products have a grid (variants): an entry to one needs the variant (issue 34). */
export async function productsWithGrid(db: Executor, clientId: number, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: products.id })
    .from(products)
    .where(
      and(eq(products.clientId, clientId), inArray(products.id, ids), eq(products.productType, 'variants')),
    );
  return new Set(rows.map((r) => r.id));
}
