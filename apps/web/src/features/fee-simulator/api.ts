import { feeSimulatorApi } from '@balcao/core/endpoints/feeSimulator';
import type { MealVoucherMethod } from '@balcao/core/sale';
import { useQuery } from '@tanstack/react-query';
import { queryOf, useCall } from '../../lib/client.ts';

/**
 * The fee simulator's data (issue 20): the shop's rate tables, its settings and the PDV's surcharge
 * table, as query options of `feeSimulatorApi` (core's declarations), and one mutation per write.
 */
export const feeQueries = {
  tables: () => queryOf(feeSimulatorApi.tables),
  settings: () => queryOf(feeSimulatorApi.settings),
  pdv: () => queryOf(feeSimulatorApi.pdv),
  mealVouchers: () => queryOf(feeSimulatorApi.mealVouchers),
};

/** The shop's meal voucher brands (issue 33), every brand with its rate and days. */
export function useMealVoucherRates(enabled = true) {
  return useQuery({ ...feeQueries.mealVouchers(), enabled });
}
export const useSaveMealVouchers = () => useCall(feeSimulatorApi.saveMealVouchers);

/**
 * The meal voucher brands the shop enabled (issue 33): the PDV offers only these. Read with the PDV's
 * fee answer (one request for both), refetched when the settings change anywhere (socket).
 */
export function useEnabledMealVouchers(enabled = true): readonly MealVoucherMethod[] {
  // `enabled`: false for who receives no payment here (the garçom on a tab: the read is the counter's).
  const { data } = useQuery({ ...feeQueries.pdv(), staleTime: 60_000, enabled });
  return data?.mealVouchers ?? NONE;
}
const NONE: readonly MealVoucherMethod[] = [];

export function useFeeTables(enabled = true) {
  return useQuery({ ...feeQueries.tables(), enabled });
}

export function useFeeSettings(enabled = true) {
  return useQuery({ ...feeQueries.settings(), enabled });
}

/** Saving a table reloads the tables and the settings (the first table becomes the active one). */
export const useCreateFeeTable = () => useCall(feeSimulatorApi.createTable);
export const useUpdateFeeTable = () => useCall(feeSimulatorApi.updateTable);
/** Deletes, then the tables reload whatever happened. */
export const useDeleteFeeTable = () => useCall(feeSimulatorApi.removeTable, { refreshOnError: true });
export const useSaveFeeSettings = () => useCall(feeSimulatorApi.saveSettings, { refreshOnError: true });

/**
 * The PDV's installment surcharge: the shop's active table when the display is on (a setting of the
 * simulator, off by default), else null. Refetched when the settings change anywhere (socket).
 */
export function usePdvFeeTable(enabled = true) {
  return useQuery({
    ...feeQueries.pdv(),
    enabled,
    staleTime: 60_000,
    select: (data) => data.table,
  });
}
