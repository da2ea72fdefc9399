import type { DELIVERY_FAILURE_REASONS, DeliveryOrigin, DriverList } from '@balcao/core/delivery';
import { deliveryApi } from '@balcao/core/endpoints/delivery';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call, queryOf, useCall } from '../../lib/client.ts';
import { invalidateResources } from '../../lib/queryKeys.ts';

/**
 * Deliveries (issue 18): query options per read of `deliveryApi` (core's declarations) and the
 * mutations of its writes. Every read is of the 'delivery' resource, so the socket's `change`
 * refreshes the panel, the driver lists and the settlements alike.
 */

export type PanelFilters = {
  driverId?: number;
  neighborhood?: string;
  onDelivery?: boolean;
  origin?: DeliveryOrigin;
};
export type SettlementPreviewQuery = { driverId?: number; from: string; to: string };

const flag = (value: boolean | undefined) => (value === undefined ? undefined : value ? 'true' : 'false');

export const deliveryQueries = {
  /** Open and today's orders, counters and the drivers on shift (the panel's filters). */
  panel: (filters: PanelFilters) =>
    queryOf(deliveryApi.panel, {
      query: {
        driverId: filters.driverId,
        neighborhood: filters.neighborhood || undefined,
        onDelivery: flag(filters.onDelivery),
        origin: filters.origin,
      },
    }),
  /** One of the driver's lists (with the driver's shift). */
  driverOrders: (list: DriverList) => queryOf(deliveryApi.driverOrders, { query: { list } }),
  settlementPreview: (query: SettlementPreviewQuery) =>
    queryOf(deliveryApi.settlementPreview, { query: { ...query, driverId: query.driverId ?? 0 } }),
  settlements: () => queryOf(deliveryApi.settlements, { query: {} }),
  settlement: (id: number) => queryOf(deliveryApi.settlement, { params: { id } }),
};

export function useDeliveryPanel(filters: PanelFilters) {
  return useQuery(deliveryQueries.panel(filters));
}

export function useDriverOrders(list: DriverList) {
  return useQuery(deliveryQueries.driverOrders(list));
}

export function useSettlementPreview(query: SettlementPreviewQuery) {
  return useQuery({ ...deliveryQueries.settlementPreview(query), enabled: Boolean(query.driverId) });
}

export function useSettlements() {
  return useQuery(deliveryQueries.settlements());
}

export function useSettlement(id: number | null) {
  return useQuery({ ...deliveryQueries.settlement(id ?? 0), enabled: id !== null });
}

export type OrderAction =
  | { id: number; action: 'status'; body: { status: 'waiting' | 'available' } }
  | { id: number; action: 'assign'; body: { driverId: number } }
  | {
      id: number;
      action: 'cancel';
      body: { reason: string; approval?: { email: string; password: string } };
    }
  | { id: number; action: 'take' | 'pickup' | 'reopen'; body?: undefined }
  | { id: number; action: 'deliver'; body: { code: string } }
  | { id: number; action: 'fail'; body: { reason: string } };

type FailReason = (typeof DELIVERY_FAILURE_REASONS)[number];

/** The endpoint of each move of an order (the panel's and the driver's). */
function callOrderAction(a: OrderAction) {
  const params = { id: a.id };
  switch (a.action) {
    case 'status':
      return call(deliveryApi.setStatus, { params, body: a.body });
    case 'assign':
      return call(deliveryApi.assign, { params, body: a.body });
    case 'cancel':
      return call(deliveryApi.cancel, { params, body: a.body });
    case 'deliver':
      return call(deliveryApi.deliver, { params, body: a.body });
    case 'fail':
      // The reason is one of the list's (the dialog's radio); the server checks it.
      return call(deliveryApi.fail, { params, body: a.body as { reason: FailReason } });
    default:
      return call(deliveryApi[a.action], { params });
  }
}

/** Every move of an order; whatever the answer, the delivery views refetch (a 409 means the board moved). */
export function useOrderAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: callOrderAction,
    onSettled: () => invalidateResources(queryClient, ['delivery']),
  });
}

/** The bag ticket on the receipt printer (the click's idempotency key: a retried click prints once). */
export const usePrintOrder = () => useCall(deliveryApi.print);

/** The driver's shift starts or ends; the driver's lists refetch whatever the answer. */
export function useShiftAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (action: 'check-in' | 'check-out') =>
      call(action === 'check-in' ? deliveryApi.checkIn : deliveryApi.checkOut),
    onSettled: () => invalidateResources(queryClient, ['delivery']),
  });
}

export const useSaveDeliverySettings = () => useCall(deliveryApi.saveSettings, { refreshOnError: true });

export const useConfirmSettlement = () => useCall(deliveryApi.settle, { refreshOnError: true });

/** A phone order: the delivery sale recorded at once (the PDV state's Idempotency-Key). */
export const useTakePhoneOrder = () => useCall(deliveryApi.phoneOrder);

/**
 * Issue 33: an order's Pix QR dinâmico (what it collects on delivery): asked once the dialog opens
 * (the same charge on a retry), then polled every 2 s while unpaid (the API asks the bank when no
 * webhook came); the socket's `delivery` change refetches it at once when the webhook settles it.
 */
export const useCreateOrderPix = () => useCall(deliveryApi.pix);
export function useOrderPix(id: number, enabled: boolean) {
  return useQuery({
    ...queryOf(deliveryApi.pixStatus, { params: { id } }),
    enabled,
    refetchInterval: (query) => (query.state.data?.charge?.status === 'active' ? 2000 : false),
  });
}
