import { parseSort } from '@balcao/core/list';
import {
  PRODUCT_SEARCH_CAP,
  PRODUCT_SORTS,
  type ProductPage,
  type productListQuerySchema,
  searchKey,
} from '@balcao/core/product';
import { eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { escapeLike, listResult, pageWindow } from '../../lib/list.ts';
import { type ListRow, listColumns, toListItem } from './listRow.ts';
import { products } from './schema.ts';
import { wordMatches, wordsContaining } from './words.ts';

type ListQuery = z.output<typeof productListQuerySchema>;
type SortField = (typeof PRODUCT_SORTS)[number];

/**
 * Product search at scale (issue 21, docs/decisions.md "Product search at 1,000,000 products").
 *
 * The order: `sort` when given; without it, relevance, in three tiers, each by name: names that
 * start with the whole search, then names that start with its first word, then the other matches
 * (the PDV's best N; the product list until the user picks a column).
 *
 * The total is exact up to PRODUCT_SEARCH_CAP; past it the answer says `totalCapped` ("mais de
 * 1.000") and nothing counts the tens of thousands of matches of a broad word (that count was most
 * of the 280-320 ms p95 before). How the page is found:
 * 0. One word (3+ characters, no digit), no filter, in name order (the name column, or relevance
 *    when no name starts with it): the word table (words.ts), ~1,001 index rows already in name
 *    order, wherever the word's products sit in the name index ("shampoo" by name: 860,000 rows
 *    of the name index before its first match).
 * 1. Relevance, when more than CAP names start with the whole search (a 1,001-row probe of the
 *    (client, name) index): that range is walked in order, a chunk at a time, counting its matches
 *    to CAP + 1 and keeping the page: "shampoo", "choc" never touch the trigram index (whose posting
 *    lists for such words take 30-120 ms to intersect at 1,000,000 products).
 * 2. One statement collects the first CAP + 1 matches in the page's base order (a chosen column, or
 *    the name when relevance is the name order: no name starts with the search or its first word),
 *    sorts them and joins the page. The planner walks the order's index and stops at the 1,001st
 *    match for a common word, or takes the trigram index and sorts for a rare one. With CAP matches
 *    or fewer this is the exact answer (every selective search ends here); past it these 1,001 rows
 *    hold every page of the capped total in that order.
 * 3. Relevance with name tiers and more than CAP matches: the tiers are walked in name order
 *    (ranges of the name index, then the whole client) for the page. Pages past the cap that an API
 *    caller asks for walk the price or creation index; other columns, and a walk over its budget,
 *    read and sort every match: exact, as slow as the word is broad.
 */

/** Rows of the index read by the first statement of a walk; each next one reads twice as many. */
const CHUNK_FIRST = 2000;
/** The first chunk of a walk that only looks for the page (no count to reach). */
const CHUNK_PAGE_FIRST = 500;
const CHUNK_MAX = 8000;
/** Index rows a walk may read before it gives up (the caller then sorts every match instead). */
const WALK_BUDGET = 64_000;
/** Rows of the first tier read to find the page and count to the cap before asking the trigram index. */
const FIRST_TIER_BUDGET = 4000;
/** The budget of a walk in a column's order (a chosen sort): matches often cluster in it. */
const EXPLICIT_SORT_BUDGET = 16_000;

/** The sorts whose order a btree index of products serves ((client_id, column, id)). */
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
  const last = (chars.pop() ?? '').codePointAt(0) ?? 0;
  // The last code point cannot grow: bound by the prefix followed by it (LIKE rechecks the range).
  if (last >= 0x10ffff) return `${prefix}\u{10FFFF}`;
  return chars.join('') + String.fromCodePoint(last + 1);
}

/**
 * `name_key` starts with `prefix`: a range of the (client, name) index (name keys compare by code
 * point: the C collation of PGlite and of our PostgreSQL databases); LIKE rechecks it.
 */
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

/** The relevance tiers of a search: ranges of the name index, then the rest. */
function tiersOf(q: string, where: SQL) {
  const whole = searchKey(q);
  const word = whole.split(' ')[0] ?? whole;
  const ranges = word === whole ? [whole] : [whole, word];
  const firstTiers = ranges.map((prefix, i) => ({
    range: startsWith(prefix),
    keep: i === 0 ? where : sql`${where} and not ${startsWith(whole)}`,
  }));
  const rest = sql`${where} and not ${startsWith(word)}${word === whole ? sql`` : sql` and not ${startsWith(whole)}`}`;
  const rank = sql`(case when ${startsWith(whole)} then 0 when ${startsWith(word)} then 1 else 2 end)`;
  return { firstTiers, rest, rank };
}

const rowsIn = <T>(result: unknown) => ((result as { rows?: unknown[] }).rows ?? result) as T[];

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

type Walk = {
  /** The index order: the column (with its SQL type for the cursor) and direction. */
  column: SQL;
  type: string;
  desc: boolean;
  /** The index range walked (the client, and a name prefix for a relevance tier). */
  range: SQL;
  /** What a row must satisfy to be kept. */
  keep: SQL;
};

/**
 * Rows kept by walking an index in order: skips `skip` kept rows, returns up to `take` ids, and
 * goes on counting kept rows up to `countTo`. Stops when that is done, when the range runs out
 * (`exhausted`: `kept` is then every kept row of it) or past `budget` rows read (`done` false).
 * Each statement reads one chunk of the range by keyset (ORDER BY + LIMIT on the index's columns,
 * the filter only in the select list: always this index, never the trigram index).
 */
async function walk(db: Db, w: Walk, skip: number, take: number, countTo: number, budget: number) {
  const ids: number[] = [];
  let kept = 0;
  let read = 0;
  let cursor: { k: string; id: number } | null = null;
  // A walk for the page alone (no count) starts small: page 1 of a tier usually lies in its first rows.
  let chunk = countTo > 0 ? CHUNK_FIRST : CHUNK_PAGE_FIRST;
  const dir = sql.raw(w.desc ? 'desc' : 'asc');
  const cmp = sql.raw(w.desc ? '<' : '>');
  for (;;) {
    const after: SQL = cursor
      ? sql`and (${w.column}, "products"."id") ${cmp} (${cursor.k}::${sql.raw(w.type)}, ${cursor.id})`
      : sql``;
    const size = Math.min(chunk, budget - read);
    // Only what the page needs comes back: the kept rows numbered `from` < hn <= `to` in this chunk,
    // and the chunk's last row (the next cursor), with how many rows it read (`n`) and kept (`hits`).
    const from = Math.max(0, skip - kept);
    const to = from + Math.max(0, take - ids.length);
    type Row = {
      id: number;
      k: string;
      hit: boolean;
      hn: number | string;
      n: number | string;
      hits: number | string;
    };
    const rows = rowsIn<Row>(
      await db.execute(sql`
        with chunk as materialized (
          select "products"."id" as id, ${w.column}::text as k, (${w.keep}) as hit
          from "products"
          where ${w.range} ${after}
          order by ${w.column} ${dir}, "products"."id" ${dir}
          limit ${size}
        ), numbered as (
          select id, k, hit, row_number() over () as rn from chunk
        ), counted as (
          select id, k, hit, rn,
            sum(case when hit then 1 else 0 end) over (order by rn) as hn,
            count(*) over () as n,
            sum(case when hit then 1 else 0 end) over () as hits
          from numbered
        )
        select id, k, hit, hn, n, hits from counted
        where (hit and hn > ${from} and hn <= ${to}) or rn = n
        order by rn`),
    );
    for (const r of rows) if (r.hit && Number(r.hn) > from && Number(r.hn) <= to) ids.push(Number(r.id));
    kept += Number(rows[0]?.hits ?? 0);
    const done = ids.length >= take && kept >= countTo;
    const last = rows.at(-1);
    if (!last || Number(last.n) < size) return { ids, kept, exhausted: true, done: true };
    read += size;
    if (done || read >= budget) return { ids, kept, exhausted: false, done };
    cursor = { k: last.k, id: Number(last.id) };
    chunk = Math.min(CHUNK_MAX, chunk * 2);
  }
}

/** Every match read and sorted by `order` then id (exact at any size: what a walk over its budget falls back to). */
async function sortedIds(db: Db, where: SQL, order: SQL[], desc: boolean, limit: number, offset: number) {
  const dir = sql.raw(desc ? 'desc' : 'asc');
  const keys = order.map((o, i) => sql`${o} as ${sql.raw(`o${i}`)}`);
  const by = order.map((_, i) => sql`${sql.raw(`o${i}`)} ${dir}`);
  const rows = rowsIn<{ id: number }>(
    await db.execute(sql`
      with matched as materialized (
        select "products"."id" as id, ${sql.join(keys, sql`, `)} from "products" where ${where}
      )
      select id from matched order by ${sql.join(by, sql`, `)}, id ${dir} limit ${limit} offset ${offset}`),
  );
  return rows.map((r) => Number(r.id));
}

/**
 * Step 2: at most CAP + 1 matches (id, rank, sort key), sorted, the page's rows joined, in one
 * statement. `total` is exact when it is <= CAP (then `items` is the page).
 */
async function cappedMatches(
  db: Db,
  where: SQL,
  rank: SQL,
  key: SQL,
  desc: boolean,
  ordered: boolean,
  query: ListQuery,
) {
  const { limit, offset } = pageWindow(query);
  const dir = sql.raw(desc ? 'desc' : 'asc');
  const matched = db.$with('matched').as(
    db
      .select({ id: products.id, rank: sql`${rank}`.as('rank'), sortKey: sql`${key}`.as('sort_key') })
      .from(products)
      .where(where)
      // The first CAP + 1 matches in the base order: an ordered walk of its index that stops early
      // for a common word, the trigram index and a sort for a rare one (the planner's choice).
      .orderBy(...(ordered ? [sql`${key} ${dir}, "products"."id" ${dir}`] : []))
      .limit(PRODUCT_SEARCH_CAP + 1),
  );
  const pageIds = db.$with('page').as(
    db
      .select({
        id: matched.id,
        rank: sql`"matched"."rank"`.as('rank'),
        sortKey: sql`"matched"."sort_key"`.as('sort_key'),
      })
      .from(matched)
      .orderBy(sql`"matched"."rank", "matched"."sort_key" ${dir}, "matched"."id" ${dir}`)
      .limit(limit)
      .offset(offset),
  );
  // `matched` is read twice (page and count): PostgreSQL materializes it once.
  const rows = (await db
    .with(matched, pageIds)
    .select({ ...listColumns, total: sql<number>`(select count(*)::int from ${matched})` })
    .from(pageIds)
    .innerJoin(products, eq(products.id, pageIds.id))
    .orderBy(sql`"page"."rank", "page"."sort_key" ${dir}, "page"."id" ${dir}`)) as (ListRow & {
    total: number;
  })[];
  if (rows.length > 0) return { total: Number(rows[0].total), items: rows.map(toListItem) };
  // An empty first page: no match at all (a typo at the PDV), nothing to count again.
  if (offset === 0) return { total: 0, items: [] };
  // No row on a later page (past the end): the total alone.
  const [{ total }] = rowsIn<{ total: number }>(
    await db.execute(sql`
      select count(*)::int as total from (
        select 1 from "products" where ${where} limit ${PRODUCT_SEARCH_CAP + 1}
      ) s`),
  );
  return { total: Number(total), items: [] };
}

const NAME = { ...WALKABLE.name!, desc: false };

/** How many products an index range holds, up to CAP + 1 (its rows only, no filter: a cheap probe). */
async function rangeCount(db: Db, client: SQL, range: SQL): Promise<number> {
  const [row] = rowsIn<{ n: number }>(
    await db.execute(sql`
      select count(*)::int as n from (
        select 1 from "products" where ${client} and ${range} limit ${PRODUCT_SEARCH_CAP + 1}
      ) s`),
  );
  return Number(row?.n ?? 0);
}

/**
 * Step 3 (relevance, more than CAP matches): the tiers walked in order for the page. Null when a
 * walk goes over its budget.
 */
async function walkTiers(
  db: Db,
  clientId: number,
  tiers: ReturnType<typeof tiersOf>,
  query: ListQuery,
  emptyTiers: boolean[],
) {
  const { limit, offset } = pageWindow(query);
  const client = sql`"products"."client_id" = ${clientId}`;
  const ids: number[] = [];
  let before = 0;
  const all = [
    // A first tier whose index range holds no name (its probe said 0) is not walked.
    ...tiers.firstTiers
      .filter((_, i) => !emptyTiers[i])
      .map((t) => ({ range: sql`${client} and ${t.range}`, keep: t.keep })),
    { range: client, keep: tiers.rest },
  ];
  for (const tier of all) {
    const r = await walk(
      db,
      { ...NAME, ...tier },
      Math.max(0, offset - before),
      limit - ids.length,
      0,
      WALK_BUDGET,
    );
    if (!r.done) return null;
    ids.push(...r.ids);
    if (ids.length >= limit) break;
    before += r.kept;
  }
  return ids;
}

/**
 * Step 0: a search of one word (3+ characters, no digit) in name order, without filters: the vocabulary's
 * words that contain it (at most WORDS_MAX, else null), then their products in name order from the
 * word table's primary key, merged, the first CAP + 1 (exact up to CAP, else capped). Null when it
 * does not apply (the caller goes on with the other steps).
 */
async function wordPage(db: Db, clientId: number, query: ListQuery & { q: string }, desc: boolean) {
  const terms = searchKey(query.q).split(' ').filter(Boolean);
  const filtered =
    query.categoryId !== undefined ||
    query.brandId !== undefined ||
    query.productType !== undefined ||
    query.active !== undefined ||
    query.lowStock !== undefined;
  // A term with a digit is a code or a size: its vocabulary words are every SKU and barcode that
  // hold it (thousands; 10-17 ms to find through the trigram index at 1,000,000 products), and the
  // trigram index of the products finds such a rare term directly.
  if (filtered || terms.length !== 1 || [...terms[0]].length < 3 || /\d/.test(terms[0])) return null;
  const { limit, offset } = pageWindow(query);
  if (offset + limit > PRODUCT_SEARCH_CAP + 1) return null;
  const words = await wordsContaining(db, clientId, terms[0]);
  if (!words) return null;
  const { ids, total } = await wordMatches(db, clientId, words, desc, limit, offset);
  const capped = total > PRODUCT_SEARCH_CAP;
  return {
    ...listResult(await rowsOf(db, ids), capped ? PRODUCT_SEARCH_CAP : total, query),
    totalCapped: capped,
  };
}

/** A product list with `q`: capped count, relevance or the chosen sort (see the top of this file). */
export async function searchProductPage(
  db: Db,
  clientId: number,
  where: SQL,
  query: ListQuery & { q: string },
): Promise<ProductPage> {
  const sorting = sortingOf(query);
  const { limit, offset } = pageWindow(query);
  const page = async (ids: number[], total: number, totalCapped: boolean) => ({
    ...listResult(await rowsOf(db, ids), total, query),
    totalCapped,
  });
  const exact = (step2: { total: number; items: ProductPage['items'] }) => ({
    ...listResult(step2.items, step2.total, query),
    totalCapped: false,
  });
  const client = sql`"products"."client_id" = ${clientId}`;

  if (sorting.kind === 'relevance') {
    const tiers = tiersOf(query.q, where);
    // Step 1: names that start with the whole search, the page and the count, in a few chunks,
    // when the index says there are more than CAP such names (one index range, filters aside).
    const [t0, t1] = tiers.firstTiers;
    const inT0 = await rangeCount(db, client, t0.range);
    const first =
      inT0 > PRODUCT_SEARCH_CAP &&
      (await walk(
        db,
        { ...NAME, range: sql`${client} and ${t0.range}`, keep: t0.keep },
        offset,
        limit,
        PRODUCT_SEARCH_CAP + 1,
        FIRST_TIER_BUDGET,
      ));
    if (first && first.kept > PRODUCT_SEARCH_CAP && first.ids.length >= limit)
      return page(first.ids, PRODUCT_SEARCH_CAP, true);
    // No name starts with the search or its first word (a word inside names: a brand, a colour):
    // relevance is the name order, and the first CAP + 1 matches by name hold every page.
    // (Probed only when no name starts with the whole search: -1 otherwise. One statement for both
    // probes was measured: its planning cost more than the round trip it saved.)
    const inT1 = inT0 === 0 && t1 ? await rangeCount(db, client, t1.range) : -1;
    const noTiers = inT0 === 0 && (!t1 || inT1 === 0);
    // Relevance is then the name order: one word without filters comes from the word table.
    if (noTiers) {
      const byWord = await wordPage(db, clientId, query, false);
      if (byWord) return byWord;
    }
    const name = sql`"products"."name_key"`;
    const step2 = await cappedMatches(db, where, tiers.rank, name, false, noTiers, query);
    if (step2.total <= PRODUCT_SEARCH_CAP) return exact(step2);
    if (noTiers && offset + limit <= PRODUCT_SEARCH_CAP + 1)
      return { ...listResult(step2.items, PRODUCT_SEARCH_CAP, query), totalCapped: true };
    const walked = await walkTiers(db, clientId, tiers, query, [inT0 === 0, inT1 === 0]);
    const ids =
      walked ?? (await sortedIds(db, where, [tiers.rank, sql`"products"."name_key"`], false, limit, offset));
    return page(ids, PRODUCT_SEARCH_CAP, true);
  }

  if (sorting.field === 'name') {
    const byWord = await wordPage(db, clientId, query, sorting.desc);
    if (byWord) return byWord;
  }
  const key = sortKeyOf(sorting.field);
  const step2 = await cappedMatches(db, where, sql`0`, key, sorting.desc, true, query);
  if (step2.total <= PRODUCT_SEARCH_CAP) return exact(step2);
  // The first CAP + 1 matches in this order hold every page of the capped total.
  if (offset + limit <= PRODUCT_SEARCH_CAP + 1)
    return { ...listResult(step2.items, PRODUCT_SEARCH_CAP, query), totalCapped: true };
  // Past them (an API caller's page beyond the cap): price and creation date spread the matches
  // along their index: walk it, within a budget. Names cluster by their first word (a brand's
  // products sit deep in every product word's range): the name column reads and sorts every match.
  const index = sorting.field === 'name' ? undefined : WALKABLE[sorting.field];
  const walked = index
    ? await walk(
        db,
        { ...index, range: client, keep: where, desc: sorting.desc },
        offset,
        limit,
        0,
        EXPLICIT_SORT_BUDGET,
      )
    : null;
  return page(
    walked?.done ? walked.ids : await sortedIds(db, where, [key], sorting.desc, limit, offset),
    PRODUCT_SEARCH_CAP,
    true,
  );
}
