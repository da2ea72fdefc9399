import type { CepAddress } from '@balcao/core/cep';
import type {
  CustomerData,
  CustomerDetail,
  CustomerImportResult,
  CustomerListItem,
  CustomerListQuery,
  CustomerTagCount,
} from '@balcao/core/customer';
import { type ListResult, toQueryString } from '@balcao/core/list';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch, downloadFile } from '../../lib/api.ts';
import { detailQuery, listQuery } from '../../lib/queries.ts';
import { queryKeys } from '../../lib/queryKeys.ts';

export type CustomerFilters = Omit<CustomerListQuery, 'page' | 'pageSize'>;

export const customerKeys = queryKeys('customer');

const listQueryString = (query: CustomerListQuery) =>
  toQueryString(query as Record<string, string | number | boolean | undefined>);

export const fetchCustomers = (clientId: number, query: CustomerListQuery) =>
  apiFetch<ListResult<CustomerListItem>>(`/customer/client/${clientId}${listQueryString(query)}`);
export const fetchCustomer = (id: number) => apiFetch<CustomerDetail>(`/customer/${id}`);
export const postCustomer = (body: CustomerData) =>
  apiFetch<CustomerDetail>('/customer', { method: 'POST', body });
export const putCustomer = (id: number, body: CustomerData & { updatedAt: string }) =>
  apiFetch<CustomerDetail>(`/customer/${id}`, { method: 'PUT', body });
export const removeCustomer = (id: number) =>
  apiFetch<{ id: number }>(`/customer/${id}`, { method: 'DELETE' });
export const fetchCep = (cep: string) => apiFetch<CepAddress>(`/cep/${cep}`);
export const checkWhatsapp = (id: number) =>
  apiFetch<CustomerDetail>(`/customer/${id}/whatsapp-check`, { method: 'POST' });

export function useCustomers(clientId: number | undefined, query: CustomerListQuery) {
  return useQuery(listQuery(customerKeys, clientId, query, fetchCustomers));
}

/** The tags the shop's customers carry (suggestions in the customer form, the campaign audience). */
export function useCustomerTags(clientId: number | undefined) {
  return useQuery({
    queryKey: customerKeys.view('tags', clientId),
    queryFn: () => apiFetch<CustomerTagCount[]>(`/customer/tags/client/${clientId}`),
    enabled: clientId !== undefined,
  });
}

export function useCustomer(id: number | undefined) {
  return useQuery(detailQuery(customerKeys, id, fetchCustomer));
}

function useSaved() {
  const queryClient = useQueryClient();
  return (customer: CustomerDetail) => {
    queryClient.setQueryData(customerKeys.detail(customer.id), customer);
    return queryClient.invalidateQueries({ queryKey: customerKeys.all, refetchType: 'active' });
  };
}

export function useCreateCustomer() {
  const onSuccess = useSaved();
  return useMutation({ mutationFn: postCustomer, onSuccess });
}

export function useUpdateCustomer() {
  const onSuccess = useSaved();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: CustomerData & { updatedAt: string } }) =>
      putCustomer(id, body),
    onSuccess,
  });
}

export function useCheckWhatsapp() {
  const onSuccess = useSaved();
  return useMutation({ mutationFn: checkWhatsapp, onSuccess });
}

export function useDeleteCustomer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeCustomer,
    onSettled: (_data, _error, id) => {
      queryClient.removeQueries({ queryKey: customerKeys.detail(id) });
      return queryClient.invalidateQueries({ queryKey: customerKeys.all });
    },
  });
}

export function importCustomers(
  clientId: number,
  body: { csv: string; mode: 'preview' | 'commit'; skipInvalid: boolean },
) {
  return apiFetch<CustomerImportResult>(`/customer/import/client/${clientId}`, { method: 'POST', body });
}

export function useImportCustomers(clientId: number | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { csv: string; mode: 'preview' | 'commit'; skipInvalid: boolean }) =>
      importCustomers(clientId!, body),
    onSuccess: (result) => {
      if (result.mode === 'commit') return queryClient.invalidateQueries({ queryKey: customerKeys.all });
    },
  });
}

/** Downloads the CSV of the filtered list. */
export function downloadCustomersCsv(clientId: number, filters: CustomerFilters): Promise<void> {
  return downloadFile(
    `/customer/client/${clientId}/export${listQueryString(filters)}`,
    'clientes.csv',
    'Não foi possível exportar os clientes',
  );
}

/** Reads a CSV file as text: UTF-8, or Windows-1252 (what Excel in pt-BR saves) when it is not UTF-8. */
export async function readCsvFile(file: File): Promise<string> {
  const bytes = await file.arrayBuffer();
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}
