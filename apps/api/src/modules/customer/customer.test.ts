import { addDays } from '@balcao/core/date';
import { DEFAULT_TIME_ZONE, dateIn } from '@balcao/core/time';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeEvolution, startFakeEvolution } from '../../../test/fakes/evolution.ts';
import { bearer, createClientWithUsers, createTestApp, type TestApp } from '../../../test/helper.ts';
import { receivables } from '../receivable/schema.ts';

let t: TestApp;
let evolution: FakeEvolution;
let shop: Awaited<ReturnType<typeof createClientWithUsers>>;
let other: Awaited<ReturnType<typeof createClientWithUsers>>;

const REGISTERED = '5511987654321';

beforeAll(async () => {
  // Every client gets an instance named balcao-{clientId}; the fake knows any of them by pattern below.
  evolution = await startFakeEvolution({
    instances: Array.from({ length: 50 }, (_, i) => `balcao-${i + 1}`),
    registered: [REGISTERED],
  });
  t = await createTestApp({
    whatsapp: { baseUrl: evolution.url, apiKey: evolution.apiKey, timeoutMs: 2000 },
  });
  // Administrador, Vendedor, Estoquista (reads customers, cannot write them).
  shop = await createClientWithUsers(t, [1, 3, 6]);
  other = await createClientWithUsers(t, [1]);
});
afterAll(async () => {
  await t.close();
  await evolution.close();
});

const address = {
  zipCode: '01001-000',
  street: 'Praça da Sé',
  number: '100',
  neighborhood: 'Sé',
  city: 'São Paulo',
  state: 'SP',
};

type Json = Record<string, unknown>;

async function create(payload: Json, headers = shop.auth) {
  return t.app.inject({ method: 'POST', url: '/v1/customer', headers, payload });
}

async function list(query = '', headers = shop.auth, clientId = shop.client.id) {
  return t.app.inject({ method: 'GET', url: `/v1/customer/client/${clientId}${query}`, headers });
}

async function waitFor<T>(read: () => Promise<T>, done: (v: T) => boolean, ms = 5000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > until) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('customer CRUD', () => {
  it('creates a person with addresses (201 + record), the first address the default', async () => {
    const res = await create({
      name: 'Maria Souza',
      document: '529.982.247-25',
      email: 'Maria@Email.com',
      phone: '(11) 91234-5678',
      birthDate: '1990-05-17',
      creditLimitCents: 50000,
      addresses: [address, { ...address, number: '200', label: 'Trabalho' }],
    });
    expect(res.statusCode).toBe(201);
    const c = res.json();
    expect(c).toMatchObject({
      id: expect.any(Number),
      clientId: shop.client.id,
      personType: 'person',
      name: 'Maria Souza',
      document: '52998224725',
      email: 'maria@email.com',
      phone: '5511912345678',
      birthDate: '1990-05-17',
      creditLimitCents: 50000,
      active: true,
      isDelinquent: false,
      pendingCents: 0,
    });
    expect(c.addresses.map((a: Json) => [a.number, a.isDefault, a.zipCode])).toEqual([
      ['100', true, '01001000'],
      ['200', false, '01001000'],
    ]);
    const read = await t.app.inject({ method: 'GET', url: `/v1/customer/${c.id}`, headers: shop.auth });
    // The WhatsApp check runs after the answer (customer/whatsapp.ts): the read may come before or
    // after it has written its two fields (seen on PostgreSQL, its pool answering the read first).
    const { whatsappValid, whatsappCheckedAt, ...rest } = read.json();
    expect(rest).toEqual({ ...c, whatsappValid: undefined, whatsappCheckedAt: undefined });
    expect(c).toMatchObject({ whatsappValid: null, whatsappCheckedAt: null });
    if (whatsappCheckedAt !== null) expect(typeof whatsappValid).toBe('boolean');
  });

  it('creates a company with an alphanumeric CNPJ', async () => {
    const res = await create({ name: 'ACME Ltda', personType: 'company', document: '12.ABC.345/01DE-35' });
    expect(res.statusCode).toBe(201);
    expect(res.json().document).toBe('12ABC34501DE35');
  });

  it('refuses an invalid CPF with a Portuguese field error', async () => {
    const res = await create({ name: 'Fulano', document: '529.982.247-24' });
    expect(res.statusCode).toBe(400);
    expect(res.json().issues).toEqual([{ path: 'document', message: 'CPF inválido' }]);
  });

  it('refuses a document already used by another customer of the client (409), not of another client', async () => {
    const first = await create({ name: 'João', document: '111.444.777-35' });
    expect(first.statusCode).toBe(201);
    const dup = await create({ name: 'João 2', document: '11144477735' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toMatchObject({
      code: 'duplicate',
      message: 'Já existe um cliente com este CPF/CNPJ',
    });
    // Another shop may have the same customer.
    expect((await create({ name: 'João', document: '111.444.777-35' }, other.auth)).statusCode).toBe(201);
    // Customers without a document do not collide.
    expect((await create({ name: 'Sem doc 1' })).statusCode).toBe(201);
    expect((await create({ name: 'Sem doc 2' })).statusCode).toBe(201);
  });

  it('edits with updatedAt, replaces addresses keeping exactly one default, and refuses a stale edit (409)', async () => {
    const c = (await create({ name: 'Pedro', addresses: [address] })).json();
    const kept = c.addresses[0];
    const res = await t.app.inject({
      method: 'PUT',
      url: `/v1/customer/${c.id}`,
      headers: shop.auth,
      payload: {
        name: 'Pedro Alves',
        updatedAt: c.updatedAt,
        addresses: [
          { ...kept, number: '101', isDefault: false },
          { ...address, number: '300', isDefault: true },
        ],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const edited = res.json();
    expect(edited.name).toBe('Pedro Alves');
    expect(edited.addresses.map((a: Json) => [a.number, a.isDefault])).toEqual([
      ['300', true],
      ['101', false],
    ]);
    expect(edited.addresses.find((a: Json) => a.number === '101').id).toBe(kept.id);

    const stale = await t.app.inject({
      method: 'PUT',
      url: `/v1/customer/${c.id}`,
      headers: shop.auth,
      payload: { name: 'Pedro antigo', updatedAt: c.updatedAt },
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({
      code: 'stale',
      message: 'Este registro foi alterado por outra pessoa. Recarregue a página e tente novamente.',
    });

    const removeAll = await t.app.inject({
      method: 'PUT',
      url: `/v1/customer/${c.id}`,
      headers: shop.auth,
      payload: { name: 'Pedro Alves', updatedAt: edited.updatedAt, addresses: [] },
    });
    expect(removeAll.json().addresses).toEqual([]);
  });

  it('refuses two default addresses and an address id of another customer', async () => {
    const two = await create({
      name: 'Dois',
      addresses: [
        { ...address, isDefault: true },
        { ...address, isDefault: true },
      ],
    });
    expect(two.statusCode).toBe(400);
    expect(two.json().issues[0]).toEqual({
      path: 'addresses',
      message: 'Marque apenas um endereço como principal',
    });

    const a = (await create({ name: 'Cliente A', addresses: [address] })).json();
    const b = (await create({ name: 'Cliente B' })).json();
    const steal = await t.app.inject({
      method: 'PUT',
      url: `/v1/customer/${b.id}`,
      headers: shop.auth,
      payload: { name: 'Cliente B', updatedAt: b.updatedAt, addresses: [a.addresses[0]] },
    });
    expect(steal.statusCode).toBe(400);
    const stillA = await t.app.inject({ method: 'GET', url: `/v1/customer/${a.id}`, headers: shop.auth });
    expect(stillA.json().addresses).toHaveLength(1);
  });

  it('deletes a customer, but not one with crediário receivables (409)', async () => {
    const c = (await create({ name: 'Apagar', addresses: [address] })).json();
    const del = await t.app.inject({ method: 'DELETE', url: `/v1/customer/${c.id}`, headers: shop.auth });
    expect(del.statusCode).toBe(200);
    expect(del.json()).toEqual({ id: c.id });
    expect(
      (await t.app.inject({ method: 'GET', url: `/v1/customer/${c.id}`, headers: shop.auth })).statusCode,
    ).toBe(404);
    const d = (await create({ name: 'Devedor' })).json();
    await t.database.db.insert(receivables).values({
      clientId: shop.client.id,
      customerId: d.id,
      amountCents: 1000,
      dueDate: addDays(dateIn(DEFAULT_TIME_ZONE), 10),
    });
    const refused = await t.app.inject({ method: 'DELETE', url: `/v1/customer/${d.id}`, headers: shop.auth });
    expect(refused.statusCode).toBe(409);
  });

  it('lets an Estoquista read customers but not write them (403)', async () => {
    const estoquista = bearer(shop.users[2].token);
    expect((await list('', estoquista)).statusCode).toBe(200);
    expect((await create({ name: 'Não pode' }, estoquista)).statusCode).toBe(403);
    const vendedor = bearer(shop.users[1].token);
    expect((await create({ name: 'Cliente do vendedor' }, vendedor)).statusCode).toBe(201);
  });
});

describe('tenancy', () => {
  it("answers 404 for another client's list, customer, counters, export and import", async () => {
    const mine = (await create({ name: 'Só meu', addresses: [address] })).json();
    expect((await list('', other.auth, shop.client.id)).statusCode).toBe(404);
    for (const url of [
      `/v1/customer/${mine.id}`,
      `/v1/customer/counters/client/${shop.client.id}`,
      `/v1/customer/client/${shop.client.id}/export`,
      `/v1/user-address/customer/${mine.id}`,
    ]) {
      expect((await t.app.inject({ method: 'GET', url, headers: other.auth })).statusCode, url).toBe(404);
    }
    const put = await t.app.inject({
      method: 'PUT',
      url: `/v1/customer/${mine.id}`,
      headers: other.auth,
      payload: { name: 'Invasor', updatedAt: mine.updatedAt },
    });
    expect(put.statusCode).toBe(404);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/v1/customer/${mine.id}`, headers: other.auth }))
        .statusCode,
    ).toBe(404);
    const addr = await t.app.inject({
      method: 'PUT',
      url: `/v1/user-address/${mine.addresses[0].id}`,
      headers: other.auth,
      payload: { ...address, isDefault: true },
    });
    expect(addr.statusCode).toBe(404);
    const imp = await t.app.inject({
      method: 'POST',
      url: `/v1/customer/import/client/${shop.client.id}`,
      headers: other.auth,
      payload: { csv: 'nome\nX' },
    });
    expect(imp.statusCode).toBe(404);
    const body = await create({ name: 'Outro cliente', clientId: shop.client.id }, other.auth);
    expect(body.statusCode).toBe(404);
    // Nothing leaked into the other client's list.
    expect((await list('?q=Só meu', other.auth, other.client.id)).json().total).toBe(0);
  });
});

describe('list, search, filters, delinquency and counters', () => {
  let s: Awaited<ReturnType<typeof createClientWithUsers>>;
  beforeAll(async () => {
    s = await createClientWithUsers(t, [2]);
    const make = (payload: Json) =>
      t.app.inject({ method: 'POST', url: '/v1/customer', headers: s.auth, payload }).then((r) => r.json());
    const ana = await make({ name: 'Ana Lima', document: '390.533.447-05', email: 'ana@lima.com' });
    await make({ name: 'Bruno Costa', phone: '(21) 99876-5432' });
    await make({ name: 'Carla Dias', active: false });
    const davi = await make({ name: 'Davi Reis' });
    // Ana owes an overdue installment; Davi owes one not yet due and one overdue but paid.
    await t.database.db.insert(receivables).values([
      {
        clientId: s.client.id,
        customerId: ana.id,
        amountCents: 15000,
        dueDate: addDays(dateIn(DEFAULT_TIME_ZONE), -3),
      },
      {
        clientId: s.client.id,
        customerId: davi.id,
        amountCents: 5000,
        dueDate: addDays(dateIn(DEFAULT_TIME_ZONE), 5),
      },
      {
        clientId: s.client.id,
        customerId: davi.id,
        amountCents: 7000,
        dueDate: addDays(dateIn(DEFAULT_TIME_ZONE), -30),
        status: 'finished',
        paidAt: new Date(),
      },
    ]);
  });
  const names = (res: { json: () => { items: { name: string }[] } }) => res.json().items.map((c) => c.name);
  const q = (query: string) => list(query, s.auth, s.client.id);

  it('pages and sorts ({items, total, page, pageSize})', async () => {
    const res = await q('?pageSize=2&page=2');
    expect(res.json()).toMatchObject({ total: 4, page: 2, pageSize: 2 });
    expect(names(res)).toEqual(['Carla Dias', 'Davi Reis']);
    expect(names(await q('?sort=-name&pageSize=1'))).toEqual(['Davi Reis']);
    expect((await q('?sort=password')).statusCode).toBe(400);
    expect((await q('?pageSize=101')).statusCode).toBe(400);
  });

  it('searches by name, document (masked or not), phone and email', async () => {
    expect(names(await q('?q=lima'))).toEqual(['Ana Lima']);
    expect(names(await q('?q=390.533'))).toEqual(['Ana Lima']);
    expect(names(await q('?q=99876-5432'))).toEqual(['Bruno Costa']);
    expect(names(await q('?q=ANA%40LIMA'))).toEqual(['Ana Lima']);
    expect(names(await q('?q=%25'))).toEqual([]);
  });

  it('flags delinquency from overdue pending receivables and filters by it, active and WhatsApp', async () => {
    const all = (await q('')).json().items;
    const flag = Object.fromEntries(all.map((c: Json) => [c.name, c.isDelinquent]));
    expect(flag).toEqual({ 'Ana Lima': true, 'Bruno Costa': false, 'Carla Dias': false, 'Davi Reis': false });
    expect(names(await q('?delinquent=true'))).toEqual(['Ana Lima']);
    expect(names(await q('?delinquent=false&active=true'))).toEqual(['Bruno Costa', 'Davi Reis']);
    expect(names(await q('?active=false'))).toEqual(['Carla Dias']);
    expect((await q('?delinquent=talvez')).statusCode).toBe(400);
    const ana = all.find((c: Json) => c.name === 'Ana Lima');
    const detail = await t.app.inject({ method: 'GET', url: `/v1/customer/${ana.id}`, headers: s.auth });
    expect(detail.json()).toMatchObject({ pendingCents: 15000, overdueCents: 15000, isDelinquent: true });
  });

  it('counts delinquent / not delinquent and valid / invalid WhatsApp among active customers', async () => {
    // Bruno's number is not registered in the fake: wait for the background check to store false.
    await waitFor(
      () => q('?whatsappValid=false').then(names),
      (n) => n.length === 1,
    );
    expect(names(await q('?whatsappValid=false'))).toEqual(['Bruno Costa']);
    expect(names(await q('?whatsappValid=unknown'))).toEqual(['Ana Lima', 'Carla Dias', 'Davi Reis']);
    const res = await t.app.inject({
      method: 'GET',
      url: `/v1/customer/counters/client/${s.client.id}`,
      headers: s.auth,
    });
    expect(res.json()).toEqual({
      userIsDelinquent: 1,
      userNotIsDelinquent: 2,
      userValidWhatsAppNumber: 0,
      userNotValidWhatsAppNumber: 1,
    });
  });
});

describe('WhatsApp number check', () => {
  it('runs in the background after saving and stores valid/invalid; a phone change resets and re-checks', async () => {
    const res = await create({ name: 'Zap Válido', phone: '(11) 98765-4321' });
    expect(res.statusCode).toBe(201);
    const c = res.json();
    expect(c.whatsappValid).toBeNull();
    const read = () =>
      t.app.inject({ method: 'GET', url: `/v1/customer/${c.id}`, headers: shop.auth }).then((r) => r.json());
    const checked = await waitFor(read, (v) => v.whatsappValid !== null);
    expect(checked.whatsappValid).toBe(true);
    expect(checked.whatsappCheckedAt).toEqual(expect.any(String));
    // The background result did not change the version the user's form holds.
    expect(checked.updatedAt).toBe(c.updatedAt);
    expect(evolution.checks).toContainEqual({ instance: `balcao-${shop.client.id}`, numbers: [REGISTERED] });

    const edit = await t.app.inject({
      method: 'PUT',
      url: `/v1/customer/${c.id}`,
      headers: shop.auth,
      payload: { name: 'Zap Válido', phone: '(11) 90000-0000', updatedAt: c.updatedAt },
    });
    expect(edit.statusCode).toBe(200);
    expect(edit.json().whatsappValid).toBeNull();
    expect((await waitFor(read, (v) => v.whatsappValid !== null)).whatsappValid).toBe(false);
  });

  it('saves even when the WhatsApp service is down; the result stays unknown, and a manual check says 503', async () => {
    const down = await startFakeEvolution({ instances: [], registered: [] });
    const url = down.url;
    await down.close();
    const app = await createTestApp({ whatsapp: { baseUrl: url, apiKey: 'x', timeoutMs: 1000 } });
    try {
      const s = await createClientWithUsers(app, [1]);
      const res = await app.app.inject({
        method: 'POST',
        url: '/v1/customer',
        headers: s.auth,
        payload: { name: 'Sem zap', phone: '11987654321' },
      });
      expect(res.statusCode).toBe(201);
      await new Promise((r) => setTimeout(r, 300));
      const read = await app.app.inject({
        method: 'GET',
        url: `/v1/customer/${res.json().id}`,
        headers: s.auth,
      });
      expect(read.json().whatsappValid).toBeNull();
      const check = await app.app.inject({
        method: 'POST',
        url: `/v1/customer/${res.json().id}/whatsapp-check`,
        headers: s.auth,
      });
      expect(check.statusCode).toBe(503);
      expect(check.json().message).toMatch(/Não foi possível verificar o número no WhatsApp/);
    } finally {
      await app.close();
    }
  });
});

describe('addresses one by one', () => {
  it('adds, makes default, and deletes addresses keeping exactly one default', async () => {
    const c = (await create({ name: 'Endereços' })).json();
    const add = (payload: Json) =>
      t.app.inject({
        method: 'POST',
        url: '/v1/user-address',
        headers: shop.auth,
        payload: { customerId: c.id, ...payload },
      });
    const first = await add(address);
    expect(first.statusCode).toBe(201);
    expect(first.json().isDefault).toBe(true);
    const second = (await add({ ...address, number: '2', isDefault: true })).json();
    const listed = async () =>
      (
        await t.app.inject({ method: 'GET', url: `/v1/user-address/customer/${c.id}`, headers: shop.auth })
      ).json();
    expect((await listed()).map((a: Json) => [a.number, a.isDefault])).toEqual([
      ['2', true],
      ['100', false],
    ]);
    const unset = await t.app.inject({
      method: 'PUT',
      url: `/v1/user-address/${second.id}`,
      headers: shop.auth,
      payload: { ...address, number: '2', isDefault: false },
    });
    expect(unset.statusCode).toBe(422);
    await t.app.inject({ method: 'DELETE', url: `/v1/user-address/${second.id}`, headers: shop.auth });
    expect((await listed()).map((a: Json) => [a.number, a.isDefault])).toEqual([['100', true]]);
    // The customer's version moved: a form opened before is stale.
    const stale = await t.app.inject({
      method: 'PUT',
      url: `/v1/customer/${c.id}`,
      headers: shop.auth,
      payload: { name: 'Endereços', updatedAt: c.updatedAt },
    });
    expect(stale.statusCode).toBe(409);
  });
});

describe('CSV', () => {
  it('previews per-line Portuguese errors, refuses a file with errors, imports only valid lines when asked', async () => {
    const s = await createClientWithUsers(t, [1]);
    await t.app.inject({
      method: 'POST',
      url: '/v1/customer',
      headers: s.auth,
      payload: { name: 'Já existe', document: '52998224725' },
    });
    const csv = [
      'Nome;CPF/CNPJ;WhatsApp;Nascimento;Limite de crédito;CEP;Logradouro;Número;Bairro;Cidade;UF;Observações',
      'Lúcia Prado;111.444.777-35;(11) 98888-7777;05/03/1985;1.500,00;01001-000;Praça da Sé;10;Sé;São Paulo;SP;"cliente antiga;',
      'paga em dia"',
      'Empresa X;12.ABC.345/01DE-35;;;;;;;;;;',
      'Sem Nome Válido;123;;31/02/2000;abc;;;;;;;',
      'Repetida;52998224725;;;;;;;;;;',
      'Lúcia de novo;11144477735;;;;;;;;;;',
      '',
    ].join('\n');
    const url = `/v1/customer/import/client/${s.client.id}`;
    const preview = await t.app.inject({ method: 'POST', url, headers: s.auth, payload: { csv } });
    expect(preview.statusCode).toBe(200);
    const p = preview.json();
    expect(p).toMatchObject({ mode: 'preview', total: 5, valid: 2, invalid: 3, created: 0 });
    const errorsAt = Object.fromEntries(
      p.lines.map((l: { line: number; errors: string[] }) => [l.line, l.errors]),
    );
    // Rows as the spreadsheet numbers them: the quoted note with a line break is one row (row 2).
    expect(errorsAt[2]).toEqual([]);
    expect(errorsAt[3]).toEqual([]);
    expect(errorsAt[4]).toEqual([
      'Nascimento: data inválida (use dd/mm/aaaa)',
      'Limite de crédito: valor inválido (ex.: 1.500,00)',
      'CPF/CNPJ: CPF inválido',
    ]);
    expect(errorsAt[5]).toEqual(['CPF/CNPJ já cadastrado em outro cliente']);
    expect(errorsAt[6]).toEqual(['CPF/CNPJ repetido (já aparece na linha 2)']);

    const refused = await t.app.inject({
      method: 'POST',
      url,
      headers: s.auth,
      payload: { csv, mode: 'commit' },
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toMatch(/^3 linha\(s\) com erro: nada foi importado/);
    expect(refused.json().issues[0].path).toBe('linha 4');
    expect((await list('', s.auth, s.client.id)).json().total).toBe(1);

    const partial = await t.app.inject({
      method: 'POST',
      url,
      headers: s.auth,
      payload: { csv, mode: 'commit', skipInvalid: true },
    });
    expect(partial.json()).toMatchObject({ created: 2, valid: 2, invalid: 3 });
    const items = (await list('?sort=name', s.auth, s.client.id)).json().items;
    const lucia = items.find((c: Json) => c.name === 'Lúcia Prado');
    expect(lucia).toMatchObject({
      document: '11144477735',
      phone: '5511988887777',
      birthDate: '1985-03-05',
      creditLimitCents: 150000,
      notes: 'cliente antiga;\npaga em dia',
      defaultAddress: { zipCode: '01001000', city: 'São Paulo', number: '10', isDefault: true },
    });
    expect(items.find((c: Json) => c.name === 'Empresa X').personType).toBe('company');
  });

  it('reads a short semicolon file with a final line break, as Excel in pt-BR saves it (issue 31)', async () => {
    const url = `/v1/customer/import/client/${shop.client.id}`;
    const csv =
      'nome;email\r\nAna Souza;ana@x.com.br\r\nBruno Lima;bruno@x.com.br\r\nCarla Dias;carla@x.com.br\r\n';
    const res = await t.app.inject({ method: 'POST', url, headers: shop.auth, payload: { csv } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ total: 3, valid: 3, invalid: 0 });
    expect(res.json().lines.map((l: Json) => [l.line, l.name])).toEqual([
      [2, 'Ana Souza'],
      [3, 'Bruno Lima'],
      [4, 'Carla Dias'],
    ]);
  });

  it('numbers lines as the spreadsheet does and refuses a malformed amount (issue 30)', async () => {
    const url = `/v1/customer/import/client/${shop.client.id}`;
    const csv = ['nome;limite_credito', 'Ana Souza;1.500,00', ';', '', 'Bruno Lima;1.2.3,4', ''].join('\n');
    const res = await t.app.inject({ method: 'POST', url, headers: shop.auth, payload: { csv } });
    expect(res.statusCode).toBe(200);
    const lines = res.json().lines.map((l: Json) => [l.line, l.name, l.errors]);
    expect(lines).toEqual([
      [2, 'Ana Souza', []],
      [5, 'Bruno Lima', ['Limite de crédito: valor inválido (ex.: 1.500,00)']],
    ]);
  });

  it('explains a file without the name column and an empty file', async () => {
    const url = `/v1/customer/import/client/${shop.client.id}`;
    const noName = await t.app.inject({
      method: 'POST',
      url,
      headers: shop.auth,
      payload: { csv: 'email\na@b.com' },
    });
    expect(noName.statusCode).toBe(400);
    expect(noName.json().message).toMatch(/Coluna obrigatória ausente: nome/);
    const empty = await t.app.inject({ method: 'POST', url, headers: shop.auth, payload: { csv: '' } });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toMatch(/^O arquivo está vazio/);
  });

  it('exports the filtered list as ";" CSV that imports back into another shop', async () => {
    const s = await createClientWithUsers(t, [1]);
    const mk = (payload: Json) =>
      t.app.inject({ method: 'POST', url: '/v1/customer', headers: s.auth, payload });
    await mk({
      name: 'Exportado',
      document: '52998224725',
      creditLimitCents: 123456,
      addresses: [address],
      notes: '=1+1',
    });
    await mk({ name: 'Inativo', active: false });
    const res = await t.app.inject({
      method: 'GET',
      url: `/v1/customer/client/${s.client.id}/export?active=true`,
      headers: s.auth,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toMatch(
      /attachment; filename="clientes-\d{4}-\d{2}-\d{2}\.csv"/,
    );
    const text = res.body;
    expect(text.startsWith('\uFEFFnome;tipo;documento;')).toBe(true);
    expect(text).toContain('Exportado;PF;529.982.247-25;');
    expect(text).toContain(';1234,56;');
    expect(text).toContain("'=1+1");
    expect(text).not.toContain('Inativo');
    const target = await createClientWithUsers(t, [1]);
    const back = await t.app.inject({
      method: 'POST',
      url: `/v1/customer/import/client/${target.client.id}`,
      headers: target.auth,
      payload: { csv: text, mode: 'commit' },
    });
    expect(back.json()).toMatchObject({ created: 1, invalid: 0 });
    const [copy] = (await list('', target.auth, target.client.id)).json().items;
    expect(copy).toMatchObject({
      name: 'Exportado',
      creditLimitCents: 123456,
      notes: '=1+1',
      document: '52998224725',
    });
  });
});
