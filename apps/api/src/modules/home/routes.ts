import { homeSchema } from '@balcao/core/home';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { sessionOf } from '../../plugins/auth.ts';
import { homeOf } from './service.ts';

const tags = ['home'];

/** /v1/home: the figures of the dashboard home, by user type (issue 13). */
export function homeRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/home',
      {
        schema: {
          tags,
          summary:
            "The shop's day for the logged user: sales today and this month with comparisons, payment methods, best sellers, own register, low stock, installments due (parts the user type does not see are null)",
          response: { 200: homeSchema },
        },
      },
      async (request) => homeOf(ctx.db, sessionOf(request)),
    );
  };
}
