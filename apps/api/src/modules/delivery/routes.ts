import {
  type DeliveryOrder,
  DRIVER_LISTS,
  deliveryAssignSchema,
  deliveryCancelSchema,
  deliveryDeliverSchema,
  deliveryFailSchema,
  deliveryOrderSchema,
  deliveryPanelQuerySchema,
  deliveryPanelSchema,
  deliverySettingsInputSchema,
  deliverySettingsSchema,
  deliveryStatusInputSchema,
  driverOrdersSchema,
  driverShiftSchema,
  settlementInputSchema,
  settlementListSchema,
  settlementPreviewSchema,
  settlementQuerySchema,
  settlementSchema,
} from '@balcao/core/delivery';
import { printActionInputSchema, printJobSchema } from '@balcao/core/printing';
import { ACTION, DRIVERS, NOT_MKT, WRITE } from '@balcao/core/routes';
import { saleInputSchema, saleSchema } from '@balcao/core/sale';
import { z } from '@balcao/core/zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { idParam } from '../../lib/params.ts';
import { sessionOf } from '../../plugins/auth.ts';
import { takePhoneOrder } from './phoneOrder.ts';
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

const tags = ['delivery'];
const params = z.object({ id: idParam() });

/**
 * /v1/delivery (issue 18): the panel (read by who sees /dashboard/sale/delivery, moved by the
 * dispatch roles), phone orders, the driver area, shifts, the settlement (acerto) and the customer
 * notice setting.
 */
export function deliveryRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const { db } = ctx;

    app.get(
      '/delivery/panel',
      {
        config: { access: NOT_MKT },
        schema: {
          tags,
          summary: 'Open and today’s delivery orders (filters), counters per status, drivers on shift',
          querystring: deliveryPanelQuerySchema,
          response: { 200: deliveryPanelSchema },
        },
      },
      async (request) => deliveryPanel(db, sessionOf(request), request.query),
    );

    app.post(
      '/delivery/orders',
      {
        config: { access: WRITE.delivery },
        schema: {
          tags,
          summary: 'A phone order: the delivery sale recorded at once (origin delivery) with its order',
          body: saleInputSchema,
          response: { 200: saleSchema, 201: saleSchema },
        },
      },
      async (request, reply) => {
        const raw = request.headers['idempotency-key'];
        const key = typeof raw === 'string' && /^[\x21-\x7e]{1,200}$/.test(raw.trim()) ? raw.trim() : null;
        if (raw !== undefined && key === null) {
          throw new AppError(400, 'Idempotency-Key inválida: use até 200 caracteres sem espaços');
        }
        const result = await takePhoneOrder(ctx, sessionOf(request), request.body, key);
        if (result.replayed) return reply.status(200).header('idempotent-replayed', 'true').send(result.sale);
        return reply.status(201).send(result.sale);
      },
    );

    app.post(
      '/delivery/orders/:id/status',
      {
        config: { access: WRITE.delivery },
        schema: {
          tags,
          summary: 'Moves a new order to "em preparo" (waiting) or offers it to drivers (available)',
          params,
          body: deliveryStatusInputSchema,
          response: { 200: deliveryOrderSchema },
        },
      },
      async (request) => setStatus(ctx, sessionOf(request), request.params.id, request.body.status),
    );

    app.post(
      '/delivery/orders/:id/assign',
      {
        config: { access: WRITE.delivery },
        schema: {
          tags,
          summary: 'Assigns or reassigns a driver (the order awaits their pickup)',
          params,
          body: deliveryAssignSchema,
          response: { 200: deliveryOrderSchema },
        },
      },
      async (request) => assignDriver(ctx, sessionOf(request), request.params.id, request.body.driverId),
    );

    app.post(
      '/delivery/orders/:id/cancel',
      {
        config: { access: WRITE.delivery },
        schema: {
          tags,
          summary: 'Cancels an open order with a reason',
          params,
          body: deliveryCancelSchema,
          response: { 200: deliveryOrderSchema },
        },
      },
      async (request) => cancelOrder(ctx, sessionOf(request), request.params.id, request.body.reason),
    );

    app.post(
      '/delivery/orders/:id/print',
      {
        config: { access: WRITE.delivery },
        schema: {
          tags,
          summary:
            'Queues the bag ticket on the receipt printer (Idempotency key: a retried click prints once)',
          params,
          body: printActionInputSchema,
          response: { 200: printJobSchema },
        },
      },
      async (request) =>
        printBagTicket(ctx, sessionOf(request), request.params.id, request.body.idempotencyKey),
    );

    // ------------------------------------------------------------------------------- driver area

    app.get(
      '/delivery/driver/orders',
      {
        config: { access: DRIVERS },
        schema: {
          tags,
          summary: 'A driver list: available (Entregador), awaiting collection, in transit, delivered today',
          querystring: z.object({ list: z.enum(DRIVER_LISTS) }),
          response: { 200: driverOrdersSchema },
        },
      },
      async (request) => driverOrders(db, sessionOf(request), request.query.list),
    );

    const driverAction = (
      path: string,
      summary: string,
      run: (session: ReturnType<typeof sessionOf>, id: number, body: never) => Promise<DeliveryOrder>,
      body?: z.ZodType,
    ) =>
      app.post(
        `/delivery/orders/:id/${path}`,
        {
          config: { access: DRIVERS },
          schema: {
            tags,
            summary,
            params,
            ...(body ? { body } : {}),
            response: { 200: deliveryOrderSchema },
          },
        },
        // biome-ignore lint/suspicious/noExplicitAny: the body is validated by the schema above
        async (request: any) => run(sessionOf(request), request.params.id, request.body as never),
      );

    driverAction('take', 'An Entregador on shift takes an available order (first wins)', (s, id) =>
      takeOrder(ctx, s, id),
    );
    driverAction('pickup', 'The assigned driver confirms the pickup (in transit)', (s, id) =>
      pickUp(ctx, s, id),
    );
    driverAction(
      'deliver',
      'The assigned driver delivers with the customer’s 4-digit code',
      (s, id, body: { code: string }) => deliver(ctx, s, id, body.code),
      deliveryDeliverSchema,
    );
    driverAction(
      'fail',
      'The assigned driver records a failure with a reason from the list',
      (s, id, body: { reason: string }) => failDelivery(ctx, s, id, body.reason),
      deliveryFailSchema,
    );
    driverAction('reopen', '"Reabrir": takes back a delivered or failed tap within minutes', (s, id) =>
      reopen(ctx, s, id),
    );

    app.get(
      '/delivery/shift',
      {
        config: { access: DRIVERS },
        schema: { tags, summary: 'The driver’s shift', response: { 200: driverShiftSchema } },
      },
      async (request) => currentShift(db, sessionOf(request)),
    );
    app.post(
      '/delivery/shift/check-in',
      {
        config: { access: DRIVERS },
        schema: { tags, summary: 'Starts the driver’s shift', response: { 200: driverShiftSchema } },
      },
      async (request) => checkIn(ctx, sessionOf(request)),
    );
    app.post(
      '/delivery/shift/check-out',
      {
        config: { access: DRIVERS },
        schema: { tags, summary: 'Ends the driver’s shift', response: { 200: driverShiftSchema } },
      },
      async (request) => checkOut(ctx, sessionOf(request)),
    );

    // ------------------------------------------------------------------------------- settlement

    app.get(
      '/delivery/settlement/preview',
      {
        config: { access: WRITE.delivery },
        schema: {
          tags,
          summary: 'A driver’s unsettled finished orders in a period with the sums (the acerto to confirm)',
          querystring: settlementQuerySchema,
          response: { 200: settlementPreviewSchema },
        },
      },
      async (request) => previewSettlement(db, sessionOf(request), request.query),
    );

    app.post(
      '/delivery/settlements',
      {
        config: { access: ACTION.settleDrivers },
        schema: {
          tags,
          summary: 'A manager confirms a driver’s settlement with the cash counted',
          body: settlementInputSchema,
          response: { 201: settlementSchema },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await confirmSettlement(ctx, sessionOf(request), request.body)),
    );

    app.get(
      '/delivery/settlements',
      {
        config: { access: WRITE.delivery },
        schema: {
          tags,
          summary: 'Confirmed settlements, newest first',
          querystring: z.object({ driverId: z.coerce.number().int().positive().optional() }),
          response: { 200: settlementListSchema },
        },
      },
      async (request) => listSettlements(db, sessionOf(request), request.query.driverId),
    );

    app.get(
      '/delivery/settlements/:id',
      {
        config: { access: WRITE.delivery },
        schema: {
          tags,
          summary: 'One settlement with its lines',
          params,
          response: { 200: settlementSchema },
        },
      },
      async (request) => findSettlement(db, sessionOf(request), request.params.id),
    );

    // ------------------------------------------------------------------------------- settings

    app.put(
      '/delivery/settings',
      {
        config: { access: WRITE.settings },
        schema: {
          tags,
          summary: 'The WhatsApp notice to the customer on "saiu para entrega" and "entregue"',
          body: deliverySettingsInputSchema,
          response: { 200: deliverySettingsSchema },
        },
      },
      async (request) => saveDeliverySettings(ctx, sessionOf(request), request.body.notifyCustomer),
    );
  };
}
