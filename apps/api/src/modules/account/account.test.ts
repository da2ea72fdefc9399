import { CLIENT_TYPE_IDS } from '@balcao/core/userTypes';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, makeCnpj, type TestApp } from '../../../test/helper.ts';
import { api, login, me } from '../../../test/kit.ts';
import { clients, paymentGateways, users, whatsappInstances } from '../../db/schema.ts';
import { DOCUMENT_TAKEN, EMAIL_TAKEN } from './service.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ signUpLimit: { perAddress: 1000, windowMs: 60_000 } });
});
afterAll(() => t.close());

let seq = 0;
function accountInput(
  overrides: { systemClient?: Record<string, unknown>; user?: Record<string, unknown> } = {},
) {
  seq++;
  const stamp = `${process.pid}${Date.now() % 100_000}${seq}`;
  return {
    systemClient: {
      name: `Padaria ${stamp}`,
      document: makeCnpj(stamp),
      clientTypeId: 1,
      phone: '(11) 98765-4321',
      ...overrides.systemClient,
    },
    user: {
      name: 'Maria Dona',
      email: `dona${stamp}@teste.com.br`,
      password: 'senha-forte-1',
      passwordConfirmation: 'senha-forte-1',
      ...overrides.user,
    },
  };
}

const create = (payload: Record<string, unknown> | undefined) => api(t).post('/system-client', payload);

const countWhere = async (table: typeof clients | typeof users, condition: ReturnType<typeof eq>) => {
  const [row] = await t.database.db.select({ n: sql<number>`count(*)::int` }).from(table).where(condition);
  return row.n;
};

describe('POST /v1/system-client', () => {
  it('creates the client, its Administrador and settings rows, and logs the owner in', async () => {
    const input = accountInput({ systemClient: { clientTypeId: 1 }, user: { email: '  Dona@Loja.COM.br ' } });
    const res = await create(input);
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.id).toBe(body.user.client.id);
    expect(body.token).toEqual(expect.any(String));
    expect(body.user).toMatchObject({
      name: 'Maria Dona',
      email: 'dona@loja.com.br',
      active: true,
      userType: { id: 1, name: 'Administrador' },
      client: { name: input.systemClient.name, clientType: { id: 1, name: 'Varejo geral' } },
    });
    expect(body.settingsChecklist).toEqual({ saleCommand: false, stockManagement: true, checkIsOpen: false });

    const [client] = await t.database.db.select().from(clients).where(eq(clients.id, body.id));
    expect(client.document).toBe(input.systemClient.document);
    expect(client.phone).toBe('5511987654321');
    const [user] = await t.database.db.select().from(users).where(eq(users.clientId, body.id));
    expect(user.passwordHash).not.toContain('senha-forte-1');
    expect(user.passwordHash).toMatch(/^\$argon2id\$/);
    for (const table of [whatsappInstances, paymentGateways]) {
      const rows = await t.database.db.select().from(table).where(eq(table.clientId, body.id));
      expect(rows).toHaveLength(1);
    }
    // The shipping module's first rule set: one, the default.
    const rules = await api(t, { authorization: `Bearer ${body.token}` }).get(
      `/shipping-settings/client/${body.id}`,
    );
    expect(rules.json()).toMatchObject([{ name: 'Entrega padrão', isDefault: true, active: true }]);

    const session = await me(t, body.token);
    expect(session.statusCode).toBe(200);
    expect(session.json().user.id).toBe(user.id);
    expect((await login(t, 'dona@loja.com.br', 'senha-forte-1')).statusCode).toBe(200);
  });

  it("sets each segment's default flags: comandas on for food segments 5-10", async () => {
    for (const clientTypeId of CLIENT_TYPE_IDS) {
      const res = await create(accountInput({ systemClient: { clientTypeId } }));
      expect(res.statusCode, `segment ${clientTypeId}`).toBe(201);
      expect(res.json().settingsChecklist, `segment ${clientTypeId}`).toEqual({
        saleCommand: clientTypeId >= 5 && clientTypeId <= 10,
        stockManagement: true,
        checkIsOpen: false,
      });
    }
  });

  it('accepts a masked CPF, a masked CNPJ and an alphanumeric CNPJ, stored normalized', async () => {
    const cases = [
      ['529.982.247-25', '52998224725'],
      ['11.222.333/0001-81', '11222333000181'],
      ['12.abc.345/01de-35', '12ABC34501DE35'],
    ];
    for (const [typed, stored] of cases) {
      const res = await create(accountInput({ systemClient: { document: typed } }));
      expect(res.statusCode, typed).toBe(201);
      const [client] = await t.database.db.select().from(clients).where(eq(clients.id, res.json().id));
      expect(client.document).toBe(stored);
    }
  });

  it('answers 400 with Portuguese issues for an invalid CPF/CNPJ, phone or segment', async () => {
    for (const document of ['11.222.333/0001-82', '111.111.111-11', '00000000000000', '123', 'abc']) {
      const res = await create(accountInput({ systemClient: { document } }));
      expect(res.statusCode, document).toBe(400);
      expect(res.json().issues, document).toContainEqual({
        path: 'systemClient.document',
        message: 'CPF ou CNPJ inválido',
      });
    }
    const phone = await create(accountInput({ systemClient: { phone: '1234' } }));
    expect(phone.statusCode).toBe(400);
    expect(phone.json().issues).toContainEqual({ path: 'systemClient.phone', message: 'Telefone inválido' });
    const segment = await create(accountInput({ systemClient: { clientTypeId: 99 } }));
    expect(segment.statusCode).toBe(400);
    expect(segment.json().issues).toContainEqual({
      path: 'systemClient.clientTypeId',
      message: 'Selecione o segmento',
    });
  });

  it('answers 400 when the password confirmation does not match, or fields are missing', async () => {
    const mismatch = await create(accountInput({ user: { passwordConfirmation: 'outra-senha-1' } }));
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    expect(mismatch.json().issues).toContainEqual({
      path: 'user.passwordConfirmation',
      message: 'As senhas não conferem',
    });

    const short = await create(
      accountInput({ user: { password: '1234567', passwordConfirmation: '1234567' } }),
    );
    expect(short.statusCode).toBe(400);
    expect(short.json().issues).toContainEqual({
      path: 'user.password',
      message: 'A senha deve ter no mínimo 8 caracteres',
    });

    const badEmail = await create(accountInput({ user: { email: 'nao-e-email' } }));
    expect(badEmail.json().issues).toContainEqual({ path: 'user.email', message: 'Email inválido' });

    const empty = await create({ systemClient: {}, user: {} });
    expect(empty.statusCode).toBe(400);
    const paths = empty.json().issues.map((issue: { path: string }) => issue.path);
    expect(paths).toEqual(
      expect.arrayContaining(['systemClient.name', 'systemClient.document', 'user.email', 'user.password']),
    );
    expect(empty.json().issues).toContainEqual({
      path: 'systemClient.document',
      message: 'O campo é obrigatório',
    });

    const nothing = await create(undefined);
    expect(nothing.statusCode).toBe(400);
  });

  /** A 409 "duplicate" answer with `message`. */
  const expectDuplicate = (res: Awaited<ReturnType<typeof create>>, message: string) => {
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ statusCode: 409, error: 'Conflict', code: 'duplicate', message });
  };

  it('answers 409 to a document already registered (in any mask) and writes nothing', async () => {
    const first = accountInput({ systemClient: { document: '33.000.167/0001-01' } });
    expect((await create(first)).statusCode).toBe(201);
    const again = accountInput({ systemClient: { document: '33000167000101' } });
    expectDuplicate(await create(again), DOCUMENT_TAKEN);
    expect(await countWhere(users, eq(users.email, again.user.email))).toBe(0);
    expect(await countWhere(clients, eq(clients.name, again.systemClient.name))).toBe(0);
  });

  it('answers 409 to an email already in use (any case) and leaves no client behind', async () => {
    const first = accountInput();
    expect((await create(first)).statusCode).toBe(201);
    const again = accountInput({ user: { email: first.user.email.toUpperCase() } });
    expectDuplicate(await create(again), EMAIL_TAKEN);
    expect(await countWhere(clients, eq(clients.document, again.systemClient.document))).toBe(0);
    expect(await countWhere(clients, eq(clients.name, again.systemClient.name))).toBe(0);
  });

  it('creates one account when the same company is sent twice at once; the other gets 409', async () => {
    const input = accountInput();
    const twin = accountInput({ systemClient: { document: input.systemClient.document } });
    const answers = await Promise.all([create(input), create(twin)]);
    expect(answers.map((res) => res.statusCode).sort()).toEqual([201, 409]);
    expect(await countWhere(clients, eq(clients.document, input.systemClient.document))).toBe(1);
    const loser = answers[0].statusCode === 409 ? input : twin;
    expect(await countWhere(users, eq(users.email, loser.user.email))).toBe(0);
  });
});
