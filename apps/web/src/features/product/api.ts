import { productApi } from '@balcao/core/endpoints/product';
import { productAdditionalApi } from '@balcao/core/endpoints/product-additional';
import { stockApi } from '@balcao/core/endpoints/stock';
import type { ImportResult, ProductListQuery, ProductType } from '@balcao/core/product';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../../lib/api.ts';
import { call, callStream, download, queryOf, useCall } from '../../lib/client.ts';
import { invalidateResources } from '../../lib/queryKeys.ts';

/**
 * Products (issue 4) and their add-on groups: query options per read of `productApi` and
 * `productAdditionalApi` (core's declarations) and one mutation per write; components use these,
 * never a path. `productQueries.search` is THE product search of the web (the PDV, the comanda, the
 * stock pickers and the freight simulator use it).
 */

export type ProductListParams = {
  page: number;
  pageSize: number;
  q?: string;
  sort?: string;
  categoryId?: number;
  brandId?: number;
  productType?: ProductType;
  active?: boolean;
  lowStock?: boolean;
};

/** A query-string flag: 'true'/'false', or no filter. */
const flag = (value: boolean | undefined) => (value === undefined ? undefined : value ? 'true' : 'false');

/** The list's query as the API reads it (flags as text). */
function listQueryOf(params: Omit<ProductListParams, 'page' | 'pageSize'> & Partial<ProductListParams>) {
  return {
    ...params,
    active: flag(params.active),
    lowStock: flag(params.lowStock),
  } satisfies ProductListQuery;
}

/** A search's default page: the PDV's suggestions. */
const SEARCH_SIZE = 8;

type SearchFilters = { pageSize?: number; categoryId?: number };

/** The search's call: the active products matching `q`, one page. */
const searchInput = (clientId: number, q: string, filters: SearchFilters = {}) => ({
  params: { clientId },
  query: {
    q,
    active: 'true' as const,
    pageSize: filters.pageSize ?? SEARCH_SIZE,
    categoryId: filters.categoryId,
  },
});

export const productQueries = {
  /** One page of the client's products; the page on screen stays while the next one loads. */
  list: (clientId: number, params: ProductListParams) => ({
    ...queryOf(productApi.list, { params: { clientId }, query: listQueryOf(params) }),
    placeholderData: keepPreviousData,
  }),
  /** One product; a 404 shows at once (no retry). */
  detail: (id: number) => ({ ...queryOf(productApi.get, { params: { id } }), retry: false }),
  /**
   * THE product search (name, SKU or barcode) among the active products: the pickers, the PDV, the
   * comanda and the freight simulator. `filters`: a category, another page size.
   */
  search: (clientId: number, q: string, filters?: SearchFilters) =>
    queryOf(productApi.list, searchInput(clientId, q, filters)),
  /** A scanned or typed code: the product, and the variant when the code is a variant's. */
  barcode: (code: string) => ({
    ...queryOf(productApi.barcode, { params: { code: code.trim() } }),
    retry: false,
  }),
  /** A product's stock card (its movements with the level after each): the product form's section. */
  stockCard: (productId: number, page: number, pageSize: number) => ({
    ...queryOf(stockApi.card, { params: { productId }, query: { page, pageSize } }),
    placeholderData: keepPreviousData,
  }),
  /** A product's units reserved by valid budgets and what is left to sell (issue 17). */
  reservation: (productId: number) => queryOf(stockApi.reservation, { params: { productId } }),
  /** The client's add-on groups (up to 100), for the product form. */
  additionalGroups: (clientId: number) =>
    queryOf(productAdditionalApi.list, { params: { clientId }, query: { pageSize: 100 } }),
};

/**
 * Products matching a search (the first page), called once by pickers that search as one types (the
 * PDV, the comanda): the same call as `productQueries.search`, cancelled by `signal`.
 */
export const searchProducts = (clientId: number, q: string, signal?: AbortSignal, filters?: SearchFilters) =>
  call(productApi.list, searchInput(clientId, q, filters), { signal });

/** One product, read once (a picked search hit's whole record). */
export const fetchProduct = (id: number) => call(productApi.get, { params: { id } });

/** A scanned or typed code, read once. */
export const findByBarcode = (code: string, signal?: AbortSignal) =>
  call(productApi.barcode, { params: { code: code.trim() } }, { signal });

export function useProducts(clientId: number | undefined, params: ProductListParams) {
  return useQuery({ ...productQueries.list(clientId ?? 0, params), enabled: Boolean(clientId) });
}

export function useProduct(id: number | undefined) {
  return useQuery({ ...productQueries.detail(id ?? 0), enabled: Boolean(id) });
}

export function useStockCard(productId: number, page: number, pageSize: number, enabled = true) {
  return useQuery({ ...productQueries.stockCard(productId, page, pageSize), enabled });
}

/** A product's units reserved by valid budgets and what is left to sell (issue 17). */
export function useReservationFigures(productId: number, enabled = true) {
  return useQuery({ ...productQueries.reservation(productId), enabled });
}

export const useCreateProduct = () => useCall(productApi.create);
export const useUpdateProduct = () => useCall(productApi.update);
/** Deletes, then the list reloads whatever happened. */
export const useDeleteProduct = () => useCall(productApi.remove, { refreshOnError: true });
export const useSetGrid = () => useCall(productApi.setGrid);
export const useClearGrid = () => useCall(productApi.clearGrid);
export const useUpdateVariant = () => useCall(productApi.updateVariant);
/** Image writes reload the product whatever happened (the images shown are the real ones). */
export const useUploadImage = () => useCall(productApi.addImage, { refreshOnError: true });
export const useDeleteImage = () => useCall(productApi.removeImage, { refreshOnError: true });
export const useReorderImages = () => useCall(productApi.reorderImages, { refreshOnError: true });

// ---------------------------------------------------------------- add-on groups

export function useAdditionalGroups(clientId: number | undefined) {
  return useQuery({
    ...productQueries.additionalGroups(clientId ?? 0),
    enabled: Boolean(clientId),
    select: (data) => data.items,
  });
}

export const useCreateAdditionalGroup = () => useCall(productAdditionalApi.create);
export const useUpdateAdditionalGroup = () => useCall(productAdditionalApi.update);

// ---------------------------------------------------------------- CSV

export type ImportOutcome = ImportResult & { ignoredColumns?: string[] };

/** The per-line result an import refusal (422) carries, when it does. */
export function importResultOf(error: unknown): ImportOutcome | undefined {
  if (!(error instanceof ApiError)) return undefined;
  return (error.payload as { result?: ImportOutcome } | undefined)?.result;
}

/** Preview: every line checked, nothing written. A file the server cannot read still answers its errors. */
export async function previewImport(csv: string, skipInvalid: boolean): Promise<ImportOutcome> {
  try {
    return await call(productApi.import, { body: { csv, dryRun: true, skipInvalid } });
  } catch (error) {
    const result = importResultOf(error);
    if (result) return result;
    throw error;
  }
}

type ImportEvent =
  | { type: 'progress'; done: number; total: number }
  | { type: 'result'; result: ImportOutcome }
  | { type: 'error'; message: string };

/**
 * Writes the import and reports progress: the server streams NDJSON lines
 * ({type: 'progress', done, total}, then {type: 'result'} or {type: 'error'}).
 */
export async function runImport(
  csv: string,
  skipInvalid: boolean,
  onProgress: (done: number, total: number) => void,
): Promise<ImportOutcome> {
  let outcome: ImportOutcome | undefined;
  await callStream(productApi.import, { body: { csv, dryRun: false, skipInvalid } }, (data) => {
    const event = data as ImportEvent;
    if (event.type === 'progress') onProgress(event.done, event.total);
    else if (event.type === 'result') outcome = event.result;
    else throw new ApiError(500, event.message);
  });
  if (!outcome) throw new ApiError(500, 'A importação foi interrompida. Nada foi gravado.');
  return outcome;
}

/** The import's write as a mutation: the products, categories and brands reload after it. */
export function useRunImport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: {
      csv: string;
      skipInvalid: boolean;
      onProgress: (done: number, total: number) => void;
    }) => runImport(input.csv, input.skipInvalid, input.onProgress),
    onSuccess: () => {
      void invalidateResources(queryClient, productApi.import.changes);
    },
  });
}

/** Downloads the CSV of the filtered list. */
export function downloadExport(clientId: number, params: Omit<ProductListParams, 'page' | 'pageSize'>) {
  return download(productApi.export, { params: { clientId }, query: listQueryOf(params) }, 'produtos.csv');
}
