import { pixApi } from '@balcao/core/endpoints/pix';
import { useQuery } from '@tanstack/react-query';
import { download, queryOf, useCall } from '../../lib/client.ts';

/** Pix confirmed by the bank (issue 33): the PSP account, a sale's dynamic charge, reconciliation. */
export const pixQueries = {
  account: () => queryOf(pixApi.account, {}),
  charge: (txid: string) => ({ ...queryOf(pixApi.charge, { params: { txid } }), retry: false }),
  pending: () => queryOf(pixApi.pending, {}),
  day: (date: string) => ({ ...queryOf(pixApi.day, { query: { date } }), retry: false }),
  refunds: (saleId: number) => queryOf(pixApi.refunds, { params: { id: saleId } }),
};

export const usePixAccount = () => useQuery(pixQueries.account());
export const useSavePixAccount = () => useCall(pixApi.saveAccount);
export const useTestPixAccount = () => useCall(pixApi.test);
export const useCreatePixCharge = () => useCall(pixApi.createCharge);
export const useRemovePixCharge = () => useCall(pixApi.removeCharge);
export const usePendingPix = () => useQuery(pixQueries.pending());
export const useResolvePendingPix = () => useCall(pixApi.resolve);
export const usePixDay = (date: string) => useQuery(pixQueries.day(date));
export const usePixRefunds = (saleId: number | undefined) =>
  useQuery({ ...pixQueries.refunds(saleId ?? 0), enabled: Boolean(saleId) });

/**
 * A charge while the PDV waits: refetched every 2 s (the API asks the PSP when no webhook came) and
 * at once on the socket's `pix` change (the webhook settled it).
 */
export function usePixCharge(txid: string | null) {
  return useQuery({
    ...pixQueries.charge(txid ?? ''),
    enabled: Boolean(txid),
    refetchInterval: (query) => (query.state.data?.status === 'active' ? 2000 : false),
  });
}

export const downloadPixDay = (date: string) =>
  download(pixApi.dayExport, { query: { date } }, `conciliacao-pix-${date}.csv`, 'Não foi possível exportar');
