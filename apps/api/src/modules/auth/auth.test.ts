import { LOGIN_FAILED_MESSAGE } from '@balcao/core/messages';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createClientWithUsers,
  createTestApp,
  TEST_PASSWORD,
  type TestApp,
} from '../../../test/helper.ts';
import { api, login, me } from '../../../test/kit.ts';
import { sessions, users } from '../../db/schema.ts';
import { hashToken } from '../../plugins/auth.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const FAILED_BODY = {
  statusCode: 401,
  error: 'Unauthorized',
  code: 'unauthorized',
  message: LOGIN_FAILED_MESSAGE,
};

describe('login', () => {
  it('answers the session data and a token for a right password, trimming the email', async () => {
    const { email } = (await createClientWithUsers(t, [2])).users[0];
    const res = await login(t, `  ${email.toUpperCase()} `, ` ${TEST_PASSWORD} `);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.token).toEqual(expect.any(String));
    expect(body.user.userType).toEqual({ id: 2, name: 'Gerente' });
    expect(body.user).not.toHaveProperty('passwordHash');
    expect(body.settingsChecklist).toEqual({ saleCommand: false, stockManagement: true, checkIsOpen: false });
    expect(Object.keys(body).sort()).toEqual(
      ['paymentGateway', 'settingsChecklist', 'shippingSettings', 'token', 'user', 'whatsappInstance'].sort(),
    );
    const revalidated = await me(t, body.token);
    expect(revalidated.statusCode).toBe(200);
    expect(revalidated.json().user.email).toBe(email);
    expect(revalidated.json()).not.toHaveProperty('token');
  });

  it('keeps only the hash of the token in the database', async () => {
    const { token, users: created } = await createClientWithUsers(t, [1]);
    const rows = await t.database.db.select().from(sessions).where(eq(sessions.userId, created[0].user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0].tokenHash).toBe(hashToken(token));
    expect(rows[0].tokenHash).not.toContain(token);
    const ttl = rows[0].expiresAt.getTime() - Date.now();
    expect(ttl).toBeGreaterThan(23 * 60 * 60_000);
    expect(ttl).toBeLessThanOrEqual(24 * 60 * 60_000);
  });

  it('answers the same 401 body for a wrong password, an unknown email and an inactive user', async () => {
    const { users: created } = await createClientWithUsers(t, [3, 4]);
    const [active, inactive] = created;
    await t.database.db.update(users).set({ active: false }).where(eq(users.id, inactive.user.id));

    const wrongPassword = await login(t, active.email, 'senha-errada', '10.0.1.1');
    const unknownEmail = await login(t, 'ninguem@nao-existe.com.br', TEST_PASSWORD, '10.0.1.2');
    const inactiveUser = await login(t, inactive.email, TEST_PASSWORD, '10.0.1.3');
    for (const res of [wrongPassword, unknownEmail, inactiveUser]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual(FAILED_BODY);
    }
  });

  it('refuses an empty email or password with a 400 in Portuguese', async () => {
    const res = await login(t, '   ', '', '10.0.2.1');
    expect(res.statusCode).toBe(400);
    expect(res.json().issues).toEqual(
      expect.arrayContaining([
        { path: 'email', message: 'O campo é obrigatório' },
        { path: 'password', message: 'O campo é obrigatório' },
      ]),
    );
  });
});

describe('session', () => {
  it('answers 401 to an expired session and to a token that never existed', async () => {
    const { token, users: created } = await createClientWithUsers(t, [1]);
    expect((await me(t, token)).statusCode).toBe(200);
    await t.database.db
      .update(sessions)
      .set({ expiresAt: sql`now() - interval '1 minute'` })
      .where(eq(sessions.userId, created[0].user.id));
    const expired = await me(t, token);
    expect(expired.statusCode).toBe(401);
    expect(expired.json().message).toEqual(expect.any(String));
    expect((await me(t, 'token-inventado')).statusCode).toBe(401);
  });

  it('answers 401 once the user is deactivated', async () => {
    const { token, users: created } = await createClientWithUsers(t, [2]);
    await t.database.db.update(users).set({ active: false }).where(eq(users.id, created[0].user.id));
    expect((await me(t, token)).statusCode).toBe(401);
  });

  it('revokes the token on logout, and only that token', async () => {
    const { users: created } = await createClientWithUsers(t, [1]);
    const second = (await login(t, created[0].email, TEST_PASSWORD)).json().token as string;
    const first = created[0].token;
    const out = await api(t, bearer(first)).post('/logout');
    expect(out.statusCode).toBe(200);
    expect((await me(t, first)).statusCode).toBe(401);
    expect((await me(t, second)).statusCode).toBe(200);
    // Logging out again (or without a token) is harmless.
    const again = await api(t, bearer(first)).post('/logout');
    expect(again.statusCode).toBe(200);
    expect((await api(t).post('/logout')).statusCode).toBe(200);
  });
});

describe('login rate limit (addresses; the limits themselves are in limiter.test.ts)', () => {
  const limits = {
    perEmailAndSource: 2,
    windowMs: 60_000,
    perSource: 100,
    perEmail: 100,
    emailWindowMs: 60_000,
    knownMs: 60_000,
  };
  let limited: TestApp;
  beforeAll(async () => {
    limited = await createTestApp({ passwordLimit: limits });
  });
  afterAll(() => limited.close());

  it('does not let a forged X-Forwarded-For escape the per-address limit', async () => {
    const { email } = (await createClientWithUsers(limited, [1])).users[0];
    for (let i = 0; i < 2; i++) {
      const res = await login(limited, email, 'x', '10.4.0.1', { 'x-forwarded-for': `203.0.113.${i}` });
      expect(res.statusCode).toBe(401);
    }
    const res = await login(limited, email, TEST_PASSWORD, '10.4.0.1', { 'x-forwarded-for': '198.51.100.7' });
    expect(res.statusCode).toBe(429);
    expect(res.json()).toMatchObject({ statusCode: 429, code: 'rate_limited', message: expect.any(String) });
  });

  it.each([['127.0.0.1'], [1]])(
    'counts the forwarded address when the proxy is trusted (TRUST_PROXY=%s)',
    async (trustProxy) => {
      const proxied = await createTestApp({ trustProxy, passwordLimit: limits });
      try {
        const { email } = (await createClientWithUsers(proxied, [1])).users[0];
        const viaProxy = (client: string, password: string) =>
          login(proxied, email, password, '127.0.0.1', { 'x-forwarded-for': client });
        expect((await viaProxy('198.51.100.1', 'x')).statusCode).toBe(401);
        expect((await viaProxy('198.51.100.1', 'x')).statusCode).toBe(401);
        expect((await viaProxy('198.51.100.1', TEST_PASSWORD)).statusCode).toBe(429);
        expect((await viaProxy('198.51.100.2', TEST_PASSWORD)).statusCode).toBe(200);
      } finally {
        await proxied.close();
      }
    },
  );
});
