import { parseSort } from '@balcao/core/list';
import {
  PRODUCT_SEARCH_CAP,
  PRODUCT_SORTS,
  type ProductPage,
  type productListQuerySchema,
  searchKey,
} from '@balcao/core/product';
import { inArray, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { escapeLike, listResult, pageWindow } from '../../lib/list.ts';
import { type ListRow, listColumns, toListItem } from './listRow.ts';
import { products } from './schema.ts';

type ListQuery = z.output<typeof productListQuerySchema>;
type SortField = (typeof PRODUCT_SORTS)[number];

/**
 * Product search at scale (issue 21, docs/decisions.md "Product search at 1,000,000 products").
 *
 * 1. One statement collects at most PRODUCT_SEARCH_CAP + 1 matches through the trigram index
 *    (their id and sort key only), sorts them and joins the page. With PRODUCT_SEARCH_CAP matches or
 *    fewer that page and count are the exact answer: every selective search ends here.
 * 2. More matches than the cap: the total is "mais de 1.000" (`totalCapped`), and the page is read
 *    by walking the sort's btree index in order, a chunk of rows at a time, keeping the rows that
 *    match. A word that matches more than 0.1% of a 1,000,000-product catalog finds its page in
 *    the first few thousand rows of the index, instead of reading, counting and sorting all of its
 *    tens of thousands of matches (280-320 ms p95 before).
 *
 * The order: `sort` when given; without it, relevance: names that start with the search first, then
 * the others, each by name (the PDV's best N; the product list when the user has not picked a
 * column).
 */

/** Rows of the index read per statement of the walk (an index range the planner always walks). */
const CHUNK_FIRST = 2000;
const CHUNK_MAX = 8000;

/** The sorts whose order a btree index of products serves (client_id, column, id). */
const WALKABLE: Partial<Record<SortField, { column: SQL; type: string }>> = {
  name: { column: sql`"products"."name_key"`, type: 'text' },
  salePriceCents: { column: sql`"products"."sale_price_cents"`, type: 'integer' },
  createdAt: { column: sql`"products"."created_at"`, type: 'timestamptz' },
};

function sortKeyOf(field: SortField): SQL {
  return {
    name: sql`"products"."name_key"`,
    sku: sql`lower("products"."sku")`,
    salePriceCents: sql`"products"."sale_price_cents"`,
    stock: sql`"products"."stock"`,
    createdAt: sql`"products"."created_at"`,
    updatedAt: sql`"products"."updated_at"`,
  }[field];
}

/** The smallest text greater than every text starting with `prefix` in code point order. */
function prefixEnd(prefix: string): string {
  const chars = [...prefix];
  const last = chars.pop() ?? '';
  return chars.join('') + String.fromCodePoint((last.codePointAt(0) ?? 0) + 1);
}

/** The whole query, normalized: the prefix that ranks a name first. */
function prefixOf(q: string): string {
  return searchKey(q);
}

/** `name_key` starts with the search (the range serves the (client, name) index; LIKE rechecks it). */
function startsWith(prefix: string): SQL {
  return sql`("products"."name_key" >= ${prefix} and "products"."name_key" < ${prefixEnd(prefix)} and "products"."name_key" like ${`${escapeLike(prefix)}%`})`;
}

type Sorting = { kind: 'relevance' } | { kind: 'field'; field: SortField; desc: boolean };

function sortingOf(query: ListQuery): Sorting {
  if (!query.sort) return { kind: 'relevance' };
  const spec = parseSort(query.sort, PRODUCT_SORTS, { field: 'name', direction: 'asc' });
  if (!spec) throw new AppError(400, `Ordenação inválida: use um destes campos: ${PRODUCT_SORTS.join(', ')}`);
  return { kind: 'field', field: spec.field, desc: spec.direction === 'desc' };
}

/** The page's rows, whole, in the order of `ids`. */
async function rowsOf(db: Db, ids: number[]) {
  if (ids.length === 0) return [];
  const rows = (await db.select(listColumns).from(products).where(inArray(products.id, ids))) as ListRow[];
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [toListItem(row)] : [];
  });
}

/**
 * Step 1: at most CAP + 1 matches, sorted, the page joined. `total` is exact when it is <= CAP.
 */
async function cappedMatches(db: Db, where: SQL, sorting: Sorting, prefix: string, query: ListQuery) {
  const { limit, offset } = pageWindow(query);
  const rank =
    sorting.kind === 'relevance' ? sql`(case when ${startsWith(prefix)} then 0 else 1 end)` : sql`0`;
  const key = sortKeyOf(sorting.kind === 'relevance' ? 'name' : sorting.field);
  const dir = sql.raw(sorting.kind === 'field' && sorting.desc ? 'desc' : 'asc');
  const result = await db.execute(sql`
    with matched as materialized (
      select "products"."id" as id, ${rank} as rank, ${key} as sort_key
      from "products" where ${where}
      limit ${PRODUCT_SEARCH_CAP + 1}
    ), counted as (select count(*)::int as total from matched)
    select counted.total, page.id from counted
    left join lateral (
      select m.id from matched m
      order by m.rank, m.sort_key ${dir}, m.id ${dir}
      limit ${limit} offset ${offset}
    ) page on counted.total <= ${PRODUCT_SEARCH_CAP}`);
  const rows = ((result as { rows?: unknown[] }).rows ?? result) as { total: number; id: number | null }[];
  const total = Number(rows[0]?.total ?? 0);
  const ids = rows.flatMap((r) => (r.id === null ? [] : [Number(r.id)]));
  return { total, ids };
}

/**
 * Step 0 (relevance): how many matches start with the search, up to CAP + 1, from the name index's
 * range. A word typed from the start of names ("shampoo", "chocolate") fills the cap here, in a
 * thousand index rows, without the trigram index: its posting lists for such words hold tens of
 * thousands of rows and take 30-120 ms to intersect at 1,000,000 products.
 */
async function prefixCount(db: Db, clientId: number, where: SQL, prefix: string): Promise<number> {
  const result = await db.execute(sql`
    select count(*)::int as n from (
      select 1 from "products"
      where "products"."client_id" = ${clientId} and ${startsWith(prefix)} and ${where}
      limit ${PRODUCT_SEARCH_CAP + 1}
    ) s`);
  return Number((((result as { rows?: unknown[] }).rows ?? result) as { n: number }[])[0]?.n ?? 0);
}

type Walk = {
  /** The index order: the column (with its SQL type for the cursor) and direction. */
  column: SQL;
  type: string;
  desc: boolean;
  /** Rows of the index range walked (client and, for the prefix group, the name range). */
  range: SQL;
  /** What a row must satisfy to be kept. */
  keep: SQL;
};

/** Index rows a walk may read before it gives up (the caller then sorts every match instead). */
const WALK_BUDGET = 64_000;

/**
 * Rows kept by walking an index in order: skips `skip` kept rows and returns up to `take` ids, and
 * how many were kept in all when the range ran out before `skip + take` (`exhausted`). Each
 * statement reads one chunk of the range by keyset (ORDER BY + LIMIT on the index's columns: an
 * index scan), so the work follows what the page needs. Matches that cluster late in the order
 * would make the walk read most of the catalog: past WALK_BUDGET rows it answers null.
 */
async function walk(db: Db, w: Walk, skip: number, take: number, budget = WALK_BUDGET) {
  const ids: number[] = [];
  let kept = 0;
  let read = 0;
  let cursor: { k: string; id: number } | null = null;
  let chunk = CHUNK_FIRST;
  const dir = sql.raw(w.desc ? 'desc' : 'asc');
  const cmp = sql.raw(w.desc ? '<' : '>');
  for (;;) {
    if (read >= budget) return null;
    const after: SQL = cursor
      ? sql`and (${w.column}, "products"."id") ${cmp} (${cursor.k}::${sql.raw(w.type)}, ${cursor.id})`
      : sql``;
    // The chunk's kept rows and its last row (the next cursor); `n` is how many rows it read.
    const result = await db.execute(sql`
      with chunk as materialized (
        select "products"."id" as id, ${w.column}::text as k, (${w.keep}) as hit
        from "products"
        where ${w.range} ${after}
        order by ${w.column} ${dir}, "products"."id" ${dir}
        limit ${chunk}
      )
      select id, k, hit, n, rn = n as last from (
        select id, k, hit, row_number() over () as rn, count(*) over () as n from chunk
      ) c where hit or rn = n
      order by rn`);
    const rows = ((result as { rows?: unknown[] }).rows ?? result) as {
      id: number;
      k: string;
      hit: boolean;
      n: number | string;
    }[];
    for (const r of rows) {
      if (!r.hit) continue;
      if (kept >= skip && ids.length < take) ids.push(Number(r.id));
      kept++;
    }
    if (ids.length >= take) return { ids, exhausted: false, kept };
    const last = rows.at(-1);
    if (!last || Number(last.n) < chunk) return { ids, exhausted: true, kept };
    read += chunk;
    cursor = { k: last.k, id: Number(last.id) };
    chunk = Math.min(CHUNK_MAX, chunk * 2);
  }
}

/** Every match read and sorted (exact at any size; what a walk falls back to). */
async function sortedIds(db: Db, where: SQL, order: SQL, limit: number, offset: number) {
  const result = await db.execute(sql`
    with matched as materialized (select "products"."id" as id, ${order} as o from "products" where ${where})
    select id from matched order by o, id limit ${limit} offset ${offset}`);
  return (((result as { rows?: unknown[] }).rows ?? result) as { id: number }[]).map((r) => Number(r.id));
}

/**
 * Step 2 (more than CAP matches): the page by walking the sort's index. Relevance walks the names
 * that start with the search first (a narrow range of the name index), then every name, keeping
 * the matches that do not start with it. Price and creation date walk their indexes. Other sorts
 * (and a walk over its budget) read and sort every match: exact, as slow as the word is broad.
 */
async function walkedPage(
  db: Db,
  clientId: number,
  where: SQL,
  sorting: Sorting,
  prefix: string,
  query: ListQuery,
): Promise<number[]> {
  const { limit, offset } = pageWindow(query);
  const client = sql`"products"."client_id" = ${clientId}`;
  if (sorting.kind === 'relevance') {
    const name = WALKABLE.name!;
    const first = await walk(
      db,
      { ...name, desc: false, range: sql`${client} and ${startsWith(prefix)}`, keep: where },
      offset,
      limit,
      Number.POSITIVE_INFINITY,
    );
    if (first && !first.exhausted) return first.ids;
    const prefixIds = first?.ids ?? [];
    const skip = Math.max(0, offset - (first?.kept ?? 0));
    const others = sql`${where} and not ${startsWith(prefix)}`;
    const rest = await walk(
      db,
      { ...name, desc: false, range: client, keep: others },
      skip,
      limit - prefixIds.length,
    );
    return [
      ...prefixIds,
      ...(rest?.ids ??
        (await sortedIds(db, others, sql`"products"."name_key"`, limit - prefixIds.length, skip))),
    ];
  }
  const dir = sql.raw(sorting.desc ? 'desc' : 'asc');
  const index = sorting.field === 'name' ? undefined : WALKABLE[sorting.field];
  const walked = index
    ? await walk(db, { ...index, desc: sorting.desc, range: client, keep: where }, offset, limit)
    : null;
  if (walked) return walked.ids;
  const result = await db.execute(sql`
    with matched as materialized (
      select "products"."id" as id, ${sortKeyOf(sorting.field)} as o from "products" where ${where}
    )
    select id from matched order by o ${dir}, id ${dir} limit ${limit} offset ${offset}`);
  return (((result as { rows?: unknown[] }).rows ?? result) as { id: number }[]).map((r) => Number(r.id));
}

/** A product list with `q`: capped count, relevance or the chosen sort (see the top of this file). */
export async function searchProductPage(
  db: Db,
  clientId: number,
  where: SQL,
  query: ListQuery & { q: string },
): Promise<ProductPage> {
  const sorting = sortingOf(query);
  const prefix = prefixOf(query.q);
  const capped = async () => {
    const ids = await walkedPage(db, clientId, where, sorting, prefix, query);
    return { ...listResult(await rowsOf(db, ids), PRODUCT_SEARCH_CAP, query), totalCapped: true };
  };
  if (sorting.kind === 'relevance' && (await prefixCount(db, clientId, where, prefix)) > PRODUCT_SEARCH_CAP)
    return capped();
  const step1 = await cappedMatches(db, where, sorting, prefix, query);
  if (step1.total <= PRODUCT_SEARCH_CAP)
    return { ...listResult(await rowsOf(db, step1.ids), step1.total, query), totalCapped: false };
  return capped();
}
