import {
  BUDGET_MESSAGES,
  budgetAnswerInputSchema,
  budgetCancelInputSchema,
  budgetConvertInputSchema,
  budgetInputSchema,
  budgetListQuerySchema,
  budgetListResultSchema,
  budgetPublicPixSchema,
  budgetPublicSchema,
  budgetRenewInputSchema,
  budgetSchema,
  budgetSendInputSchema,
  budgetSendResultSchema,
} from '../budget.ts';
import { endpoint } from '../contract.ts';
import { idParams } from '../params.ts';
import { pixRefundListSchema } from '../pixCharge.ts';
import { binaryFileSchema, csvFileSchema } from '../responses.ts';
import { BACKOFFICE, WRITE } from '../routes.ts';
import { saleSchema } from '../sale.ts';
import { z } from '../zod.ts';

/** `/public/budget/:token`: the approval link's token (anything else is the link-not-found 400). */
export const budgetTokenParams = z.object({
  token: z.string().regex(/^[A-Za-z0-9_-]{20,64}$/, BUDGET_MESSAGES.linkNotFound),
});

/** `?download=true` saves the PDF instead of showing it. */
export const budgetPdfQuerySchema = z.object({ download: z.enum(['true', 'false']).optional() });

/**
 * /v1/budget (issue 17): create (the budget PDV), list with totals and CSV, detail, PDF, send,
 * cancel, renew, duplicate, convert into a sale; /v1/public/budget/{token}: the customer's approval
 * page (no session: the token is the key).
 */
export const budgetApi = {
  list: endpoint({
    method: 'GET',
    path: '/budget',
    resource: 'budget',
    access: BACKOFFICE,
    summary: 'Budgets: period, status (expired computed), customer, seller; totals and conversion rate',
    query: budgetListQuerySchema,
    response: { 200: budgetListResultSchema },
  }),
  export: endpoint({
    method: 'GET',
    path: '/budget/export',
    resource: 'budget',
    access: BACKOFFICE,
    summary: 'CSV of the filtered budgets (";" separated, decimal comma, UTF-8 with BOM)',
    query: budgetListQuerySchema,
    response: { 200: csvFileSchema },
    file: 'csv',
  }),
  get: endpoint({
    method: 'GET',
    path: '/budget/:id',
    resource: 'budget',
    access: BACKOFFICE,
    summary: "A budget with its lines and today's catalog prices beside them",
    params: idParams,
    response: { 200: budgetSchema },
  }),
  /** Issue 33: the refunds of the Pix paid on the link of a budget canceled unconverted (the bank's status). */
  pixRefunds: endpoint({
    method: 'GET',
    path: '/budget/:id/pix-refunds',
    resource: 'pix',
    access: BACKOFFICE,
    summary: 'The refunds (devoluções) of the Pix paid on the link of a budget canceled before its sale',
    params: idParams,
    response: { 200: pixRefundListSchema },
  }),
  pdf: endpoint({
    method: 'GET',
    path: '/budget/:id/pdf',
    resource: 'budget',
    access: BACKOFFICE,
    summary: 'The budget as an A4 PDF, generated now (never stored); ?download=true to save it',
    params: idParams,
    query: budgetPdfQuerySchema,
    response: { 200: binaryFileSchema },
    file: 'pdf',
  }),
  create: endpoint({
    method: 'POST',
    path: '/budget',
    resource: 'budget',
    access: WRITE.budgets,
    summary: 'A new budget: catalog prices, discounts within the user limit, optional stock reservation',
    body: budgetInputSchema,
    response: { 201: budgetSchema },
    changes: ['budget'],
  }),
  send: endpoint({
    method: 'POST',
    path: '/budget/:id/send',
    resource: 'budget',
    access: WRITE.budgets,
    summary:
      'Send (WhatsApp with the PDF, or a wa.me link when not connected), copy the link, or print: pending -> sent',
    params: idParams,
    body: budgetSendInputSchema,
    response: { 200: budgetSendResultSchema },
    changes: ['budget'],
  }),
  cancel: endpoint({
    method: 'POST',
    path: '/budget/:id/cancel',
    resource: 'budget',
    access: WRITE.budgets,
    summary: 'Cancel an open budget (releases its stock reservation)',
    params: idParams,
    body: budgetCancelInputSchema,
    response: { 200: budgetSchema },
    changes: ['budget'],
  }),
  renew: endpoint({
    method: 'POST',
    path: '/budget/:id/renew',
    resource: 'budget',
    access: WRITE.budgets,
    summary: "Renew an expired budget: new validity, today's prices, reservation taken again",
    params: idParams,
    body: budgetRenewInputSchema,
    response: { 200: budgetSchema },
    changes: ['budget'],
  }),
  duplicate: endpoint({
    method: 'POST',
    path: '/budget/:id/duplicate',
    resource: 'budget',
    access: WRITE.budgets,
    summary: "A new pending budget with the same customer and lines at today's prices",
    params: idParams,
    response: { 201: budgetSchema },
    changes: ['budget'],
  }),
  convert: endpoint({
    method: 'POST',
    path: '/budget/:id/convert',
    resource: 'budget',
    access: WRITE.budgets,
    summary:
      'Convert into a sale through the sale seam (origin budget; open register; Idempotency-Key honoured): the budget becomes finished',
    params: idParams,
    body: budgetConvertInputSchema,
    response: { 200: saleSchema, 201: saleSchema },
    idempotencyKey: 'optional',
    changes: ['budget', 'sale', 'coupon', 'delivery', 'receivable'],
  }),
  publicGet: endpoint({
    method: 'GET',
    path: '/public/budget/:token',
    resource: 'budget',
    access: 'public',
    summary:
      'The budget of an approval link (records "visualizado" once); 409 once converted, canceled or expired',
    params: budgetTokenParams,
    response: { 200: budgetPublicSchema },
  }),
  publicPdf: endpoint({
    method: 'GET',
    path: '/public/budget/:token/pdf',
    resource: 'budget',
    access: 'public',
    summary: "The approval link's budget as a PDF",
    params: budgetTokenParams,
    query: budgetPdfQuerySchema,
    response: { 200: binaryFileSchema },
    file: 'pdf',
  }),
  publicAnswer: endpoint({
    method: 'POST',
    path: '/public/budget/:token/answer',
    resource: 'budget',
    access: 'public',
    summary: 'The customer approves, or refuses with a reason (once; the shop is notified)',
    params: budgetTokenParams,
    body: budgetAnswerInputSchema,
    response: { 200: budgetPublicSchema },
  }),
  publicPix: endpoint({
    method: 'POST',
    path: '/public/budget/:token/pix',
    resource: 'budget',
    access: 'public',
    summary:
      'Pix QR dinâmico of an approved budget: the charge of its final amount (txid from the budget: a retry shows the same charge)',
    params: budgetTokenParams,
    response: { 200: budgetPublicPixSchema },
  }),
  publicPixStatus: endpoint({
    method: 'GET',
    path: '/public/budget/:token/pix',
    resource: 'budget',
    access: 'public',
    summary:
      "The budget's Pix charge as the page polls it (asks the bank when no webhook came); whether the shop offers Pix",
    params: budgetTokenParams,
    response: { 200: budgetPublicPixSchema },
  }),
} as const;
