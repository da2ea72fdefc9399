import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { healthApi } from '@balcao/core/endpoints/health';
import { sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { MIGRATIONS_DIR } from '../../db/client.ts';
import { unavailable } from '../../errors.ts';
import { route } from '../../lib/endpoint.ts';
import { hashToken, tokenMatches } from '../../lib/secrets.ts';
import { bearerToken } from '../../plugins/auth.ts';

export const NOT_READY_DRAINING = 'Servidor encerrando: as requisições vão para outra instância';
export const NOT_READY_DATABASE = 'Banco de dados indisponível';
export const NOT_READY_MIGRATIONS = 'Banco de dados com migrações pendentes';
/** What an anonymous caller reads when the instance is not ready (the reason goes to the logs). */
export const NOT_READY = 'Servidor indisponível no momento';

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
 * Anonymous answers say only ready or not (issue 31 item 4): the database kind, the migration count
 * and why not ready go to the logs, and to an operator presenting OPS_TOKEN as Bearer.
 */
export function healthRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const shipped = shippedMigrations();
  const database = ctx.config.databaseUrl ? 'postgres' : 'pglite';
  const opsHash = ctx.config.opsToken ? hashToken(ctx.config.opsToken) : null;
  const isOperator = (request: FastifyRequest) => tokenMatches(bearerToken(request) ?? undefined, opsHash);
  return async (app) => {
    route(app, healthApi.health, (request) =>
      isOperator(request) ? { status: 'ok', database } : { status: 'ok' },
    );

    route(app, healthApi.ready, async (request) => {
      const operator = isOperator(request);
      const notReady = (reason: string, err?: unknown) => {
        request.log.warn({ reason, database, err }, 'not ready');
        return unavailable(operator ? reason : NOT_READY);
      };
      if (ctx.lifecycle.draining) throw notReady(NOT_READY_DRAINING);
      let applied: number;
      try {
        const result = (await ctx.db.execute(
          sql`select coalesce(max(created_at), 0)::bigint as last from drizzle.__drizzle_migrations`,
        )) as unknown as { rows: { last: string | number }[] };
        applied = Number(result.rows[0]?.last ?? 0);
      } catch (err) {
        throw notReady(NOT_READY_DATABASE, err);
      }
      if (applied < shipped.last) throw notReady(NOT_READY_MIGRATIONS);
      return operator
        ? { status: 'ready' as const, database, migrations: shipped.count }
        : { status: 'ready' as const };
    });
  };
}
