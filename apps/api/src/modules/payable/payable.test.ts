import { makeBankBoletoLine } from '@balcao/core/boleto';
import { addDays } from '@balcao/core/date';
import { addMonths } from '@balcao/core/payable';
import { DEFAULT_TIME_ZONE, dateIn } from '@balcao/core/time';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, makeCnpj, type TestApp } from '../../../test/helper.ts';
import { type Api, asUser, expectStatus, makeShop } from '../../../test/kit.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const today = dateIn(DEFAULT_TIME_ZONE);

async function categoryId(a: Api, name = 'Aluguel'): Promise<number> {
  const list = expectStatus(await a.get('/payable/category'), 200);
  return list.find((c: { name: string }) => c.name === name).id;
}

describe('suppliers and categories', () => {
  it('gives a new shop the default categories in DRE groups and checks a supplier CPF/CNPJ', async () => {
    const { api: a } = await asUser(t, [7]);
    const categories = expectStatus(await a.get('/payable/category'), 200);
    expect(categories).toEqual(
      expect.arrayContaining([
        { id: expect.any(Number), name: 'Compra de mercadorias', group: 'cmv', archived: false },
        { id: expect.any(Number), name: 'Salários', group: 'personnel', archived: false },
        { id: expect.any(Number), name: 'Simples Nacional (DAS)', group: 'taxes', archived: false },
      ]),
    );
    const bad = await a.post('/supplier', { name: 'Distribuidora', document: '11.111.111/1111-11' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().issues).toEqual([{ path: 'document', message: 'CPF ou CNPJ inválido' }]);
    const cnpj = makeCnpj('123456780001');
    const supplier = expectStatus(
      await a.post('/supplier', { name: 'Distribuidora Boa', document: cnpj, pixKey: 'pix@boa.com.br' }),
      201,
    );
    expect(supplier).toMatchObject({ name: 'Distribuidora Boa', document: cnpj, pixKey: 'pix@boa.com.br' });
    const again = await a.post('/supplier', { name: 'Outra', document: cnpj });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('Já existe um fornecedor com este CPF/CNPJ');
  });
});

describe('payables', () => {
  it('creates one from a boleto line, lists it by status with totals, and refuses other shops and roles', async () => {
    const { api: a, apis } = await asUser(t, [1, 3, 7]);
    const line = makeBankBoletoLine('341', 25990, addMonths(today, 1));
    const created = expectStatus(
      await a.post('/payable', {
        categoryId: await categoryId(a),
        description: 'Aluguel da loja',
        amountCents: 25990,
        dueDate: addMonths(today, 1),
        boletoLine: line,
        documentNumber: 'NF 123',
      }),
      201,
    );
    expect(created.items).toHaveLength(1);
    expect(created.items[0]).toMatchObject({
      description: 'Aluguel da loja',
      amountCents: 25990,
      openCents: 25990,
      status: 'open',
      overdue: false,
      boletoLine: line,
      category: { name: 'Aluguel', group: 'operating' },
      competenceMonth: addMonths(today, 1).slice(0, 7),
    });
    const typo = await a.post('/payable', {
      categoryId: await categoryId(a),
      description: 'x',
      amountCents: 100,
      dueDate: today,
      boletoLine: `${line.slice(0, 5)}${(Number(line[5]) + 1) % 10}${line.slice(6)}`,
    });
    expect(typo.statusCode).toBe(400);
    expect(typo.json().issues[0]).toEqual({
      path: 'boletoLine',
      message: 'O dígito verificador do campo 1 não confere: confira a digitação',
    });

    const open = expectStatus(await a.get('/payable?status=open'), 200);
    expect(open.total).toBe(1);
    expect(open.totals).toEqual({ amountCents: 25990, paidCents: 0, openCents: 25990, overdueCents: 0 });
    expect(expectStatus(await a.get('/payable?status=paid'), 200).total).toBe(0);

    // The Financeiro (7) writes; a Vendedor (3) does not even read.
    expect((await apis[1].get('/payable')).statusCode).toBe(403);
    expect((await apis[1].post('/supplier', { name: 'X' })).statusCode).toBe(403);
    expect((await apis[2].get(`/payable/${created.items[0].id}`)).statusCode).toBe(200);
    // Another shop sees a 404.
    const other = await asUser(t, [1]);
    expect((await other.api.get(`/payable/${created.items[0].id}`)).statusCode).toBe(404);
    const otherPay = await other.api.post(`/payable/${created.items[0].id}/pay`, {
      paidOn: today,
      amountCents: 100,
      method: 'pix',
      source: 'bank',
    });
    expect(otherPay.statusCode).toBe(404);
  });

  it('splits instalments and edits a monthly recurrence for this one, the following ones or all', async () => {
    const { api: a } = await asUser(t, [1]);
    const cat = await categoryId(a, 'Compra de mercadorias');
    const parts = expectStatus(
      await a.post('/payable', {
        categoryId: cat,
        description: 'Compra',
        amountCents: 100000,
        dueDate: '2026-01-31',
        installments: 3,
      }),
      201,
    ).items;
    expect(parts.map((p: { amountCents: number; dueDate: string }) => [p.amountCents, p.dueDate])).toEqual([
      [33334, '2026-01-31'],
      [33333, '2026-02-28'],
      [33333, '2026-03-31'],
    ]);
    expect(parts[1].series).toEqual({ id: expect.any(Number), kind: 'installments', index: 2, count: 3 });

    const rent = expectStatus(
      await a.post('/payable', {
        categoryId: await categoryId(a),
        description: 'Aluguel',
        amountCents: 200000,
        dueDate: '2026-01-10',
        recurrence: 'monthly',
        occurrences: 4,
      }),
      201,
    ).items;
    expect(rent.map((p: { competenceMonth: string }) => p.competenceMonth)).toEqual([
      '2026-01',
      '2026-02',
      '2026-03',
      '2026-04',
    ]);
    // January is paid: no edit of another reaches it.
    expectStatus(
      await a.post(`/payable/${rent[0].id}/pay`, {
        paidOn: '2026-01-10',
        amountCents: 200000,
        method: 'pix',
        source: 'bank',
      }),
      200,
    );
    const edit = (
      p: { id: number; updatedAt: string; dueDate: string; competenceMonth: string },
      body: object,
    ) =>
      a.put(`/payable/${p.id}`, {
        categoryId: rent[0].category.id,
        description: 'Aluguel',
        amountCents: 200000,
        dueDate: p.dueDate,
        competenceMonth: p.competenceMonth,
        updatedAt: p.updatedAt,
        ...body,
      });
    // Só esta: March only.
    expectStatus(await edit(rent[2], { amountCents: 210000, scope: 'this' }), 200);
    const state = async () =>
      expectStatus(await a.get('/payable?pageSize=100&q=Aluguel'), 200).items.map(
        (p: { amountCents: number; dueDate: string }) => [p.amountCents, p.dueDate],
      );
    expect(await state()).toEqual([
      [200000, '2026-01-10'],
      [200000, '2026-02-10'],
      [210000, '2026-03-10'],
      [200000, '2026-04-10'],
    ]);
    // Esta e as seguintes from February: a new amount and the 15th.
    const feb = expectStatus(await a.get(`/payable/${rent[1].id}`), 200);
    expectStatus(await edit(feb, { amountCents: 220000, dueDate: '2026-02-15', scope: 'following' }), 200);
    expect(await state()).toEqual([
      [200000, '2026-01-10'],
      [220000, '2026-02-15'],
      [220000, '2026-03-15'],
      [220000, '2026-04-15'],
    ]);
    // Todas, from April: the paid January stays as it was paid.
    const apr = expectStatus(await a.get(`/payable/${rent[3].id}`), 200);
    expectStatus(await edit(apr, { amountCents: 230000, scope: 'all' }), 200);
    expect(await state()).toEqual([
      [200000, '2026-01-10'],
      [230000, '2026-02-15'],
      [230000, '2026-03-15'],
      [230000, '2026-04-15'],
    ]);
    // A stale copy is refused.
    const stale = await edit(apr, { amountCents: 1, scope: 'this' });
    expect(stale.statusCode).toBe(409);
    // Deleting the following ones from March leaves January and February.
    expectStatus(await a.delete(`/payable/${rent[2].id}?scope=following`), 200);
    expect((await state()).length).toBe(2);
  });

  it('pays in cash at the till: a withdrawal in the register and its close; partial, discount, interest; reversal', async () => {
    const shop = await makeShop(t, [1]);
    const a = shop.api;
    const created = expectStatus(
      await a.post('/payable', {
        categoryId: await categoryId(a, 'Energia elétrica'),
        description: 'Conta de luz',
        amountCents: 8000,
        dueDate: today,
      }),
      201,
    ).items[0];
    const part = expectStatus(
      await a.post(
        `/payable/${created.id}/pay`,
        {
          paidOn: today,
          amountCents: 5000,
          interestCents: 150,
          fineCents: 100,
          method: 'money',
          source: 'register',
        },
        { 'idempotency-key': 'pagar-luz-0001' },
      ),
      200,
    );
    expect(part).toMatchObject({ status: 'partial', paidCents: 5000, openCents: 3000 });
    expect(part.payments[0]).toMatchObject({
      totalCents: 5250,
      source: 'register',
      cashRegisterId: expect.any(Number),
    });
    // The same key again pays once.
    const retry = expectStatus(
      await a.post(
        `/payable/${created.id}/pay`,
        {
          paidOn: today,
          amountCents: 5000,
          interestCents: 150,
          fineCents: 100,
          method: 'money',
          source: 'register',
        },
        { 'idempotency-key': 'pagar-luz-0001' },
      ),
      200,
    );
    expect(retry.payments).toHaveLength(1);

    const register = expectStatus(await a.get('/cash-register/current'), 200).cashRegister;
    expect(register.money.withdrawalsCents).toBe(5250);
    expect(register.money.expectedCents).toBe(10000 - 5250);
    expect(register.movements).toEqual([
      expect.objectContaining({
        type: 'withdrawal',
        amountCents: 5250,
        reason: 'Conta a pagar: Conta de luz',
      }),
    ]);

    const tooMuch = await a.post(`/payable/${created.id}/pay`, {
      paidOn: today,
      amountCents: 3001,
      method: 'pix',
      source: 'bank',
    });
    expect(tooMuch.statusCode).toBe(422);
    expect(tooMuch.json().message).toBe('O valor pago é maior que o saldo em aberto (R$ 30,00)');
    const pix = await a.post(`/payable/${created.id}/pay`, {
      paidOn: today,
      amountCents: 3000,
      method: 'pix',
      source: 'register',
    });
    expect(pix.json().issues[0].message).toBe('Pagamento pelo caixa só em dinheiro');
    const paid = expectStatus(
      await a.post(`/payable/${created.id}/pay`, {
        paidOn: today,
        amountCents: 3000,
        discountCents: 200,
        method: 'pix',
        source: 'bank',
      }),
      200,
    );
    expect(paid).toMatchObject({ status: 'paid', openCents: 0, lastPaidOn: today });
    const locked = await a.put(`/payable/${created.id}`, {
      categoryId: created.category.id,
      description: 'x',
      amountCents: 8000,
      dueDate: today,
      updatedAt: paid.updatedAt,
    });
    expect(locked.json().message).toBe('Uma conta paga não pode ser alterada: estorne o pagamento antes');

    // Reversing the cash payment takes the withdrawal back from the open register.
    const reversed = expectStatus(
      await a.post(`/payable/${created.id}/payment/${part.payments[0].id}/reverse`),
      200,
    );
    expect(reversed).toMatchObject({ status: 'partial', paidCents: 3000 });
    const after = expectStatus(await a.get('/cash-register/current'), 200).cashRegister;
    expect(after.money.withdrawalsCents).toBe(0);

    // Without an open register, paying from it is refused.
    const noRegister = await asUser(t, [1]);
    const bill = expectStatus(
      await noRegister.api.post('/payable', {
        categoryId: await categoryId(noRegister.api),
        description: 'x',
        amountCents: 100,
        dueDate: today,
      }),
      201,
    ).items[0];
    const closed = await noRegister.api.post(`/payable/${bill.id}/pay`, {
      paidOn: today,
      amountCents: 100,
      method: 'money',
      source: 'register',
    });
    expect(closed.statusCode).toBe(422);
    expect(closed.json()).toMatchObject({
      code: 'register_closed',
      message: 'Abra o caixa para pagar por ele',
    });
  });

  it('exports every payable the filters match as CSV', async () => {
    const { api: a } = await asUser(t, [1]);
    const cat = await categoryId(a);
    expectStatus(
      await a.post('/payable', {
        categoryId: cat,
        description: 'Aluguel; sala',
        amountCents: 123456,
        dueDate: '2026-03-05',
        recurrence: 'monthly',
        occurrences: 3,
      }),
      201,
    );
    const res = await a.get('/payable/export?status=open');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const lines = res.body.trim().split(/\r\n/);
    expect(lines[0]).toBe(
      'Vencimento;Descrição;Fornecedor;Categoria;Competência;Documento;Valor;Pago;Em aberto;Situação;Pago em;Pago por',
    );
    expect(lines).toHaveLength(4);
    expect(lines[1]).toBe(
      '2026-03-05;"Aluguel; sala (1/3)";;Aluguel;2026-03;;1234,56;0,00;1234,56;Vencida;;',
    );
  });

  it('counts open bills overdue, due today and in 7 days for the bell and the home, only for Financeiro people', async () => {
    const { api: a, apis } = await asUser(t, [7, 3]);
    const cat = await categoryId(a);
    const bill = async (amountCents: number, dueDate: string) =>
      expectStatus(
        await a.post('/payable', { categoryId: cat, description: 'Conta', amountCents, dueDate }),
        201,
      ).items[0];
    await bill(10001, addDays(today, -3));
    const partly = await bill(5000, addDays(today, -1));
    await bill(2550, today);
    await bill(1234, addDays(today, 7));
    await bill(999, addDays(today, 8));
    const paid = await bill(777, addDays(today, -2));
    expectStatus(
      await a.post(`/payable/${partly.id}/pay`, {
        paidOn: today,
        amountCents: 1999,
        method: 'pix',
        source: 'bank',
      }),
      200,
    );
    expectStatus(
      await a.post(`/payable/${paid.id}/pay`, {
        paidOn: today,
        amountCents: 777,
        method: 'pix',
        source: 'bank',
      }),
      200,
    );
    const due = {
      overdue: { count: 2, amountCents: 13002 },
      dueToday: { count: 1, amountCents: 2550 },
      dueNextDays: { count: 1, amountCents: 1234 },
    };
    expect(expectStatus(await a.get('/payable/due'), 200)).toEqual(due);
    expect(expectStatus(await a.get('/home'), 200).payables).toEqual(due);
    // The seller sees neither.
    expect((await apis[1].get('/payable/due')).statusCode).toBe(403);
    expect(expectStatus(await apis[1].get('/home'), 200).payables).toBeNull();
    // Another shop counts its own.
    const other = await asUser(t, [1]);
    expect(expectStatus(await other.api.get('/payable/due'), 200).overdue).toEqual({
      count: 0,
      amountCents: 0,
    });
  });
});
