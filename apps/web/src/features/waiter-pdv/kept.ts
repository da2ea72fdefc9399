import { hashKey, type QueryKey, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { loadPersisted, savePersisted } from '../../lib/persist.ts';

/**
 * The waiter's phone keeps the last answer of a read it shows (the board, the menu, each tab seen)
 * in local storage, and gives it back when the page is reloaded without a connection (issue 30: a
 * tab can be opened after an offline reload). The query refetches as usual; offline its failure
 * leaves the kept answer on screen. Removed at logout with the rest of the persisted state.
 */
export function useKeptQuery(queryKey: QueryKey, storeKey: string) {
  const queryClient = useQueryClient();
  const hash = hashKey(queryKey);
  // Before the query's first render: what was kept is its data, already stale (refetched at once).
  useState(() => {
    if (queryClient.getQueryData(queryKey) !== undefined) return;
    const kept = loadPersisted<unknown>(storeKey, null);
    if (kept !== null) queryClient.setQueryData(queryKey, kept, { updatedAt: 1 });
  });
  useEffect(() => {
    const save = () => {
      const data = queryClient.getQueryCache().get(hash)?.state.data;
      if (data !== undefined) savePersisted(storeKey, data);
    };
    save();
    return queryClient.getQueryCache().subscribe((event) => {
      if (event.type === 'updated' && event.query.queryHash === hash && event.action.type === 'success')
        save();
    });
  }, [queryClient, hash, storeKey]);
}
