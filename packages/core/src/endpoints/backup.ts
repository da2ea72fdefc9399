import { backupListSchema, backupScheduleSchema, backupSchema } from '../backup.ts';
import { endpoint } from '../contract.ts';
import { idParams } from '../params.ts';
import { binaryFileSchema } from '../responses.ts';
import { WRITE } from '../routes.ts';

/**
 * /v1/backup (issue 37): the instance's backups. WRITE.system (Administrador), and the API keeps them to
 * the first shop's (the operator's) Administrador: a backup holds every shop of the instance.
 */
export const backupApi = {
  list: endpoint({
    method: 'GET',
    path: '/backup',
    resource: 'backup',
    access: WRITE.system,
    summary: 'The backups (newest first), the nightly schedule and whether the app can back up here',
    response: { 200: backupListSchema },
  }),
  create: endpoint({
    method: 'POST',
    path: '/backup',
    resource: 'backup',
    access: WRITE.system,
    summary:
      'Take a backup now: dumped while the shop sells, verified in a scratch database, kept by the retention rule',
    response: { 201: backupSchema },
    changes: ['backup'],
  }),
  download: endpoint({
    method: 'GET',
    path: '/backup/:id/file',
    resource: 'backup',
    access: WRITE.system,
    summary: "A backup's file (PGlite data folder .tar.gz, or pg_dump's custom format)",
    params: idParams,
    response: { 200: binaryFileSchema },
    file: 'binary',
  }),
  schedule: endpoint({
    method: 'PUT',
    path: '/backup/schedule',
    resource: 'backup',
    access: WRITE.system,
    summary: 'The nightly backup: on or off and its hour',
    body: backupScheduleSchema,
    response: { 200: backupScheduleSchema },
    changes: ['backup'],
  }),
} as const;
