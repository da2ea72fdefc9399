import { printingApi } from '@balcao/core/endpoints/printing';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call, newIdempotencyKey, queryOf, useCall } from '../../../lib/client.ts';
import { invalidateResources } from '../../../lib/queryKeys.ts';

/**
 * The printer page and the print jobs (query options of `printingApi`, core's declarations): the
 * settings ('printing'), the jobs ('print-job') and the connected stations ('print-station') are
 * each a resource the socket signals.
 */
export const printingQueries = {
  settings: () => queryOf(printingApi.settings),
  /** The shop's latest jobs (mine: only the caller's). */
  jobs: (mine?: boolean) => queryOf(printingApi.jobs, { query: { mine: mine ? 'true' : undefined } }),
  stations: () => queryOf(printingApi.stations),
};

export function usePrintingSettings() {
  return useQuery(printingQueries.settings());
}

export const useSavePrintingSettings = () => useCall(printingApi.saveSettings);

export function usePrintJobs() {
  return useQuery({
    ...printingQueries.jobs(),
    // An unconfirmed job turns so after a minute without any event: look again now and then.
    refetchInterval: 30_000,
  });
}

/** The sender's own jobs (the print problems shown on every page). */
export function useMyPrintJobs(enabled: boolean) {
  return useQuery({ ...printingQueries.jobs(true), enabled, refetchInterval: 30_000 });
}

export function useStations() {
  return useQuery(printingQueries.stations());
}

/** Test page, retry and reprint: each click carries its own idempotency key (a retried request prints once). */
export function usePrintAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (action: { kind: 'test' | 'retry' | 'reprint'; id: number }) => {
      const params = { id: action.id };
      if (action.kind === 'retry') return call(printingApi.retry, { params });
      const body = { idempotencyKey: newIdempotencyKey() };
      return call(action.kind === 'test' ? printingApi.testPage : printingApi.reprint, { params, body });
    },
    onSettled: () => invalidateResources(queryClient, ['print-job']),
  });
}

/** A station's answer for a job: printed, or the failure's text. */
export const useConfirmPrinted = () => useCall(printingApi.printed);
export const useReportPrintFailure = () => useCall(printingApi.failed);

/** The print agents (issue 36): listed with their printer's state, created with a pairing code, revoked. */
export function useAgents(enabled = true) {
  return useQuery({ ...queryOf(printingApi.agents), enabled });
}
export const useCreateAgent = () => useCall(printingApi.createAgent);
export const useRevokeAgent = () => useCall(printingApi.revokeAgent, { refreshOnError: true });
