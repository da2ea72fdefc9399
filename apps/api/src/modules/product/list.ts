import { parseSort } from '@balcao/core/list';
import {
  PRODUCT_SORTS,
  type ProductPage,
  type productListQuerySchema,
  searchKey,
} from '@balcao/core/product';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import type { Actor } from '../../lib/actor.ts';
import { escapeLike, listResult, orderByOf, pageWindow } from '../../lib/list.ts';
import { type ListRow, listColumns, toListItem, wholeColumns } from './listRow.ts';
import { productCounters, products } from './schema.ts';
import { searchProductPage } from './search.ts';

type ListQuery = z.output<typeof productListQuerySchema>;

/** A product at or below its minimum stock (served by products_client_low_stock_idx). */
export const lowStockCondition = sql`(${products.stockControl} and ${products.minStock} > 0 and ${products.stock} <= ${products.minStock})`;

/** The words of a search (accent-free, lower case), at most 8. */
export function searchTerms(q: string | undefined): string[] {
  return q ? searchKey(q).split(' ').filter(Boolean).slice(0, 8) : [];
}

/** Every word of `q` (accent-free, lower case) inside the search text: served by the trigram index. */
export function searchCondition(q: string | undefined): SQL | undefined {
  const terms = searchTerms(q);
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
 * - A search (`q`): search.ts (capped count, relevance without `sort`, index walk past the cap).
 * - No filter: the page walks the (client, name) index; the total comes from product_counters.
 * - Narrow filters (search, category, brand, low stock): the matches are collected once (a
 *   materialized CTE served by the trigram or btree index), counted and sorted. Without the fence
 *   the planner may walk the name index filtering row by row, which costs 100 ms when the matches
 *   sort late (e.g. "shampoo" among 100,000 products).
 * - Broad filters (active, type): walk the index and count.
 */
export async function listProducts(db: Db, actor: Actor, query: ListQuery): Promise<ProductPage> {
  const clientId = actor.clientId;
  const where = listWhere(clientId, query);
  if (query.q && where) return searchProductPage(db, clientId, where, { ...query, q: query.q });
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
      .orderBy(sql`"page"."sort_key" ${dir}, "page"."id" ${dir}`);
    const total =
      rows.length > 0
        ? Number(rows[0].total)
        : (await db.select({ total: sql<number>`count(*)::int` }).from(products).where(where))[0].total;
    return { ...listResult((rows as ListRow[]).map(toListItem), total, query), totalCapped: false };
  }
  const pageRows = db
    .select(listColumns)
    .from(products)
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
  return { ...listResult((rows as ListRow[]).map(toListItem), total, query), totalCapped: false };
}

/** Every product of a filtered list, in batches (CSV export). */

export async function* eachProduct(db: Db, actor: Actor, query: ListQuery, batch = 1000) {
  const where = listWhere(actor.clientId, query);
  for (let offset = 0; ; offset += batch) {
    const rows = await db
      .select({
        ...wholeColumns,
      })
      .from(products)
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
        scaleCode: r.scaleCode,
      };
    if (rows.length < batch) return;
  }
}
