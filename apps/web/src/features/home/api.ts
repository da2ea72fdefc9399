import { homeApi } from '@balcao/core/endpoints/home';
import { useQuery } from '@tanstack/react-query';
import { queryOf } from '../../lib/client.ts';

export const homeQueries = {
  /** The home's figures for the logged user (a sale, a receipt, a stock change anywhere refetch them). */
  day: () => queryOf(homeApi.get),
};

export function useHome(clientId: number | undefined) {
  return useQuery({
    ...homeQueries.day(),
    enabled: Boolean(clientId),
    // The day moves on while the page stays open.
    refetchInterval: 5 * 60_000,
  });
}
