import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { healthApi } from '@balcao/core/endpoints/health';
import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { MIGRATIONS_DIR } from '../../db/client.ts';
import { unavailable } from '../../errors.ts';
import { route } from '../../lib/endpoint.ts';

export const NOT_READY_DRAINING = 'Servidor encerrando: as requisições vão para outra instância';
export const NOT_READY_DATABASE = 'Banco de dados indisponível';
export const NOT_READY_MIGRATIONS = 'Banco de dados com migrações pendentes';

/** The migrations this build ships: how many, and the timestamp of the last (drizzle's journal). */
function shippedMigrations(): { count: number; last: number } {
  const journal = JSON.parse(readFileSync(join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as {
    entries: { when: number }[];
  };
  return { count: journal.entries.length, last: Math.max(...journal.entries.map((e) => e.when)) };
}

/**
 * Liveness and readiness for a load balancer (issue 22). /health: the process answers (no database
 * query, so a database outage does not get every instance restarted). /ready: the database answers,
 * the last migration of this build is applied (an instance of a newer release waits for its
 * migrations) and the instance is not draining after SIGTERM; 503 otherwise.
 */
export function healthRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const shipped = shippedMigrations();
  const database = ctx.config.databaseUrl ? 'postgres' : 'pglite';
  return async (app) => {
    route(app, healthApi.health, () => ({ status: 'ok', database }));

    route(app, healthApi.ready, async () => {
      if (ctx.lifecycle.draining) throw unavailable(NOT_READY_DRAINING);
      let applied: number;
      try {
        const result = (await ctx.db.execute(
          sql`select coalesce(max(created_at), 0)::bigint as last from drizzle.__drizzle_migrations`,
        )) as unknown as { rows: { last: string | number }[] };
        applied = Number(result.rows[0]?.last ?? 0);
      } catch {
        throw unavailable(NOT_READY_DATABASE);
      }
      if (applied < shipped.last) throw unavailable(NOT_READY_MIGRATIONS);
      return { status: 'ready' as const, database, migrations: shipped.count };
    });
  };
}
