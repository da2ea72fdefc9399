import { listQuerySchema, pageOf } from '@balcao/core/list';
import {
  productAdditionalGroupSchema,
  productAdditionalInputSchema,
  productAdditionalUpdateSchema,
} from '@balcao/core/product';
import { deletedSchema } from '@balcao/core/responses';
import { BACKOFFICE, WRITE } from '@balcao/core/routes';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { clientParams, idParams } from '../../lib/params.ts';
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
 * Add-on groups (productAdditional): read by the staff (the PDV offers them), written by catalog roles.
 * `productCount` comes from the product module, which keeps the groups each product offers.
 */
export function productAdditionalRoutes(
  ctx: AppContext,
  productCount: GroupProductCount,
): FastifyPluginAsyncZod {
  return async (app) => {
    const { db } = ctx;
    const tags = ['product-additional'];

    app.get(
      '/product-additional/client/:clientId',
      {
        config: { access: BACKOFFICE },
        schema: {
          tags,
          params: clientParams,
          querystring: listQuerySchema,
          response: { 200: pageOf(productAdditionalGroupSchema) },
        },
      },
      async (request) =>
        listAdditionalGroups(
          db,
          assertOwnClient(request, request.params.clientId),
          request.query,
          productCount,
        ),
    );

    app.get(
      '/product-additional/:id',
      {
        config: { access: BACKOFFICE },
        schema: { tags, params: idParams, response: { 200: productAdditionalGroupSchema } },
      },
      async (request) => findAdditionalGroup(db, sessionOf(request), request.params.id, productCount),
    );

    app.post(
      '/product-additional',
      {
        config: { access: WRITE.catalog },
        schema: { tags, body: productAdditionalInputSchema, response: { 201: productAdditionalGroupSchema } },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(await createAdditionalGroup(db, sessionOf(request), request.body, productCount)),
    );

    app.put(
      '/product-additional/:id',
      {
        config: { access: WRITE.catalog },
        schema: {
          tags,
          params: idParams,
          body: productAdditionalUpdateSchema,
          response: { 200: productAdditionalGroupSchema },
        },
      },
      async (request) =>
        updateAdditionalGroup(db, sessionOf(request), request.params.id, request.body, productCount),
    );

    app.delete(
      '/product-additional/:id',
      {
        config: { access: WRITE.catalog },
        schema: { tags, params: idParams, response: { 200: deletedSchema } },
      },
      async (request) => deleteAdditionalGroup(db, sessionOf(request), request.params.id, productCount),
    );
  };
}
