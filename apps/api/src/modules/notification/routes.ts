import { notificationApi } from '@balcao/core/endpoints/notification';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { route } from '../../lib/endpoint.ts';
import { sessionOf } from '../../plugins/auth.ts';

/** A notice from a manager to everyone of their shop, through the client's socket channel. */
export function notificationRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, notificationApi.send, (request) => {
      ctx.notify(sessionOf(request).clientId, request.body);
      return { sent: true };
    });
  };
}
