import { endpoint } from '../contract.ts';
import { idParams } from '../params.ts';
import {
  printActionInputSchema,
  printFailureInputSchema,
  printingSettingsInputSchema,
  printingSettingsSchema,
  printJobInputSchema,
  printJobSchema,
  printStationSchema,
} from '../printing.ts';
import { BACKOFFICE, STAFF } from '../routes.ts';
import { z } from '../zod.ts';

/** GET /printing/jobs: mine=true lists only the caller's jobs. */
export const printJobsQuerySchema = z.object({ mine: z.enum(['true', 'false']).optional() });

/**
 * /v1/printing: the printer page (BACKOFFICE reads, WRITE.settings saves) and the print jobs every
 * staff user sends (PDV receipts, comandas) and every station confirms. One OpenAPI tag ('printing');
 * the settings, the jobs and the stations are each a resource of their own (what the socket signals).
 */
export const printingApi = {
  settings: endpoint({
    method: 'GET',
    path: '/printing/settings',
    resource: 'printing',
    access: BACKOFFICE,
    summary: 'Printer profiles, production sectors with their categories, receipt options',
    response: { 200: printingSettingsSchema },
  }),
  saveSettings: endpoint({
    method: 'PUT',
    path: '/printing/settings',
    resource: 'printing',
    access: BACKOFFICE,
    summary: 'Save the whole printer page (updatedAt required once saved, 409 when stale)',
    body: printingSettingsInputSchema,
    response: { 200: printingSettingsSchema },
    changes: ['printing'],
  }),
  stations: endpoint({
    method: 'GET',
    path: '/printing/stations',
    resource: 'print-station',
    tag: 'printing',
    access: STAFF,
    summary: 'The print stations connected now',
    response: { 200: z.array(printStationSchema) },
  }),
  jobs: endpoint({
    method: 'GET',
    path: '/printing/jobs',
    resource: 'print-job',
    tag: 'printing',
    access: STAFF,
    summary: "The shop's latest 50 print jobs, newest first (mine=true: only the caller's)",
    query: printJobsQuerySchema,
    response: { 200: z.array(printJobSchema) },
  }),
  job: endpoint({
    method: 'GET',
    path: '/printing/job/:id',
    resource: 'print-job',
    tag: 'printing',
    access: STAFF,
    summary: 'One print job',
    params: idParams,
    response: { 200: printJobSchema },
  }),
  enqueue: endpoint({
    method: 'POST',
    path: '/printing/job',
    resource: 'print-job',
    tag: 'printing',
    access: STAFF,
    summary: 'Queue a print job (201; the same idempotencyKey again answers the same job, 200)',
    body: printJobInputSchema,
    response: { 201: printJobSchema, 200: printJobSchema },
    changes: ['print-job'],
  }),
  testPage: endpoint({
    method: 'POST',
    path: '/printing/profile/:id/test',
    resource: 'print-job',
    tag: 'printing',
    access: BACKOFFICE,
    summary: 'Print a test page on a profile',
    params: idParams,
    body: printActionInputSchema,
    response: { 201: printJobSchema, 200: printJobSchema },
    changes: ['print-job'],
  }),
  reprint: endpoint({
    method: 'POST',
    path: '/printing/job/:id/reprint',
    resource: 'print-job',
    tag: 'printing',
    access: STAFF,
    summary: 'Print a job again, marked REIMPRESSÃO (a new job)',
    params: idParams,
    body: printActionInputSchema,
    response: { 201: printJobSchema, 200: printJobSchema },
    changes: ['print-job'],
  }),
  retry: endpoint({
    method: 'POST',
    path: '/printing/job/:id/retry',
    resource: 'print-job',
    tag: 'printing',
    access: STAFF,
    summary: 'Send a failed or unconfirmed job again (409 when printed or just sent)',
    params: idParams,
    response: { 200: printJobSchema },
    changes: ['print-job'],
  }),
  printed: endpoint({
    method: 'POST',
    path: '/printing/job/:id/printed',
    resource: 'print-job',
    tag: 'printing',
    access: STAFF,
    summary: 'A station confirms the job printed (again: the job as it is)',
    params: idParams,
    response: { 200: printJobSchema },
    changes: ['print-job'],
  }),
  failed: endpoint({
    method: 'POST',
    path: '/printing/job/:id/failed',
    resource: 'print-job',
    tag: 'printing',
    access: STAFF,
    summary: 'A station reports it could not print the job',
    params: idParams,
    body: printFailureInputSchema,
    response: { 200: printJobSchema },
    changes: ['print-job'],
  }),
} as const;
