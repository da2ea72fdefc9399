import { homeApi } from '@balcao/core/endpoints/home';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { route } from '../../lib/endpoint.ts';
import { sessionOf } from '../../plugins/auth.ts';
import { homeOf } from './service.ts';

/** /v1/home: the figures of the dashboard home, by user type (issue 13): the handler of `homeApi`. */
export function homeRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, homeApi.get, (request) => homeOf(ctx.db, sessionOf(request)));
  };
}
