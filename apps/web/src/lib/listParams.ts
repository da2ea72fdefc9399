import { useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';

/** The keys the hook itself reads, when the list has them. */
type Known = { q?: string; sort?: string };

/**
 * A list's state in the URL (back/forward and shared links keep search, filters, sort and page):
 * `query` parsed from it, `update` to change keys (undefined removes a key, '' keeps it empty; any
 * change but the page itself goes back to page 1), `toggleSort` (name -> -name -> name), `setPage`
 * and `setPageSize` for ListPagination (`pagination(shown, sizes)` gives all its props), and the
 * search box text, written to `q` 300 ms after the last key (a `q` changed from outside, by a link,
 * is shown in the box). `parse` must be a stable (module-level) function; build it with the readers
 * below. A second list on the same page names its keys with a `prefix` ("low-page", "low-pageSize");
 * `parse` and `update` still see the bare names.
 */
export function useListParams<Q extends object>(parse: (params: URLSearchParams) => Q, prefix = '') {
  const [params, setParams] = useSearchParams();
  const query = useMemo(() => {
    if (!prefix) return parse(params);
    const own = [...params].filter(([key]) => key.startsWith(prefix));
    return parse(new URLSearchParams(own.map(([key, value]) => [key.slice(prefix.length), value])));
  }, [params, parse, prefix]);
  const { q, sort } = query as Known;
  const [search, setSearch] = useState(q ?? '');
  // The last `q` the box wrote or showed: any other value came from outside.
  const shownQ = useRef(q);

  const update = (changes: Record<string, string | undefined>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value === undefined) next.delete(prefix + key);
      else next.set(prefix + key, value);
    }
    if (!('page' in changes)) next.delete(`${prefix}page`);
    setParams(next, { replace: true });
  };

  const toggleSort = (field: string) => update({ sort: sort === field ? `-${field}` : field });
  // For ListPagination: another page, or another page size (back to page 1).
  const setPage = (page: number) => update({ page: String(page) });
  const setPageSize = (pageSize: number) => update({ pageSize: String(pageSize) });
  /** ListPagination's props: the total, the page and size shown (the answer's or the URL's), the sizes. */
  const pagination = (shown: { total: number; page: number; pageSize: number }, sizes: number[]) => ({
    total: shown.total,
    page: shown.page,
    pageSize: shown.pageSize,
    sizes,
    onPage: setPage,
    onPageSize: setPageSize,
  });

  // biome-ignore lint/correctness/useExhaustiveDependencies: only the typed text restarts the timer
  useEffect(() => {
    const timer = setTimeout(() => {
      const typed = search.trim() || undefined;
      if (typed === q) return;
      shownQ.current = typed;
      update({ q: typed });
    }, 300);
    return () => clearTimeout(timer);
  }, [search]);

  useEffect(() => {
    if (q === shownQ.current) return;
    shownQ.current = q;
    setSearch(q ?? '');
  }, [q]);

  return { query, update, toggleSort, setPage, setPageSize, pagination, search, setSearch };
}

/** Readers of one URL key, for a list's `parse`: a missing or junk value reads as undefined (or the default). */
export const readParam = {
  /** 1-based page, 1 when absent or junk. */
  page: (params: URLSearchParams) => Math.max(1, Math.trunc(Number(params.get('page'))) || 1),
  /** One of the offered sizes, else the fallback (the first size unless given). */
  pageSize: (params: URLSearchParams, sizes: readonly number[], fallback = sizes[0]!) => {
    const size = Number(params.get('pageSize'));
    return sizes.includes(size) ? size : fallback;
  },
  text: (params: URLSearchParams, key: string) => params.get(key) || undefined,
  oneOf: <T extends string>(params: URLSearchParams, key: string, allowed: readonly T[]) => {
    const value = params.get(key);
    return value !== null && (allowed as readonly string[]).includes(value) ? (value as T) : undefined;
  },
  /** A positive integer id ("7"), else undefined. */
  id: (params: URLSearchParams, key: string) => {
    const value = params.get(key);
    return value && /^[1-9]\d*$/.test(value) ? Number(value) : undefined;
  },
  /** An ISO date ("2026-01-31"): absent or junk -> the fallback, present but empty -> no date (undefined). */
  date: (params: URLSearchParams, key: string, fallback?: string) => {
    const value = params.get(key);
    if (value === '') return undefined;
    return value !== null && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : fallback;
  },
  /** 'true' / 'false' as a boolean, else undefined. */
  flag: (params: URLSearchParams, key: string) => {
    const value = params.get(key);
    return value === 'true' ? true : value === 'false' ? false : undefined;
  },
};
