import { pageOf } from '@balcao/core/list';
import { deletedSchema, okSchema } from '@balcao/core/responses';
import { ALL, BACKOFFICE, WRITE } from '@balcao/core/routes';
import {
  changePasswordSchema,
  staffUserSchema,
  userCreateSchema,
  userListQuerySchema,
  userUpdateSchema,
} from '@balcao/core/user';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { clientParams, idParams } from '../../lib/params.ts';
import { assertOwnClient, sessionOf } from '../../plugins/auth.ts';
import { changeOwnPassword, createUser, deleteUser, findUser, listUsers, updateUser } from './service.ts';

/** Staff users of the caller's client: reads for back-office users, writes for WRITE.users (1, 2). */
export function userRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const { db } = ctx;
    const tags = ['user'];

    app.get(
      '/user/client/:clientId',
      {
        config: { access: BACKOFFICE },
        schema: {
          tags,
          summary: 'Staff users of the client (search by name/email, filter by type and active)',
          params: clientParams,
          querystring: userListQuerySchema,
          response: { 200: pageOf(staffUserSchema) },
        },
      },
      async (request) => listUsers(db, assertOwnClient(request, request.params.clientId), request.query),
    );

    app.post(
      '/user/me/password',
      {
        config: { access: ALL },
        schema: {
          tags,
          summary: 'Change my password (other sessions of mine end)',
          body: changePasswordSchema,
          response: { 200: okSchema },
        },
      },
      async (request) => {
        const session = sessionOf(request);
        await changeOwnPassword(db, session, request.body);
        await ctx.sessionsEnded(session.userId);
        return { ok: true };
      },
    );

    app.get(
      '/user/:id',
      {
        config: { access: BACKOFFICE },
        schema: {
          tags,
          summary: 'A staff user',
          params: idParams,
          response: { 200: staffUserSchema },
        },
      },
      async (request) => findUser(db, sessionOf(request), request.params.id),
    );

    app.post(
      '/user',
      {
        config: { access: WRITE.users },
        schema: {
          tags,
          summary: 'Create a staff user with a password',
          body: userCreateSchema,
          response: { 201: staffUserSchema },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await createUser(db, sessionOf(request), request.body)),
    );

    app.put(
      '/user/:id',
      {
        config: { access: WRITE.users },
        schema: {
          tags,
          summary: 'Edit a staff user; deactivating ends their sessions at once',
          params: idParams,
          body: userUpdateSchema,
          response: { 200: staffUserSchema },
        },
      },
      async (request) => {
        const user = await updateUser(db, sessionOf(request), request.params.id, request.body);
        await ctx.sessionsEnded(user.id);
        return user;
      },
    );

    app.delete(
      '/user/:id',
      {
        config: { access: WRITE.users },
        schema: {
          tags,
          summary: 'Delete a staff user (their sessions end)',
          params: idParams,
          response: { 200: deletedSchema },
        },
      },
      async (request) => {
        const deleted = await deleteUser(db, sessionOf(request), request.params.id);
        await ctx.sessionsEnded(deleted.id);
        return deleted;
      },
    );
  };
}
