import {
  asaasWebhookSchema,
  billingSchema,
  billingStatusSchema,
  changePlanInputSchema,
  invoiceSchema,
  payInvoiceInputSchema,
  webhookAnswerSchema,
} from '@balcao/core/billing';
import { WRITE } from '@balcao/core/routes';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { idParams } from '../../lib/params.ts';
import { sessionOf } from '../../plugins/auth.ts';
import { asaasClient } from './asaas.ts';
import {
  changePlan,
  getBilling,
  getBillingStatus,
  type ProductCount,
  payInvoice,
  receiveWebhook,
} from './service.ts';

const tags = ['billing'];

/**
 * /v1/billing: the shop's subscription (Administrador only, WRITE.billing) and the gateway's webhook
 * (public, authenticated by the asaas-access-token header).
 */
export function billingRoutes(ctx: AppContext, productCount: ProductCount): FastifyPluginAsyncZod {
  return async (app) => {
    const { db } = ctx;
    const gateway = asaasClient(ctx.config.asaas);

    app.get(
      '/billing',
      {
        config: { access: WRITE.billing },
        schema: {
          tags,
          summary: 'Plan, usage, current period, invoices and the overdue reason',
          response: { 200: billingSchema },
        },
      },
      async (request) => getBilling(db, sessionOf(request), productCount),
    );

    app.get(
      '/billing/status',
      {
        config: { access: WRITE.billing },
        schema: {
          tags,
          summary: 'The overdue banner: the oldest unpaid invoice past the grace period, or null',
          response: { 200: billingStatusSchema },
        },
      },
      async (request) => getBillingStatus(db, sessionOf(request)),
    );

    app.put(
      '/billing/plan',
      {
        config: { access: WRITE.billing },
        schema: {
          tags,
          summary: "Change the plan (422 when the shop's users or products do not fit it)",
          body: changePlanInputSchema,
          response: { 200: billingSchema },
        },
      },
      async (request) => changePlan(ctx, sessionOf(request), request.body, productCount),
    );

    app.post(
      '/billing/invoice/:id/pay',
      {
        config: { access: WRITE.billing },
        schema: {
          tags,
          summary: 'Pay an invoice by Pix (QR code and copy-paste) or boleto (line and PDF link)',
          params: idParams,
          body: payInvoiceInputSchema,
          response: { 200: invoiceSchema },
        },
      },
      async (request) => payInvoice(ctx, sessionOf(request), request.params.id, request.body.method, gateway),
    );

    app.post(
      '/billing/webhook/asaas',
      {
        config: { access: 'public' },
        schema: {
          tags,
          summary:
            'Asaas payment events (PAYMENT_RECEIVED, PAYMENT_CONFIRMED, PAYMENT_OVERDUE); once per event id',
          body: asaasWebhookSchema,
          response: { 200: webhookAnswerSchema },
        },
      },
      async (request) => {
        const header = request.headers['asaas-access-token'];
        return receiveWebhook(ctx, Array.isArray(header) ? header[0] : header, request.body);
      },
    );
  };
}
