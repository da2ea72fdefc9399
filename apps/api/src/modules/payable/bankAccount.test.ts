import { DEFAULT_TIME_ZONE, dateIn } from '@balcao/core/time';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helper.ts';
import { type Api, asUser, expectStatus, makeShop, makeSimpleSale } from '../../../test/kit.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const today = dateIn(DEFAULT_TIME_ZONE);

type Category = { id: number; name: string; group: string; archived: boolean };

async function categories(a: Api): Promise<Category[]> {
  return expectStatus(await a.get('/payable/category'), 200);
}

async function bill(a: Api, categoryId: number, description: string, amountCents: number) {
  return expectStatus(await a.post('/payable', { categoryId, description, amountCents, dueDate: today }), 201)
    .items[0];
}

describe("the shop's own expense categories (issue 34)", () => {
  it('adds, renames and archives one: a taken name is a 409, an archived one takes no new bill but its bills keep it', async () => {
    const { api: a, apis } = await asUser(t, [7, 3]);
    const defaults = await categories(a);
    expect(defaults).toHaveLength(12);

    const created = expectStatus(
      await a.post('/payable/category', { name: 'Embalagens', group: 'operating' }),
      201,
    );
    expect(created).toEqual({
      id: expect.any(Number),
      name: 'Embalagens',
      group: 'operating',
      archived: false,
    });
    // The defaults are still there, with the new one.
    expect(await categories(a)).toHaveLength(13);

    // A name the shop already has, whatever its case: 409 in Portuguese.
    const taken = await a.post('/payable/category', { name: 'aluguel', group: 'other' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe('Já existe uma categoria com este nome');
    const renamedOnto = await a.put(`/payable/category/${created.id}`, {
      name: 'ALUGUEL',
      group: 'operating',
    });
    expect(renamedOnto.statusCode).toBe(409);
    expect(renamedOnto.json().message).toBe('Já existe uma categoria com este nome');
    const noName = await a.post('/payable/category', { name: ' ', group: 'operating' });
    expect(noName.statusCode).toBe(400);

    // Renamed and moved to another DRE group.
    expect(
      expectStatus(
        await a.put(`/payable/category/${created.id}`, { name: 'Embalagens e sacolas', group: 'cmv' }),
        200,
      ),
    ).toEqual({ id: created.id, name: 'Embalagens e sacolas', group: 'cmv', archived: false });

    const old = await bill(a, created.id, 'Sacolas de março', 4590);

    // Archived: flagged in the list, refused for a new bill, kept by the old one (which can still be edited).
    expectStatus(
      await a.put(`/payable/category/${created.id}`, {
        name: 'Embalagens e sacolas',
        group: 'cmv',
        archived: true,
      }),
      200,
    );
    expect((await categories(a)).find((c) => c.id === created.id)).toMatchObject({ archived: true });
    const refused = await a.post('/payable', {
      categoryId: created.id,
      description: 'Sacolas de abril',
      amountCents: 100,
      dueDate: today,
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe('Esta categoria está arquivada: escolha outra para contas novas');
    const kept = expectStatus(await a.get(`/payable/${old.id}`), 200);
    expect(kept.category).toEqual({ id: created.id, name: 'Embalagens e sacolas', group: 'cmv' });
    expectStatus(
      await a.put(`/payable/${old.id}`, {
        categoryId: created.id,
        description: 'Sacolas de março (2 caixas)',
        amountCents: 4590,
        dueDate: today,
        updatedAt: kept.updatedAt,
      }),
      200,
    );
    // Another bill cannot move onto the archived one.
    const other = await bill(a, defaults[0].id, 'Outra conta', 100);
    const moved = await a.put(`/payable/${other.id}`, {
      categoryId: created.id,
      description: 'Outra conta',
      amountCents: 100,
      dueDate: today,
      updatedAt: other.updatedAt,
    });
    expect(moved.statusCode).toBe(422);

    // Brought back: offered again.
    expectStatus(
      await a.put(`/payable/category/${created.id}`, { name: 'Embalagens e sacolas', group: 'cmv' }),
      200,
    );
    await bill(a, created.id, 'Sacolas de abril', 100);

    // Tenancy and roles: another shop's category is not found; a Vendedor cannot write.
    const stranger = await asUser(t, [1]);
    const foreign = await stranger.api.put(`/payable/category/${created.id}`, {
      name: 'Minha',
      group: 'other',
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe('Categoria não encontrada');
    expect((await categories(stranger.api)).some((c) => c.id === created.id)).toBe(false);
    expect((await apis[1].post('/payable/category', { name: 'Vendedor', group: 'other' })).statusCode).toBe(
      403,
    );
    expect(
      (await apis[1].put(`/payable/category/${created.id}`, { name: 'X', group: 'other' })).statusCode,
    ).toBe(403);
  });
});

describe("the shop's bank accounts (issue 34)", () => {
  it('records which account paid, shows it in the list and its exports, and reads the cash flow per account', async () => {
    const shop = await makeShop(t, [1, 3]);
    const { api: a, apis } = shop;
    const rent = (await categories(a)).find((c) => c.name === 'Aluguel') as Category;
    const itau = expectStatus(
      await a.post('/payable/bank-account', {
        name: 'Itaú',
        bank: '341 Itaú',
        agency: '1234',
        account: '56789-0',
        receives: ['creditCard', 'pix'],
      }),
      201,
    );
    expect(itau).toEqual({
      id: expect.any(Number),
      name: 'Itaú',
      bank: '341 Itaú',
      agency: '1234',
      account: '56789-0',
      active: true,
      receives: ['pix', 'creditCard'],
    });
    const nubank = expectStatus(await a.post('/payable/bank-account', { name: 'Nubank' }), 201);
    // A sale method lands in one account: Pix is already Itaú's.
    const twice = await a.put(`/payable/bank-account/${nubank.id}`, { name: 'Nubank', receives: ['pix'] });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe('Pix já cai na conta Itaú: tire de lá antes');
    const cash = await a.put(`/payable/bank-account/${nubank.id}`, { name: 'Nubank', receives: ['money'] });
    expect(cash.statusCode).toBe(400);
    expect(cash.json().issues).toEqual([
      { path: 'receives', message: 'O dinheiro fica no caixa: ele não cai numa conta bancária' },
    ]);
    // Today: R$ 10,00 in Pix (lands in Itaú) and R$ 5,00 in cash (the till's).
    await makeSimpleSale(t, shop.auth);
    await makeSimpleSale(t, shop.auth, {
      valueCents: 500,
      payments: [{ method: 'money', amountCents: 500 }],
    });
    const taken = await a.post('/payable/bank-account', { name: 'ITAÚ' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe('Já existe uma conta bancária com este nome');

    const fromItau = await bill(a, rent.id, 'Aluguel', 150000);
    const fromNubank = await bill(a, rent.id, 'Condomínio', 32050);
    const pay = (id: number, body: Record<string, unknown>) =>
      a.post(`/payable/${id}/pay`, { paidOn: today, method: 'pix', source: 'bank', ...body });
    const paid = expectStatus(await pay(fromItau.id, { amountCents: 150000, bankAccountId: itau.id }), 200);
    expect(paid.payments[0]).toMatchObject({ source: 'bank', bankAccount: { id: itau.id, name: 'Itaú' } });
    expect(paid.paidFrom).toBe('Itaú');
    // Partly from Nubank, 1,25 of interest on top: R$ 101,25 left the account.
    expectStatus(
      await pay(fromNubank.id, { amountCents: 10000, interestCents: 125, bankAccountId: nubank.id }),
      200,
    );

    // The account is checked: the register takes none, another shop's is not found, an inactive one refused.
    const register = await pay(fromNubank.id, {
      amountCents: 100,
      method: 'money',
      source: 'register',
      bankAccountId: itau.id,
    });
    expect(register.statusCode).toBe(400);
    expect(register.json().issues).toEqual([
      { path: 'bankAccountId', message: 'Uma conta bancária só paga com a origem "Conta bancária"' },
    ]);
    const stranger = await asUser(t, [1]);
    const theirs = expectStatus(await stranger.api.post('/payable/bank-account', { name: 'Itaú' }), 201);
    const foreign = await pay(fromNubank.id, { amountCents: 100, bankAccountId: theirs.id });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe('Conta bancária não encontrada');
    expectStatus(await a.put(`/payable/bank-account/${nubank.id}`, { name: 'Nubank', active: false }), 200);
    const inactive = await pay(fromNubank.id, { amountCents: 100, bankAccountId: nubank.id });
    expect(inactive.statusCode).toBe(422);
    expect(inactive.json().message).toBe('Esta conta bancária está desativada: escolha outra');
    expect((await stranger.api.put(`/payable/bank-account/${itau.id}`, { name: 'Meu' })).statusCode).toBe(
      404,
    );
    expect(
      expectStatus(await stranger.api.get('/payable/bank-account'), 200).map((b: { id: number }) => b.id),
    ).toEqual([theirs.id]);
    expect((await apis[1].post('/payable/bank-account', { name: 'Caixa Econômica' })).statusCode).toBe(403);

    // The list and its exports say where the money left from.
    const list = expectStatus(await a.get('/payable?status=all'), 200);
    expect(
      Object.fromEntries(
        list.items.map((p: { description: string; paidFrom: string }) => [p.description, p.paidFrom]),
      ),
    ).toEqual({ Aluguel: 'Itaú', Condomínio: 'Nubank' });
    const csv = (await a.get('/payable/export')).body.trim().split('\r\n');
    expect(csv[0].endsWith(';Pago em;Pago por')).toBe(true);
    expect(csv.find((l) => l.includes('Condomínio'))?.endsWith(`;${today};Nubank`)).toBe(true);

    // The cash flow per account: only what left that account; all of them without the filter.
    const flow = async (account?: number) =>
      expectStatus(
        await a.get(`/finance/cash-flow?from=${today}&to=${today}${account ? `&accountId=${account}` : ''}`),
        200,
      );
    const all = await flow();
    expect(all.account).toBeNull();
    expect(all.rows[0].payablesOutCents).toBe(150000 + 10125);
    const itauFlow = await flow(itau.id);
    expect(itauFlow.account).toEqual({ id: itau.id, name: 'Itaú' });
    expect(itauFlow.rows[0]).toMatchObject({
      payablesOutCents: 150000,
      projectedOutCents: 0,
      salesInCents: 1000,
      salesByMethodCents: { money: 0, pix: 1000, creditCard: 0, debitCard: 0, voucher: 0, other: 0 },
      netCents: 1000 - 150000,
    });
    expect((await flow(nubank.id)).rows[0]).toMatchObject({ payablesOutCents: 10125, salesInCents: 0 });
    expect(all.rows[0].salesInCents).toBe(1500);
    const csvItau = await a.get(`/finance/cash-flow/csv?from=${today}&to=${today}&accountId=${itau.id}`);
    expect(csvItau.body.split('\r\n')[1].split(';')[3]).toBe('1500,00');
    const foreignFlow = await stranger.api.get(
      `/finance/cash-flow?from=${today}&to=${today}&accountId=${itau.id}`,
    );
    expect(foreignFlow.statusCode).toBe(404);
    expect(foreignFlow.json().message).toBe('Conta bancária não encontrada');
    // A reversed payment leaves the account's flow.
    const reversed = expectStatus(await a.get(`/payable/${fromItau.id}`), 200);
    expectStatus(await a.post(`/payable/${fromItau.id}/payment/${reversed.payments[0].id}/reverse`), 200);
    expect((await flow(itau.id)).rows[0].payablesOutCents).toBe(0);
  });
});
