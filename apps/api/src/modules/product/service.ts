import { normalizeBarcode } from '@balcao/core/barcode';
import { type ListResult, parseSort } from '@balcao/core/list';
import {
  BARCODE_TAKEN,
  type BarcodeMatch,
  gridCombinations,
  isLowStock,
  marginPercent,
  PRODUCT_SORTS,
  type Product,
  type ProductGridInput,
  type ProductImage,
  type ProductInputParsed,
  type ProductListItem,
  type ProductType,
  type ProductUnit,
  type ProductVariant,
  type productListQuerySchema,
  type productUpdateSchema,
  type productVariantUpdateSchema,
  SKU_TAKEN,
  searchKey,
  skuPart,
  variantName,
} from '@balcao/core/product';
import { and, asc, eq, inArray, ne, or, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db, Executor } from '../../db/client.ts';
import { AppError, notFound } from '../../errors.ts';
import { escapeLike, listResult, orderByOf, pageWindow } from '../../lib/list.ts';
import { isSameVersion, mapUnique } from '../../lib/pg.ts';
import { groupsOfProduct, setProductGroups } from '../product-additional/service.ts';
import { productBrands } from '../product-brand/schema.ts';
import { productCategories } from '../product-category/schema.ts';
import { num, staleEdit } from './dbHelpers.ts';
import { imageUrls } from './imageUrls.ts';
import {
  productCounters,
  productGridColors,
  productGridSizes,
  productImages,
  products,
  productVariants,
} from './schema.ts';

type ListQuery = z.output<typeof productListQuerySchema>;
type ProductUpdate = z.output<typeof productUpdateSchema>;
type VariantUpdate = z.output<typeof productVariantUpdateSchema>;

export const PRODUCT_NOT_FOUND = 'Produto não encontrado';

const UNIQUE = {
  products_client_sku_uq: SKU_TAKEN,
  products_client_barcode_uq: BARCODE_TAKEN,
  product_variants_client_sku_uq: SKU_TAKEN,
  product_variants_client_barcode_uq: BARCODE_TAKEN,
};

const invalid = (path: string, message: string) => new AppError(422, message, [{ path, message }]);

// ---------------------------------------------------------------- reading

const coverKey = sql<string | null>`(${sql.raw(
  'select i.storage_key from product_images i where i.product_id = "products".id order by i.position, i.id limit 1',
)})`;
const variantCount = sql<number>`(${sql.raw(
  'select count(*)::int from product_variants v where v.product_id = "products".id',
)})`;

const listColumns = {
  id: products.id,
  name: products.name,
  sku: products.sku,
  barcode: products.barcode,
  productType: products.productType,
  unit: products.unit,
  salePriceCents: products.salePriceCents,
  costPriceCents: products.costPriceCents,
  categoryId: products.categoryId,
  categoryName: productCategories.name,
  brandId: products.brandId,
  brandName: productBrands.name,
  active: products.active,
  stockControl: products.stockControl,
  stock: products.stock,
  minStock: products.minStock,
  variantCount,
  coverKey,
  createdAt: products.createdAt,
  updatedAt: products.updatedAt,
};

type ListRow = {
  [K in keyof typeof listColumns]: unknown;
} & {
  id: number;
  name: string;
  sku: string | null;
  barcode: string | null;
  productType: string;
  unit: string;
  salePriceCents: number;
  costPriceCents: number;
  categoryId: number | null;
  categoryName: string | null;
  brandId: number | null;
  brandName: string | null;
  active: boolean;
  stockControl: boolean;
  variantCount: number;
  coverKey: string | null;
  createdAt: Date;
  updatedAt: Date;
};

function toListItem(r: ListRow): ProductListItem {
  const stock = num(r.stock);
  const minStock = num(r.minStock);
  return {
    id: r.id,
    name: r.name,
    sku: r.sku,
    barcode: r.barcode,
    productType: r.productType as ProductType,
    unit: r.unit as ProductUnit,
    salePriceCents: r.salePriceCents,
    costPriceCents: r.costPriceCents,
    marginPercent: marginPercent(r.salePriceCents, r.costPriceCents),
    category: r.categoryId !== null ? { id: r.categoryId, name: r.categoryName ?? '' } : null,
    brand: r.brandId !== null ? { id: r.brandId, name: r.brandName ?? '' } : null,
    active: r.active,
    stockControl: r.stockControl,
    stock,
    minStock,
    isLowStock: isLowStock({ stockControl: r.stockControl, stock, minStock }),
    variantCount: Number(r.variantCount),
    coverThumbUrl: r.coverKey ? imageUrls(r.coverKey).thumbUrl : null,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

const lowStockCondition = sql`(${products.stockControl} and ${products.minStock} > 0 and ${products.stock} <= ${products.minStock})`;

/** Every word of `q` (accent-free, lower case) inside the search text: served by the trigram index. */
export function searchCondition(q: string | undefined): SQL | undefined {
  if (!q) return undefined;
  const terms = searchKey(q).split(' ').filter(Boolean).slice(0, 8);
  if (terms.length === 0) return undefined;
  return and(...terms.map((term) => sql`${products.searchText} like ${`%${escapeLike(term)}%`}`));
}

function listWhere(clientId: number, query: ListQuery): SQL | undefined {
  return and(
    eq(products.clientId, clientId),
    searchCondition(query.q),
    query.categoryId === undefined ? undefined : eq(products.categoryId, query.categoryId),
    query.brandId === undefined ? undefined : eq(products.brandId, query.brandId),
    query.productType === undefined ? undefined : eq(products.productType, query.productType),
    query.active === undefined ? undefined : eq(products.active, query.active),
    query.lowStock === undefined
      ? undefined
      : query.lowStock
        ? lowStockCondition
        : sql`not ${lowStockCondition}`,
  );
}

function listOrder(query: ListQuery) {
  return orderByOf<'name' | 'sku' | 'salePriceCents' | 'stock' | 'createdAt' | 'updatedAt'>(
    query.sort,
    {
      name: products.nameKey,
      sku: sql`lower(${products.sku})`,
      salePriceCents: products.salePriceCents,
      stock: products.stock,
      createdAt: products.createdAt,
      updatedAt: products.updatedAt,
    },
    { field: 'name', direction: 'asc' },
    products.id,
  );
}

/** Filters that pick a small, arbitrary part of the catalog (search, category, brand, low stock). */
function isNarrow(query: ListQuery): boolean {
  return (
    Boolean(query.q) ||
    query.categoryId !== undefined ||
    query.brandId !== undefined ||
    query.lowStock === true
  );
}

function hasFilters(query: ListQuery): boolean {
  return (
    isNarrow(query) ||
    query.productType !== undefined ||
    query.active !== undefined ||
    query.lowStock !== undefined
  );
}

/**
 * A page of products with filters, sort and pagination on the server (DESIGN.md list contract).
 * - No filter: the page walks the (client, name) index; the total comes from product_counters.
 * - Narrow filters (search, category, brand, low stock): the matches are collected once (a
 *   materialized CTE served by the trigram or btree index), counted and sorted. Without the fence
 *   the planner may walk the name index filtering row by row, which costs 100 ms when the matches
 *   sort late (e.g. "shampoo" among 100,000 products).
 * - Broad filters (active, type): walk the index and count.
 */
export async function listProducts(
  db: Db,
  clientId: number,
  query: ListQuery,
): Promise<ListResult<ProductListItem>> {
  const where = listWhere(clientId, query);
  const { limit, offset } = pageWindow(query);
  if (isNarrow(query)) {
    listOrder(query); // validates `sort` (400 on an unknown field)
    const spec = parseSort(query.sort, PRODUCT_SORTS, { field: 'name', direction: 'asc' }) ?? {
      field: 'name',
      direction: 'asc',
    };
    const sortKey = {
      name: sql`${products.nameKey}`,
      sku: sql`lower(${products.sku})`,
      salePriceCents: sql`${products.salePriceCents}`,
      stock: sql`${products.stock}`,
      createdAt: sql`${products.createdAt}`,
      updatedAt: sql`${products.updatedAt}`,
    }[spec.field];
    const dir = spec.direction === 'desc' ? sql.raw('desc') : sql.raw('asc');
    // The matches carry only their id and sort key: fewer bytes to collect, count and sort.
    const matched = db.$with('matched').as(
      db
        .select({ id: products.id, sortKey: sortKey.as('sort_key') })
        .from(products)
        .where(where),
    );
    // Sort and cut the page among the matches first, then join the 20 rows: joining first makes
    // the planner hash-join every product of the table.
    const page = db.$with('page').as(
      db
        .select({ id: matched.id, sortKey: sql`"matched"."sort_key"`.as('sort_key') })
        .from(matched)
        .orderBy(sql`"matched"."sort_key" ${dir}, "matched"."id" ${dir}`)
        .limit(limit)
        .offset(offset),
    );
    const rows = await db
      .with(matched, page)
      .select({ ...listColumns, total: sql<number>`(select count(*)::int from ${matched})` })
      .from(page)
      .innerJoin(products, eq(products.id, page.id))
      .leftJoin(productCategories, eq(productCategories.id, products.categoryId))
      .leftJoin(productBrands, eq(productBrands.id, products.brandId))
      .orderBy(sql`"page"."sort_key" ${dir}, "page"."id" ${dir}`);
    const total =
      rows.length > 0
        ? Number(rows[0].total)
        : (await db.select({ total: sql<number>`count(*)::int` }).from(products).where(where))[0].total;
    return listResult((rows as ListRow[]).map(toListItem), total, query);
  }
  const pageRows = db
    .select(listColumns)
    .from(products)
    .leftJoin(productCategories, eq(productCategories.id, products.categoryId))
    .leftJoin(productBrands, eq(productBrands.id, products.brandId))
    .where(where)
    .orderBy(...listOrder(query))
    .limit(limit)
    .offset(offset);
  const rows = await pageRows;
  let total: number;
  if (hasFilters(query)) {
    [{ total }] = await db.select({ total: sql<number>`count(*)::int` }).from(products).where(where);
  } else {
    const [counter] = await db
      .select({ total: productCounters.total })
      .from(productCounters)
      .where(eq(productCounters.clientId, clientId));
    total = counter?.total ?? 0;
  }
  return listResult((rows as ListRow[]).map(toListItem), total, query);
}

/** Every product of a filtered list, in batches (CSV export). */
export async function* eachProduct(db: Db, clientId: number, query: ListQuery, batch = 1000) {
  const where = listWhere(clientId, query);
  for (let offset = 0; ; offset += batch) {
    const rows = await db
      .select({
        ...listColumns,
        description: products.description,
        weightKg: products.weightKg,
        heightCm: products.heightCm,
        widthCm: products.widthCm,
        lengthCm: products.lengthCm,
      })
      .from(products)
      .leftJoin(productCategories, eq(productCategories.id, products.categoryId))
      .leftJoin(productBrands, eq(productBrands.id, products.brandId))
      .where(where)
      .orderBy(...listOrder(query))
      .limit(batch)
      .offset(offset);
    for (const r of rows)
      yield {
        ...toListItem(r as ListRow),
        description: r.description,
        weightKg: r.weightKg,
        heightCm: r.heightCm,
        widthCm: r.widthCm,
        lengthCm: r.lengthCm,
      };
    if (rows.length < batch) return;
  }
}

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
export async function findProduct(db: Executor, clientId: number, id: number): Promise<Product> {
  const product = await findProductWhere(db, clientId, eq(products.id, id));
  if (!product) throw notFound(PRODUCT_NOT_FOUND);
  return product;
}

const groupCount = sql<number>`(${sql.raw(
  'select count(*)::int from product_additional_links l where l.product_id = "products".id',
)})`;

/**
 * The first product of the client matching `condition`, whole. One query for a plain product;
 * images, grid and add-on groups are read only when it has them (the PDV scans one per beep).
 */
async function findProductWhere(db: Executor, clientId: number, condition: SQL): Promise<Product | null> {
  const [row] = await db
    .select({
      ...listColumns,
      description: products.description,
      weightKg: products.weightKg,
      heightCm: products.heightCm,
      widthCm: products.widthCm,
      lengthCm: products.lengthCm,
      groupCount,
    })
    .from(products)
    .leftJoin(productCategories, eq(productCategories.id, products.categoryId))
    .leftJoin(productBrands, eq(productBrands.id, products.brandId))
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
    Number(row.groupCount) > 0 ? groupsOfProduct(db, id) : Promise.resolve([]),
  ]);
  return {
    ...toListItem(row as ListRow),
    description: row.description,
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
export async function findByCode(db: Db, clientId: number, code: string): Promise<BarcodeMatch> {
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
    const found = await findProduct(db, clientId, bySku.productId);
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

// ---------------------------------------------------------------- writing

type Codes = { sku: string | null; barcode: string | null };
type Except = { productId?: number; variantId?: number };

/** SKU and barcode are unique per client across products and variants (a scan finds one thing). */
export async function assertCodesFree(tx: Executor, clientId: number, codes: Codes, except: Except = {}) {
  const { sku, barcode } = codes;
  if (!sku && !barcode) return;
  const productHit = await tx
    .select({ sku: products.sku, barcode: products.barcode })
    .from(products)
    .where(
      and(
        eq(products.clientId, clientId),
        except.productId ? ne(products.id, except.productId) : undefined,
        or(
          sku ? eq(sql`lower(${products.sku})`, sku.toLowerCase()) : undefined,
          barcode ? eq(products.barcode, barcode) : undefined,
        ),
      ),
    )
    .limit(2);
  const variantHit = await tx
    .select({ sku: productVariants.sku, barcode: productVariants.barcode })
    .from(productVariants)
    .where(
      and(
        eq(productVariants.clientId, clientId),
        except.variantId ? ne(productVariants.id, except.variantId) : undefined,
        or(
          sku ? eq(sql`lower(${productVariants.sku})`, sku.toLowerCase()) : undefined,
          barcode ? eq(productVariants.barcode, barcode) : undefined,
        ),
      ),
    )
    .limit(2);
  const hits = [...productHit, ...variantHit];
  if (sku && hits.some((h) => h.sku?.toLowerCase() === sku.toLowerCase()))
    throw new AppError(409, SKU_TAKEN, [{ path: 'sku', message: SKU_TAKEN }]);
  if (barcode && hits.some((h) => h.barcode === barcode))
    throw new AppError(409, BARCODE_TAKEN, [{ path: 'barcode', message: BARCODE_TAKEN }]);
}

async function assertRefs(
  tx: Executor,
  clientId: number,
  refs: { categoryId: number | null; brandId: number | null },
) {
  if (refs.categoryId !== null) {
    const [c] = await tx
      .select({ id: productCategories.id })
      .from(productCategories)
      .where(and(eq(productCategories.clientId, clientId), eq(productCategories.id, refs.categoryId)));
    if (!c) throw invalid('categoryId', 'Categoria não encontrada');
  }
  if (refs.brandId !== null) {
    const [b] = await tx
      .select({ id: productBrands.id })
      .from(productBrands)
      .where(and(eq(productBrands.clientId, clientId), eq(productBrands.id, refs.brandId)));
    if (!b) throw invalid('brandId', 'Marca não encontrada');
  }
}

/**
 * Recomputes what depends on the variants: the search text (name, SKU and barcode of the product
 * and of its variants) and, for a product with variants, its stock as the sum of theirs.
 */
export async function refreshDerived(tx: Executor, productId: number) {
  const [p] = await tx
    .select({
      name: products.name,
      sku: products.sku,
      barcode: products.barcode,
      productType: products.productType,
    })
    .from(products)
    .where(eq(products.id, productId));
  const variants = await tx
    .select({ sku: productVariants.sku, barcode: productVariants.barcode, stock: productVariants.stock })
    .from(productVariants)
    .where(eq(productVariants.productId, productId));
  const parts = [p.name, p.sku, p.barcode, ...variants.flatMap((v) => [v.sku, v.barcode])].filter(
    Boolean,
  ) as string[];
  const set: Partial<typeof products.$inferInsert> = {
    nameKey: searchKey(p.name),
    searchText: searchKey(parts.join(' ')),
  };
  if (p.productType === 'variants' && variants.length > 0) {
    // Sum in thousandths: exact for numeric(14,3).
    set.stock = variants.reduce((sum, v) => sum + Math.round(num(v.stock) * 1000), 0) / 1000;
  }
  await tx.update(products).set(set).where(eq(products.id, productId));
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
    nameKey: searchKey(input.name),
    searchText: searchKey([input.name, input.sku, input.barcode].filter(Boolean).join(' ')),
  };
}

/** Insert inside a transaction (the CSV import reuses it). Returns the new id. */
export async function insertProduct(
  tx: Executor,
  clientId: number,
  input: ProductInputParsed,
): Promise<number> {
  await assertRefs(tx, clientId, input);
  await assertCodesFree(tx, clientId, input);
  if (input.grid && input.productType !== 'variants')
    throw invalid('grid', 'Só produtos com variações (grade) têm cores e tamanhos');
  const [row] = await tx
    .insert(products)
    .values({ clientId, ...productValues(input), stock: input.stock })
    .returning({ id: products.id });
  if (input.grid) await saveGrid(tx, clientId, row.id, input.grid);
  if (input.additionalGroupIds.length) await setProductGroups(tx, clientId, row.id, input.additionalGroupIds);
  return row.id;
}

export async function createProduct(db: Db, clientId: number, input: ProductInputParsed): Promise<Product> {
  const id = await mapUnique(() => db.transaction((tx) => insertProduct(tx, clientId, input)), UNIQUE);
  return findProduct(db, clientId, id);
}

/** Update inside a transaction; `updatedAt` must match (409 otherwise). */
export async function applyProductUpdate(
  tx: Executor,
  clientId: number,
  id: number,
  input: Omit<ProductUpdate, 'additionalGroupIds'> & { additionalGroupIds?: number[] },
) {
  const [current] = await tx
    .select({ productType: products.productType })
    .from(products)
    .where(and(eq(products.clientId, clientId), eq(products.id, id)));
  if (!current) throw notFound(PRODUCT_NOT_FOUND);
  await assertRefs(tx, clientId, input);
  await assertCodesFree(tx, clientId, input, { productId: id });
  if (current.productType === 'variants' && input.productType !== 'variants') {
    const [v] = await tx
      .select({ id: productVariants.id })
      .from(productVariants)
      .where(eq(productVariants.productId, id))
      .limit(1);
    if (v) throw invalid('productType', 'Este produto tem variações: exclua a grade antes de mudar o tipo');
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
  if (updated.length === 0) throw staleEdit();
  if (input.additionalGroupIds) await setProductGroups(tx, clientId, id, input.additionalGroupIds);
  await refreshDerived(tx, id);
}

export async function updateProduct(
  db: Db,
  clientId: number,
  id: number,
  input: ProductUpdate,
): Promise<Product> {
  await mapUnique(() => db.transaction((tx) => applyProductUpdate(tx, clientId, id, input)), UNIQUE);
  return findProduct(db, clientId, id);
}

/** Deletes the product with its grid, images and add-on links; returns the image keys to remove. */
export async function deleteProduct(
  db: Db,
  clientId: number,
  id: number,
): Promise<{ id: number; imageKeys: string[] }> {
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
    return { id, imageKeys: images.map((i) => i.key) };
  });
}

// ---------------------------------------------------------------- grid

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
async function saveGrid(
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
    throw invalid(
      'productType',
      'Mude o tipo do produto para "Com variações (grade)" antes de gerar a grade',
    );
}

/** PUT /product/:id/grid: regenerates the variants from the chosen colours and sizes. */
export async function setGrid(db: Db, clientId: number, productId: number, grid: ProductGridInput) {
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
  return findProduct(db, clientId, productId);
}

/** DELETE /product/:id/grid: removes colours, sizes and variants. */
export async function clearGrid(db: Db, clientId: number, productId: number) {
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
  return findProduct(db, clientId, productId);
}

/** PUT /product-grid/:id: one variant's SKU, barcode, price override, stock and active flag. */
export async function updateVariant(
  db: Db,
  clientId: number,
  variantId: number,
  input: VariantUpdate,
): Promise<ProductVariant> {
  const productId = await mapUnique(
    () =>
      db.transaction(async (tx) => {
        const [v] = await tx
          .select({ productId: productVariants.productId })
          .from(productVariants)
          .where(and(eq(productVariants.clientId, clientId), eq(productVariants.id, variantId)));
        if (!v) throw notFound('Variação não encontrada');
        await assertCodesFree(tx, clientId, input, { variantId });
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
        if (updated.length === 0) throw staleEdit();
        await refreshDerived(tx, v.productId);
        return v.productId;
      }),
    UNIQUE,
  );
  const product = await findProduct(db, clientId, productId);
  const variant = product.variants.find((v) => v.id === variantId);
  if (!variant) throw notFound('Variação não encontrada');
  return variant;
}
