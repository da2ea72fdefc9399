import { idFilter, listQuerySchema, pageOf } from '@balcao/core/list';
import { csvFileSchema } from '@balcao/core/responses';
import { BACKOFFICE, PDV, WRITE } from '@balcao/core/routes';
import {
  fractionRatioSchema,
  lowStockProductSchema,
  stockCardSchema,
  stockEntryInputSchema,
  stockExitInputSchema,
  stockFractionateInputSchema,
  stockMovementListQuerySchema,
  stockMovementSchema,
  stockOperationResultSchema,
  stockReservationFiguresSchema,
  stockSettingsInputSchema,
  stockSettingsSchema,
} from '@balcao/core/stock';
import { z } from '@balcao/core/zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { sendCsvStream } from '../../lib/csv.ts';
import { clientParams, idParam } from '../../lib/params.ts';
import { shopClock } from '../../lib/shopToday.ts';
import { assertOwnClient, sessionOf } from '../../plugins/auth.ts';
import { movementsCsvHeader, movementsCsvLines } from './csv.ts';
import {
  eachMovement,
  findMovements,
  findStockCard,
  listFractionRatios,
  listLowStock,
  listMovements,
} from './queries.ts';
import { reservationFigures } from './reservation.ts';
import {
  findStockSettings,
  fractionate,
  registerEntry,
  registerExit,
  type StockContext,
  type StockResult,
  updateStockSettings,
} from './service.ts';

const productParams = z.object({ productId: idParam('Produto inválido') });

/**
 * Stock (issue 6). Reading: the back-office (BACKOFFICE); moving stock: WRITE.stock (1, 2, 6);
 * the negative-stock setting: WRITE.settings (1, 2). Every write answers 422 while the client's
 * stockManagement is off.
 */
export function stockRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const { db } = ctx;
    const tags = ['stock'];
    const stockContext = (request: Parameters<typeof sessionOf>[0]): StockContext => {
      const session = sessionOf(request);
      return { clientId: session.clientId, userId: session.userId, notify: ctx.notify };
    };

    /** A manual operation: moves the stock and answers the movements it recorded (201). */
    function operationRoute<Body extends z.ZodType>(
      path: string,
      summary: string,
      body: Body,
      operate: (db: Db, context: StockContext, input: z.output<Body>) => Promise<StockResult>,
    ) {
      app.post(
        `/stock-movement/${path}`,
        {
          config: { access: WRITE.stock },
          schema: { tags, summary, body, response: { 201: stockOperationResultSchema } },
        },
        async (request, reply) => {
          // The type provider cannot resolve a generic schema: the body is `body` validated.
          const result = await operate(db, stockContext(request), request.body as z.output<Body>);
          const ids = result.movements.map((m) => m.id);
          return reply.status(201).send({ movements: await findMovements(db, sessionOf(request), ids) });
        },
      );
    }

    operationRoute(
      'entry',
      'Stock entry of one or more products (quantity and unit cost; updates the average cost)',
      stockEntryInputSchema,
      registerEntry,
    );
    operationRoute(
      'exit',
      'Stock exit with a reason; 409 when a level would go negative (unless allowed)',
      stockExitInputSchema,
      registerExit,
    );
    operationRoute(
      'fractionate',
      'N units of a source product out, M units of a target in, one transaction; remembers N:M',
      stockFractionateInputSchema,
      fractionate,
    );

    app.get(
      '/stock-movement/client/:clientId',
      {
        config: { access: BACKOFFICE },
        schema: {
          tags,
          summary:
            'Movement history: filters productId, variantId, type (comma list), userId, from, to (dates)',
          params: clientParams,
          querystring: stockMovementListQuerySchema,
          response: { 200: pageOf(stockMovementSchema) },
        },
      },
      async (request) => listMovements(db, assertOwnClient(request, request.params.clientId), request.query),
    );

    app.get(
      '/stock-movement/client/:clientId/export',
      {
        config: { access: BACKOFFICE },
        schema: {
          tags,
          summary: 'CSV of the filtered history (semicolon separated, decimal comma, UTF-8 with BOM)',
          params: clientParams,
          querystring: stockMovementListQuerySchema,
          response: { 200: { content: { 'text/csv': { schema: csvFileSchema } } } },
        },
      },
      async (request, reply) => {
        const actor = assertOwnClient(request, request.params.clientId);
        const { timeZone, today } = await shopClock(db, actor.clientId);
        return sendCsvStream(reply, 'movimentacoes-estoque', {
          today,
          header: movementsCsvHeader(),
          rows: eachMovement(db, actor, request.query),
          lines: (batch) => movementsCsvLines(batch, timeZone),
        });
      },
    );

    app.get(
      '/stock-movement/product/:productId',
      {
        config: { access: BACKOFFICE },
        schema: {
          tags,
          summary: "A product's stock card: its movements, newest first, with the level after each",
          params: productParams,
          querystring: listQuerySchema
            .pick({ page: true, pageSize: true })
            .extend({ variantId: idFilter('Variação inválida') }),
          response: { 200: stockCardSchema },
        },
      },
      async (request) => findStockCard(db, sessionOf(request), request.params.productId, request.query),
    );

    app.get(
      '/stock-reservation/product/:productId',
      {
        config: { access: BACKOFFICE },
        schema: {
          tags,
          summary: "A product's level, the units budgets reserve while valid, and what is available to sell",
          params: productParams,
          response: { 200: stockReservationFiguresSchema },
        },
      },
      async (request) => reservationFigures(db, sessionOf(request), request.params.productId),
    );

    app.get(
      '/stock-movement/low-stock/client/:clientId',
      {
        config: { access: BACKOFFICE },
        schema: {
          tags,
          summary: 'Active products at or below their minimum stock',
          params: clientParams,
          querystring: listQuerySchema.pick({ page: true, pageSize: true, q: true }),
          response: { 200: pageOf(lowStockProductSchema) },
        },
      },
      async (request) => listLowStock(db, assertOwnClient(request, request.params.clientId), request.query),
    );

    app.get(
      '/stock-movement/fraction-ratio/client/:clientId',
      {
        config: { access: BACKOFFICE },
        schema: {
          tags,
          summary: 'Remembered fractionation ratios (last N:M per source/target pair), newest first',
          params: clientParams,
          querystring: z.object({
            sourceProductId: idFilter('Produto inválido'),
            targetProductId: idFilter('Produto inválido'),
          }),
          response: { 200: z.array(fractionRatioSchema) },
        },
      },
      async (request) =>
        listFractionRatios(db, assertOwnClient(request, request.params.clientId), request.query),
    );

    app.get(
      '/stock-setting/sale',
      {
        config: { access: PDV },
        schema: {
          tags,
          summary:
            'The stock rule a sale follows (issue 21): the PDV keeps it to check an offline sale as the server would',
          response: { 200: stockSettingsSchema },
        },
      },
      async (request) => findStockSettings(db, sessionOf(request)),
    );

    app.get(
      '/stock-setting/client/:clientId',
      {
        config: { access: BACKOFFICE },
        schema: {
          tags,
          summary: 'stockManagement and allowNegativeStock of the client',
          params: clientParams,
          response: { 200: stockSettingsSchema },
        },
      },
      async (request) => findStockSettings(db, assertOwnClient(request, request.params.clientId)),
    );

    app.put(
      '/stock-setting/client/:clientId',
      {
        config: { access: WRITE.settings },
        schema: {
          tags,
          summary: 'Allow or refuse negative stock (exits and sales)',
          params: clientParams,
          body: stockSettingsInputSchema,
          response: { 200: stockSettingsSchema },
        },
      },
      async (request) =>
        updateStockSettings(db, assertOwnClient(request, request.params.clientId), request.body),
    );
  };
}
