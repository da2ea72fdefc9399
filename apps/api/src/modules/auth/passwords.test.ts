import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, makeCnpj, TEST_PASSWORD, type TestApp } from '../../../test/helper.ts';
import { api, login, makeProduct, makeSale, makeShop } from '../../../test/kit.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

let seq = 0;
/** POST /v1/system-client with the owner's email and password as given. */
function signUp(email: string, password: string) {
  seq++;
  const stamp = `${process.pid}${Date.now() % 100_000}${seq}`;
  return api(t).post('/system-client', {
    systemClient: { name: `Loja ${stamp}`, document: makeCnpj(stamp), clientTypeId: 1, phone: '11987654321' },
    user: { name: 'Dona', email, password, passwordConfirmation: password },
  });
}
const uniqueEmail = () => `dona${process.pid}${Date.now() % 100_000}${++seq}@teste.com.br`;

describe('one rule for passwords: never altered; emails trimmed', () => {
  it('logs in with the password chosen at sign-up, spaces included', async () => {
    const email = uniqueEmail();
    expect((await signUp(`  ${email.toUpperCase()} `, ' senha com espaço ')).statusCode).toBe(201);
    expect((await login(t, ` ${email} `, ' senha com espaço ')).statusCode).toBe(200);
  });

  it('tells a password with spaces from the same one without them', async () => {
    const email = uniqueEmail();
    expect((await signUp(email, 'senhaforte1 ')).statusCode).toBe(201);
    expect((await login(t, email, 'senhaforte1 ')).statusCode).toBe(200);
    expect((await login(t, email, 'senhaforte1', '10.8.0.1')).statusCode).toBe(401);
  });

  it('still logs in an existing password typed with stray outer spaces (the old login trimmed them)', async () => {
    const { email } = (await makeShop(t, [1])).users[0];
    expect((await login(t, email, ` ${TEST_PASSWORD} `)).statusCode).toBe(200);
    expect((await login(t, email, TEST_PASSWORD)).statusCode).toBe(200);
  });

  it('checks a manager approval with the password as typed', async () => {
    const { users, auth, api: cashier } = await makeShop(t, [4, 2]);
    const manager = users[1];
    const changed = await api(t, { authorization: `Bearer ${manager.token}` }).post('/user/me/password', {
      currentPassword: TEST_PASSWORD,
      newPassword: ' gerente com espaço ',
      confirmation: ' gerente com espaço ',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const p = await makeProduct(t, { authorization: `Bearer ${manager.token}` }, { stock: 5 });
    const sale = await makeSale(t, auth, {
      items: [{ productId: p.id, quantity: 1 }],
      payments: [{ method: 'pix', amountCents: 1000 }],
    });
    const trimmed = await cashier.post(`/sale/${sale.id}/cancel`, {
      reason: 'Erro de digitação',
      approval: { email: manager.email, password: 'gerente com espaço' },
    });
    expect(trimmed.statusCode).toBe(422);
    const exact = await cashier.post(`/sale/${sale.id}/cancel`, {
      reason: 'Erro de digitação',
      approval: { email: ` ${manager.email.toUpperCase()} `, password: ' gerente com espaço ' },
    });
    expect(exact.statusCode, exact.body).toBe(200);
  });

  it('limits the lengths of the login fields (400 in Portuguese, before any password work)', async () => {
    const tooLongEmail = `${'a'.repeat(250)}@teste.com.br`;
    const res = await login(t, tooLongEmail, 'x');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'validation',
      issues: [{ path: 'email', message: 'Email muito longo' }],
    });
    const longPassword = await login(t, 'a@teste.com.br', 'x'.repeat(129));
    expect(longPassword.statusCode).toBe(400);
    expect(longPassword.json()).toMatchObject({
      issues: [{ path: 'password', message: 'Use no máximo 128 caracteres' }],
    });
  });

  it('limits every other password field too: a manager approval and the current password (400)', async () => {
    const { users, api: cashier } = await makeShop(t, [4, 2]);
    const tooLong = 'x'.repeat(129);
    const withdrawal = await cashier.post('/cash-register/movement', {
      type: 'withdrawal',
      amountCents: 100,
      reason: 'Depósito no banco',
      approval: { email: users[1].email, password: tooLong },
    });
    expect(withdrawal.statusCode).toBe(400);
    expect(withdrawal.json().issues).toEqual([
      { path: 'approval.password', message: 'Use no máximo 128 caracteres' },
    ]);
    const change = await cashier.post('/user/me/password', {
      currentPassword: tooLong,
      newPassword: 'nova-senha-forte',
      confirmation: 'nova-senha-forte',
    });
    expect(change.statusCode).toBe(400);
    expect(change.json().issues).toEqual([
      { path: 'currentPassword', message: 'Use no máximo 128 caracteres' },
    ]);
  });
});
