import type { ListResult } from '@balcao/core/list';
import { toQueryString } from '@balcao/core/list';
import type { ProductCategory, ProductCategoryInput } from '@balcao/core/product';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../lib/api.ts';
import { detailQuery, listQuery } from '../../lib/queries.ts';
import { queryKeys } from '../../lib/queryKeys.ts';

/**
 * Categories and brands share one record shape (name, active, product count); these hooks take the
 * resource, so product-category and product-brand pages stay thin.
 */
export type NamedResource = 'product-category' | 'product-brand' | 'campaign-category';
export type NamedRecord = ProductCategory;
export type NamedListParams = { page: number; pageSize: number; q?: string; sort?: string; active?: boolean };
export type NamedPayload = ProductCategoryInput & { updatedAt?: string };

export const fetchNamedList = (resource: NamedResource, clientId: number, params: NamedListParams) =>
  apiFetch<ListResult<NamedRecord>>(`/${resource}/client/${clientId}${toQueryString(params)}`);

export function useNamedList(resource: NamedResource, clientId: number | undefined, params: NamedListParams) {
  return useQuery(
    listQuery(queryKeys(resource), clientId, params, (clientId, params) =>
      fetchNamedList(resource, clientId, params),
    ),
  );
}

/** Every record (up to 100, sorted by name) for selects and filters. */
export function useNamedOptions(resource: NamedResource, clientId: number | undefined) {
  return useQuery({
    queryKey: queryKeys(resource).list(clientId ?? 0, 'all'),
    queryFn: () => fetchNamedList(resource, clientId!, { page: 1, pageSize: 100, sort: 'name' }),
    enabled: Boolean(clientId),
    select: (data) => data.items,
  });
}

export function useNamedRecord(resource: NamedResource, id: number | undefined) {
  return useQuery(detailQuery(queryKeys(resource), id, (id) => apiFetch<NamedRecord>(`/${resource}/${id}`)));
}

export function useSaveNamed(resource: NamedResource) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: number; body: NamedPayload }) =>
      id
        ? apiFetch<NamedRecord>(`/${resource}/${id}`, { method: 'PUT', body })
        : apiFetch<NamedRecord>(`/${resource}`, { method: 'POST', body }),
    onSuccess: (record) => {
      queryClient.setQueryData(queryKeys(resource).detail(record.id), record);
      return queryClient.invalidateQueries({ queryKey: queryKeys(resource).lists() });
    },
  });
}

export function useDeleteNamed(resource: NamedResource) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiFetch<{ id: number }>(`/${resource}/${id}`, { method: 'DELETE' }),
    onSettled: (_data, _error, id) => {
      queryClient.removeQueries({ queryKey: queryKeys(resource).detail(id) });
      return queryClient.invalidateQueries({ queryKey: queryKeys(resource).lists() });
    },
  });
}
