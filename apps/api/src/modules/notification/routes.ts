import { notificationInputSchema, notificationSentSchema } from '@balcao/core/notification';
import { WRITE } from '@balcao/core/routes';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { sessionOf } from '../../plugins/auth.ts';

/** A notice from a manager to everyone of their shop, through the client's socket channel. */
export function notificationRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/notification',
      {
        config: { access: WRITE.settings },
        schema: {
          tags: ['notification'],
          summary: "Send a notice to the client's channel",
          body: notificationInputSchema,
          response: { 200: notificationSentSchema },
        },
      },
      async (request) => {
        ctx.notify(sessionOf(request).clientId, request.body);
        return { sent: true };
      },
    );
  };
}
