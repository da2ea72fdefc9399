import { feeSimulatorApi } from '@balcao/core/endpoints/feeSimulator';
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
};

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
