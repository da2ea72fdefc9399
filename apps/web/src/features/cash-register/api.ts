import type {
  CashMovementInput,
  CashRegister,
  CashRegisterCloseInput,
  CashRegisterOpenInput,
  CashRegisterSummary,
  CurrentRegister,
} from '@balcao/core/cashRegister';
import { type ListResult, toQueryString } from '@balcao/core/list';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../lib/api.ts';
import { queryKeys } from '../../lib/queryKeys.ts';

export const cashRegisterKeys = queryKeys('cash-register');
const currentKey = cashRegisterKeys.view('current');

export const fetchCurrentRegister = () => apiFetch<CurrentRegister>('/cash-register/current');

/** The user's open register (null: the PDV shows the opening modal). */
export function useCurrentRegister(enabled = true) {
  return useQuery({
    queryKey: currentKey,
    queryFn: async () => (await fetchCurrentRegister()).cashRegister,
    enabled,
    retry: 1,
  });
}

/** The client's registers, newest first (who sees whose: the API decides). */
export function useRegisterHistory(clientId: number, page: number, pageSize: number) {
  return useQuery({
    queryKey: cashRegisterKeys.list(clientId, page, pageSize),
    queryFn: () =>
      apiFetch<ListResult<CashRegister>>(
        `/cash-register/client/${clientId}${toQueryString({ page, pageSize })}`,
      ),
    placeholderData: keepPreviousData,
  });
}

export function useRegisterReport(id: number | undefined) {
  return useQuery({
    queryKey: cashRegisterKeys.detail(id ?? 0),
    queryFn: () => apiFetch<CashRegisterSummary>(`/cash-register/${id}`),
    enabled: Boolean(id),
  });
}

function useRegisterWrite<T>(fn: (body: T) => Promise<CashRegisterSummary>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: (summary) => {
      queryClient.setQueryData(currentKey, summary.status === 'open' ? summary : null);
      queryClient.setQueryData(cashRegisterKeys.detail(summary.id), summary);
      void queryClient.invalidateQueries({ queryKey: cashRegisterKeys.lists() });
    },
  });
}

export const useOpenRegister = () =>
  useRegisterWrite((body: CashRegisterOpenInput) =>
    apiFetch<CashRegisterSummary>('/cash-register/open', { method: 'POST', body }),
  );

export const useCashMovement = () =>
  useRegisterWrite((body: CashMovementInput) =>
    apiFetch<CashRegisterSummary>('/cash-register/movement', { method: 'POST', body }),
  );

export const useCloseRegister = () =>
  useRegisterWrite((body: CashRegisterCloseInput) =>
    apiFetch<CashRegisterSummary>('/cash-register/close', { method: 'POST', body }),
  );
