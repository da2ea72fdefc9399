import { endpoint } from '../contract.ts';
import {
  kdsBoardSchema,
  kdsBumpInputSchema,
  kdsSettingsSchema,
  kdsStationsSchema,
  kdsTicketSchema,
} from '../kds.ts';
import { idParams } from '../params.ts';
import { KITCHEN, WRITE } from '../routes.ts';
import { z } from '../zod.ts';

/**
 * /v1/kds (issue 35): the kitchen display of each production sector. The staff but marketing and the
 * garçom (KITCHEN: the route table's set) read and bump; the targets are settings (WRITE.settings).
 * Its data is the print jobs' (resource 'print-job'): a new ticket or a bump refetches every screen.
 */
export const kdsApi = {
  stations: endpoint({
    method: 'GET',
    path: '/kds/stations',
    resource: 'print-job',
    tag: 'kds',
    access: KITCHEN,
    summary: 'The production stations (sectors with a printer), their screens and the shop targets',
    response: { 200: kdsStationsSchema },
  }),
  board: endpoint({
    method: 'GET',
    path: '/kds/station/:id',
    resource: 'print-job',
    tag: 'kds',
    access: KITCHEN,
    summary: "A station's open tickets, oldest first, with its targets and the last one bumped",
    params: idParams,
    response: { 200: kdsBoardSchema },
  }),
  heartbeat: endpoint({
    method: 'POST',
    path: '/kds/station/:id/heartbeat',
    resource: 'print-job',
    tag: 'kds',
    access: KITCHEN,
    summary: "A station's screen is alive: its tickets stay off the printer while it keeps saying so",
    params: idParams,
    response: { 200: z.object({ ok: z.boolean() }) },
  }),
  ready: endpoint({
    method: 'POST',
    path: '/kds/ticket/:id/ready',
    resource: 'print-job',
    tag: 'kds',
    access: KITCHEN,
    summary: 'Bump a line (its index) or the whole ticket to ready (again: no change)',
    params: idParams,
    body: kdsBumpInputSchema,
    response: { 200: kdsTicketSchema },
    changes: ['print-job', 'comanda'],
  }),
  recall: endpoint({
    method: 'POST',
    path: '/kds/station/:id/recall',
    resource: 'print-job',
    tag: 'kds',
    access: KITCHEN,
    summary: 'Bring the last bumped ticket of the station back to the screen',
    params: idParams,
    response: { 200: kdsTicketSchema },
    changes: ['print-job', 'comanda'],
  }),
  settings: endpoint({
    method: 'GET',
    path: '/kds/settings',
    resource: 'printing',
    tag: 'kds',
    access: KITCHEN,
    summary: 'The KDS targets (yellow, red) and the silence before the printer takes over',
    response: { 200: kdsSettingsSchema },
  }),
  saveSettings: endpoint({
    method: 'PUT',
    path: '/kds/settings',
    resource: 'printing',
    tag: 'kds',
    access: WRITE.settings,
    summary: 'Save the KDS targets',
    body: kdsSettingsSchema,
    response: { 200: kdsSettingsSchema },
    changes: ['printing', 'print-job'],
  }),
} as const;
