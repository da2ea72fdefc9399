import type { PrintingSettings, PrintingSettingsInput, PrintJob, PrintStation } from '@balcao/core/printing';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/queryKeys.ts';

export const printingKeys = queryKeys('printing');
export const printJobKeys = queryKeys('print-job');
export const stationKeys = queryKeys('print-station');

export const newKey = () =>
  typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `${Date.now()}-${Math.random().toString(36).slice(2)}`;

export function usePrintingSettings() {
  return useQuery({
    queryKey: printingKeys.view('settings'),
    queryFn: () => apiFetch<PrintingSettings>('/printing/settings'),
  });
}

export function useSavePrintingSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PrintingSettingsInput) =>
      apiFetch<PrintingSettings>('/printing/settings', { method: 'PUT', body }),
    onSuccess: (saved) => queryClient.setQueryData(printingKeys.view('settings'), saved),
  });
}

export function usePrintJobs() {
  return useQuery({
    queryKey: printJobKeys.view('recent'),
    queryFn: () => apiFetch<PrintJob[]>('/printing/jobs'),
    // An unconfirmed job turns so after a minute without any event: look again now and then.
    refetchInterval: 30_000,
  });
}

export function useStations() {
  return useQuery({
    queryKey: stationKeys.view('connected'),
    queryFn: () => apiFetch<PrintStation[]>('/printing/stations'),
  });
}

/** Test page, retry and reprint: each click carries its own idempotency key (a retried request prints once). */
export function usePrintAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (action: { kind: 'test' | 'retry' | 'reprint'; id: number }) => {
      if (action.kind === 'retry')
        return apiFetch<PrintJob>(`/printing/job/${action.id}/retry`, { method: 'POST' });
      const path =
        action.kind === 'test' ? `/printing/profile/${action.id}/test` : `/printing/job/${action.id}/reprint`;
      return apiFetch<PrintJob>(path, { method: 'POST', body: { idempotencyKey: newKey() } });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: printJobKeys.all }),
  });
}
