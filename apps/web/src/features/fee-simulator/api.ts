import type { FeePdv, FeeSettings, FeeSettingsInput, FeeTable, FeeTableInput } from '@balcao/core/fees';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../lib/api.ts';
import { queryKeys } from '../../lib/queryKeys.ts';

/** The fee simulator's data: the shop's rate tables, its settings and the PDV's surcharge table. */
export const feeKeys = queryKeys('fee-simulator');

export const fetchFeeTables = () => apiFetch<FeeTable[]>('/fee-simulator/table');
export const fetchFeeSettings = () => apiFetch<FeeSettings>('/fee-simulator/settings');

export function useFeeTables(enabled = true) {
  return useQuery({ queryKey: feeKeys.list(0), queryFn: fetchFeeTables, enabled });
}

export function useFeeSettings(enabled = true) {
  return useQuery({ queryKey: feeKeys.view('settings'), queryFn: fetchFeeSettings, enabled });
}

/** Creates (no id) or updates (id + updatedAt) a table; the tables and settings reload. */
export function useSaveFeeTable() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: number; body: FeeTableInput }) =>
      id
        ? apiFetch<FeeTable>(`/fee-simulator/table/${id}`, { method: 'PUT', body })
        : apiFetch<FeeTable>('/fee-simulator/table', { method: 'POST', body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: feeKeys.all }),
  });
}

export function useDeleteFeeTable() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiFetch<{ id: number }>(`/fee-simulator/table/${id}`, { method: 'DELETE' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: feeKeys.all }),
  });
}

export function useSaveFeeSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: FeeSettingsInput) =>
      apiFetch<FeeSettings>('/fee-simulator/settings', { method: 'PUT', body }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: feeKeys.all }),
  });
}

/**
 * The PDV's installment surcharge: the shop's active table when the display is on (a setting of the
 * simulator, off by default), else null. Refetched when the settings change anywhere (socket).
 */
export function usePdvFeeTable(enabled = true) {
  return useQuery({
    queryKey: feeKeys.view('pdv'),
    queryFn: () => apiFetch<FeePdv>('/fee-simulator/pdv'),
    enabled,
    staleTime: 60_000,
    select: (data) => data.table,
  });
}
