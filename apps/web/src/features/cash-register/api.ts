import { cashRegisterApi } from '@balcao/core/endpoints/cash-register';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { queryOf, useCall } from '../../lib/client.ts';

/**
 * The cash register (issue 7) through the typed client: query options per read of
 * `cashRegisterApi` (core's declarations) and one mutation per write.
 */
export const cashRegisterQueries = {
  /** The caller's open register, or null (the PDV shows the opening modal). */
  current: () => queryOf(cashRegisterApi.current),
  /** The client's registers, newest first (who sees whose: the API decides). */
  list: (clientId: number, page: number, pageSize: number) => ({
    ...queryOf(cashRegisterApi.list, { params: { clientId }, query: { page, pageSize } }),
    placeholderData: keepPreviousData,
  }),
  /** One register's report (open or closed). */
  detail: (id: number) => queryOf(cashRegisterApi.get, { params: { id } }),
};

/** The user's open register (null: the PDV shows the opening modal). */
export function useCurrentRegister(enabled = true) {
  return useQuery({
    ...cashRegisterQueries.current(),
    select: (answer) => answer.cashRegister,
    enabled,
    retry: 1,
  });
}

/** The shop's open registers (who reads every register: a manager), e.g. the one a driver's acerto goes into. */
export function useOpenRegisters(clientId: number | undefined) {
  return useQuery({
    ...queryOf(cashRegisterApi.list, {
      params: { clientId: clientId ?? 0 },
      query: { page: 1, pageSize: 100, status: 'open' },
    }),
    enabled: Boolean(clientId),
  });
}

export function useRegisterHistory(clientId: number, page: number, pageSize: number) {
  return useQuery(cashRegisterQueries.list(clientId, page, pageSize));
}

export function useRegisterReport(id: number | undefined) {
  return useQuery({ ...cashRegisterQueries.detail(id ?? 0), enabled: Boolean(id) });
}

/** Each write invalidates the register's queries (the current one, the list, the report) and the home. */
export const useOpenRegister = () => useCall(cashRegisterApi.open);
export const useCashMovement = () => useCall(cashRegisterApi.movement);
export const useCloseRegister = () => useCall(cashRegisterApi.close);
/** "Abrir gaveta" (issue 36): each click its own idempotency key. */
export const useOpenDrawer = () => useCall(cashRegisterApi.openDrawer);
