import type {
  Comanda,
  ComandaBoard,
  ComandaLine,
  ComandaLineInput,
  ComandaMenu,
  ComandaOpenInput,
  ComandaPaymentInput,
  ComandaWaiters,
} from '@balcao/core/comanda';
import type { PrintDocument } from '@balcao/core/printing';
import type { Sale } from '@balcao/core/sale';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { apiFetch, takeArrived } from '../../lib/api.ts';
import { detailQuery } from '../../lib/queries.ts';
import { queryKeys } from '../../lib/queryKeys.ts';

/** Comandas (issue 16): the board, a tab and its actions. Writes that may be retried carry an Idempotency-Key. */

export const comandaKeys = queryKeys('comanda');

/** A fresh Idempotency-Key (one per user action: a retry of the same action reuses it). */
export const newKey = () =>
  typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `${Date.now()}-${Math.random().toString(36).slice(2)}-${Math.random().toString(36).slice(2)}`;
const keyed = (key: string) => ({ 'idempotency-key': key });

export const fetchBoard = (waiterId?: number) =>
  apiFetch<ComandaBoard>(`/comanda${waiterId ? `?waiterId=${waiterId}` : ''}`);
export const fetchComanda = (id: number) => apiFetch<Comanda>(`/comanda/${id}`);
export const fetchMenu = () => apiFetch<ComandaMenu>('/comanda/menu');
export const fetchWaiters = () => apiFetch<ComandaWaiters>('/comanda/waiters');

export const openComanda = (body: ComandaOpenInput) =>
  apiFetch<Comanda>('/comanda', { method: 'POST', body });
export const updateComanda = (id: number, body: Record<string, unknown>) =>
  apiFetch<Comanda>(`/comanda/${id}`, { method: 'PUT', body });
export const addLine = (id: number, body: ComandaLineInput, key: string) =>
  apiFetch<ComandaLine>(`/comanda/${id}/line`, { method: 'POST', body, headers: keyed(key) });
export const cancelLine = (id: number, lineId: number, body: Record<string, unknown>) =>
  apiFetch<Comanda>(`/comanda/${id}/line/${lineId}/cancel`, { method: 'POST', body });
export const sendToProduction = (id: number, key: string) =>
  apiFetch<{ send: Comanda['sends'][number]; replayed: boolean }>(`/comanda/${id}/send`, {
    method: 'POST',
    headers: keyed(key),
  });
export const reprintSend = (id: number, sendId: number, key: string) =>
  apiFetch<Comanda>(`/comanda/${id}/send/${sendId}/reprint`, { method: 'POST', headers: keyed(key) });
export const retryJob = (jobId: number) =>
  apiFetch<unknown>(`/printing/job/${jobId}/retry`, { method: 'POST' });
export const transferLine = (id: number, body: { lineId: number; quantity: number; toComandaId: number }) =>
  apiFetch<Comanda>(`/comanda/${id}/transfer`, { method: 'POST', body });
export const mergeComanda = (id: number, fromComandaId: number) =>
  apiFetch<Comanda>(`/comanda/${id}/merge`, { method: 'POST', body: { fromComandaId } });
export const setServiceFee = (id: number, body: { serviceFeePercent: number; reason: string | null }) =>
  apiFetch<Comanda>(`/comanda/${id}/service-fee`, { method: 'PUT', body });
export const requestBill = (id: number) =>
  apiFetch<Comanda>(`/comanda/${id}/request-bill`, { method: 'POST' });
export const preBill = (id: number, key: string) =>
  apiFetch<{ document: PrintDocument; jobId: number | null }>(`/comanda/${id}/pre-bill`, {
    method: 'POST',
    headers: keyed(key),
  });
export const addPayment = (id: number, body: ComandaPaymentInput, key: string) =>
  apiFetch<Comanda>(`/comanda/${id}/payment`, { method: 'POST', body, headers: keyed(key) });
export const closeComanda = (id: number, originSale: 'command' | 'waiter', key: string) =>
  apiFetch<Sale>(`/comanda/${id}/close`, { method: 'POST', body: { originSale }, headers: keyed(key) });

/** Who may serve a tab (the open form's picker). */
export function useWaiters() {
  return useQuery({ queryKey: comandaKeys.view('waiters'), queryFn: fetchWaiters, staleTime: 60_000 });
}

/**
 * The board's tabs. The GET pages.tsx started with the board's code, when already answered, is the
 * first data (the cards render with the page, no spinner in between); otherwise the query takes it.
 */
export function useBoard(waiterId?: number) {
  const [early] = useState(() => (waiterId ? undefined : takeArrived<ComandaBoard>('/comanda')));
  return useQuery({
    queryKey: comandaKeys.list(0, waiterId ?? null),
    queryFn: () => fetchBoard(waiterId),
    initialData: early?.value,
    initialDataUpdatedAt: early?.at,
  });
}

export function useComanda(id: number | undefined) {
  return useQuery(detailQuery(comandaKeys, id, fetchComanda));
}

export function useMenu(enabled = true) {
  return useQuery({ queryKey: comandaKeys.view('menu'), queryFn: fetchMenu, enabled });
}

/** After a write: the tab answered goes into the cache, the board refetches. */
export function useComandaWritten() {
  const queryClient = useQueryClient();
  return (comanda?: Comanda) => {
    if (comanda) queryClient.setQueryData(comandaKeys.detail(comanda.id), comanda);
    return queryClient.invalidateQueries({ queryKey: comandaKeys.all });
  };
}
