import { budgetApi } from '@balcao/core/endpoints/budget';
import { WRITE } from '@balcao/core/routes';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { sendCsvStream } from '../../lib/csv.ts';
import { route, sendRecorded } from '../../lib/endpoint.ts';
import { assertCan, sessionOf } from '../../plugins/auth.ts';
import type { DeliveryOrderOfSale } from '../sale/checkout.ts';
import { storageFor } from '../storage/storage.ts';
import { convertBudget } from './convert.ts';
import { BUDGET_CSV_HEADER, budgetCsvLines, eachBudget, listBudgets } from './list.ts';
import { budgetPdf, logoBytes } from './pdf.ts';
import {
  answerPublicBudget,
  budgetDocument,
  openPublicBudget,
  publicBudgetDocument,
  publicBudgetPix,
  toPublicBudget,
} from './public.ts';
import { sendBudget } from './send.ts';
import {
  budgetPixRefunds,
  cancelBudget,
  createBudget,
  duplicateBudget,
  findBudget,
  renewBudget,
} from './service.ts';

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

/**
 * /v1/budget (issue 17): the handlers of `budgetApi`: create (the budget PDV), list with totals and
 * CSV, detail, PDF, send, cancel, renew, duplicate, convert into a sale; /v1/public/budget/{token}:
 * the customer's approval page (no session: the token is the key).
 */
export function budgetRoutes(
  ctx: AppContext,
  deliveryOrderOfSale?: DeliveryOrderOfSale,
): FastifyPluginAsyncZod {
  return async (app) => {
    const { db } = ctx;
    const storage = storageFor(ctx.config);
    const writer = (request: FastifyRequest) => assertCan(request, WRITE.budgets);

    route(app, budgetApi.list, (request) => listBudgets(db, sessionOf(request).clientId, request.query));

    route(app, budgetApi.export, async (request, reply) => {
      const { clientId } = sessionOf(request);
      const { today, lines } = await budgetCsvLines(db, clientId);
      return sendCsvStream(reply, 'orcamentos', {
        today,
        header: BUDGET_CSV_HEADER,
        rows: eachBudget(db, clientId, request.query),
        lines,
      });
    });

    route(app, budgetApi.get, (request) => findBudget(db, sessionOf(request), request.params.id));

    route(app, budgetApi.pdf, async (request, reply) => {
      const { budget, shop } = await budgetDocument(db, sessionOf(request), request.params.id);
      const pdf = await budgetPdf(
        shop,
        toPublicBudget(budget),
        await logoBytes(storage, shop.logoKey),
        budget.viewStatus,
      );
      return sendPdf(reply, pdf, budget.number, request.query.download === 'true');
    });

    route(app, budgetApi.create, (request) => createBudget(ctx, writer(request), request.body));

    route(app, budgetApi.send, (request) =>
      sendBudget(ctx, storage, writer(request), request.params.id, request.body),
    );

    route(app, budgetApi.cancel, (request) =>
      cancelBudget(ctx, writer(request), request.params.id, request.body.reason),
    );

    route(app, budgetApi.renew, (request) =>
      renewBudget(ctx, writer(request), request.params.id, request.body.validUntil),
    );

    route(app, budgetApi.duplicate, (request) => duplicateBudget(ctx, writer(request), request.params.id));

    route(app, budgetApi.convert, async (request, reply) =>
      sendRecorded(
        reply,
        await convertBudget(
          ctx,
          writer(request),
          request.params.id,
          request.body,
          request.idempotencyKey,
          deliveryOrderOfSale,
        ),
      ),
    );

    // The customer's approval page: no session, the token is the only key.
    route(
      app,
      budgetApi.publicGet,
      async (request) => (await openPublicBudget(ctx, request.params.token, request.ip)).answer,
    );

    route(app, budgetApi.publicPdf, async (request, reply) => {
      const { budget, shop } = await publicBudgetDocument(ctx, request.params.token, request.ip);
      const pdf = await budgetPdf(shop, toPublicBudget(budget), await logoBytes(storage, shop.logoKey));
      return sendPdf(reply, pdf, budget.number, request.query.download === 'true');
    });

    route(app, budgetApi.publicAnswer, (request) =>
      answerPublicBudget(ctx, request.params.token, request.ip, request.body),
    );

    route(app, budgetApi.pixRefunds, (request) =>
      budgetPixRefunds(ctx.db, sessionOf(request), request.params.id),
    );

    // Issue 33: the approved budget paid by Pix QR dinâmico on the link.
    route(app, budgetApi.publicPix, (request) =>
      publicBudgetPix(ctx, request.params.token, request.ip, 'pay'),
    );
    route(app, budgetApi.publicPixStatus, (request) =>
      publicBudgetPix(ctx, request.params.token, request.ip, 'status'),
    );
  };
}
