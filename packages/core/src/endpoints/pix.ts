import { endpoint } from '../contract.ts';
import { idParams } from '../params.ts';
import {
  pixAccountInputSchema,
  pixAccountSchema,
  pixChargeInputSchema,
  pixChargeSchema,
  pixDayQuerySchema,
  pixDaySchema,
  pixPendingListSchema,
  pixRefundListSchema,
  pixTestResultSchema,
  pixWebhookBodySchema,
} from '../pixCharge.ts';
import { csvFileSchema, okSchema } from '../responses.ts';
import { ACTION, BACKOFFICE, WRITE } from '../routes.ts';
import { z } from '../zod.ts';

const txidParams = z.object({ txid: z.string().regex(/^[a-zA-Z0-9]{26,35}$/, 'txid inválido') });

/**
 * /v1/pix (issue 33): the shop's Pix API v2 account (Administrador: WRITE.system; credentials go in,
 * never come out), the dynamic charge of a PDV sale (the counter: WRITE.sales), the reconciliation
 * (ACTION.registerReports: Administrador, Gerente, Financeiro) and the PSP's webhook (public: a secret
 * path per shop; mutual TLS at the proxy, deploy/README.md).
 */
export const pixApi = {
  account: endpoint({
    method: 'GET',
    path: '/pix/account',
    resource: 'pix',
    access: WRITE.system,
    summary: "The shop's PSP account: what is set, never a secret",
    response: { 200: pixAccountSchema },
  }),
  saveAccount: endpoint({
    method: 'PUT',
    path: '/pix/account',
    resource: 'pix',
    access: WRITE.system,
    summary: 'Save the PSP account (client id/secret and certificate sealed at rest; empty keeps the stored)',
    body: pixAccountInputSchema,
    response: { 200: pixAccountSchema },
    changes: ['pix'],
    bodyLimit: 1024 * 1024,
  }),
  test: endpoint({
    method: 'POST',
    path: '/pix/account/test',
    resource: 'pix',
    access: WRITE.system,
    summary: "Testar conexão: a token, then PUT /webhook/{chave} with the shop's secret path",
    response: { 200: pixTestResultSchema },
    changes: ['pix'],
  }),
  createCharge: endpoint({
    method: 'POST',
    path: '/pix/charge',
    resource: 'pix',
    access: WRITE.sales,
    summary: "The dynamic charge of a sale attempt (txid from the attempt's key: a retry is the same charge)",
    body: pixChargeInputSchema,
    response: { 200: pixChargeSchema },
  }),
  charge: endpoint({
    method: 'GET',
    path: '/pix/charge/:txid',
    resource: 'pix',
    access: WRITE.sales,
    summary: 'A charge; while active the PSP is asked (GET /cob) at most every 2 s',
    params: txidParams,
    response: { 200: pixChargeSchema },
  }),
  removeCharge: endpoint({
    method: 'DELETE',
    path: '/pix/charge/:txid',
    resource: 'pix',
    access: WRITE.sales,
    summary: 'Withdraw a charge (the operator switched method): PATCH status REMOVIDA_PELO_USUARIO_RECEBEDOR',
    params: txidParams,
    response: { 200: pixChargeSchema },
    changes: ['pix'],
  }),
  pending: endpoint({
    method: 'GET',
    path: '/pix/pending',
    resource: 'pix',
    access: ACTION.registerReports,
    summary: 'Pix to reconcile: late, wrong amount, after a switch of method, unknown charge',
    response: { 200: pixPendingListSchema },
  }),
  resolve: endpoint({
    method: 'POST',
    path: '/pix/pending/:id/resolve',
    resource: 'pix',
    access: ACTION.registerReports,
    summary: 'Mark a Pix to reconcile as dealt with',
    params: idParams,
    response: { 200: okSchema },
    changes: ['pix'],
  }),
  day: endpoint({
    method: 'GET',
    path: '/pix/reconciliation',
    resource: 'pix',
    access: ACTION.registerReports,
    summary: "A shop day's Pix at the PSP (GET /pix) against the sales: matched, unmatched, refunded",
    query: pixDayQuerySchema,
    response: { 200: pixDaySchema },
  }),
  dayExport: endpoint({
    method: 'GET',
    path: '/pix/reconciliation/export',
    resource: 'pix',
    access: ACTION.registerReports,
    summary: "A shop day's reconciliation as CSV",
    query: pixDayQuerySchema,
    response: { 200: csvFileSchema },
    file: 'csv',
  }),
  refunds: endpoint({
    method: 'GET',
    path: '/pix/refunds/:id',
    resource: 'pix',
    access: BACKOFFICE,
    summary: "A sale's Pix refunds (devoluções) and their status",
    params: idParams,
    response: { 200: pixRefundListSchema },
  }),
  webhook: endpoint({
    method: 'POST',
    path: '/pix/webhook/:token/pix',
    resource: 'pix',
    access: 'public',
    summary:
      "The PSP's webhook ({webhookUrl}/pix): 401 on an unknown path or a wrong Efí hmac; each endToEndId stored once",
    params: z.object({ token: z.string().min(1).max(100) }),
    /** Efí's scheme: `hmac` (the secret registered with the URL) and `ignorar` (holds the `/pix` Efí appends). */
    query: z.object({ hmac: z.string().max(100).optional(), ignorar: z.string().max(100).optional() }),
    body: pixWebhookBodySchema,
    response: { 200: okSchema },
    changes: ['pix'],
    bodyLimit: 2 * 1024 * 1024,
  }),
} as const;
