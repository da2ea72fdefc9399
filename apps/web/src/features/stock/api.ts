import { stockApi } from '@balcao/core/endpoints/stock';
import { userApi } from '@balcao/core/endpoints/user';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { call, download, queryOf, useCall } from '../../lib/client.ts';
import { queryKeys } from '../../lib/queryKeys.ts';

/**
 * Stock (issue 6): query options per read of `stockApi` (core's declarations) and one mutation per
 * write; components use these, never a path. Products are the product feature's (`productQueries`),
 * and so is a product's stock card (the product form's section).
 */

export type MovementListParams = {
  page: number;
  pageSize: number;
  productId?: number;
  userId?: number;
  /** One type or a comma list ("fractionate-out,fractionate-in"). */
  type?: string;
  from?: string;
  to?: string;
};

export const stockQueries = {
  /** One page of the movement history; the page on screen stays while the next one loads. */
  movements: (clientId: number, params: MovementListParams) => ({
    ...queryOf(stockApi.movements, { params: { clientId }, query: params }),
    placeholderData: keepPreviousData,
  }),
  /** Active products at or below their minimum. */
  lowStock: (clientId: number, page: number, pageSize: number) => ({
    ...queryOf(stockApi.lowStock, { params: { clientId }, query: { page, pageSize } }),
    placeholderData: keepPreviousData,
  }),
  /** Ratios remembered for a source product (the most recent target first). */
  fractionRatios: (clientId: number, sourceProductId: number) =>
    queryOf(stockApi.fractionRatios, { params: { clientId }, query: { sourceProductId } }),
  settings: (clientId: number) => queryOf(stockApi.settings, { params: { clientId } }),
};

export function useMovements(clientId: number | undefined, params: MovementListParams) {
  return useQuery({ ...stockQueries.movements(clientId ?? 0, params), enabled: Boolean(clientId) });
}

export function useLowStock(clientId: number | undefined, page: number, pageSize: number) {
  return useQuery({ ...stockQueries.lowStock(clientId ?? 0, page, pageSize), enabled: Boolean(clientId) });
}

/** Ratios remembered for a source product (the most recent target first). */
export function useFractionRatios(clientId: number | undefined, sourceProductId: number | undefined) {
  return useQuery({
    ...stockQueries.fractionRatios(clientId ?? 0, sourceProductId ?? 0),
    enabled: Boolean(clientId && sourceProductId),
  });
}

export function useStockSettings(clientId: number | undefined) {
  return useQuery({ ...stockQueries.settings(clientId ?? 0), enabled: Boolean(clientId) });
}

export const useUpdateStockSettings = () => useCall(stockApi.updateSettings);
/** A movement: the history, stock cards, low-stock list, ratios and products reload. */
export const useRegisterEntry = () => useCall(stockApi.entry);
export const useRegisterExit = () => useCall(stockApi.exit);
export const useFractionate = () => useCall(stockApi.fractionate);

/**
 * The shop's users, to filter the history by who moved the stock.
 */
export function useStaff(clientId: number | undefined) {
  return useQuery({
    queryKey: queryKeys('user').list(clientId ?? 0, 'staff'),
    queryFn: () =>
      call(userApi.list, { params: { clientId: clientId! }, query: { pageSize: 100, sort: 'name' } }),
    enabled: Boolean(clientId),
    select: (data) => data.items,
    staleTime: 60_000,
  });
}

// ---------------------------------------------------------------- CSV

/** Downloads the CSV of the filtered history. */
export function downloadMovementsCsv(
  clientId: number,
  params: Omit<MovementListParams, 'page' | 'pageSize'>,
) {
  return download(
    stockApi.exportMovements,
    { params: { clientId }, query: params },
    'movimentacoes-estoque.csv',
  );
}
