import {
  BUDGET_MESSAGES,
  budgetAnswerInputSchema,
  budgetCancelInputSchema,
  budgetConvertInputSchema,
  budgetInputSchema,
  budgetListQuerySchema,
  budgetListResultSchema,
  budgetPublicSchema,
  budgetRenewInputSchema,
  budgetSchema,
  budgetSendInputSchema,
  budgetSendResultSchema,
} from '@balcao/core/budget';
import { binaryFileSchema, csvFileSchema } from '@balcao/core/responses';
import { STAFF, WRITE } from '@balcao/core/routes';
import { saleSchema } from '@balcao/core/sale';
import { z } from '@balcao/core/zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { sendCsvStream } from '../../lib/csv.ts';
import { idParams } from '../../lib/params.ts';
import { assertCan, sessionOf } from '../../plugins/auth.ts';
import { storageFor } from '../storage/storage.ts';
import { convertBudget } from './convert.ts';
import { BUDGET_CSV_HEADER, budgetCsvLines, eachBudget, listBudgets } from './list.ts';
import { budgetPdf, logoBytes } from './pdf.ts';
import {
  answerPublicBudget,
  budgetDocument,
  openPublicBudget,
  publicBudgetDocument,
  toPublicBudget,
} from './public.ts';
import { sendBudget } from './send.ts';
import { cancelBudget, createBudget, duplicateBudget, findBudget, renewBudget } from './service.ts';

const tags = ['budget'];

/** The Idempotency-Key header (the PDV's rule): printable text up to 200 characters. */
function idempotencyKey(request: FastifyRequest): string | null {
  const raw = request.headers['idempotency-key'];
  if (raw === undefined) return null;
  const key = (Array.isArray(raw) ? raw[0] : raw).trim();
  if (!/^[\x21-\x7e]{1,200}$/.test(key)) {
    throw new AppError(400, 'Idempotency-Key inválida: use até 200 caracteres sem espaços', [
      { path: 'Idempotency-Key', message: 'Idempotency-Key inválida' },
    ]);
  }
  return key;
}

const tokenParams = z.object({
  token: z.string().regex(/^[A-Za-z0-9_-]{20,64}$/, BUDGET_MESSAGES.linkNotFound),
});

function sendPdf(reply: FastifyReply, pdf: Buffer, number: number, download: boolean) {
  return reply
    .header('content-type', 'application/pdf')
    .header(
      'content-disposition',
      `${download ? 'attachment' : 'inline'}; filename="orcamento-${number}.pdf"`,
    )
    .header('cache-control', 'no-store')
    .send(pdf);
}

const pdfResponse = { 200: { content: { 'application/pdf': { schema: binaryFileSchema } } } };
const downloadQuery = z.object({ download: z.enum(['true', 'false']).optional() });

/**
 * /v1/budget (issue 17): create (the budget PDV), list with totals and CSV, detail, PDF, send,
 * cancel, renew, duplicate, convert into a sale; /v1/public/budget/{token}: the customer's approval
 * page (no session: the token is the key).
 */
export function budgetRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const { db } = ctx;
    const storage = storageFor(ctx.config);
    const writer = (request: FastifyRequest) => assertCan(request, WRITE.budgets);

    app.get(
      '/budget',
      {
        config: { access: STAFF },
        schema: {
          tags,
          summary: 'Budgets: period, status (expired computed), customer, seller; totals and conversion rate',
          querystring: budgetListQuerySchema,
          response: { 200: budgetListResultSchema },
        },
      },
      async (request) => listBudgets(db, sessionOf(request).clientId, request.query),
    );

    app.get(
      '/budget/export',
      {
        config: { access: STAFF },
        schema: {
          tags,
          summary: 'CSV of the filtered budgets (";" separated, decimal comma, UTF-8 with BOM)',
          querystring: budgetListQuerySchema,
          response: { 200: { content: { 'text/csv': { schema: csvFileSchema } } } },
        },
      },
      async (request, reply) => {
        const { clientId } = sessionOf(request);
        const { today, lines } = await budgetCsvLines(db, clientId);
        return sendCsvStream(reply, 'orcamentos', {
          today,
          header: BUDGET_CSV_HEADER,
          rows: eachBudget(db, clientId, request.query),
          lines,
        });
      },
    );

    app.get(
      '/budget/:id',
      {
        config: { access: STAFF },
        schema: {
          tags,
          summary: "A budget with its lines and today's catalog prices beside them",
          params: idParams,
          response: { 200: budgetSchema },
        },
      },
      async (request) => findBudget(db, sessionOf(request), request.params.id),
    );

    app.get(
      '/budget/:id/pdf',
      {
        config: { access: STAFF },
        schema: {
          tags,
          summary: 'The budget as an A4 PDF, generated now (never stored); ?download=true to save it',
          params: idParams,
          querystring: downloadQuery,
          response: pdfResponse,
        },
      },
      async (request, reply) => {
        const { budget, shop } = await budgetDocument(db, sessionOf(request), request.params.id);
        const pdf = await budgetPdf(
          shop,
          toPublicBudget(budget),
          await logoBytes(storage, shop.logoKey),
          budget.viewStatus,
        );
        return sendPdf(reply, pdf, budget.number, request.query.download === 'true');
      },
    );

    app.post(
      '/budget',
      {
        config: { access: WRITE.budgets },
        schema: {
          tags,
          summary:
            'A new budget: catalog prices, discounts within the user limit, optional stock reservation',
          body: budgetInputSchema,
          response: { 201: budgetSchema },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await createBudget(ctx, writer(request), request.body)),
    );

    app.post(
      '/budget/:id/send',
      {
        config: { access: WRITE.budgets },
        schema: {
          tags,
          summary:
            'Send (WhatsApp with the PDF, or a wa.me link when not connected), copy the link, or print: pending -> sent',
          params: idParams,
          body: budgetSendInputSchema,
          response: { 200: budgetSendResultSchema },
        },
      },
      async (request) => sendBudget(ctx, storage, writer(request), request.params.id, request.body),
    );

    app.post(
      '/budget/:id/cancel',
      {
        config: { access: WRITE.budgets },
        schema: {
          tags,
          summary: 'Cancel an open budget (releases its stock reservation)',
          params: idParams,
          body: budgetCancelInputSchema,
          response: { 200: budgetSchema },
        },
      },
      async (request) => cancelBudget(ctx, writer(request), request.params.id, request.body.reason),
    );

    app.post(
      '/budget/:id/renew',
      {
        config: { access: WRITE.budgets },
        schema: {
          tags,
          summary: "Renew an expired budget: new validity, today's prices, reservation taken again",
          params: idParams,
          body: budgetRenewInputSchema,
          response: { 200: budgetSchema },
        },
      },
      async (request) => renewBudget(ctx, writer(request), request.params.id, request.body.validUntil),
    );

    app.post(
      '/budget/:id/duplicate',
      {
        config: { access: WRITE.budgets },
        schema: {
          tags,
          summary: "A new pending budget with the same customer and lines at today's prices",
          params: idParams,
          response: { 201: budgetSchema },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await duplicateBudget(ctx, writer(request), request.params.id)),
    );

    app.post(
      '/budget/:id/convert',
      {
        config: { access: WRITE.budgets },
        schema: {
          tags,
          summary:
            'Convert into a sale through the sale seam (origin budget; open register; Idempotency-Key honoured): the budget becomes finished',
          params: idParams,
          body: budgetConvertInputSchema,
          response: { 200: saleSchema, 201: saleSchema },
        },
      },
      async (request, reply) => {
        const result = await convertBudget(
          ctx,
          writer(request),
          request.params.id,
          request.body,
          idempotencyKey(request),
        );
        if (result.replayed) return reply.status(200).header('idempotent-replayed', 'true').send(result.sale);
        return reply.status(201).send(result.sale);
      },
    );

    // The customer's approval page: no session, the token is the only key.
    app.get(
      '/public/budget/:token',
      {
        config: { access: 'public' },
        schema: {
          tags,
          summary:
            'The budget of an approval link (records "visualizado" once); 409 once converted, canceled or expired',
          params: tokenParams,
          response: { 200: budgetPublicSchema },
        },
      },
      async (request) => (await openPublicBudget(ctx, request.params.token, request.ip)).answer,
    );

    app.get(
      '/public/budget/:token/pdf',
      {
        config: { access: 'public' },
        schema: {
          tags,
          summary: "The approval link's budget as a PDF",
          params: tokenParams,
          querystring: downloadQuery,
          response: pdfResponse,
        },
      },
      async (request, reply) => {
        const { budget, shop } = await publicBudgetDocument(ctx, request.params.token, request.ip);
        const pdf = await budgetPdf(shop, toPublicBudget(budget), await logoBytes(storage, shop.logoKey));
        return sendPdf(reply, pdf, budget.number, request.query.download === 'true');
      },
    );

    app.post(
      '/public/budget/:token/answer',
      {
        config: { access: 'public' },
        schema: {
          tags,
          summary: 'The customer approves, or refuses with a reason (once; the shop is notified)',
          params: tokenParams,
          body: budgetAnswerInputSchema,
          response: { 200: budgetPublicSchema },
        },
      },
      async (request) => answerPublicBudget(ctx, request.params.token, request.ip, request.body),
    );
  };
}
