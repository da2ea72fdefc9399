import { feeSimulatorApi } from '@balcao/core/endpoints/feeSimulator';
import { WRITE } from '@balcao/core/routes';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { route } from '../../lib/endpoint.ts';
import { assertCan, sessionOf } from '../../plugins/auth.ts';
import {
  createFeeTable,
  deleteFeeTable,
  feeTableForPdv,
  findFeeTable,
  getFeeSettings,
  getMealVouchers,
  listFeeTables,
  saveFeeSettings,
  saveMealVouchers,
  updateFeeTable,
} from './service.ts';

/** /v1/fee-simulator (issue 20): the handlers of `feeSimulatorApi` (core declares the endpoints). */
export function feeSimulatorRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const { db } = ctx;
    const api = feeSimulatorApi;

    route(app, api.tables, (request) => listFeeTables(db, sessionOf(request)));

    route(app, api.table, (request) => findFeeTable(db, sessionOf(request), request.params.id));

    route(app, api.createTable, (request) =>
      createFeeTable(ctx, assertCan(request, WRITE.fees), request.body),
    );

    route(app, api.updateTable, (request) =>
      updateFeeTable(ctx, assertCan(request, WRITE.fees), request.params.id, request.body),
    );

    route(app, api.removeTable, (request) =>
      deleteFeeTable(ctx, assertCan(request, WRITE.fees), request.params.id),
    );

    route(app, api.settings, (request) => getFeeSettings(db, sessionOf(request)));

    route(app, api.saveSettings, (request) =>
      saveFeeSettings(ctx, assertCan(request, WRITE.fees), request.body),
    );

    route(app, api.mealVouchers, (request) => getMealVouchers(db, sessionOf(request)));

    route(app, api.saveMealVouchers, (request) =>
      saveMealVouchers(ctx, assertCan(request, WRITE.fees), request.body),
    );

    route(app, api.pdv, (request) => feeTableForPdv(db, sessionOf(request)));
  };
}
