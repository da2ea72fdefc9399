import { authApi } from '@balcao/core/endpoints/auth';
import { LOGIN_FAILED_MESSAGE } from '@balcao/core/messages';
import { eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { sessions, users } from '../../db/schema.ts';
import { unauthorized } from '../../errors.ts';
import { route } from '../../lib/endpoint.ts';
import { bearerToken, hashToken, sessionOf } from '../../plugins/auth.ts';
import { passwordLimiter, TOO_MANY_LOGINS } from './limiter.ts';
import { verifyPassword } from './password.ts';
import { loadSessionPayload, logIn } from './service.ts';

/** Log in, log out and revalidate: the handlers of `authApi` (core declares the endpoints). */
export function authRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const { db, config } = ctx;
    const limiter = passwordLimiter(db);

    route(app, authApi.login, async (request) => {
      const email = request.body.email.toLowerCase();
      const password = request.body.password;
      const [user] = await db
        .select({ id: users.id, passwordHash: users.passwordHash, active: users.active })
        .from(users)
        .where(eq(sql`lower(${users.email})`, email))
        .limit(1);
      // The password as typed; before passwords were left alone, login trimmed them, so a stored
      // password typed with stray outer spaces is still tried trimmed (existing logins keep working).
      const trimmed = password.trim();
      const ok = await limiter.guard(email, { address: request.ip }, TOO_MANY_LOGINS, async () => {
        const right =
          (await verifyPassword(user?.passwordHash, password)) ||
          (trimmed !== password && trimmed !== '' && (await verifyPassword(user?.passwordHash, trimmed)));
        return Boolean(right && user?.active);
      });
      if (!ok || !user) throw unauthorized(LOGIN_FAILED_MESSAGE);
      return logIn(db, user.id, config.sessionTtlMs);
    });

    route(app, authApi.logout, async (request) => {
      const token = bearerToken(request);
      if (!token) return { ok: true };
      const ended = await db
        .delete(sessions)
        .where(eq(sessions.tokenHash, hashToken(token)))
        .returning({ userId: sessions.userId });
      for (const { userId } of ended) await ctx.sessionsEnded(userId);
      return { ok: true };
    });

    route(app, authApi.me, (request) => loadSessionPayload(db, sessionOf(request).userId));
  };
}
