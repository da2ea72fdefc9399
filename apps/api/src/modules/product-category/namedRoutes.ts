import { pageOf } from '@balcao/core/list';
import {
  catalogNameListQuerySchema,
  productCategoryInputSchema,
  productCategorySchema,
  productCategoryUpdateSchema,
} from '@balcao/core/product';
import { deletedSchema } from '@balcao/core/responses';
import { STAFF, WRITE } from '@balcao/core/routes';
import { z } from '@balcao/core/zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { assertOwnClient, sessionOf } from '../../plugins/auth.ts';
import type { NamedCatalogService } from './namedCatalog.ts';

export const idParams = z.object({ id: z.coerce.number().int().positive('Identificador inválido') });
export const clientParams = z.object({ clientId: z.coerce.number().int().positive('Cliente inválido') });

/**
 * REST routes of a category-like resource (DESIGN.md): list by client, read, create (201),
 * update (200, stale -> 409), delete (409 while products use it). Reading is open to the staff
 * (the PDV filters by category); writing to the catalog roles.
 */
export function namedCatalogRoutes(
  ctx: AppContext,
  resource: 'product-category' | 'product-brand',
  service: NamedCatalogService,
): FastifyPluginAsyncZod {
  return async (app) => {
    const { db } = ctx;
    const tags = [resource];

    app.get(
      `/${resource}/client/:clientId`,
      {
        config: { access: STAFF },
        schema: {
          tags,
          params: clientParams,
          querystring: catalogNameListQuerySchema,
          response: { 200: pageOf(productCategorySchema) },
        },
      },
      async (request) => {
        const { clientId } = assertOwnClient(request, request.params.clientId);
        return service.list(db, clientId, request.query);
      },
    );

    app.get(
      `/${resource}/:id`,
      {
        config: { access: STAFF },
        schema: { tags, params: idParams, response: { 200: productCategorySchema } },
      },
      async (request) => service.find(db, sessionOf(request).clientId, request.params.id),
    );

    app.post(
      `/${resource}`,
      {
        config: { access: WRITE.catalog },
        schema: { tags, body: productCategoryInputSchema, response: { 201: productCategorySchema } },
      },
      async (request, reply) => {
        const record = await service.create(db, sessionOf(request).clientId, request.body);
        return reply.status(201).send(record);
      },
    );

    app.put(
      `/${resource}/:id`,
      {
        config: { access: WRITE.catalog },
        schema: {
          tags,
          params: idParams,
          body: productCategoryUpdateSchema,
          response: { 200: productCategorySchema },
        },
      },
      async (request) => service.update(db, sessionOf(request).clientId, request.params.id, request.body),
    );

    app.delete(
      `/${resource}/:id`,
      {
        config: { access: WRITE.catalog },
        schema: { tags, params: idParams, response: { 200: deletedSchema } },
      },
      async (request) => service.remove(db, sessionOf(request).clientId, request.params.id),
    );
  };
}
