import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_PASSWORD, type TestApp } from '../../../test/helper.ts';
import { asUser, makeSimpleSale } from '../../../test/kit.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('cash register', () => {
  it('opens one register per user, with the opening amount; a second open is 409', async () => {
    const { api } = await asUser(t, [4]);
    expect((await api.get('/cash-register/current')).json()).toEqual({ cashRegister: null });
    const opened = await api.post('/cash-register/open', { openingAmountCents: 10000 });
    expect(opened.statusCode, opened.body).toBe(201);
    expect(opened.json()).toMatchObject({
      status: 'open',
      openingAmountCents: 10000,
      money: { expectedCents: 10000 },
    });
    const again = await api.post('/cash-register/open', { openingAmountCents: 0 });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('Você já tem um caixa aberto');
    const current = (await api.get('/cash-register/current')).json();
    expect(current.cashRegister.id).toBe(opened.json().id);
  });

  it('a sale needs an open register for that user (422 "Abra o caixa para vender")', async () => {
    const [cashier, seller] = (await asUser(t, [4, 3])).apis;
    await cashier.post('/cash-register/open', { openingAmountCents: 0 });
    const res = await seller.post('/sale/simple', {
      description: 'Conserto',
      valueCents: 1000,
      payments: [{ method: 'pix', amountCents: 1000 }],
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe('Abra o caixa para vender');
  });

  it('expected per method: opening + money sales (without the change) + suprimento - sangria; card and pix apart', async () => {
    const { auth, api } = await asUser(t, [1]);
    await api.post('/cash-register/open', { openingAmountCents: 5000 });
    await makeSimpleSale(t, auth, { valueCents: 3750, payments: [{ method: 'money', amountCents: 5000 }] }); // change 12,50
    await makeSimpleSale(t, auth, {
      valueCents: 2000,
      payments: [
        { method: 'debitCard', amountCents: 1500 },
        { method: 'pix', amountCents: 500 },
      ],
    });
    const deposit = await api.post('/cash-register/movement', {
      type: 'deposit',
      amountCents: 2000,
      reason: 'Troco',
    });
    expect(deposit.statusCode, deposit.body).toBe(201);
    const withdrawal = await api.post('/cash-register/movement', {
      type: 'withdrawal',
      amountCents: 3000,
      reason: 'Depósito no banco',
    });
    expect(withdrawal.statusCode, withdrawal.body).toBe(201);
    const summary = withdrawal.json();
    expect(summary.money).toEqual({
      openingCents: 5000,
      salesCents: 3750,
      receiptsCents: 0,
      depositsCents: 2000,
      withdrawalsCents: 3000,
      refundsCents: 0,
      expectedCents: 5000 + 3750 + 2000 - 3000,
    });
    const by = Object.fromEntries(summary.methods.map((m: { method: string }) => [m.method, m]));
    expect(by.debitCard.expectedCents).toBe(1500);
    expect(by.pix.expectedCents).toBe(500);
    expect(summary.sales).toMatchObject({ count: 2, amountCents: 5750, changeCents: 1250 });
    expect(summary.movements.map((m: { type: string; reason: string }) => [m.type, m.reason])).toEqual([
      ['deposit', 'Troco'],
      ['withdrawal', 'Depósito no banco'],
    ]);

    const tooMuch = await api.post('/cash-register/movement', {
      type: 'withdrawal',
      amountCents: 100000,
      reason: 'Tudo',
    });
    expect(tooMuch.statusCode).toBe(422);
    expect(tooMuch.json().message).toBe('A sangria não pode ser maior que o dinheiro no caixa (R$ 77,50)');
    const noReason = await api.post('/cash-register/movement', {
      type: 'deposit',
      amountCents: 100,
      reason: '',
    });
    expect(noReason.statusCode).toBe(400);
  });

  it('sangria by a cashier needs a manager approval (403 without, 422 wrong password, logged when right)', async () => {
    const { users, apis } = await asUser(t, [4, 2]);
    const cashier = apis[0];
    await cashier.post('/cash-register/open', { openingAmountCents: 10000 });
    const without = await cashier.post('/cash-register/movement', {
      type: 'withdrawal',
      amountCents: 1000,
      reason: 'Sangria',
    });
    expect(without.statusCode).toBe(403);
    expect(without.json().message).toMatch(/aprovação de um gerente/);
    const wrong = await cashier.post('/cash-register/movement', {
      type: 'withdrawal',
      amountCents: 1000,
      reason: 'Sangria',
      approval: { email: users[1].email, password: 'errada' },
    });
    expect(wrong.statusCode).toBe(422);
    const notManager = await cashier.post('/cash-register/movement', {
      type: 'withdrawal',
      amountCents: 1000,
      reason: 'Sangria',
      approval: { email: users[0].email, password: TEST_PASSWORD },
    });
    expect(notManager.statusCode).toBe(422);
    const ok = await cashier.post('/cash-register/movement', {
      type: 'withdrawal',
      amountCents: 1000,
      reason: 'Sangria',
      approval: { email: users[1].email, password: TEST_PASSWORD },
    });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().movements[0].approvedBy).toEqual({ id: users[1].user.id, name: 'Usuário 2' });
    // A suprimento needs no approval.
    expect(
      (await cashier.post('/cash-register/movement', { type: 'deposit', amountCents: 1, reason: 'Moedas' }))
        .statusCode,
    ).toBe(201);
  });

  it('closes with counted amounts per method: difference per method and in total; the report stays frozen', async () => {
    const { auth, api, client } = await asUser(t, [4]);
    await api.post('/cash-register/open', { openingAmountCents: 10000 });
    await makeSimpleSale(t, auth, { valueCents: 2500, payments: [{ method: 'money', amountCents: 2500 }] });
    await makeSimpleSale(t, auth, {
      valueCents: 4000,
      payments: [{ method: 'creditCard', amountCents: 4000, numberInstallments: 2 }],
    });
    const closed = await api.post('/cash-register/close', {
      counted: [
        { method: 'money', amountCents: 12000 },
        { method: 'creditCard', amountCents: 4000 },
      ],
      notes: 'Faltou troco',
    });
    expect(closed.statusCode, closed.body).toBe(200);
    const report = closed.json();
    expect(report.status).toBe('closed');
    expect(report.closingNotes).toBe('Faltou troco');
    const by = Object.fromEntries(report.methods.map((m: { method: string }) => [m.method, m]));
    expect(by.money).toMatchObject({ expectedCents: 12500, countedCents: 12000, differenceCents: -500 });
    expect(by.creditCard).toMatchObject({ expectedCents: 4000, countedCents: 4000, differenceCents: 0 });
    expect(report.totals).toEqual({ expectedCents: 16500, countedCents: 16000, differenceCents: -500 });

    // Closed: no register, the next sale is refused, the report reads the same later.
    expect((await api.get('/cash-register/current')).json().cashRegister).toBeNull();
    expect((await api.post('/cash-register/close', {})).statusCode).toBe(422);
    const later = (await api.get(`/cash-register/${report.id}`)).json();
    expect(later.totals).toEqual(report.totals);
    const list = (await api.get(`/cash-register/client/${client.id}`)).json();
    expect(list.items.map((r: { id: number }) => r.id)).toEqual([report.id]);
    // A new register can be opened after closing.
    expect((await api.post('/cash-register/open', { openingAmountCents: 0 })).statusCode).toBe(201);
  });

  it('reports: own registers for a cashier, all for Financeiro; another client gets 404', async () => {
    const { client, apis } = await asUser(t, [4, 7]);
    const [cashier, financial] = apis;
    const opened = (await cashier.post('/cash-register/open', { openingAmountCents: 0 })).json();
    expect((await financial.get(`/cash-register/${opened.id}`)).statusCode).toBe(200);
    expect((await financial.get(`/cash-register/client/${client.id}`)).json().total).toBe(1);
    const other = await asUser(t, [1]);
    expect((await other.api.get(`/cash-register/${opened.id}`)).statusCode).toBe(404);
    expect((await other.api.get(`/cash-register/client/${client.id}`)).statusCode).toBe(404);
    // A driver cannot use the register at all.
    const driver = await asUser(t, [10]);
    expect((await driver.api.post('/cash-register/open', { openingAmountCents: 0 })).statusCode).toBe(403);
  });
});
