import { customerApi } from '@balcao/core/endpoints/customer';
import { productApi } from '@balcao/core/endpoints/product';
import { receivableApi } from '@balcao/core/endpoints/receivable';
import { saleApi } from '@balcao/core/endpoints/sale';
import { userApi } from '@balcao/core/endpoints/user';
import { BACKOFFICE, can } from '@balcao/core/routes';
import type { SaleStatus } from '@balcao/core/sale';
import type { PaymentMethod } from '@balcao/core/status';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { call, download, queryOf, useCall } from '../../lib/client.ts';
import { queryKeys } from '../../lib/queryKeys.ts';

/**
 * Sales (issue 7) through the typed client: query options per read of `saleApi` and `receivableApi`
 * (core's declarations) and one mutation per write; components use these, never a path.
 */

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

export const saleQueries = {
  /** One page of the shop's sales with the totals of the filtered set; the page stays while the next loads. */
  list: (clientId: number, query: SaleListQuery) => ({
    ...queryOf(saleApi.list, { params: { clientId }, query }),
    placeholderData: keepPreviousData,
  }),
  /** One sale; a 404 shows at once (no retry). */
  detail: (id: number) => ({ ...queryOf(saleApi.get, { params: { id } }), retry: false }),
  /** A sale's returns (issue 30). */
  returns: (id: number) => ({ ...queryOf(saleApi.returns, { params: { id } }), retry: false }),
};

export function useSaleReturns(id: number | undefined) {
  return useQuery({ ...saleQueries.returns(id ?? 0), enabled: Boolean(id) });
}

/** A customer's vale-troca balance (issue 30), for the PDV's payment step. */
export function useStoreCredit(customerId: number | null | undefined, enabled = true) {
  return useQuery({
    ...queryOf(customerApi.storeCredit, { params: { id: customerId ?? 0 } }),
    enabled: Boolean(customerId) && enabled,
  });
}

export function useSales(clientId: number | undefined, query: SaleListQuery) {
  return useQuery({ ...saleQueries.list(clientId ?? 0, query), enabled: Boolean(clientId) });
}

export function useSale(id: number | undefined) {
  return useQuery({ ...saleQueries.detail(id ?? 0), enabled: Boolean(id) });
}

/** PDV lookups of the catalog and customer modules, through their declarations. */
export const fetchByBarcode = (code: string) => call(productApi.barcode, { params: { code: code.trim() } });
/** A customer's detail (addresses, crediário figures) for the sale being made. */
export function useCustomerDetail(id: number | undefined, enabled = true) {
  return useQuery({
    queryKey: queryKeys('customer').detail(id ?? 0),
    queryFn: () => fetchCustomerDetail(id!),
    enabled: Boolean(id) && enabled,
  });
}
export const fetchProductDetail = (id: number) => call(productApi.get, { params: { id } });
export const searchCustomers = (clientId: number, q: string, signal?: AbortSignal) =>
  call(customerApi.list, { params: { clientId }, query: { q, active: 'true', pageSize: 8 } }, { signal });
const fetchCustomerDetail = (id: number) => call(customerApi.get, { params: { id } });

const fetchUsers = (clientId: number) =>
  call(userApi.list, { params: { clientId }, query: { pageSize: 100 } });

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

/**
 * The sale-shaped writes: each a mutation that invalidates what its declaration changes (the sale,
 * and through it the register, stock, customers and home figures).
 */
/** The PDV's checkout (POST /sale; its Idempotency-Key is the attempt's, kept across retries). */
/** The PDV's sale: the receipt shows at once, the lists and the register refresh behind it. */
export const useCheckout = () => useCall(saleApi.checkout, { background: true });
export const useCreateSimpleSale = () => useCall(saleApi.quick, { background: true });
export const useCancelSale = () => useCall(saleApi.cancel);
export const useReturnSale = () => useCall(saleApi.return);
export const useExchangeSale = () => useCall(saleApi.exchange);
export const useSettleReceivable = () => useCall(receivableApi.settle);

/** Downloads the CSV of the filtered list. */
export function downloadSalesCsv(clientId: number, query: SaleListQuery): Promise<void> {
  const { page: _page, pageSize: _size, ...filters } = query;
  return download(
    saleApi.export,
    { params: { clientId }, query: filters },
    'vendas.csv',
    'Não foi possível exportar as vendas',
  );
}
