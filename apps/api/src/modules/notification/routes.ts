import { WRITE } from '@balcao/core/routes';
import { z } from '@balcao/core/zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { sessionOf } from '../../plugins/auth.ts';

const notificationSchema = z.object({
  message: z.string().trim().min(1, 'A mensagem é obrigatória').max(500, 'Use no máximo 500 caracteres'),
  alertColor: z.enum(['success', 'info', 'warning', 'error']).default('info'),
});

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
          body: notificationSchema,
        },
      },
      async (request) => {
        ctx.notify(sessionOf(request).clientId, request.body);
        return { sent: true };
      },
    );
  };
}
