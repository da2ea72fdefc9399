import { accountApi } from '@balcao/core/endpoints/account';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { route } from '../../lib/endpoint.ts';
import { assertOwnClient } from '../../plugins/auth.ts';
import { takeSignUp } from '../auth/limiter.ts';
import { findSettingsChecklist, findWhatsappInstance, logIn } from '../auth/service.ts';
import { createAccount } from './service.ts';

/** Sign-up and the account's checklist: the handlers of `accountApi` (core declares the endpoints). */
export function accountRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const { db, config } = ctx;

    route(app, accountApi.create, async (request) => {
      const { systemClient, user } = request.body;
      await takeSignUp(db, config, request.ip);
      const { userId } = await createAccount(db, systemClient, user);
      const session = await logIn(db, userId, config.sessionTtlMs);
      return { ...session, id: session.user.client.id };
    });

    route(app, accountApi.settingsChecklist, (request) =>
      findSettingsChecklist(db, assertOwnClient(request, request.params.clientId).clientId),
    );

    route(app, accountApi.whatsappInstance, async (request) => {
      const instance = await findWhatsappInstance(
        db,
        assertOwnClient(request, request.params.clientId).clientId,
      );
      if (!instance) throw notFound('Instância do WhatsApp não encontrada');
      return instance;
    });
  };
}
