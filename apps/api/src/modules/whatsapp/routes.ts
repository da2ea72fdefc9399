import { whatsappApi } from '@balcao/core/endpoints/whatsapp';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { route } from '../../lib/endpoint.ts';
import { sessionOf } from '../../plugins/auth.ts';
import {
  connectInstance,
  createInstance,
  deleteInstance,
  findInstance,
  handleWebhook,
  logoutInstance,
  sendTestMessage,
  setOptOut,
  WEBHOOK_TOKEN_HEADER,
} from './instance.ts';

/**
 * /v1/whatsapp: the handlers of `whatsappApi` (core declares the endpoints). `onConnected` runs after
 * the webhook said the number connected (handed over by the module list: customer checks the numbers
 * saved while it was not connected).
 */
export function whatsappRoutes(
  ctx: AppContext,
  onConnected?: (clientId: number) => Promise<unknown>,
): FastifyPluginAsyncZod {
  return async (app) => {
    const { db } = ctx;

    route(app, whatsappApi.instance, (request) => findInstance(db, sessionOf(request)));

    route(app, whatsappApi.create, (request) => createInstance(ctx, sessionOf(request)));

    route(app, whatsappApi.connect, (request) =>
      connectInstance(ctx, sessionOf(request), request.body.number),
    );

    route(app, whatsappApi.logout, (request) => logoutInstance(ctx, sessionOf(request)));

    route(app, whatsappApi.remove, (request) => deleteInstance(ctx, sessionOf(request)));

    route(app, whatsappApi.test, (request) => sendTestMessage(ctx, sessionOf(request), request.body));

    route(app, whatsappApi.optOut, (request) =>
      setOptOut(ctx, sessionOf(request), request.body.number, true),
    );

    route(app, whatsappApi.optIn, (request) =>
      setOptOut(ctx, sessionOf(request), request.body.number, false),
    );

    route(app, whatsappApi.webhook, (request) => {
      const token = request.headers[WEBHOOK_TOKEN_HEADER];
      return handleWebhook(
        ctx,
        request.params.instanceName,
        typeof token === 'string' ? token : undefined,
        request.body,
        onConnected,
      );
    });
  };
}
