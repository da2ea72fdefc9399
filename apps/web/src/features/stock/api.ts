import { type ListResult, toQueryString } from '@balcao/core/list';
import type { BarcodeMatch, Product, ProductListItem } from '@balcao/core/product';
import type {
  FractionRatio,
  LowStockProduct,
  StockCard,
  StockEntryInput,
  StockExitInput,
  StockFractionateInput,
  StockMovement,
  StockOperationResult,
  StockReservationFigures,
  StockSettings,
  StockSettingsInput,
} from '@balcao/core/stock';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch, downloadFile } from '../../lib/api.ts';
import { invalidateResources, queryKeys } from '../../lib/queryKeys.ts';

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

const stockKeys = queryKeys('stock');

export function useMovements(clientId: number | undefined, params: MovementListParams) {
  return useQuery({
    queryKey: stockKeys.list(clientId ?? 0, params),
    queryFn: () =>
      apiFetch<ListResult<StockMovement>>(`/stock-movement/client/${clientId}${toQueryString(params)}`),
    enabled: Boolean(clientId),
    placeholderData: keepPreviousData,
  });
}

export function useStockCard(productId: number, page: number, pageSize: number, enabled = true) {
  return useQuery({
    queryKey: stockKeys.view('card', productId, page, pageSize),
    queryFn: () =>
      apiFetch<StockCard>(`/stock-movement/product/${productId}${toQueryString({ page, pageSize })}`),
    enabled,
    placeholderData: keepPreviousData,
  });
}

export function useLowStock(clientId: number | undefined, page: number, pageSize: number) {
  return useQuery({
    queryKey: stockKeys.view('low', clientId ?? 0, page, pageSize),
    queryFn: () =>
      apiFetch<ListResult<LowStockProduct>>(
        `/stock-movement/low-stock/client/${clientId}${toQueryString({ page, pageSize })}`,
      ),
    enabled: Boolean(clientId),
    placeholderData: keepPreviousData,
  });
}

/** Ratios remembered for a source product (the most recent target first). */
export function useFractionRatios(clientId: number | undefined, sourceProductId: number | undefined) {
  return useQuery({
    queryKey: stockKeys.view('ratio', clientId ?? 0, sourceProductId ?? 0),
    queryFn: () =>
      apiFetch<FractionRatio[]>(
        `/stock-movement/fraction-ratio/client/${clientId}${toQueryString({ sourceProductId })}`,
      ),
    enabled: Boolean(clientId && sourceProductId),
  });
}

export function useStockSettings(clientId: number | undefined) {
  return useQuery({
    queryKey: stockKeys.view('settings', clientId ?? 0),
    queryFn: () => apiFetch<StockSettings>(`/stock-setting/client/${clientId}`),
    enabled: Boolean(clientId),
  });
}

export function useUpdateStockSettings(clientId: number | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: StockSettingsInput) =>
      apiFetch<StockSettings>(`/stock-setting/client/${clientId}`, {
        method: 'PUT',
        body,
      }),
    onSuccess: (data) => queryClient.setQueryData(stockKeys.view('settings', clientId ?? 0), data),
  });
}

/** After a movement: the history, stock cards, low-stock list, ratios and products reload. */
function useStockMoved() {
  const queryClient = useQueryClient();
  return () => invalidateResources(queryClient, ['stock']);
}

export function useRegisterEntry() {
  const moved = useStockMoved();
  return useMutation({
    mutationFn: (body: StockEntryInput) =>
      apiFetch<StockOperationResult>('/stock-movement/entry', { method: 'POST', body }),
    onSuccess: moved,
  });
}

export function useRegisterExit() {
  const moved = useStockMoved();
  return useMutation({
    mutationFn: (body: StockExitInput) =>
      apiFetch<StockOperationResult>('/stock-movement/exit', { method: 'POST', body }),
    onSuccess: moved,
  });
}

export function useFractionate() {
  const moved = useStockMoved();
  return useMutation({
    mutationFn: (body: StockFractionateInput) =>
      apiFetch<StockOperationResult>('/stock-movement/fractionate', { method: 'POST', body }),
    onSuccess: moved,
  });
}

// ---------------------------------------------------------------- catalog lookups

/** Products matching a search (name, SKU or barcode), for the pickers. */
export const searchProducts = (clientId: number, q: string) =>
  apiFetch<ListResult<ProductListItem>>(
    `/product/client/${clientId}${toQueryString({ q, pageSize: 10, active: true })}`,
  );
export const fetchProduct = (id: number) => apiFetch<Product>(`/product/${id}`);
/** A scanned or typed code: the product, and the variant when the code is a variant's. */
export const findByBarcode = (code: string) =>
  apiFetch<BarcodeMatch>(`/product/barcode/${encodeURIComponent(code.trim())}`);

// ---------------------------------------------------------------- CSV

/** Downloads the CSV of the filtered history. */
export function downloadMovementsCsv(
  clientId: number,
  params: Omit<MovementListParams, 'page' | 'pageSize'>,
) {
  return downloadFile(
    `/stock-movement/client/${clientId}/export${toQueryString(params)}`,
    'movimentacoes-estoque.csv',
  );
}

/** A product's units reserved by valid budgets and what is left to sell (issue 17). */
export function useReservationFigures(productId: number, enabled = true) {
  return useQuery({
    queryKey: stockKeys.view('reservation', productId),
    queryFn: () => apiFetch<StockReservationFigures>(`/stock-reservation/product/${productId}`),
    enabled,
  });
}
