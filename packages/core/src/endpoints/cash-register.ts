import {
  cashMovementInputSchema,
  cashRegisterCloseSchema,
  cashRegisterListQuerySchema,
  cashRegisterOpenSchema,
  cashRegisterSchema,
  cashRegisterSummarySchema,
  currentRegisterSchema,
} from '../cashRegister.ts';
import { endpoint } from '../contract.ts';
import { pageOf } from '../list.ts';
import { idParam, idParams } from '../params.ts';
import { COUNTER } from '../routes.ts';
import { z } from '../zod.ts';

/** "Abrir gaveta": the click's key (a retried request opens the drawer once). */
const openDrawerInputSchema = z.object({
  idempotencyKey: z
    .string({ message: 'Envie a chave de idempotência (idempotencyKey)' })
    .trim()
    .min(8)
    .max(100),
});
const openDrawerAnswerSchema = z.object({ opened: z.boolean() });

/**
 * /v1/cash-register (issue 7): the caller's own register at the PDV (PDV user types). Reports of every
 * register of the client are for Administrador, Gerente and Financeiro.
 */
export const cashRegisterApi = {
  current: endpoint({
    method: 'GET',
    path: '/cash-register/current',
    resource: 'cash-register',
    access: COUNTER,
    summary: "The caller's open register with expected amounts per method, or null (open one first)",
    response: { 200: currentRegisterSchema },
  }),
  open: endpoint({
    method: 'POST',
    path: '/cash-register/open',
    resource: 'cash-register',
    access: COUNTER,
    summary: 'Open a register with an opening amount (one open per user: 409)',
    body: cashRegisterOpenSchema,
    response: { 201: cashRegisterSummarySchema },
    changes: ['cash-register'],
  }),
  movement: endpoint({
    method: 'POST',
    path: '/cash-register/movement',
    resource: 'cash-register',
    access: COUNTER,
    summary:
      'Suprimento (deposit) or sangria (withdrawal) with a reason; a sangria by types other than 1 and 2 needs a manager approval',
    body: cashMovementInputSchema,
    response: { 201: cashRegisterSummarySchema },
    changes: ['cash-register'],
  }),
  close: endpoint({
    method: 'POST',
    path: '/cash-register/close',
    resource: 'cash-register',
    access: COUNTER,
    summary: 'Close the open register with the counted amount per method; answers the closing report',
    body: cashRegisterCloseSchema,
    response: { 200: cashRegisterSummarySchema },
    changes: ['cash-register'],
  }),
  list: endpoint({
    method: 'GET',
    path: '/cash-register/client/:clientId',
    resource: 'cash-register',
    access: COUNTER,
    summary: "Registers, newest first: the caller's own, or all of the client's for types 1, 2, 7",
    params: z.object({ clientId: idParam() }),
    query: cashRegisterListQuerySchema,
    response: { 200: pageOf(cashRegisterSchema) },
  }),
  get: endpoint({
    method: 'GET',
    path: '/cash-register/:id',
    resource: 'cash-register',
    access: COUNTER,
    summary: 'A register report (open or closed)',
    params: idParams,
    response: { 200: cashRegisterSummarySchema },
  }),
  openDrawer: endpoint({
    method: 'POST',
    path: '/cash-register/drawer',
    resource: 'cash-register',
    access: COUNTER,
    summary:
      'Abrir gaveta: the drawer kick on the receipt printer through its print agent, logged on the open register (ACTION.openDrawer; 409 without an agent)',
    body: openDrawerInputSchema,
    response: { 201: openDrawerAnswerSchema },
    changes: ['cash-register', 'print-job'],
  }),
} as const;
