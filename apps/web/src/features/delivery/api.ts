import type {
  DeliveryOrder,
  DeliveryPanel,
  DriverList,
  DriverOrders,
  DriverShift,
  Settlement,
  SettlementInput,
  SettlementPreview,
  SettlementSummary,
} from '@balcao/core/delivery';
import type { PrintJob } from '@balcao/core/printing';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../lib/api.ts';
import { queryKeys } from '../../lib/queryKeys.ts';

/** The delivery resource (panel, driver lists, settlements): one key, so the socket's `change` refreshes all. */
export const deliveryKeys = queryKeys('delivery');

export type PanelFilters = { driverId?: number; neighborhood?: string; onDelivery?: boolean };

function queryString(params: Record<string, string | number | boolean | undefined>) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') q.set(k, String(v));
  const text = q.toString();
  return text ? `?${text}` : '';
}

export function useDeliveryPanel(filters: PanelFilters) {
  return useQuery({
    queryKey: deliveryKeys.view('panel', filters),
    queryFn: () => apiFetch<DeliveryPanel>(`/delivery/panel${queryString(filters)}`),
  });
}

export function useDriverOrders(list: DriverList) {
  return useQuery({
    queryKey: deliveryKeys.view('driver', list),
    queryFn: () => apiFetch<DriverOrders>(`/delivery/driver/orders?list=${list}`),
  });
}

export type OrderAction =
  | { id: number; action: 'status'; body: { status: 'waiting' | 'available' } }
  | { id: number; action: 'assign'; body: { driverId: number } }
  | { id: number; action: 'cancel'; body: { reason: string } }
  | { id: number; action: 'take' | 'pickup' | 'reopen'; body?: undefined }
  | { id: number; action: 'deliver'; body: { code: string } }
  | { id: number; action: 'fail'; body: { reason: string } };

/** Every move of an order; whatever the answer, the delivery views refetch (a 409 means the board moved). */
export function useOrderAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action, body }: OrderAction) =>
      apiFetch<DeliveryOrder>(`/delivery/orders/${id}/${action}`, { method: 'POST', body: body ?? {} }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: deliveryKeys.all }),
  });
}

export const printOrder = (id: number, idempotencyKey: string) =>
  apiFetch<PrintJob>(`/delivery/orders/${id}/print`, { method: 'POST', body: { idempotencyKey } });

export function useShiftAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (action: 'check-in' | 'check-out') =>
      apiFetch<DriverShift>(`/delivery/shift/${action}`, { method: 'POST', body: {} }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: deliveryKeys.all }),
  });
}

export function useSaveDeliverySettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (notifyCustomer: boolean) =>
      apiFetch<{ notifyCustomer: boolean }>('/delivery/settings', {
        method: 'PUT',
        body: { notifyCustomer },
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: deliveryKeys.all }),
  });
}

export function useSettlementPreview(query: { driverId?: number; from: string; to: string }) {
  return useQuery({
    queryKey: deliveryKeys.view('settlement-preview', query),
    queryFn: () => apiFetch<SettlementPreview>(`/delivery/settlement/preview${queryString(query)}`),
    enabled: Boolean(query.driverId),
  });
}

export function useSettlements() {
  return useQuery({
    queryKey: deliveryKeys.view('settlements'),
    queryFn: () => apiFetch<SettlementSummary[]>('/delivery/settlements'),
  });
}

export function useSettlement(id: number | null) {
  return useQuery({
    queryKey: deliveryKeys.view('settlement', id),
    queryFn: () => apiFetch<Settlement>(`/delivery/settlements/${id}`),
    enabled: id !== null,
  });
}

export function useConfirmSettlement() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SettlementInput) =>
      apiFetch<Settlement>('/delivery/settlements', { method: 'POST', body }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: deliveryKeys.all }),
  });
}
