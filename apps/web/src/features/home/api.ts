import type { Home } from '@balcao/core/home';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../lib/api.ts';
import { queryKeys } from '../../lib/queryKeys.ts';

export const homeKeys = queryKeys('home');

/** The home's figures for the logged user (a sale, a receipt, a stock change anywhere refetch them). */
export function useHome(clientId: number | undefined) {
  return useQuery({
    queryKey: homeKeys.view('day', clientId ?? 0),
    queryFn: () => apiFetch<Home>('/home'),
    enabled: Boolean(clientId),
    // The day moves on while the page stays open.
    refetchInterval: 5 * 60_000,
  });
}
