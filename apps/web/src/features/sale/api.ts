import type { CouponValidation } from '@balcao/core/coupon';
import type { CustomerDetail, CustomerListItem } from '@balcao/core/customer';
import { toQueryString } from '@balcao/core/list';
import type { BarcodeMatch } from '@balcao/core/product';
import type { CustomerCredit } from '@balcao/core/receivable';
import { BACKOFFICE, can } from '@balcao/core/routes';
import type { Sale, SaleCancelInput, SaleInput, SaleStatus, SimpleSaleInput } from '@balcao/core/sale';
import type { SaleListResult } from '@balcao/core/saleList';
import type { PaymentMethod } from '@balcao/core/status';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch, downloadFile } from '../../lib/api.ts';
import { detailQuery, listQuery } from '../../lib/queries.ts';
import { invalidateResources, queryKeys } from '../../lib/queryKeys.ts';

/** The list's filters as the page keeps them (GET /v1/sale/client/{clientId} query). */
export type SaleListQuery = {
  page: number;
  pageSize: number;
  q?: string;
  from?: string;
  to?: string;
  status?: SaleStatus;
  paymentMethod?: PaymentMethod;
  sellerId?: number;
  customerId?: number;
};

export const saleKeys = queryKeys('sale');

export const postSale = (body: SaleInput, idempotencyKey: string) =>
  apiFetch<Sale>('/sale', { method: 'POST', body, headers: { 'idempotency-key': idempotencyKey } });
export const postSimpleSale = (body: SimpleSaleInput, idempotencyKey: string) =>
  apiFetch<Sale>('/sale/simple', { method: 'POST', body, headers: { 'idempotency-key': idempotencyKey } });
export const fetchSale = (id: number) => apiFetch<Sale>(`/sale/${id}`);
export const fetchSales = (clientId: number, query: SaleListQuery) =>
  apiFetch<SaleListResult>(`/sale/client/${clientId}${toQueryString(query)}`);
export const fetchCustomerCredit = (customerId: number, creditShopCents: number) =>
  apiFetch<CustomerCredit>(`/sale/customer-credit/${customerId}?creditShopCents=${creditShopCents}`);

/** PDV lookups (the catalog and customer modules' own endpoints). */
export const fetchByBarcode = (code: string) =>
  apiFetch<BarcodeMatch>(`/product/barcode/${encodeURIComponent(code)}`);
export const fetchProductDetail = (id: number) => apiFetch<BarcodeMatch['product']>(`/product/${id}`);
export const searchCustomers = (clientId: number, q: string, signal?: AbortSignal) =>
  apiFetch<{ items: CustomerListItem[] }>(
    `/customer/client/${clientId}${toQueryString({ q, active: true, pageSize: 8 })}`,
    {
      signal,
    },
  );
export const fetchCustomerDetail = (id: number) => apiFetch<CustomerDetail>(`/customer/${id}`);
export const postQuickCustomer = (body: { name: string; phone?: string | null; document?: string | null }) =>
  apiFetch<CustomerDetail>('/customer', { method: 'POST', body });
export const validateCoupon = (body: { code: string; subtotalCents: number; customerId?: number | null }) =>
  apiFetch<CouponValidation>('/coupon/validate', { method: 'POST', body });
export const fetchUsers = (clientId: number) =>
  apiFetch<{ items: { id: number; name: string; active: boolean }[] }>(
    `/user/client/${clientId}?pageSize=100`,
  );

export function useSales(clientId: number | undefined, query: SaleListQuery) {
  return useQuery(listQuery(saleKeys, clientId, query, fetchSales));
}

export function useSale(id: number | undefined) {
  return useQuery(detailQuery(saleKeys, id, fetchSale));
}

/**
 * The shop's users, to pick or filter a seller: only for the types that may read the users list (a
 * waiter's sales list or PDV asks nothing, so no 403 and no console error).
 */
export function useSellers(clientId: number | undefined, userTypeId: number | undefined) {
  return useQuery({
    queryKey: queryKeys('user').list(clientId ?? 0, 'sellers'),
    queryFn: () => fetchUsers(clientId!),
    enabled: Boolean(clientId) && can(userTypeId, BACKOFFICE),
    retry: false,
    staleTime: 60_000,
  });
}

/** After a sale is written (created, canceled, settled): its detail is the answer; what it moves reloads. */
export function useSaleWritten() {
  const queryClient = useQueryClient();
  return (sale: Sale) => {
    queryClient.setQueryData(saleKeys.detail(sale.id), sale);
    void invalidateResources(queryClient, ['sale']);
  };
}

export function useCancelSale() {
  const written = useSaleWritten();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: SaleCancelInput }) =>
      apiFetch<Sale>(`/sale/${id}/cancel`, { method: 'POST', body }),
    onSuccess: written,
  });
}

export function useSettleReceivable() {
  const written = useSaleWritten();
  return useMutation({
    mutationFn: ({
      saleId,
      receivableId,
      paymentMethod,
    }: {
      saleId: number;
      receivableId: number;
      paymentMethod: PaymentMethod;
    }) =>
      apiFetch<Sale>(`/sale/${saleId}/receivable/${receivableId}/settle`, {
        method: 'POST',
        body: { paymentMethod },
      }),
    onSuccess: written,
  });
}

export function useCreateSimpleSale() {
  const written = useSaleWritten();
  return useMutation({
    mutationFn: ({ body, key }: { body: SimpleSaleInput; key: string }) => postSimpleSale(body, key),
    onSuccess: written,
  });
}

/** Downloads the CSV of the filtered list. */
export function downloadSalesCsv(clientId: number, query: SaleListQuery): Promise<void> {
  const { page: _page, pageSize: _size, ...filters } = query;
  return downloadFile(
    `/sale/client/${clientId}/export${toQueryString(filters)}`,
    'vendas.csv',
    'Não foi possível exportar as vendas',
  );
}

/** A fresh key per sale attempt (kept across retries of the same attempt). */
export function newIdempotencyKey(): string {
  if (typeof crypto !== 'undefined' && 'randomUUID' in crypto) return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}
