import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, makeCnpj, TEST_PASSWORD, type TestApp } from '../../../test/helper.ts';
import { login, makeProduct, makeSale, makeShop } from '../../../test/kit.ts';
import { rateLimits } from '../../db/schema.ts';

/** The shipped limits, but a smaller per-email one and sign-up limit so the tests stay short. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    passwordLimit: {
      perEmailAndSource: 5,
      windowMs: 15 * 60_000,
      perSource: 20,
      perEmail: 12,
      emailWindowMs: 60 * 60_000,
      knownMs: 30 * 24 * 60 * 60_000,
    },
    signUpLimit: { perAddress: 2, windowMs: 60 * 60_000 },
  });
});
afterAll(() => t.close());

const TOO_MANY = {
  statusCode: 429,
  error: 'Too Many Requests',
  code: 'rate_limited',
  message: 'Muitas tentativas. Aguarde alguns minutos e tente novamente.',
};
const TOO_MANY_LOGINS = {
  ...TOO_MANY,
  message: 'Muitas tentativas de login. Aguarde alguns minutos e tente novamente.',
};

describe('login limit: per email and address, then per email', () => {
  it('stops a guesser at one address after 5 failures while the owner logs in from the shop', async () => {
    const { email } = (await makeShop(t, [1])).users[0];
    for (let i = 0; i < 5; i++) expect((await login(t, email, 'errada', '10.9.0.1')).statusCode).toBe(401);
    // Over the limit: even the right password is refused from the guessing address...
    const blocked = await login(t, email, TEST_PASSWORD, '10.9.0.1');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual(TOO_MANY_LOGINS);
    expect((await login(t, email.toUpperCase(), TEST_PASSWORD, '10.9.0.1')).statusCode).toBe(429);
    // ...but the owner, at the shop's address, is not locked out.
    expect((await login(t, email, TEST_PASSWORD, '10.9.0.2')).statusCode).toBe(200);
  });

  it('stops password spraying: many emails from one address get 429 with Retry-After (issue 31 item 3)', async () => {
    const statuses: number[] = [];
    let refused: Awaited<ReturnType<typeof login>> | undefined;
    for (let i = 0; i < 40; i++) {
      const res = await login(t, `ninguem${i}@teste.com.br`, 'x', '10.9.1.1');
      statuses.push(res.statusCode);
      if (res.statusCode === 429) refused ??= res;
    }
    // 20 failures per address across emails, then 429 for every email.
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(401));
    expect(statuses.slice(20)).toEqual(Array(20).fill(429));
    expect(refused?.json()).toEqual(TOO_MANY_LOGINS);
    const retryAfter = Number(refused?.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
  });

  it('the spraying address still lets in a user who logged in from it before; a new one waits', async () => {
    const shop = await makeShop(t, [1, 3]);
    const [owner, newcomer] = shop.users;
    expect((await login(t, owner.email, TEST_PASSWORD, '10.9.5.1')).statusCode).toBe(200);
    for (let i = 0; i < 20; i++) {
      expect((await login(t, `spray${i}@teste.com.br`, 'x', '10.9.5.1')).statusCode).toBe(401);
    }
    expect((await login(t, `spray-extra@teste.com.br`, 'x', '10.9.5.1')).statusCode).toBe(429);
    // Known pair (this email logged in from this address): its password is still checked.
    expect((await login(t, owner.email, TEST_PASSWORD, '10.9.5.1')).statusCode).toBe(200);
    expect((await login(t, owner.email, 'errada', '10.9.5.1')).statusCode).toBe(401);
    // Never logged in from here: the address is over its limit.
    const waits = await login(t, newcomer.email, TEST_PASSWORD, '10.9.5.1');
    expect(waits.statusCode).toBe(429);
    expect(waits.json()).toEqual(TOO_MANY_LOGINS);
  });

  it('stops a guesser spread over many addresses with the slower per-email limit', async () => {
    const { email } = (await makeShop(t, [1])).users[0];
    // The owner's usual address (the shop's counter): a login from it before the attack.
    expect((await login(t, email, TEST_PASSWORD, '10.9.2.250')).statusCode).toBe(200);
    for (let i = 0; i < 12; i++) {
      expect((await login(t, email, 'errada', `10.9.2.${i}`)).statusCode).toBe(401);
    }
    expect((await login(t, email, TEST_PASSWORD, '10.9.2.200')).statusCode).toBe(429);
    // The owner is not locked out at the address he logs in from (issue 31 item 3), but a wrong
    // password there still counts toward his own narrow limit.
    expect((await login(t, email, TEST_PASSWORD, '10.9.2.250')).statusCode).toBe(200);
    // The window ends on its own: counters whose time is over start again.
    await t.database.db.update(rateLimits).set({ expiresAt: sql`now() - interval '1 second'` });
    expect((await login(t, email, TEST_PASSWORD, '10.9.2.200')).statusCode).toBe(200);
  });

  it('a right password frees its address: failures before it do not add up with later ones', async () => {
    const { email } = (await makeShop(t, [1])).users[0];
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 4; i++) expect((await login(t, email, 'errada', '10.9.3.1')).statusCode).toBe(401);
      expect((await login(t, email, TEST_PASSWORD, '10.9.3.1')).statusCode).toBe(200);
    }
  });

  it('counts parallel guesses exactly: 20 at once get 5 answers 401, the rest 429', async () => {
    const { email } = (await makeShop(t, [1])).users[0];
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => login(t, email, 'errada', '10.9.4.1')),
    );
    const statuses = answers.map((res) => res.statusCode).sort();
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(15);
  });
});

describe('manager approval limit', () => {
  it('refuses a sale cancel with 429 after 5 wrong manager passwords, even with the right one', async () => {
    const { users, auth: cashier, api: cashierApi } = await makeShop(t, [4, 2]);
    const p = await makeProduct(t, bearer(users[1].token), { salePriceCents: 1000, stock: 10 });
    const sale = await makeSale(t, cashier, {
      items: [{ productId: p.id, quantity: 1 }],
      payments: [{ method: 'pix', amountCents: 1000 }],
    });
    const cancel = (password: string) =>
      cashierApi.post(`/sale/${sale.id}/cancel`, {
        reason: 'Erro de digitação',
        approval: { email: users[1].email, password },
      });
    for (let i = 0; i < 5; i++) expect((await cancel(`errada${i}`)).statusCode).toBe(422);
    const blocked = await cancel(TEST_PASSWORD);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual(TOO_MANY);
    expect((await cashierApi.get(`/sale/${sale.id}`)).json().status).not.toBe('canceled');
    // The manager still logs in and works: the guesser is limited, not the manager.
    expect((await login(t, users[1].email, TEST_PASSWORD, '10.9.5.1')).statusCode).toBe(200);
  });

  it('refuses a sangria with 429 after 5 wrong manager passwords, even with the right one', async () => {
    const { users, api: cashierApi } = await makeShop(t, [4, 2]);
    const withdraw = (password: string) =>
      cashierApi.post('/cash-register/movement', {
        type: 'withdrawal',
        amountCents: 1000,
        reason: 'Depósito no banco',
        approval: { email: users[1].email, password },
      });
    for (let i = 0; i < 5; i++) expect((await withdraw(`errada${i}`)).statusCode).toBe(422);
    const blocked = await withdraw(TEST_PASSWORD);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual(TOO_MANY);
  });

  it('shares the per-email limit with the login: wrong approvals and wrong logins add up', async () => {
    const { users, api: cashierApi } = await makeShop(t, [4, 2]);
    const withdraw = (password: string) =>
      cashierApi.post('/cash-register/movement', {
        type: 'withdrawal',
        amountCents: 1000,
        reason: 'Depósito no banco',
        approval: { email: users[1].email, password },
      });
    for (let i = 0; i < 4; i++) expect((await withdraw(`errada${i}`)).statusCode).toBe(422);
    for (let i = 0; i < 8; i++) {
      expect((await login(t, users[1].email, 'errada', `10.9.6.${i}`)).statusCode).toBe(401);
    }
    expect((await withdraw(TEST_PASSWORD)).statusCode).toBe(429);
  });
});

describe('password change limit', () => {
  it('answers 429 after 5 wrong current passwords, even with the right one', async () => {
    const { api: userApi } = await makeShop(t, [4]);
    const change = (currentPassword: string) =>
      userApi.post('/user/me/password', {
        currentPassword,
        newPassword: 'nova-senha-forte',
        confirmation: 'nova-senha-forte',
      });
    for (let i = 0; i < 5; i++) expect((await change(`errada${i}`)).statusCode).toBe(422);
    const blocked = await change(TEST_PASSWORD);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual(TOO_MANY);
  });
});

describe('sign-up limit', () => {
  let seq = 0;
  const signUp = (remoteAddress: string) => {
    seq++;
    const stamp = `${process.pid}${Date.now() % 100_000}${seq}`;
    return t.app.inject({
      method: 'POST',
      url: '/v1/system-client',
      remoteAddress,
      payload: {
        systemClient: {
          name: `Loja ${stamp}`,
          document: makeCnpj(stamp),
          clientTypeId: 1,
          phone: '11987654321',
        },
        user: {
          name: 'Dona',
          email: `dona${stamp}@teste.com.br`,
          password: 'senha-forte-1',
          passwordConfirmation: 'senha-forte-1',
        },
      },
    });
  };

  it('creates accounts per address up to the limit, then 429; other addresses go on', async () => {
    expect((await signUp('10.9.7.1')).statusCode).toBe(201);
    expect((await signUp('10.9.7.1')).statusCode).toBe(201);
    const blocked = await signUp('10.9.7.1');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toMatchObject({
      statusCode: 429,
      code: 'rate_limited',
      message: 'Muitas contas criadas deste endereço. Aguarde e tente novamente mais tarde.',
    });
    expect((await signUp('10.9.7.2')).statusCode).toBe(201);
  });
});

it('keeps the counters in the database (shared by every API instance)', async () => {
  const rows = await t.database.db.select().from(rateLimits);
  expect(rows.length).toBeGreaterThan(0);
});
