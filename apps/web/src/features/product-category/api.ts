import { campaignCategoryApi } from '@balcao/core/endpoints/campaign-category';
import type { NamedCatalogApi, NamedResource } from '@balcao/core/endpoints/namedCatalog';
import { productBrandApi } from '@balcao/core/endpoints/product-brand';
import { productCategoryApi } from '@balcao/core/endpoints/product-category';
import type { ProductCategory } from '@balcao/core/product';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { queryOf, useCall } from '../../lib/client.ts';

/**
 * Categories, brands and campaign categories share one record shape (name, active, product count)
 * and one set of endpoints (`namedCatalogEndpoints` in core); these query options and hooks take the
 * resource, so the product-category, product-brand and campaign-category pages stay thin.
 */
export type { NamedResource };
export type NamedRecord = ProductCategory;
export type NamedListParams = { page: number; pageSize: number; q?: string; sort?: string; active?: boolean };

/** The declarations of each named resource. */
const NAMED_API: Record<NamedResource, NamedCatalogApi> = {
  'product-category': productCategoryApi,
  'product-brand': productBrandApi,
  'campaign-category': campaignCategoryApi,
};

const flag = (value: boolean | undefined) => (value === undefined ? undefined : value ? 'true' : 'false');

export const namedQueries = {
  /** One page of the client's records; the page on screen stays while the next one loads. */
  list: (resource: NamedResource, clientId: number, params: NamedListParams) => ({
    ...queryOf(NAMED_API[resource].list, {
      params: { clientId },
      query: { ...params, active: flag(params.active) },
    }),
    placeholderData: keepPreviousData,
  }),
  /** Every record (up to 100, sorted by name) for selects and filters. */
  options: (resource: NamedResource, clientId: number) =>
    queryOf(NAMED_API[resource].list, {
      params: { clientId },
      query: { page: 1, pageSize: 100, sort: 'name' },
    }),
  /** One record; a 404 shows at once (no retry). */
  detail: (resource: NamedResource, id: number) => ({
    ...queryOf(NAMED_API[resource].get, { params: { id } }),
    retry: false,
  }),
};

export function useNamedList(resource: NamedResource, clientId: number | undefined, params: NamedListParams) {
  return useQuery({ ...namedQueries.list(resource, clientId ?? 0, params), enabled: Boolean(clientId) });
}

/** Every record (up to 100, sorted by name) for selects and filters. */
export function useNamedOptions(resource: NamedResource, clientId: number | undefined) {
  return useQuery({
    ...namedQueries.options(resource, clientId ?? 0),
    enabled: Boolean(clientId),
    select: (data) => data.items,
  });
}

export function useNamedRecord(resource: NamedResource, id: number | undefined) {
  return useQuery({ ...namedQueries.detail(resource, id ?? 0), enabled: Boolean(id) });
}

export const useCreateNamed = (resource: NamedResource) => useCall(NAMED_API[resource].create);
export const useUpdateNamed = (resource: NamedResource) => useCall(NAMED_API[resource].update);
/** Deletes, then the list reloads whatever happened. */
export const useDeleteNamed = (resource: NamedResource) =>
  useCall(NAMED_API[resource].remove, { refreshOnError: true });
