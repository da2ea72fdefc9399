import {
  comandaBoardSchema,
  comandaCancelInputSchema,
  comandaCloseInputSchema,
  comandaLineCancelInputSchema,
  comandaLineInputSchema,
  comandaLineSchema,
  comandaMenuSchema,
  comandaMergeInputSchema,
  comandaOpenInputSchema,
  comandaPaymentInputSchema,
  comandaReprintInputSchema,
  comandaSchema,
  comandaSendResultSchema,
  comandaServiceFeeInputSchema,
  comandaTransferInputSchema,
  comandaUpdateInputSchema,
  comandaWaitersSchema,
} from '../comanda.ts';
import { endpoint } from '../contract.ts';
import { idParam, idParams } from '../params.ts';
import { printDocumentSchema } from '../printing.ts';
import { NOT_MKT } from '../routes.ts';
import { saleSchema } from '../sale.ts';
import { z } from '../zod.ts';

/** `/comanda/:id/line/:lineId/...` */
export const comandaLineParams = z.object({ id: idParam(), lineId: idParam('Item inválido') });
/** `/comanda/:id/send/:sendId/...` */
export const comandaSendParams = z.object({ id: idParam(), sendId: idParam('Envio inválido') });
/** The board's filter: one waiter's tabs. */
export const comandaBoardQuerySchema = z.object({ waiterId: idParam('Garçom inválido').optional() });
/** The pre-bill's answer: the document printed and its job (null without a receipt printer). */
export const comandaPreBillSchema = z.object({ document: printDocumentSchema, jobId: z.number().nullable() });

/**
 * /v1/comanda (issue 16): the board, a tab, lines appended one per request, production, transfer,
 * merge, fee, pre-bill, payments and the close into one sale. NOT_MKT (ROUTES.md); receiving and
 * closing also need WRITE.sales (a register). Every route answers 403 with the Portuguese message
 * while the client's saleCommand flag is off.
 */
export const comandaApi = {
  board: endpoint({
    method: 'GET',
    path: '/comanda',
    resource: 'comanda',
    access: NOT_MKT,
    summary: "The board: the client's open tabs by number (waiterId: one waiter's), idle limit, server time",
    query: comandaBoardQuerySchema,
    response: { 200: comandaBoardSchema },
  }),
  waiters: endpoint({
    method: 'GET',
    path: '/comanda/waiters',
    resource: 'comanda',
    access: NOT_MKT,
    summary: "Who may serve a tab (the open form's waiter picker): Garçons first",
    response: { 200: comandaWaitersSchema },
  }),
  menu: endpoint({
    method: 'GET',
    path: '/comanda/menu',
    resource: 'comanda',
    access: NOT_MKT,
    summary: "The waiter PDV's menu: active categories and the products most added to tabs lately",
    response: { 200: comandaMenuSchema },
  }),
  get: endpoint({
    method: 'GET',
    path: '/comanda/:id',
    resource: 'comanda',
    access: NOT_MKT,
    summary: 'One tab: lines, payments, sends with their print jobs, log, totals',
    params: idParams,
    response: { 200: comandaSchema },
  }),
  open: endpoint({
    method: 'POST',
    path: '/comanda',
    resource: 'comanda',
    access: NOT_MKT,
    summary: 'Open a tab: typed number (409 when an open tab has it) or the next free one',
    body: comandaOpenInputSchema,
    response: { 201: comandaSchema },
    changes: ['comanda'],
  }),
  update: endpoint({
    method: 'PUT',
    path: '/comanda/:id',
    resource: 'comanda',
    access: NOT_MKT,
    summary: 'Table, customer, people, waiter (updatedAt required; a table move is logged)',
    params: idParams,
    body: comandaUpdateInputSchema,
    response: { 200: comandaSchema },
    changes: ['comanda'],
  }),
  addLine: endpoint({
    method: 'POST',
    path: '/comanda/:id/line',
    resource: 'comanda',
    access: NOT_MKT,
    summary: 'Append ONE line, priced from the catalog (Idempotency-Key: a retry adds it once)',
    params: idParams,
    body: comandaLineInputSchema,
    response: { 201: comandaLineSchema, 200: comandaLineSchema },
    idempotencyKey: 'optional',
    changes: ['comanda'],
  }),
  cancelLine: endpoint({
    method: 'POST',
    path: '/comanda/:id/line/:lineId/cancel',
    resource: 'comanda',
    access: NOT_MKT,
    summary: 'Cancel a line (sent: reason, approval for non-managers, cancel ticket printed)',
    params: comandaLineParams,
    body: comandaLineCancelInputSchema,
    response: { 200: comandaSchema },
    changes: ['comanda', 'print-job'],
  }),
  send: endpoint({
    method: 'POST',
    path: '/comanda/:id/send',
    resource: 'comanda',
    access: NOT_MKT,
    summary: 'Send the lines not sent yet to production: one ticket per sector (Idempotency-Key required)',
    params: idParams,
    response: { 201: comandaSendResultSchema, 200: comandaSendResultSchema },
    idempotencyKey: 'required',
    changes: ['comanda', 'print-job'],
  }),
  reprintSend: endpoint({
    method: 'POST',
    path: '/comanda/:id/send/:sendId/reprint',
    resource: 'comanda',
    access: NOT_MKT,
    summary:
      "Reprint a send's tickets, one sector's (jobId) or all, marked REIMPRESSÃO (Idempotency-Key required)",
    params: comandaSendParams,
    body: comandaReprintInputSchema,
    response: { 200: comandaSchema },
    idempotencyKey: 'required',
    changes: ['comanda', 'print-job'],
  }),
  transfer: endpoint({
    method: 'POST',
    path: '/comanda/:id/transfer',
    resource: 'comanda',
    access: NOT_MKT,
    summary: 'Move a line, whole or part of its quantity, to another open tab (logged)',
    params: idParams,
    body: comandaTransferInputSchema,
    response: { 200: comandaSchema },
    changes: ['comanda'],
  }),
  merge: endpoint({
    method: 'POST',
    path: '/comanda/:id/merge',
    resource: 'comanda',
    access: NOT_MKT,
    summary: "Bring another open tab's lines into this one; the other is canceled (logged)",
    params: idParams,
    body: comandaMergeInputSchema,
    response: { 200: comandaSchema },
    changes: ['comanda'],
  }),
  cancel: endpoint({
    method: 'POST',
    path: '/comanda/:id/cancel',
    resource: 'comanda',
    access: NOT_MKT,
    summary:
      'Cancel a tab opened by mistake: free with nothing sent; with items sent, a reason and a manager approval (cancel tickets print); never with payments',
    params: idParams,
    body: comandaCancelInputSchema,
    response: { 200: comandaSchema },
    changes: ['comanda', 'print-job'],
  }),
  serviceFee: endpoint({
    method: 'PUT',
    path: '/comanda/:id/service-fee',
    resource: 'comanda',
    access: NOT_MKT,
    summary: 'The tab’s service fee (hundredths of a percent): another than the default needs a reason',
    params: idParams,
    body: comandaServiceFeeInputSchema,
    response: { 200: comandaSchema },
    changes: ['comanda'],
  }),
  requestBill: endpoint({
    method: 'POST',
    path: '/comanda/:id/request-bill',
    resource: 'comanda',
    access: NOT_MKT,
    summary: 'The waiter asks for the bill (board colour)',
    params: idParams,
    response: { 200: comandaSchema },
    changes: ['comanda'],
  }),
  preBill: endpoint({
    method: 'POST',
    path: '/comanda/:id/pre-bill',
    resource: 'comanda',
    access: NOT_MKT,
    summary:
      'Print the pre-bill (conferência) on the receipt printer; answers the document (Idempotency-Key required)',
    params: idParams,
    response: { 200: comandaPreBillSchema },
    idempotencyKey: 'required',
    changes: ['comanda', 'print-job'],
  }),
  payment: endpoint({
    method: 'POST',
    path: '/comanda/:id/payment',
    resource: 'comanda',
    access: NOT_MKT,
    summary:
      "Receive a payment (items, share or amount) at the receiver's open register (Idempotency-Key honoured)",
    params: idParams,
    body: comandaPaymentInputSchema,
    response: { 201: comandaSchema },
    idempotencyKey: 'optional',
    changes: ['comanda', 'cash-register'],
  }),
  close: endpoint({
    method: 'POST',
    path: '/comanda/:id/close',
    resource: 'comanda',
    access: NOT_MKT,
    summary: 'Close the tab into ONE sale once nothing remains (Idempotency-Key honoured)',
    params: idParams,
    body: comandaCloseInputSchema,
    response: { 201: saleSchema, 200: saleSchema },
    idempotencyKey: 'optional',
    changes: ['comanda', 'sale'],
  }),
} as const;
