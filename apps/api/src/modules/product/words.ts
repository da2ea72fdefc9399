import { PRODUCT_SEARCH_CAP } from '@balcao/core/product';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { escapeLike } from '../../lib/list.ts';

/**
 * The word table of product search (issue 21, docs/decisions.md "Product search at 1,000,000
 * products"): product_search_words (client, word, name key, product) and product_search_vocabulary
 * (client, word), kept by triggers on products (drizzle/0031_product_search_words_triggers.sql).
 * A search term (no space) is inside a product's search text exactly when it is inside one of its
 * words, so the vocabulary's words that contain the term, and their products, are every match.
 */

/** More vocabulary words than this for one term (a few digits inside every SKU): not this path. */
const WORDS_MAX = 64;

const rowsIn = <T>(result: unknown) => ((result as { rows?: unknown[] }).rows ?? result) as T[];

/** The client's words that contain `term` (the trigram index of the vocabulary), or null past WORDS_MAX. */
export async function wordsContaining(db: Db, clientId: number, term: string): Promise<string[] | null> {
  const rows = rowsIn<{ word: string }>(
    await db.execute(sql`
      select word from product_search_vocabulary
      where client_id = ${clientId} and word like ${`%${escapeLike(term)}%`}
      limit ${WORDS_MAX + 1}`),
  );
  return rows.length > WORDS_MAX ? null : rows.map((r) => r.word);
}

/**
 * The products holding any of `words`, in name order (then id), up to CAP + 1: each word's range
 * of the primary key is already in that order, and PostgreSQL merges them (Merge Append), reading
 * about CAP + 1 index rows in all. Answers the page's ids and the count (up to CAP + 1).
 */
export async function wordMatches(
  db: Db,
  clientId: number,
  words: string[],
  desc: boolean,
  limit: number,
  offset: number,
): Promise<{ ids: number[]; total: number }> {
  if (words.length === 0) return { ids: [], total: 0 };
  const dir = sql.raw(desc ? 'desc' : 'asc');
  const cap = PRODUCT_SEARCH_CAP + 1;
  const ranges: SQL[] = words.map(
    (word) => sql`(select name_key, product_id from product_search_words
      where client_id = ${clientId} and word = ${word}
      order by name_key ${dir}, product_id ${dir} limit ${cap})`,
  );
  const [row] = rowsIn<{ total: number | string; ids: unknown }>(
    await db.execute(sql`
      with matched as materialized (
        select distinct name_key, product_id from (${sql.join(ranges, sql` union all `)}) w
        order by name_key ${dir}, product_id ${dir} limit ${cap}
      )
      select (select count(*)::int from matched) as total,
        (select json_agg(product_id order by name_key ${dir}, product_id ${dir}) from (
          select name_key, product_id from matched
          order by name_key ${dir}, product_id ${dir} limit ${limit} offset ${offset}
        ) p) as ids`),
  );
  const raw = typeof row?.ids === 'string' ? JSON.parse(row.ids) : row?.ids;
  return { ids: ((raw as number[] | null) ?? []).map(Number), total: Number(row?.total ?? 0) };
}
