import { saleApi } from '@balcao/core/endpoints/sale';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { sendCsvStream } from '../../lib/csv.ts';
import { route, sendRecorded } from '../../lib/endpoint.ts';
import { assertOwnClient, sessionOf } from '../../plugins/auth.ts';
import { cancelSale, type SaleCanceled } from './cancel.ts';
import { checkout, type DeliveryOrderOfSale, type PixPaymentOfSale } from './checkout.ts';
import { exchangeSale } from './exchange.ts';
import { csvFileName, eachSale, listSales, SALE_CSV_HEADER, saleCsvLines } from './list.ts';
import { syncOfflineSale } from './offlineSync.ts';
import { quickSale } from './quickSale.ts';
import { findSale } from './read.ts';
import { findSaleReturns, returnSaleItems } from './saleReturn.ts';

/**
 * /v1/sale (issue 7): the handlers of `saleApi` (checkout, quick sale, offline sync, list with totals
 * and CSV, detail, cancel). Settling an installment and a customer's credit are the receivable module's.
 */
export function saleRoutes(
  ctx: AppContext,
  deliveryOrderOfSale?: DeliveryOrderOfSale,
  saleCanceled?: SaleCanceled,
  pixPaymentOfSale?: PixPaymentOfSale,
): FastifyPluginAsyncZod {
  return async (app) => {
    const { db } = ctx;

    route(app, saleApi.checkout, async (request, reply) => {
      const result = await checkout(
        ctx,
        sessionOf(request),
        request.body,
        { idempotencyKey: request.idempotencyKey, body: request.body },
        deliveryOrderOfSale,
        pixPaymentOfSale,
      );
      return sendRecorded(reply, result);
    });

    route(app, saleApi.quick, async (request, reply) => {
      const key = request.idempotencyKey;
      const result = await quickSale(ctx, sessionOf(request), request.body, {
        idempotencyKey: key ? `simple:${key}` : null,
        body: request.body,
      });
      return sendRecorded(reply, result);
    });

    route(app, saleApi.offline, async (request, reply) =>
      sendRecorded(reply, await syncOfflineSale(ctx, sessionOf(request), request.body, deliveryOrderOfSale)),
    );

    route(app, saleApi.list, (request) => {
      const { clientId } = assertOwnClient(request, request.params.clientId);
      return listSales(db, clientId, request.query);
    });

    route(app, saleApi.export, async (request, reply) => {
      const { clientId } = assertOwnClient(request, request.params.clientId);
      const { today, lines } = await saleCsvLines(db, clientId);
      return sendCsvStream(reply, 'vendas', {
        today,
        header: SALE_CSV_HEADER,
        rows: eachSale(db, clientId, request.query),
        lines,
        fileName: csvFileName(request.query),
      });
    });

    route(app, saleApi.get, (request) => findSale(db, sessionOf(request), request.params.id));

    route(app, saleApi.cancel, (request) =>
      cancelSale(ctx, sessionOf(request), request.params.id, request.body, saleCanceled),
    );

    route(app, saleApi.exchange, async (request, reply) =>
      sendRecorded(
        reply,
        await exchangeSale(
          ctx,
          sessionOf(request),
          request.params.id,
          request.body,
          request.idempotencyKey ?? '',
          deliveryOrderOfSale,
        ),
      ),
    );

    route(app, saleApi.returns, (request) => findSaleReturns(db, sessionOf(request), request.params.id));

    route(app, saleApi.return, async (request, reply) =>
      sendRecorded(
        reply,
        await returnSaleItems(ctx, sessionOf(request), request.params.id, request.body, {
          idempotencyKey: request.idempotencyKey ?? '',
          body: request.body,
        }),
      ),
    );
  };
}
