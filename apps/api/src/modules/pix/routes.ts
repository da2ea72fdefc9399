import { pixApi } from '@balcao/core/endpoints/pix';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { unauthorized } from '../../errors.ts';
import { sendCsvStream } from '../../lib/csv.ts';
import { route } from '../../lib/endpoint.ts';
import { sessionOf } from '../../plugins/auth.ts';
import { PIX_DAY_CSV_HEADER, pixDay, pixDayCsvLines } from './reconciliation.ts';
import {
  createPixCharge,
  findPixAccount,
  findPixCharge,
  intakePix,
  listPendingPix,
  listPixRefunds,
  removePixCharge,
  resolvePendingPix,
  savePixAccount,
  shopOfWebhook,
  testPixAccount,
} from './service.ts';

/** /v1/pix (issue 33): the handlers of `pixApi`. */
export function pixRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const { db } = ctx;

    route(app, pixApi.account, (request) => findPixAccount(ctx, sessionOf(request)));
    route(app, pixApi.saveAccount, (request) => savePixAccount(ctx, sessionOf(request), request.body));
    route(app, pixApi.test, (request) => testPixAccount(ctx, sessionOf(request)));
    route(app, pixApi.createCharge, (request) => createPixCharge(ctx, sessionOf(request), request.body));
    route(app, pixApi.charge, (request) => findPixCharge(ctx, sessionOf(request), request.params.txid));
    route(app, pixApi.removeCharge, (request) =>
      removePixCharge(ctx, sessionOf(request), request.params.txid),
    );
    route(app, pixApi.pending, (request) => listPendingPix(db, sessionOf(request)));
    route(app, pixApi.resolve, (request) => resolvePendingPix(ctx, sessionOf(request), request.params.id));
    route(app, pixApi.day, (request) => pixDay(ctx, sessionOf(request), request.query.date));
    route(app, pixApi.dayExport, async (request, reply) => {
      const session = sessionOf(request);
      const day = await pixDay(ctx, session, request.query.date);
      const { today, lines } = await pixDayCsvLines(ctx, session.clientId);
      async function* rows() {
        yield* day.items;
      }
      return sendCsvStream(reply, 'conciliacao-pix', {
        header: PIX_DAY_CSV_HEADER,
        rows: rows(),
        lines,
        today,
        fileName: `conciliacao-pix-${day.date}.csv`,
      });
    });
    route(app, pixApi.refunds, (request) => listPixRefunds(db, sessionOf(request), request.params.id));

    // The PSP's webhook: the shop comes from the secret path only (and Efí's hmac where registered);
    // the Pix are stored (each endToEndId once) before the answer, and worked by the queue (durable).
    route(app, pixApi.webhook, async (request) => {
      const clientId = await shopOfWebhook(db, request.params.token, request.query.hmac);
      if (clientId === null) throw unauthorized('Webhook Pix desconhecido');
      await intakePix(ctx, clientId, request.body.pix, 'after');
      return { ok: true };
    });
  };
}
