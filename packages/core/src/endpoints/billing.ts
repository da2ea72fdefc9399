import {
  asaasWebhookSchema,
  billingSchema,
  billingStatusSchema,
  changePlanInputSchema,
  invoiceSchema,
  payInvoiceInputSchema,
  webhookAnswerSchema,
} from '../billing.ts';
import { endpoint } from '../contract.ts';
import { idParams } from '../params.ts';
import { WRITE } from '../routes.ts';

/**
 * /v1/billing: the shop's subscription (Administrador only, WRITE.billing) and the gateway's webhook
 * (public, authenticated by the asaas-access-token header).
 */
export const billingApi = {
  get: endpoint({
    method: 'GET',
    path: '/billing',
    resource: 'billing',
    access: WRITE.billing,
    summary: 'Plan, usage, current period, invoices and the overdue reason',
    response: { 200: billingSchema },
  }),
  status: endpoint({
    method: 'GET',
    path: '/billing/status',
    resource: 'billing',
    access: WRITE.billing,
    summary: 'The overdue banner: the oldest unpaid invoice past the grace period, or null',
    response: { 200: billingStatusSchema },
  }),
  changePlan: endpoint({
    method: 'PUT',
    path: '/billing/plan',
    resource: 'billing',
    access: WRITE.billing,
    summary: "Change the plan (422 when the shop's users or products do not fit it)",
    body: changePlanInputSchema,
    response: { 200: billingSchema },
    changes: ['billing'],
  }),
  pay: endpoint({
    method: 'POST',
    path: '/billing/invoice/:id/pay',
    resource: 'billing',
    access: WRITE.billing,
    summary: 'Pay an invoice by Pix (QR code and copy-paste) or boleto (line and PDF link)',
    params: idParams,
    body: payInvoiceInputSchema,
    response: { 200: invoiceSchema },
    changes: ['billing'],
  }),
  webhook: endpoint({
    method: 'POST',
    path: '/billing/webhook/asaas',
    resource: 'billing',
    access: 'public',
    summary: 'Asaas payment events (PAYMENT_RECEIVED, PAYMENT_CONFIRMED, PAYMENT_OVERDUE); once per event id',
    body: asaasWebhookSchema,
    response: { 200: webhookAnswerSchema },
    changes: ['billing'],
  }),
} as const;
