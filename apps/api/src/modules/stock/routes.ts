import { stockApi } from '@balcao/core/endpoints/stock';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { sendCsvStream } from '../../lib/csv.ts';
import { route } from '../../lib/endpoint.ts';
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

/** Stock (issue 6): the handlers of `stockApi` (core declares the endpoints and their access). */
export function stockRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const { db } = ctx;
    const stockContext = (request: Parameters<typeof sessionOf>[0]): StockContext => {
      const session = sessionOf(request);
      return { clientId: session.clientId, userId: session.userId, notify: ctx.notify };
    };

    /** A manual operation: moves the stock and answers the movements it recorded (201). */
    const operation =
      <Input>(operate: (db: Db, context: StockContext, input: Input) => Promise<StockResult>) =>
      async (request: Parameters<typeof sessionOf>[0] & { body: Input }) => {
        const result = await operate(db, stockContext(request), request.body);
        const ids = result.movements.map((m) => m.id);
        return { movements: await findMovements(db, sessionOf(request), ids) };
      };

    route(app, stockApi.entry, operation(registerEntry));
    route(app, stockApi.exit, operation(registerExit));
    route(app, stockApi.fractionate, operation(fractionate));

    route(app, stockApi.movements, (request) =>
      listMovements(db, assertOwnClient(request, request.params.clientId), request.query),
    );

    route(app, stockApi.exportMovements, async (request, reply) => {
      const actor = assertOwnClient(request, request.params.clientId);
      const { timeZone, today } = await shopClock(db, actor.clientId);
      return sendCsvStream(reply, 'movimentacoes-estoque', {
        today,
        header: movementsCsvHeader(),
        rows: eachMovement(db, actor, request.query),
        lines: (batch) => movementsCsvLines(batch, timeZone),
      });
    });

    route(app, stockApi.card, (request) =>
      findStockCard(db, sessionOf(request), request.params.productId, request.query),
    );

    route(app, stockApi.reservation, (request) =>
      reservationFigures(db, sessionOf(request), request.params.productId),
    );

    route(app, stockApi.lowStock, (request) =>
      listLowStock(db, assertOwnClient(request, request.params.clientId), request.query),
    );

    route(app, stockApi.fractionRatios, (request) =>
      listFractionRatios(db, assertOwnClient(request, request.params.clientId), request.query),
    );

    route(app, stockApi.saleSettings, (request) => findStockSettings(db, sessionOf(request)));

    route(app, stockApi.settings, (request) =>
      findStockSettings(db, assertOwnClient(request, request.params.clientId)),
    );

    route(app, stockApi.updateSettings, (request) =>
      updateStockSettings(db, assertOwnClient(request, request.params.clientId), request.body),
    );
  };
}
