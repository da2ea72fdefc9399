import { okSchema } from '@balcao/core/responses';
import { BACKOFFICE, WRITE } from '@balcao/core/routes';
import {
  whatsappConnectInputSchema,
  whatsappConnectSchema,
  whatsappInstanceViewSchema,
  whatsappOptOutInputSchema,
  whatsappOptOutSchema,
  whatsappTestInputSchema,
  whatsappTestSentSchema,
} from '@balcao/core/whatsapp';
import { z } from '@balcao/core/zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
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

const tags = ['whatsapp'];

/**
 * /v1/whatsapp: the shop's Evolution instance (settings page: BACKOFFICE reads, WRITE.settings
 * changes it), the opt-out list (WRITE.campaigns) and Evolution's webhook (public, checked by token).
 */
export function whatsappRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const { db } = ctx;

    app.get(
      '/whatsapp/instance',
      {
        config: { access: BACKOFFICE },
        schema: {
          tags,
          summary: "The shop's WhatsApp instance",
          response: { 200: whatsappInstanceViewSchema },
        },
      },
      async (request) => findInstance(db, sessionOf(request)),
    );

    app.post(
      '/whatsapp/instance',
      {
        config: { access: WRITE.settings },
        schema: {
          tags,
          summary: 'Create the instance in Evolution (first QR code)',
          response: { 201: whatsappConnectSchema },
        },
      },
      async (request, reply) => reply.status(201).send(await createInstance(ctx, sessionOf(request))),
    );

    app.post(
      '/whatsapp/instance/connect',
      {
        config: { access: WRITE.settings },
        schema: {
          tags,
          summary: 'A fresh QR code, or a pairing code for `number`; qr is null once connected',
          body: whatsappConnectInputSchema,
          response: { 200: whatsappConnectSchema },
        },
      },
      async (request) => connectInstance(ctx, sessionOf(request), request.body.number),
    );

    app.post(
      '/whatsapp/instance/logout',
      {
        config: { access: WRITE.settings },
        schema: {
          tags,
          summary: 'Disconnect the number (the instance stays)',
          response: { 200: whatsappInstanceViewSchema },
        },
      },
      async (request) => logoutInstance(ctx, sessionOf(request)),
    );

    app.delete(
      '/whatsapp/instance',
      {
        config: { access: WRITE.settings },
        schema: {
          tags,
          summary: 'Delete the instance in Evolution',
          response: { 200: whatsappInstanceViewSchema },
        },
      },
      async (request) => deleteInstance(ctx, sessionOf(request)),
    );

    app.post(
      '/whatsapp/instance/test',
      {
        config: { access: WRITE.settings },
        schema: {
          tags,
          summary: 'Send a test message',
          body: whatsappTestInputSchema,
          response: { 200: whatsappTestSentSchema },
        },
      },
      async (request) => sendTestMessage(ctx, sessionOf(request), request.body),
    );

    app.post(
      '/whatsapp/opt-out',
      {
        config: { access: WRITE.campaigns },
        schema: {
          tags,
          summary: 'Mark a number as never to be messaged',
          body: whatsappOptOutInputSchema,
          response: { 200: whatsappOptOutSchema },
        },
      },
      async (request) => setOptOut(ctx, sessionOf(request), request.body.number, true),
    );

    app.delete(
      '/whatsapp/opt-out',
      {
        config: { access: WRITE.campaigns },
        schema: {
          tags,
          summary: 'Take a number off the opt-out list',
          body: whatsappOptOutInputSchema,
          response: { 200: whatsappOptOutSchema },
        },
      },
      async (request) => setOptOut(ctx, sessionOf(request), request.body.number, false),
    );

    app.post(
      '/whatsapp/webhook/:instanceName',
      {
        bodyLimit: 10 * 1024 * 1024,
        config: { access: 'public' },
        schema: {
          tags,
          summary: "Evolution's webhook (header x-balcao-webhook-token); 401 on a wrong token",
          params: z.object({ instanceName: z.string().min(1).max(100) }),
          body: z
            .object({
              event: z.unknown(),
              instance: z.unknown(),
              data: z.record(z.string(), z.unknown()).optional(),
            })
            .loose(),
          response: { 200: okSchema },
        },
      },
      async (request) => {
        const token = request.headers[WEBHOOK_TOKEN_HEADER];
        return handleWebhook(
          ctx,
          request.params.instanceName,
          typeof token === 'string' ? token : undefined,
          request.body,
        );
      },
    );
  };
}
