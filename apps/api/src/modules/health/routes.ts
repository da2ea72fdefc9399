import { healthSchema } from '@balcao/core/responses';
import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';

export function healthRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/health',
      {
        config: { access: 'public' },
        schema: {
          tags: ['health'],
          response: { 200: healthSchema },
        },
      },
      async () => {
        await ctx.db.execute(sql`select 1`);
        return { status: 'ok', database: ctx.config.databaseUrl ? 'postgres' : 'pglite' };
      },
    );
  };
}
