import type { ComandaBoard } from '@balcao/core/comanda';
import { comandaApi } from '@balcao/core/endpoints/comanda';
import { printingApi } from '@balcao/core/endpoints/printing';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { takeArrived } from '../../lib/api.ts';
import { queryOf, urlOf, useCall } from '../../lib/client.ts';

/**
 * Comandas (issue 16): query options per read of `comandaApi` (core's declarations) and one mutation
 * per write; each write invalidates the comandas (the board and the open tab refetch). Writes that
 * may be retried carry the action's Idempotency-Key (`newIdempotencyKey`, kept until it succeeds).
 */
export const comandaQueries = {
  /** The board (GET /comanda; waiterId: one waiter's tabs). */
  board: (waiterId?: number) =>
    queryOf(comandaApi.board, { query: { waiterId: waiterId ? String(waiterId) : undefined } }),
  /** One tab; a 404 shows at once (no retry). */
  detail: (id: number) => ({ ...queryOf(comandaApi.get, { params: { id } }), retry: false }),
  menu: () => queryOf(comandaApi.menu),
  waiters: () => queryOf(comandaApi.waiters),
};

/** Who may serve a tab (the open form's picker). */
export function useWaiters() {
  return useQuery({ ...comandaQueries.waiters(), staleTime: 60_000 });
}

/**
 * The board's tabs. The GET pages.tsx started with the board's code (same path: `/comanda`), when
 * already answered, is the first data (the cards render with the page, no spinner in between);
 * otherwise the query takes it.
 */
export function useBoard(waiterId?: number) {
  const [early] = useState(() =>
    waiterId ? undefined : takeArrived<ComandaBoard>(urlOf(comandaApi.board, { query: {} })),
  );
  return useQuery({
    ...comandaQueries.board(waiterId),
    initialData: early?.value,
    initialDataUpdatedAt: early?.at,
  });
}

export function useComanda(id: number | undefined) {
  return useQuery({ ...comandaQueries.detail(id ?? 0), enabled: Boolean(id) });
}

export function useMenu(enabled = true) {
  return useQuery({ ...comandaQueries.menu(), enabled });
}

export const useOpenComanda = () => useCall(comandaApi.open);
export const useUpdateComanda = () => useCall(comandaApi.update);
export const useAddLine = () => useCall(comandaApi.addLine);
export const useCancelLine = () => useCall(comandaApi.cancelLine);
export const useCancelComanda = () => useCall(comandaApi.cancel);
export const useSendToProduction = () => useCall(comandaApi.send);
export const useReprintSend = () => useCall(comandaApi.reprintSend);
export const useTransferLine = () => useCall(comandaApi.transfer);
export const useMergeComanda = () => useCall(comandaApi.merge);
export const useSetServiceFee = () => useCall(comandaApi.serviceFee);
export const useRequestBill = () => useCall(comandaApi.requestBill);
export const usePreBill = () => useCall(comandaApi.preBill);
export const useAddPayment = () => useCall(comandaApi.payment);
export const useCloseComanda = () => useCall(comandaApi.close);
/** A production ticket not printed, sent again: the tab's send shows the job's new state. */
export const useRetryPrintJob = () =>
  useCall(printingApi.retry, { invalidates: ['comanda'], refreshOnError: true });
