import type { ListResult } from '@balcao/core/list';
import { variantName } from '@balcao/core/product';
import { type AnyColumn, and, asc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client.ts';
import { notFound } from '../../errors.ts';
import type { Actor } from '../../lib/actor.ts';
import { escapeLike, listResult, pageWindow } from '../../lib/list.ts';
import { PRODUCT_NOT_FOUND } from './find.ts';
import { searchCondition, searchTerms } from './list.ts';
import { productGridColors, productGridSizes, products, productVariants } from './schema.ts';

/**
 * The product side of stock: the stock module keeps the ledger (stock_movements) and calls these
 * for the levels cached on products and variants, their names in its lists, and the low-stock list.
 * Fragments take the caller's column, so its list stays one statement.
 */

/** The product's name for a product id column of another table's query. */
export const productNameOf = (productId: AnyColumn): SQL<string> =>
  sql<string>`(select p.name from ${products} p where p.id = ${productId})`;

/** The product's unit for a product id column of another table's query. */
export const productUnitOf = (productId: AnyColumn): SQL<string> =>
  sql<string>`(select p.unit from ${products} p where p.id = ${productId})`;

/** The variant's colour name (null without colour or variant) for a variant id column. */
export const variantColorOf = (variantId: AnyColumn): SQL<string | null> =>
  sql<
    string | null
  >`(select c.name from ${productVariants} v join ${productGridColors} c on c.id = v.color_id where v.id = ${variantId})`;

/** The variant's size name (null without size or variant) for a variant id column. */
export const variantSizeOf = (variantId: AnyColumn): SQL<string | null> =>
  sql<
    string | null
  >`(select s.name from ${productVariants} v join ${productGridSizes} s on s.id = v.size_id where v.id = ${variantId})`;

/** The rows whose product id column names a product of the client matching the search `q`. */
export function productMatches(
  productId: AnyColumn,
  clientId: number,
  q: string | undefined,
): SQL | undefined {
  const terms = searchTerms(q);
  if (terms.length === 0) return undefined;
  return sql`${productId} in (select p.id from ${products} p where p.client_id = ${clientId} and ${sql.join(
    terms.map((term) => sql`p.search_text like ${`%${escapeLike(term)}%`}`),
    sql` and `,
  )})`;
}

type StockVariantRow = { id: number; productId: number; name: string; stock: string };
type StockProductRow = {
  id: number;
  name: string;
  unit: string;
  stock: string;
  minStock: string;
  costPriceCents: number;
  stockControl: boolean;
  hasVariants: boolean;
};

/** Locks the client's variants by ascending id (SELECT ... FOR NO KEY UPDATE) and reads their levels. */
export async function lockVariantLevels(
  tx: Executor,
  clientId: number,
  variantIds: number[],
): Promise<StockVariantRow[]> {
  if (variantIds.length === 0) return [];
  const rows = await tx
    .select({
      id: productVariants.id,
      productId: productVariants.productId,
      stock: productVariants.stock,
      color: productGridColors.name,
      size: productGridSizes.name,
    })
    .from(productVariants)
    .leftJoin(productGridColors, eq(productGridColors.id, productVariants.colorId))
    .leftJoin(productGridSizes, eq(productGridSizes.id, productVariants.sizeId))
    .where(and(eq(productVariants.clientId, clientId), inArray(productVariants.id, variantIds)))
    .orderBy(asc(productVariants.id))
    .for('no key update', { of: productVariants });
  return rows.map((r) => ({
    id: r.id,
    productId: r.productId,
    name: variantName(r.color, r.size),
    stock: String(r.stock),
  }));
}

/**
 * Locks the client's products by ascending id and reads their levels and costs. `alongside` is
 * evaluated by the same statement (the ledger flag: one round trip less while the rows are locked).
 */
export async function lockProductLevels(
  tx: Executor,
  clientId: number,
  productIds: number[],
  alongside: SQL,
): Promise<StockProductRow[]> {
  const rows = await tx
    .select({
      id: products.id,
      name: products.name,
      unit: products.unit,
      stock: products.stock,
      minStock: products.minStock,
      costPriceCents: products.costPriceCents,
      stockControl: products.stockControl,
      hasVariants: sql<boolean>`${sql.raw('exists (select 1 from product_variants v where v.product_id = "products".id)')}`,
      alongside: sql`${alongside}`,
    })
    .from(products)
    .where(and(eq(products.clientId, clientId), inArray(products.id, productIds)))
    .orderBy(asc(products.id))
    .for('no key update', { of: products });
  return rows.map(({ alongside: _, ...r }) => ({
    ...r,
    stock: String(r.stock),
    minStock: String(r.minStock),
    hasVariants: Boolean(r.hasVariants),
  }));
}

/**
 * UPDATE of variant levels, as a CTE body of the caller's statement. The VALUES columns are cast
 * so PostgreSQL 15 and PGlite type them alike; the level goes as numeric text.
 */
export function variantLevelsUpdate(clientId: number, levels: { id: number; stock: string }[]): SQL {
  return sql`update product_variants set stock = v.stock
    from (values ${sql.join(
      levels.map((l) => sql`(${l.id}::int, ${l.stock}::numeric)`),
      sql`, `,
    )}) as v(id, stock)
    where product_variants.id = v.id and product_variants.client_id = ${clientId}`;
}

/**
 * UPDATE of product levels, as a CTE body of the caller's statement. `cost` is the new average cost,
 * or null when it did not change: then the cost and updatedAt stay (a product form opened before is
 * refused as stale only when the cost it shows changed). `stock_changed_at` always moves: the PDV's
 * offline copy (GET /v1/product/changes) sends the product again with its new levels. Every movement
 * writes its product's level (a variant's moves the product's total too), so this covers variants.
 */
export function productLevelsUpdate(
  clientId: number,
  levels: { id: number; stock: string; cost: number | null }[],
  now: string,
): SQL {
  return sql`update products set stock = v.stock, stock_changed_at = ${now}::timestamptz,
      cost_price_cents = coalesce(v.cost, products.cost_price_cents),
      updated_at = case when v.cost is null then products.updated_at else ${now}::timestamptz end
    from (values ${sql.join(
      levels.map((l) => sql`(${l.id}::int, ${l.stock}::numeric, ${l.cost}::int)`),
      sql`, `,
    )}) as v(id, stock, cost)
    where products.id = v.id and products.client_id = ${clientId}`;
}

/** The stock figures of one product (the stock card's header). */
export async function findStockFigures(db: Executor, actor: Actor, productId: number) {
  const [product] = await db
    .select({
      id: products.id,
      name: products.name,
      unit: products.unit,
      stock: products.stock,
      minStock: products.minStock,
      costPriceCents: products.costPriceCents,
      stockControl: products.stockControl,
    })
    .from(products)
    .where(and(eq(products.clientId, actor.clientId), eq(products.id, productId)));
  if (!product) throw notFound(PRODUCT_NOT_FOUND);
  return product;
}

type LowStockRow = {
  id: number;
  name: string;
  sku: string | null;
  barcode: string | null;
  unit: string;
  stock: unknown;
  minStock: unknown;
  costPriceCents: number;
};

/** Active products at or below their minimum (stock control on, minimum above zero), by name. */
export async function listLowStockProducts(
  db: Db,
  actor: Actor,
  query: { page: number; pageSize: number; q: string | undefined },
): Promise<ListResult<LowStockRow>> {
  const where = and(
    eq(products.clientId, actor.clientId),
    eq(products.active, true),
    eq(products.stockControl, true),
    sql`${products.minStock} > 0 and ${products.stock} <= ${products.minStock}`,
    searchCondition(query.q),
  );
  const { limit, offset } = pageWindow(query);
  const rows = await db
    .select({
      id: products.id,
      name: products.name,
      sku: products.sku,
      barcode: products.barcode,
      unit: products.unit,
      stock: products.stock,
      minStock: products.minStock,
      costPriceCents: products.costPriceCents,
    })
    .from(products)
    .where(where)
    .orderBy(asc(products.nameKey), asc(products.id))
    .limit(limit)
    .offset(offset);
  const [{ total }] = await db.select({ total: sql<number>`count(*)::int` }).from(products).where(where);
  return listResult(rows, total, query);
}
