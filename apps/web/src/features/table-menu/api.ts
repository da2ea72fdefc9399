import { tableMenuApi } from '@balcao/core/endpoints/tableMenu';
import type { TableOrderInput } from '@balcao/core/tableMenu';
import { useQuery } from '@tanstack/react-query';
import { call, newIdempotencyKey, queryOf, useCall } from '../../lib/client.ts';

/** The customer's side of the QR menu (public: no session). */
export const fetchTableMenu = (token: string) => call(tableMenuApi.menu, { params: { token } });
export const postTableOrder = (token: string, body: TableOrderInput, idempotencyKey: string) =>
  call(tableMenuApi.order, { params: { token }, body }, { idempotencyKey });
export const postTableCall = (token: string, kind: 'waiter' | 'bill') =>
  call(tableMenuApi.call, { params: { token }, body: { kind } });
export { newIdempotencyKey };

/** The staff's side: the orders waiting for approval (the board), approve and refuse. */
export function useTableOrders() {
  return useQuery(queryOf(tableMenuApi.orders, {}));
}
export const useApproveTableOrder = () => useCall(tableMenuApi.approve);
export const useRejectTableOrder = () => useCall(tableMenuApi.reject);
