import { createAccountInputSchema } from '@balcao/core/auth';
import { ALL, BACKOFFICE } from '@balcao/core/routes';
import { accountCreatedSchema, settingsChecklistSchema, whatsappInstanceSchema } from '@balcao/core/session';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { clientParams } from '../../lib/params.ts';
import { assertOwnClient } from '../../plugins/auth.ts';
import { takeSignUp } from '../auth/limiter.ts';
import { findSettingsChecklist, findWhatsappInstance, logIn } from '../auth/service.ts';
import { createAccount } from './service.ts';

export function accountRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const { db, config } = ctx;

    app.post(
      '/system-client',
      {
        config: { access: 'public' },
        schema: {
          tags: ['account'],
          summary: 'Create an account: the company and its Administrador, who is logged in',
          body: createAccountInputSchema,
          response: { 201: accountCreatedSchema },
        },
      },
      async (request, reply) => {
        const { systemClient, user } = request.body;
        await takeSignUp(db, config, request.ip);
        const { userId } = await createAccount(db, systemClient, user);
        const session = await logIn(db, userId, config.sessionTtlMs);
        return reply.status(201).send({ ...session, id: session.user.client.id });
      },
    );

    app.get(
      '/settings-checklist/client/:clientId',
      {
        config: { access: ALL },
        schema: { tags: ['settings'], params: clientParams, response: { 200: settingsChecklistSchema } },
      },
      async (request) =>
        findSettingsChecklist(db, assertOwnClient(request, request.params.clientId).clientId),
    );

    app.get(
      '/whatsapp-instance/client/:clientId',
      {
        config: { access: BACKOFFICE },
        schema: {
          tags: ['settings'],
          summary: "The client's WhatsApp instance",
          params: clientParams,
          response: { 200: whatsappInstanceSchema },
        },
      },
      async (request) => {
        const instance = await findWhatsappInstance(
          db,
          assertOwnClient(request, request.params.clientId).clientId,
        );
        if (!instance) throw notFound('Instância do WhatsApp não encontrada');
        return instance;
      },
    );
  };
}
