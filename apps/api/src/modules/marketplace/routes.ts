import { marketplaceApi } from '@balcao/core/endpoints/marketplace';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { route } from '../../lib/endpoint.ts';
import { sessionOf } from '../../plugins/auth.ts';
import {
  answerCancellation,
  confirmOrder,
  createAccount,
  listAccounts,
  listMappings,
  listOrders,
  mapItem,
  rejectOrder,
  updateAccount,
} from './service.ts';

/** /v1/marketplace (issue 35): the handlers of `marketplaceApi` (core declares the endpoints). */
export function marketplaceRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const { db } = ctx;
    route(app, marketplaceApi.accounts, (request) => listAccounts(ctx, sessionOf(request)));
    route(app, marketplaceApi.createAccount, (request) =>
      createAccount(ctx, sessionOf(request), request.body),
    );
    route(app, marketplaceApi.updateAccount, (request) =>
      updateAccount(ctx, sessionOf(request), request.params.id, request.body),
    );
    route(app, marketplaceApi.orders, (request) => listOrders(db, sessionOf(request), request.query.view));
    route(app, marketplaceApi.confirm, (request) => confirmOrder(ctx, sessionOf(request), request.params.id));
    route(app, marketplaceApi.reject, (request) => rejectOrder(ctx, sessionOf(request), request.params.id));
    route(app, marketplaceApi.answerCancellation, (request) =>
      answerCancellation(ctx, sessionOf(request), request.params.id, request.body.accept),
    );
    route(app, marketplaceApi.mappings, (request) => listMappings(db, sessionOf(request)));
    route(app, marketplaceApi.map, (request) => mapItem(ctx, sessionOf(request), request.body));
  };
}
