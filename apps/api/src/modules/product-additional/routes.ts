import { productAdditionalApi } from '@balcao/core/endpoints/product-additional';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { route } from '../../lib/endpoint.ts';
import { assertOwnClient, sessionOf } from '../../plugins/auth.ts';
import {
  createAdditionalGroup,
  deleteAdditionalGroup,
  findAdditionalGroup,
  type GroupProductCount,
  listAdditionalGroups,
  updateAdditionalGroup,
} from './service.ts';

/**
 * Add-on groups (productAdditional): the handlers of `productAdditionalApi`. `productCount` comes
 * from the product module, which keeps the groups each product offers.
 */
export function productAdditionalRoutes(
  ctx: AppContext,
  productCount: GroupProductCount,
): FastifyPluginAsyncZod {
  return async (app) => {
    const { db } = ctx;

    route(app, productAdditionalApi.list, (request) =>
      listAdditionalGroups(
        db,
        assertOwnClient(request, request.params.clientId),
        request.query,
        productCount,
      ),
    );

    route(app, productAdditionalApi.get, (request) =>
      findAdditionalGroup(db, sessionOf(request), request.params.id, productCount),
    );

    route(app, productAdditionalApi.create, (request) =>
      createAdditionalGroup(db, sessionOf(request), request.body, productCount),
    );

    route(app, productAdditionalApi.update, (request) =>
      updateAdditionalGroup(db, sessionOf(request), request.params.id, request.body, productCount),
    );

    route(app, productAdditionalApi.remove, (request) =>
      deleteAdditionalGroup(db, sessionOf(request), request.params.id, productCount),
    );
  };
}
