import { COMANDA_MESSAGES } from '@balcao/core/comanda';
import { comandaApi } from '@balcao/core/endpoints/comanda';
import { tableMenuApi } from '@balcao/core/endpoints/tableMenu';
import { WRITE } from '@balcao/core/routes';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { forbidden } from '../../errors.ts';
import { route, sendRecorded } from '../../lib/endpoint.ts';
import { assertCan, sessionOf } from '../../plugins/auth.ts';
import { closeComanda } from './close.ts';
import { comandaMenu } from './menu.ts';
import { addPayment } from './payment.ts';
import { preBill, reprintSend, sendToProduction } from './production.ts';
import { findComanda, listBoard } from './read.ts';
import {
  addLine,
  cancelComanda,
  cancelLine,
  listWaiters,
  mergeComanda,
  openComanda,
  requestBill,
  setServiceFee,
  transferLine,
  updateComanda,
} from './service.ts';
import {
  approveTableOrder,
  callFromTable,
  issueTableQr,
  listTableOrders,
  placeTableOrder,
  rejectTableOrder,
  tableMenu,
  tableQrCards,
} from './tableMenu.ts';
import { tableQrPdf } from './tableQrPdf.ts';

/**
 * /v1/comanda (issue 16): the handlers of `comandaApi` (core declares the endpoints). Every route
 * answers 403 with the Portuguese message while the client's saleCommand flag is off.
 */
export function comandaRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const { db } = ctx;
    const api = comandaApi;

    // The switch comes with the session (plugins/auth.ts): no query of its own on every tap.
    app.addHook('preHandler', async (request) => {
      if (request.session && !request.session.saleCommand) throw forbidden(COMANDA_MESSAGES.disabled);
    });

    const detail = (request: FastifyRequest, id: number) => findComanda(db, sessionOf(request), id);

    route(app, api.board, (request) => listBoard(db, sessionOf(request), request.query.waiterId ?? null));

    route(app, api.waiters, (request) => listWaiters(db, sessionOf(request)));

    route(app, api.menu, (request) => comandaMenu(db, sessionOf(request)));

    route(app, api.get, (request) => detail(request, request.params.id));

    route(app, api.open, async (request) => {
      const id = await openComanda(ctx, sessionOf(request), request.body);
      return detail(request, id);
    });

    route(app, api.update, async (request) => {
      await updateComanda(ctx, sessionOf(request), request.params.id, request.body);
      return detail(request, request.params.id);
    });

    route(app, api.addLine, async (request, reply) => {
      const result = await addLine(
        ctx,
        sessionOf(request),
        request.params.id,
        request.body,
        request.idempotencyKey,
      );
      return sendRecorded(reply, { replayed: result.replayed, sale: result.line });
    });

    route(app, api.cancelLine, async (request) => {
      const { id, lineId } = request.params;
      await cancelLine(ctx, sessionOf(request), id, lineId, request.body);
      return detail(request, id);
    });

    route(app, api.send, async (request, reply) => {
      const result = await sendToProduction(
        ctx,
        sessionOf(request),
        request.params.id,
        request.idempotencyKey,
      );
      return reply.status(result.replayed ? 200 : 201).send(result);
    });

    route(app, api.reprintSend, async (request) => {
      const { id, sendId } = request.params;
      await reprintSend(ctx, sessionOf(request), id, sendId, request.idempotencyKey, request.body.jobId);
      return detail(request, id);
    });

    route(app, api.transfer, async (request) => {
      await transferLine(ctx, sessionOf(request), request.params.id, request.body);
      return detail(request, request.params.id);
    });

    route(app, api.cancel, async (request) => {
      await cancelComanda(ctx, sessionOf(request), request.params.id, request.body);
      return detail(request, request.params.id);
    });

    route(app, api.merge, async (request) => {
      await mergeComanda(ctx, sessionOf(request), request.params.id, request.body);
      return detail(request, request.params.id);
    });

    route(app, api.serviceFee, async (request) => {
      await setServiceFee(ctx, sessionOf(request), request.params.id, request.body);
      return detail(request, request.params.id);
    });

    route(app, api.requestBill, async (request) => {
      await requestBill(ctx, sessionOf(request), request.params.id);
      return detail(request, request.params.id);
    });

    route(app, api.preBill, (request) =>
      preBill(ctx, sessionOf(request), request.params.id, request.idempotencyKey),
    );

    route(app, api.payment, async (request) => {
      const session = assertCan(request, WRITE.sales);
      await addPayment(ctx, session, request.params.id, request.body, request.idempotencyKey);
      return detail(request, request.params.id);
    });

    route(app, api.close, async (request, reply) => {
      const session = assertCan(request, WRITE.sales);
      const result = await closeComanda(
        ctx,
        session,
        request.params.id,
        request.body,
        request.idempotencyKey,
      );
      return sendRecorded(reply, result);
    });

    // The QR-code menu at the table (issue 35): the staff's side, then the customer's public page.
    const table = tableMenuApi;
    route(app, table.qr, (request) =>
      issueTableQr(ctx, assertCan(request, WRITE.settings), request.body.tableLabel),
    );
    route(app, table.qrPdf, async (request, reply) => {
      const { shop, cards } = await tableQrCards(ctx, sessionOf(request), request.query.tables);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', 'inline; filename="qrcodes-mesas.pdf"')
        .header('cache-control', 'no-store')
        .send(await tableQrPdf(shop, cards));
    });
    route(app, table.orders, (request) => listTableOrders(ctx, sessionOf(request)));
    route(app, table.approve, (request) => approveTableOrder(ctx, sessionOf(request), request.params.id));
    route(app, table.reject, (request) => rejectTableOrder(ctx, sessionOf(request), request.params.id));
    route(app, table.menu, (request) => tableMenu(ctx, request.params.token, request.ip));
    route(app, table.order, async (request, reply) => {
      const placed = await placeTableOrder(
        ctx,
        request.params.token,
        request.ip,
        request.body,
        request.idempotencyKey,
      );
      return reply.status(placed.replayed ? 200 : 201).send(placed.order);
    });
    route(app, table.call, (request) =>
      callFromTable(ctx, request.params.token, request.ip, request.body.kind),
    );
  };
}
