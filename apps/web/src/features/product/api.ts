import { type ListResult, toQueryString } from '@balcao/core/list';
import type {
  ImportResult,
  Product,
  ProductAdditionalGroup,
  ProductAdditionalInput,
  ProductGridInput,
  ProductImage,
  ProductInput,
  ProductPage,
  ProductType,
  ProductVariant,
  ProductVariantUpdate,
} from '@balcao/core/product';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, apiFetch, downloadFile, UNEXPECTED_ERROR } from '../../lib/api.ts';
import { getToken } from '../../lib/cookies.ts';
import { detailQuery, listQuery } from '../../lib/queries.ts';
import { queryKeys } from '../../lib/queryKeys.ts';

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

export const productKeys = queryKeys('product');
const additionalKeys = queryKeys('product-additional');

export const fetchProducts = (clientId: number, params: ProductListParams) =>
  apiFetch<ProductPage>(`/product/client/${clientId}${toQueryString(params)}`);
export const fetchProduct = (id: number) => apiFetch<Product>(`/product/${id}`);

export function useProducts(clientId: number | undefined, params: ProductListParams) {
  return useQuery(listQuery(productKeys, clientId, params, fetchProducts));
}

export function useProduct(id: number | undefined) {
  return useQuery(detailQuery(productKeys, id, fetchProduct));
}

/** After a product changes: its detail is the answer, lists and the category/brand counts reload. */
function useProductSaved() {
  const queryClient = useQueryClient();
  return (product: Product) => {
    queryClient.setQueryData(productKeys.detail(product.id), product);
    void queryClient.invalidateQueries({ queryKey: queryKeys('product-category').lists() });
    void queryClient.invalidateQueries({ queryKey: queryKeys('product-brand').lists() });
    return queryClient.invalidateQueries({ queryKey: productKeys.lists() });
  };
}

export type ProductUpdatePayload = Omit<ProductInput, 'grid'> & { updatedAt: string };

export function useCreateProduct() {
  const saved = useProductSaved();
  return useMutation({
    mutationFn: (body: ProductInput) => apiFetch<Product>('/product', { method: 'POST', body }),
    onSuccess: saved,
  });
}

export function useUpdateProduct() {
  const saved = useProductSaved();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: ProductUpdatePayload }) =>
      apiFetch<Product>(`/product/${id}`, { method: 'PUT', body }),
    onSuccess: saved,
  });
}

export function useDeleteProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiFetch<{ id: number }>(`/product/${id}`, { method: 'DELETE' }),
    onSettled: (_d, _e, id) => {
      queryClient.removeQueries({ queryKey: productKeys.detail(id) });
      return queryClient.invalidateQueries({ queryKey: productKeys.lists() });
    },
  });
}

export function useSetGrid(productId: number) {
  const saved = useProductSaved();
  return useMutation({
    mutationFn: (grid: ProductGridInput) =>
      apiFetch<Product>(`/product/${productId}/grid`, { method: 'PUT', body: grid }),
    onSuccess: saved,
  });
}

export function useClearGrid(productId: number) {
  const saved = useProductSaved();
  return useMutation({
    mutationFn: () => apiFetch<Product>(`/product/${productId}/grid`, { method: 'DELETE' }),
    onSuccess: saved,
  });
}

export function useUpdateVariant(productId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: ProductVariantUpdate }) =>
      apiFetch<ProductVariant>(`/product-grid/${id}`, { method: 'PUT', body }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: productKeys.detail(productId) });
      return queryClient.invalidateQueries({ queryKey: productKeys.lists() });
    },
  });
}

export function useUploadImage(productId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append('file', file);
      return apiFetch<ProductImage>(`/product/${productId}/image`, { method: 'POST', body: form });
    },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: productKeys.detail(productId) });
      return queryClient.invalidateQueries({ queryKey: productKeys.lists() });
    },
  });
}

export function useDeleteImage(productId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (imageId: number) =>
      apiFetch<ProductImage[]>(`/product/${productId}/image/${imageId}`, { method: 'DELETE' }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: productKeys.detail(productId) });
      return queryClient.invalidateQueries({ queryKey: productKeys.lists() });
    },
  });
}

export function useReorderImages(productId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (imageIds: number[]) =>
      apiFetch<ProductImage[]>(`/product/${productId}/image-order`, { method: 'PUT', body: { imageIds } }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: productKeys.detail(productId) });
      return queryClient.invalidateQueries({ queryKey: productKeys.lists() });
    },
  });
}

// ---------------------------------------------------------------- add-on groups

export function useAdditionalGroups(clientId: number | undefined) {
  return useQuery({
    queryKey: additionalKeys.list(clientId ?? 0),
    queryFn: () =>
      apiFetch<ListResult<ProductAdditionalGroup>>(`/product-additional/client/${clientId}?pageSize=100`),
    enabled: Boolean(clientId),
    select: (data) => data.items,
  });
}

export function useSaveAdditionalGroup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: number; body: ProductAdditionalInput & { updatedAt?: string } }) =>
      id
        ? apiFetch<ProductAdditionalGroup>(`/product-additional/${id}`, { method: 'PUT', body })
        : apiFetch<ProductAdditionalGroup>('/product-additional', { method: 'POST', body }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: productKeys.details() });
      return queryClient.invalidateQueries({ queryKey: additionalKeys.lists() });
    },
  });
}

// ---------------------------------------------------------------- CSV

export type ImportOutcome = ImportResult & { ignoredColumns?: string[] };

function authHeaders(extra: Record<string, string>): Record<string, string> {
  const token = getToken();
  return token ? { ...extra, authorization: `Bearer ${token}` } : extra;
}

/** Preview: every line checked, nothing written. A file the server cannot read still answers its errors. */
export async function previewImport(csv: string, skipInvalid: boolean): Promise<ImportOutcome> {
  let res: Response;
  try {
    res = await fetch('/v1/product/import', {
      method: 'POST',
      headers: authHeaders({ accept: 'application/json', 'content-type': 'application/json' }),
      body: JSON.stringify({ csv, dryRun: true, skipInvalid }),
    });
  } catch {
    throw new ApiError(0, 'Não foi possível conectar ao servidor. Verifique sua conexão.');
  }
  const payload = (await res.json().catch(() => ({}))) as ImportOutcome & {
    message?: string;
    result?: ImportOutcome;
  };
  if (res.ok) return payload;
  if (payload.result) return payload.result;
  throw new ApiError(res.status, payload.message ?? UNEXPECTED_ERROR);
}

/**
 * Writes the import and reports progress: the server streams NDJSON lines
 * ({type: 'progress', done, total}, then {type: 'result'} or {type: 'error'}).
 */
export async function runImport(
  csv: string,
  skipInvalid: boolean,
  onProgress: (done: number, total: number) => void,
): Promise<ImportOutcome> {
  const headers = authHeaders({ accept: 'application/x-ndjson', 'content-type': 'application/json' });
  let res: Response;
  try {
    res = await fetch('/v1/product/import', {
      method: 'POST',
      headers,
      body: JSON.stringify({ csv, dryRun: false, skipInvalid }),
    });
  } catch {
    throw new ApiError(0, 'Não foi possível conectar ao servidor. Verifique sua conexão.');
  }
  if (!res.ok || !res.body) {
    const payload = (await res.json().catch(() => ({}))) as { message?: string; result?: ImportOutcome };
    const error = new ApiError(res.status, payload.message ?? UNEXPECTED_ERROR) as ApiError & {
      result?: ImportOutcome;
    };
    error.result = payload.result;
    throw error;
  }
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let outcome: ImportOutcome | undefined;
  for (;;) {
    const { value, done } = await reader.read();
    if (value) buffer += value;
    let newline = buffer.indexOf('\n');
    while (newline >= 0) {
      const line = buffer.slice(0, newline).trim();
      buffer = buffer.slice(newline + 1);
      newline = buffer.indexOf('\n');
      if (!line) continue;
      const event = JSON.parse(line) as
        | { type: 'progress'; done: number; total: number }
        | { type: 'result'; result: ImportOutcome }
        | { type: 'error'; message: string };
      if (event.type === 'progress') onProgress(event.done, event.total);
      else if (event.type === 'result') outcome = event.result;
      else throw new ApiError(500, event.message);
    }
    if (done) break;
  }
  if (!outcome) throw new ApiError(500, 'A importação foi interrompida. Nada foi gravado.');
  return outcome;
}

/** Downloads the CSV of the filtered list. */
export function downloadExport(clientId: number, params: Omit<ProductListParams, 'page' | 'pageSize'>) {
  return downloadFile(`/product/client/${clientId}/export${toQueryString(params)}`, 'produtos.csv');
}
