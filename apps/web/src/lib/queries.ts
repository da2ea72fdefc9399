import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { queryKeys } from './queryKeys.ts';

type Keys = ReturnType<typeof queryKeys>;

/**
 * The query of one page of a shop's list (customers, users, products, sales): not sent before the
 * shop is known, and the page on screen stays while the next one loads.
 */
export function listQuery<Q, T>(
  keys: Keys,
  clientId: number | undefined,
  query: Q,
  fetch: (clientId: number, query: Q) => Promise<T>,
) {
  return queryOptions({
    queryKey: keys.list(clientId ?? 0, query),
    queryFn: () => fetch(clientId!, query),
    enabled: Boolean(clientId),
    placeholderData: keepPreviousData,
  });
}

/** The query of one record by id: not sent without an id, and not retried (a 404 shows at once). */
export function detailQuery<T>(keys: Keys, id: number | undefined, fetch: (id: number) => Promise<T>) {
  return queryOptions({
    queryKey: keys.detail(id ?? 0),
    queryFn: () => fetch(id!),
    enabled: Boolean(id),
    retry: false,
  });
}
