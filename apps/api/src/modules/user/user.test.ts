import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createClientWithUsers,
  createTestApp,
  TEST_PASSWORD,
  type TestApp,
} from '../../../test/helper.ts';
import { api, type Headers, login, me } from '../../../test/kit.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    passwordLimit: {
      perEmailAndSource: 1000,
      windowMs: 60_000,
      perSource: 1000,
      perEmail: 1000,
      emailWindowMs: 60_000,
      knownMs: 60_000,
    },
  });
});
afterAll(() => t.close());

type Json = Record<string, unknown>;
let seq = 0;
const email = (prefix = 'novo') => `${prefix}${Date.now()}${++seq}@loja.com.br`;

/** POST /v1/user: a Caixa with a fresh email and password "senhaforte1" unless overridden. */
function newUser(headers: Headers, body: Json = {}) {
  return api(t, headers).post('/user', {
    name: 'Novo Usuário',
    email: email(),
    userTypeId: 4,
    password: 'senhaforte1',
    passwordConfirmation: 'senhaforte1',
    ...body,
  });
}

async function read(headers: Headers, id: number) {
  return (await api(t, headers).get(`/user/${id}`)).json();
}

/** PUT /v1/user/:id with the user's current form and the changes. */
async function edit(headers: Headers, id: number, changes: Json) {
  const current = await read(headers, id);
  return api(t, headers).put(`/user/${id}`, {
    name: current.name,
    email: current.email,
    userTypeId: current.userType.id,
    active: current.active,
    updatedAt: current.updatedAt,
    ...changes,
  });
}

describe('staff users CRUD', () => {
  it('creates a Caixa who can log in, lists users by name, and refuses a duplicate email in any case (409)', async () => {
    const shop = await createClientWithUsers(t, [1]);
    const mail = email('caixa');
    const res = await newUser(shop.auth, { name: 'Carlos Caixa', email: mail.toUpperCase() });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      id: expect.any(Number),
      name: 'Carlos Caixa',
      email: mail,
      userType: { id: 4, name: 'Caixa' },
      active: true,
      clientId: shop.client.id,
    });
    expect(res.json()).not.toHaveProperty('passwordHash');
    expect((await login(t, mail, 'senhaforte1')).statusCode).toBe(200);

    const list = await api(t, shop.auth).get(`/user/client/${shop.client.id}?q=carlos`);
    expect(list.json()).toMatchObject({ total: 1, page: 1, items: [{ name: 'Carlos Caixa' }] });
    const byType = await api(t, shop.auth).get(`/user/client/${shop.client.id}?userTypeId=1`);
    expect(byType.json().total).toBe(1);

    const dup = await newUser(shop.auth, { email: mail.replace('caixa', 'CAIXA') });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toBe('Este email já está em uso');
    // Unique across clients too.
    const other = await createClientWithUsers(t, [1]);
    expect((await newUser(other.auth, { email: mail })).statusCode).toBe(409);
  });

  it('validates input in Portuguese', async () => {
    const shop = await createClientWithUsers(t, [1]);
    const res = await newUser(shop.auth, {
      userTypeId: 99,
      password: 'curta',
      passwordConfirmation: 'curta',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().issues.map((i: Json) => i.message)).toEqual([
      'Selecione o tipo de usuário',
      'A senha deve ter no mínimo 8 caracteres',
    ]);
  });

  it('refuses a stale edit (409)', async () => {
    const shop = await createClientWithUsers(t, [1]);
    const u = (await newUser(shop.auth)).json();
    expect((await edit(shop.auth, u.id, { name: 'Primeira edição' })).statusCode).toBe(200);
    const stale = await api(t, shop.auth).put(`/user/${u.id}`, {
      name: 'Velha',
      email: u.email,
      userTypeId: 4,
      active: true,
      updatedAt: u.updatedAt,
    });
    expect(stale.statusCode).toBe(409);
  });
});

describe('who may manage whom', () => {
  it('lets a Gerente manage staff but not create, edit, promote to or delete an Administrador (403)', async () => {
    const shop = await createClientWithUsers(t, [1, 2]);
    const admin = shop.users[0].user;
    const gerente = bearer(shop.users[1].token);
    const vendedor = await newUser(gerente, { userTypeId: 3 });
    expect(vendedor.statusCode).toBe(201);
    const asAdmin = await newUser(gerente, { userTypeId: 1 });
    expect(asAdmin.statusCode).toBe(403);
    expect(asAdmin.json().message).toBe('Um Gerente não pode cadastrar nem alterar um Administrador');
    expect((await edit(gerente, vendedor.json().id, { userTypeId: 1 })).statusCode).toBe(403);
    expect((await edit(gerente, admin.id, { name: 'Trocado' })).statusCode).toBe(403);
    expect((await api(t, gerente).delete(`/user/${admin.id}`)).statusCode).toBe(403);
    expect((await edit(gerente, vendedor.json().id, { userTypeId: 6 })).statusCode).toBe(200);
  });

  it('lets other back-office users read the list but not write (403)', async () => {
    const shop = await createClientWithUsers(t, [1, 3]);
    const vendedor = bearer(shop.users[1].token);
    expect((await api(t, vendedor).get(`/user/client/${shop.client.id}`)).statusCode).toBe(200);
    expect((await newUser(vendedor)).statusCode).toBe(403);
  });

  it('refuses changing your own type or deactivating or deleting yourself (422)', async () => {
    const shop = await createClientWithUsers(t, [1, 1]);
    const self = shop.users[0].user.id;
    const own = await edit(shop.auth, self, { userTypeId: 2 });
    expect(own.statusCode).toBe(422);
    expect(own.json().message).toBe('Você não pode alterar o seu próprio tipo de usuário');
    const off = await edit(shop.auth, self, { active: false });
    expect(off.statusCode).toBe(422);
    expect(off.json().message).toBe('Você não pode desativar o seu próprio usuário');
    const del = await api(t, shop.auth).delete(`/user/${self}`);
    expect(del.statusCode).toBe(422);
    // Editing yourself otherwise is fine.
    expect((await edit(shop.auth, self, { name: 'Dono da Loja' })).statusCode).toBe(200);
  });
});

describe('last active Administrador', () => {
  it('cannot be demoted, deactivated or deleted (409 with a Portuguese message)', async () => {
    const shop = await createClientWithUsers(t, [1, 1]);
    const [a, b] = shop.users;
    // Two admins: one may demote the other.
    expect((await edit(shop.auth, b.user.id, { userTypeId: 2 })).statusCode).toBe(200);
    // Now a is the last one.
    for (const changes of [{ userTypeId: 2 }, { active: false }]) {
      const res = await edit(shop.auth, a.user.id, changes);
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toMatch(/^É preciso manter pelo menos um Administrador ativo/);
    }
    const del = await api(t, shop.auth).delete(`/user/${a.user.id}`);
    expect(del.statusCode).toBe(409);
    // An inactive Administrador does not count.
    const inactive = (await newUser(shop.auth, { userTypeId: 1, active: false })).json();
    expect((await edit(shop.auth, a.user.id, { active: false })).statusCode).toBe(409);
    // Once another active one exists, the first can be removed by them.
    await edit(shop.auth, inactive.id, { active: true });
    const login2 = await login(t, inactive.email, 'senhaforte1');
    const del2 = await api(t, bearer(login2.json().token)).delete(`/user/${a.user.id}`);
    expect(del2.statusCode).toBe(200);
    expect(del2.json()).toEqual({ id: a.user.id });
  });
});

describe('sessions end at once', () => {
  it('deactivating a user revokes their live token; reactivating lets them log in again', async () => {
    const shop = await createClientWithUsers(t, [1]);
    const u = (await newUser(shop.auth)).json();
    const token = (await login(t, u.email, 'senhaforte1')).json().token;
    expect((await me(t, token)).statusCode).toBe(200);
    expect((await edit(shop.auth, u.id, { active: false })).statusCode).toBe(200);
    expect((await me(t, token)).statusCode).toBe(401);
    expect((await login(t, u.email, 'senhaforte1')).statusCode).toBe(401);
    expect((await edit(shop.auth, u.id, { active: true })).statusCode).toBe(200);
    // The old token stays dead; a new login works.
    expect((await me(t, token)).statusCode).toBe(401);
    expect((await login(t, u.email, 'senhaforte1')).statusCode).toBe(200);
  });

  it('deleting a user and resetting their password also end their sessions', async () => {
    const shop = await createClientWithUsers(t, [1]);
    const u = (await newUser(shop.auth)).json();
    const token = (await login(t, u.email, 'senhaforte1')).json().token;
    const reset = await edit(shop.auth, u.id, {
      password: 'outrasenha9',
      passwordConfirmation: 'outrasenha9',
    });
    expect(reset.statusCode).toBe(200);
    expect((await me(t, token)).statusCode).toBe(401);
    expect((await login(t, u.email, 'senhaforte1')).statusCode).toBe(401);
    const token2 = (await login(t, u.email, 'outrasenha9')).json().token;
    expect((await api(t, shop.auth).delete(`/user/${u.id}`)).statusCode).toBe(200);
    expect((await me(t, token2)).statusCode).toBe(401);
    expect((await read(shop.auth, u.id)).statusCode).toBe(404);
  });
});

describe('Alterar senha (own password)', () => {
  it('checks the current password and the confirmation, then keeps this session and ends the others', async () => {
    const shop = await createClientWithUsers(t, [4]);
    const { email: mail, token } = shop.users[0];
    const otherDevice = (await login(t, mail, TEST_PASSWORD)).json().token;
    const change = (payload: Json) => api(t, bearer(token)).post('/user/me/password', payload);
    const wrong = await change({
      currentPassword: 'errada',
      newPassword: 'novasenha1',
      confirmation: 'novasenha1',
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json()).toMatchObject({
      message: 'Senha atual incorreta',
      issues: [{ path: 'currentPassword', message: 'Senha atual incorreta' }],
    });
    const mismatch = await change({
      currentPassword: TEST_PASSWORD,
      newPassword: 'novasenha1',
      confirmation: 'x',
    });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().issues).toEqual([{ path: 'confirmation', message: 'As senhas não conferem' }]);
    const ok = await change({
      currentPassword: TEST_PASSWORD,
      newPassword: 'novasenha1',
      confirmation: 'novasenha1',
    });
    expect(ok.statusCode).toBe(200);
    expect((await me(t, token)).statusCode).toBe(200);
    expect((await me(t, otherDevice)).statusCode).toBe(401);
    expect((await login(t, mail, TEST_PASSWORD)).statusCode).toBe(401);
    expect((await login(t, mail, 'novasenha1')).statusCode).toBe(200);
  });

  it('is open to drivers too', async () => {
    const shop = await createClientWithUsers(t, [10]);
    const res = await api(t, shop.auth).post('/user/me/password', {
      currentPassword: TEST_PASSWORD,
      newPassword: 'motorista1',
      confirmation: 'motorista1',
    });
    expect(res.statusCode).toBe(200);
  });
});

describe('tenancy', () => {
  it("answers 404 for another client's users and list", async () => {
    const a = await createClientWithUsers(t, [1]);
    const b = await createClientWithUsers(t, [1, 4]);
    const theirs = b.users[1].user.id;
    expect((await api(t, a.auth).get(`/user/${theirs}`)).statusCode).toBe(404);
    expect((await api(t, a.auth).get(`/user/client/${b.client.id}`)).statusCode).toBe(404);
    const put = await api(t, a.auth).put(`/user/${theirs}`, {
      name: 'X Y',
      email: email(),
      userTypeId: 4,
      active: false,
      updatedAt: new Date().toISOString(),
    });
    expect(put.statusCode).toBe(404);
    expect((await api(t, a.auth).delete(`/user/${theirs}`)).statusCode).toBe(404);
    // Still active and logged in.
    expect((await me(t, b.users[1].token)).statusCode).toBe(200);
  });
});
