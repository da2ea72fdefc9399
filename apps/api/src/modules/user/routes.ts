import { userApi } from '@balcao/core/endpoints/user';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { route } from '../../lib/endpoint.ts';
import { assertOwnClient, sessionOf } from '../../plugins/auth.ts';
import { changeOwnPassword, createUser, deleteUser, findUser, listUsers, updateUser } from './service.ts';

/** Staff users of the caller's client: the handlers of `userApi` (core declares the endpoints). */
export function userRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const { db } = ctx;

    route(app, userApi.list, (request) =>
      listUsers(db, assertOwnClient(request, request.params.clientId), request.query),
    );

    route(app, userApi.changePassword, async (request) => {
      const session = sessionOf(request);
      await changeOwnPassword(db, session, request.body);
      await ctx.sessionsEnded(session.userId);
      return { ok: true };
    });

    route(app, userApi.get, (request) => findUser(db, sessionOf(request), request.params.id));

    route(app, userApi.create, (request) => createUser(db, sessionOf(request), request.body));

    route(app, userApi.update, async (request) => {
      const user = await updateUser(db, sessionOf(request), request.params.id, request.body);
      await ctx.sessionsEnded(user.id);
      return user;
    });

    route(app, userApi.remove, async (request) => {
      const deleted = await deleteUser(db, sessionOf(request), request.params.id);
      await ctx.sessionsEnded(deleted.id);
      return deleted;
    });
  };
}
