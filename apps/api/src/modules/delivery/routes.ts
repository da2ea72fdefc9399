import { deliveryApi } from '@balcao/core/endpoints/delivery';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { route, sendRecorded } from '../../lib/endpoint.ts';
import { sessionOf } from '../../plugins/auth.ts';
import { takePhoneOrder } from './phoneOrder.ts';
import { deliveryOrderPix } from './pix.ts';
import { printBagTicket } from './print.ts';
import {
  assignDriver,
  cancelOrder,
  checkIn,
  checkOut,
  currentShift,
  deliver,
  deliveryPanel,
  driverOrders,
  failDelivery,
  pickUp,
  reopen,
  saveDeliverySettings,
  setStatus,
  takeOrder,
} from './service.ts';
import { confirmSettlement, findSettlement, listSettlements, previewSettlement } from './settlement.ts';

/** /v1/delivery (issue 18): the handlers of `deliveryApi` (core declares the endpoints). */
export function deliveryRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const { db } = ctx;
    const api = deliveryApi;

    route(app, api.panel, (request) => deliveryPanel(db, sessionOf(request), request.query));

    route(app, api.phoneOrder, async (request, reply) =>
      sendRecorded(
        reply,
        await takePhoneOrder(ctx, sessionOf(request), request.body, request.idempotencyKey),
      ),
    );

    route(app, api.setStatus, (request) =>
      setStatus(ctx, sessionOf(request), request.params.id, request.body.status),
    );

    route(app, api.assign, (request) =>
      assignDriver(ctx, sessionOf(request), request.params.id, request.body.driverId),
    );

    route(app, api.cancel, (request) =>
      cancelOrder(ctx, sessionOf(request), request.params.id, request.body),
    );

    route(app, api.print, (request) =>
      printBagTicket(ctx, sessionOf(request), request.params.id, request.body.idempotencyKey),
    );

    // Issue 33: what the order collects on delivery, paid by Pix QR dinâmico (panel or its driver).
    route(app, api.pix, (request) => deliveryOrderPix(ctx, sessionOf(request), request.params.id, 'pay'));
    route(app, api.pixStatus, (request) =>
      deliveryOrderPix(ctx, sessionOf(request), request.params.id, 'status'),
    );

    // ------------------------------------------------------------------------------- driver area

    route(app, api.driverOrders, (request) => driverOrders(db, sessionOf(request), request.query.list));

    route(app, api.take, (request) => takeOrder(ctx, sessionOf(request), request.params.id));

    route(app, api.pickup, (request) => pickUp(ctx, sessionOf(request), request.params.id));

    route(app, api.deliver, (request) =>
      deliver(ctx, sessionOf(request), request.params.id, request.body.code),
    );

    route(app, api.fail, (request) =>
      failDelivery(ctx, sessionOf(request), request.params.id, request.body.reason),
    );

    route(app, api.reopen, (request) => reopen(ctx, sessionOf(request), request.params.id));

    route(app, api.shift, (request) => currentShift(db, sessionOf(request)));

    route(app, api.checkIn, (request) => checkIn(ctx, sessionOf(request)));

    route(app, api.checkOut, (request) => checkOut(ctx, sessionOf(request)));

    // ------------------------------------------------------------------------------- settlement

    route(app, api.settlementPreview, (request) => previewSettlement(db, sessionOf(request), request.query));

    route(app, api.settle, (request) => confirmSettlement(ctx, sessionOf(request), request.body));

    route(app, api.settlements, (request) => listSettlements(db, sessionOf(request), request.query.driverId));

    route(app, api.settlement, (request) => findSettlement(db, sessionOf(request), request.params.id));

    // ------------------------------------------------------------------------------- settings

    route(app, api.saveSettings, (request) => saveDeliverySettings(ctx, sessionOf(request), request.body));
  };
}
