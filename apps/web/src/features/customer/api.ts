import type { CustomerListQuery } from '@balcao/core/customer';
import { cepApi } from '@balcao/core/endpoints/cep';
import { customerApi } from '@balcao/core/endpoints/customer';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call, download, queryOf, useCall } from '../../lib/client.ts';
import { invalidateResources } from '../../lib/queryKeys.ts';

/**
 * Customers (issue 5) and the CEP lookup: query options per read of `customerApi` and `cepApi` (core's
 * declarations) and one mutation per write; components use these, never a path. `customerQueries.search`
 * and `cepQueries.address` are THE customer search and THE CEP lookup of the web (the PDV, the budget,
 * the delivery, the shipping and the company settings use them).
 */

export type CustomerFilters = Omit<CustomerListQuery, 'page' | 'pageSize'>;

/** A search's default page: the PDV's suggestions. */
const SEARCH_SIZE = 8;

export const customerQueries = {
  /** One page of the client's customers; the page on screen stays while the next one loads. */
  list: (clientId: number, query: CustomerListQuery) => ({
    ...queryOf(customerApi.list, { params: { clientId }, query }),
    placeholderData: keepPreviousData,
  }),
  /** The active customers matching a search (name, CPF/CNPJ, phone, email), one page. */
  search: (clientId: number, q: string, pageSize = SEARCH_SIZE) =>
    queryOf(customerApi.list, { params: { clientId }, query: { q, active: 'true', pageSize } }),
  /** One customer with addresses; a 404 shows at once (no retry). */
  detail: (id: number) => ({ ...queryOf(customerApi.get, { params: { id } }), retry: false }),
  /** The tags the shop's customers carry (suggestions in the customer form, the campaign audience). */
  tags: (clientId: number) => queryOf(customerApi.tags, { params: { clientId } }),
};

export const cepQueries = {
  /**
   * THE CEP lookup (8 digits): the address, or an error whose code says why (`validation`: a bad
   * CEP, `not_found`, `unavailable`: type the address). Not retried: the form offers typing instead.
   */
  address: (cep: string) => ({
    ...queryOf(cepApi.get, { params: { cep } }),
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  }),
};

/** A CEP's address, read once (a form that fills its fields as the CEP is typed). */
export const fetchCep = (cep: string, signal?: AbortSignal) =>
  call(cepApi.get, { params: { cep } }, { signal });

export function useCustomers(clientId: number | undefined, query: CustomerListQuery) {
  return useQuery({ ...customerQueries.list(clientId ?? 0, query), enabled: Boolean(clientId) });
}

/** The tags the shop's customers carry (suggestions in the customer form, the campaign audience). */
export function useCustomerTags(clientId: number | undefined) {
  return useQuery({ ...customerQueries.tags(clientId ?? 0), enabled: clientId !== undefined });
}

export function useCustomer(id: number | undefined) {
  return useQuery({ ...customerQueries.detail(id ?? 0), enabled: Boolean(id) });
}

export const useCreateCustomer = () => useCall(customerApi.create);
export const useUpdateCustomer = () => useCall(customerApi.update);
export const useCheckWhatsapp = () => useCall(customerApi.checkWhatsapp);
/** Deletes, then the list reloads whatever happened. */
export const useDeleteCustomer = () => useCall(customerApi.remove, { refreshOnError: true });

/**
 * The CSV import: a preview checks every line and writes nothing; a commit writes, and then the
 * customers reload.
 */
export function useImportCustomers(clientId: number | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { csv: string; mode: 'preview' | 'commit'; skipInvalid: boolean }) =>
      call(customerApi.import, { params: { clientId: clientId ?? 0 }, body }),
    onSuccess: (result) => {
      if (result.mode === 'commit') return invalidateResources(queryClient, customerApi.import.changes);
    },
  });
}

/** Downloads the CSV of the filtered list. */
export function downloadCustomersCsv(clientId: number, filters: CustomerFilters): Promise<void> {
  return download(
    customerApi.export,
    { params: { clientId }, query: filters },
    'clientes.csv',
    'Não foi possível exportar os clientes',
  );
}
