import { backupApi } from '@balcao/core/endpoints/backup';
import { useQuery } from '@tanstack/react-query';
import { download, queryOf, useCall } from '../../lib/client.ts';

/** The instance's backups (issue 37): list, take now, download, the nightly schedule. */
export const backupQueries = {
  /** A 403 (a shop that is not the operator's) shows at once, without retries. */
  list: () => ({ ...queryOf(backupApi.list, {}), retry: false }),
};

export function useBackups(enabled = true) {
  return useQuery({ ...backupQueries.list(), enabled });
}

export const useTakeBackup = () => useCall(backupApi.create);
export const useSaveBackupSchedule = () => useCall(backupApi.schedule);

export const downloadBackup = (id: number, fileName: string) =>
  download(backupApi.download, { params: { id } }, fileName, 'Não foi possível baixar o backup');
