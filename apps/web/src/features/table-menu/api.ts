import { tableMenuApi } from '@balcao/core/endpoints/tableMenu';
import { useQuery } from '@tanstack/react-query';
import { queryOf, useCall } from '../../lib/client.ts';

/**
 * The staff's side of the QR menu: the orders waiting for approval (the board), approve and refuse.
 * The customer's side calls from publicApi.ts, which the table page's own entry loads without
 * react-query or zod.
 */
export function useTableOrders() {
  return useQuery(queryOf(tableMenuApi.orders, {}));
}
export const useApproveTableOrder = () => useCall(tableMenuApi.approve);
export const useRejectTableOrder = () => useCall(tableMenuApi.reject);
