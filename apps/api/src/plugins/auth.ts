import { createHash, randomBytes } from 'node:crypto';
import { ALL, can } from '@balcao/core/routes';
import type { UserTypeId } from '@balcao/core/userTypes';
import { and, eq, gt, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db/client.ts';
import { withPreparedStatements } from '../db/prepared.ts';
import { clients, sessions, users } from '../db/schema.ts';
import { forbidden, notFound, unauthorized } from '../errors.ts';
import { loaderPer, sameMomentLoader } from '../lib/batch.ts';

export type SessionUser = {
  sessionId: number;
  userId: number;
  clientId: number;
  userTypeId: UserTypeId;
  /**
   * The client's comandas switch (saleCommand), read with the session in the same statement: the
   * comanda routes (a waiter's every tap) need no query of their own to answer 403 when it is off.
   */
  saleCommand: boolean;
};

/** Who may call a route: 'public' (no session) or the user types allowed. Default: any logged user. */
export type Access = 'public' | readonly UserTypeId[];

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /** Registered from its declaration in core (`route`, lib/endpoint.ts). */
    declared?: boolean;
  }
  interface FastifyRequest {
    session: SessionUser | null;
  }
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export async function createSession(db: Db, userId: number, ttlMs: number): Promise<string> {
  const token = newToken();
  await db
    .insert(sessions)
    .values({ tokenHash: hashToken(token), userId, expiresAt: new Date(Date.now() + ttlMs) });
  return token;
}

function prepareFindSessions(db: Db) {
  return db
    .select({
      tokenHash: sessions.tokenHash,
      sessionId: sessions.id,
      userId: users.id,
      clientId: users.clientId,
      userTypeId: users.userTypeId,
      saleCommand: clients.saleCommand,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .innerJoin(clients, eq(clients.id, users.clientId))
    .where(
      and(
        // A text[] literal (both drivers pass text; the statement casts it).
        sql`${sessions.tokenHash} = any(${sql.placeholder('tokenHashes')}::text[])`,
        gt(sessions.expiresAt, sql`now()`),
        eq(users.active, true),
      ),
    )
    .prepare('find_sessions');
}

/**
 * Every request runs this lookup: prepared once per database, and the requests that arrive at the
 * same moment share one statement (lib/batch.ts). Each still reads the database: nothing is cached,
 * so a session ended a moment ago is refused.
 */
const sessionLoader = loaderPer((db: Db) => {
  const statement = prepareFindSessions(db);
  return sameMomentLoader<string, SessionUser | null>(async (hashes) => {
    // Prepared on PGlite too (db/prepared.ts); node-postgres prepares it by its name.
    const rows = await withPreparedStatements(() =>
      statement.execute({ tokenHashes: `{${[...new Set(hashes)].join(',')}}` }),
    );
    const byHash = new Map(
      rows.map(({ tokenHash, ...row }) => [tokenHash, { ...row, userTypeId: row.userTypeId as UserTypeId }]),
    );
    return hashes.map((hash) => byHash.get(hash) ?? null);
  });
});

/** The live session of a token: not expired, user active. Null otherwise. */
export async function findSession(db: Db, token: string): Promise<SessionUser | null> {
  return sessionLoader(db).load(hashToken(token));
}

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const m = /^Bearer\s+(\S+)$/i.exec(header);
  return m ? m[1] : null;
}

/** The caller's session; routes behind the auth hook always have one. */
export function sessionOf(request: FastifyRequest): SessionUser {
  if (!request.session) throw unauthorized();
  return request.session;
}

/** Tenancy (PRODUCT.md): a clientId that is not the caller's own is answered 404. */
export function assertOwnClient(request: FastifyRequest, clientId: number): SessionUser {
  const session = sessionOf(request);
  if (session.clientId !== clientId) throw notFound();
  return session;
}

/** Narrower write roles inside a route (ROUTES.md). */
export function assertCan(request: FastifyRequest, allowed: readonly UserTypeId[]): SessionUser {
  const session = sessionOf(request);
  if (!can(session.userTypeId, allowed)) throw forbidden();
  return session;
}

/**
 * Access is decided by the route the router matched, never by the request's URL text (the router
 * decodes `/%761/...` and accepts the absolute form `http://host/v1/...`): every route needs a Bearer
 * session unless its own config says access: 'public'. Routes outside /v1 (the web app's files) are
 * marked public when they register (buildApp). A request that matched no route goes on to the
 * not-found handler.
 */
export function registerAuth(app: FastifyInstance, db: Db): void {
  app.decorateRequest('session', null);
  app.addHook('onRequest', async (request) => {
    if (!request.routeOptions.url) return;
    const access = request.routeOptions.config?.access ?? ALL;
    if (access === 'public') return;
    const token = bearerToken(request);
    if (!token) throw unauthorized('Autenticação necessária');
    const session = await findSession(db, token);
    if (!session) throw unauthorized();
    if (!can(session.userTypeId, access)) throw forbidden();
    request.session = session;
  });
}
