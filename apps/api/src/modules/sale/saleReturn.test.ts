import type { SaleReturns } from '@balcao/core/saleReturn';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_PASSWORD, type TestApp } from '../../../test/helper.ts';
import {
  type Api,
  expectStatus,
  makeCustomer,
  makeProduct,
  makeSale,
  makeShop,
  openRegister,
} from '../../../test/kit.ts';
import { stockMovements } from '../stock/schema.ts';
import { saleDailyPayments, saleDailyTotals, saleMonthlyProducts, sales } from './schema.ts';
import { rebuildSaleSummary } from './summary.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

let keySeq = 0;
const key = () => ({ 'idempotency-key': `devolucao-${process.pid}-${Date.now()}-${++keySeq}` });

const stockOf = async (api: Api, productId: number): Promise<number> =>
  (await api.get(`/product/${productId}`)).json().stock;
const creditOf = async (api: Api, customerId: number): Promise<number> =>
  expectStatus(await api.get(`/customer/${customerId}/store-credit`), 200).balanceCents;

/** A shop with a sale of 3 shirts (R$ 59,90) and 1 cap (R$ 35,00) with 10% off the sale. */
async function shopWithSale(payments?: { method: string; amountCents: number }[], userTypeIds = [1]) {
  const shop = await makeShop(t, userTypeIds);
  const shirt = await makeProduct(t, shop.auth, { name: 'Camiseta básica', salePriceCents: 5990, stock: 10 });
  const cap = await makeProduct(t, shop.auth, { name: 'Boné', salePriceCents: 3500, stock: 5 });
  const customer = await makeCustomer(t, shop.auth, { name: 'Joana Prado' });
  // items 3 x 59,90 + 35,00 = 214,70; 10% = 21,47 -> final 193,23
  const sale = await makeSale(t, shop.auth, {
    items: [
      { productId: shirt.id, quantity: 3 },
      { productId: cap.id, quantity: 1 },
    ],
    customerId: customer.id,
    discountType: 'percentage',
    discountValue: 1000,
    payments: payments ?? [{ method: 'pix', amountCents: 19323 }],
  });
  expect(sale.finalAmountCents).toBe(19323);
  return { ...shop, shirt, cap, customer, sale };
}

describe('POST /v1/sale/:id/return', () => {
  it('gives a vale-troca worth the line net of the sale discount, restocks with the user and takes it off the day', async () => {
    const { api, sale, shirt, customer, client } = await shopWithSale();
    const res = await api.post(
      `/sale/${sale.id}/return`,
      {
        lines: [{ saleItemId: sale.items[0].id, quantity: 1 }],
        refund: 'storeCredit',
        reason: 'Tamanho errado',
      },
      key(),
    );
    const body = expectStatus<SaleReturns>(res, 201);
    // line 179,70 of 214,70 net 193,23: 161,73 for 3 -> 53,91 for one
    expect(body.returnedCents).toBe(5391);
    expect(body.returns[0]).toMatchObject({
      refund: 'storeCredit',
      amountCents: 5391,
      customer: { name: 'Joana Prado' },
    });
    expect(body.returnedQuantities).toEqual([{ saleItemId: sale.items[0].id, quantity: 1 }]);
    expect(await creditOf(api, customer.id)).toBe(5391);
    expect(await stockOf(api, shirt.id)).toBe(8);
    const [movement] = await t.database.db
      .select()
      .from(stockMovements)
      .where(and(eq(stockMovements.saleId, sale.id), eq(stockMovements.type, 'sale-return')));
    expect(movement).toMatchObject({ quantity: '1.000', note: `Devolução da venda nº ${sale.number}` });
    expect(movement.userId).not.toBeNull();
    const [day] = await t.database.db
      .select()
      .from(saleDailyTotals)
      .where(eq(saleDailyTotals.clientId, client.id));
    expect(day).toMatchObject({ salesCount: 1, amountCents: 19323 - 5391 });
    // A rebuild of the summary (a time zone change) lands on the same figures.
    const summary = async () => ({
      days: await t.database.db.select().from(saleDailyTotals).where(eq(saleDailyTotals.clientId, client.id)),
      methods: await t.database.db
        .select()
        .from(saleDailyPayments)
        .where(eq(saleDailyPayments.clientId, client.id)),
      products: await t.database.db
        .select()
        .from(saleMonthlyProducts)
        .where(eq(saleMonthlyProducts.clientId, client.id))
        .orderBy(saleMonthlyProducts.productId),
    });
    const before = await summary();
    expect(before.methods).toMatchObject([{ method: 'pix', amountCents: 19323 - 5391 }]);
    expect(before.products[0]).toMatchObject({ productId: shirt.id, quantity: 2, amountCents: 11980 });
    await t.database.db.transaction((tx) => rebuildSaleSummary(tx, client.id));
    expect(await summary()).toEqual(before);
    // The sales list's revenue counts the return off too.
    const { totals } = expectStatus(await api.get(`/sale/client/${client.id}`), 200);
    expect(totals).toMatchObject({
      activeAmountCents: 13932,
      returnedCents: 5391,
      byPaymentMethod: { pix: 13932 },
    });
  });

  it('adds up to the sale to the cent over several returns and refuses more than was sold (409)', async () => {
    const { api, sale } = await shopWithSale();
    const shirtLine = sale.items[0].id;
    const capLine = sale.items[1].id;
    const first = await api.post(
      `/sale/${sale.id}/return`,
      { lines: [{ saleItemId: shirtLine, quantity: 2 }], refund: 'storeCredit', reason: 'Troca' },
      key(),
    );
    expect(expectStatus<SaleReturns>(first, 201).returnedCents).toBe(10782);
    const over = await api.post(
      `/sale/${sale.id}/return`,
      { lines: [{ saleItemId: shirtLine, quantity: 2 }], refund: 'storeCredit', reason: 'Troca' },
      key(),
    );
    expect(over.statusCode).toBe(409);
    expect(over.json().message).toBe(
      'Não dá para devolver mais do que foi vendido de Camiseta básica: restam 1 un',
    );
    const rest = await api.post(
      `/sale/${sale.id}/return`,
      {
        lines: [
          { saleItemId: shirtLine, quantity: 1 },
          { saleItemId: capLine, quantity: 1, restock: false },
        ],
        refund: 'storeCredit',
        reason: 'Troca',
      },
      key(),
    );
    // everything back: exactly what was paid, 193,23
    expect(expectStatus<SaleReturns>(rest, 201).returnedCents).toBe(19323);
  });

  it('refunds cash out of the open register and the close expects it', async () => {
    const { api, sale } = await shopWithSale([{ method: 'money', amountCents: 19323 }]);
    const before = expectStatus(await api.get('/cash-register/current'), 200).cashRegister;
    const res = await api.post(
      `/sale/${sale.id}/return`,
      { lines: [{ saleItemId: sale.items[1].id, quantity: 1 }], refund: 'original', reason: 'Defeito' },
      key(),
    );
    const body = expectStatus<SaleReturns>(res, 201);
    // cap 35,00 of 214,70 net 193,23 -> 31,50
    expect(body.returns[0].refunds).toEqual([{ method: 'money', amountCents: 3150 }]);
    const after = expectStatus(await api.get('/cash-register/current'), 200).cashRegister;
    expect(after.money.expectedCents).toBe(before.money.expectedCents - 3150);
    expect(after.money.refundsCents).toBe(3150);
    expect(after.movements.at(-1)).toMatchObject({ type: 'refund', amountCents: 3150 });
  });

  it('needs an open register to refund cash', async () => {
    const { api, sale } = await shopWithSale([{ method: 'money', amountCents: 19323 }]);
    expectStatus(await api.post('/cash-register/close', { counted: [] }), 200);
    const res = await api.post(
      `/sale/${sale.id}/return`,
      { lines: [{ saleItemId: sale.items[1].id, quantity: 1 }], refund: 'original', reason: 'Defeito' },
      key(),
    );
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      code: 'register_closed',
      message: 'Abra o caixa para devolver o valor em dinheiro',
    });
  });

  it('takes effect once per Idempotency-Key and requires one', async () => {
    const { api, sale, customer } = await shopWithSale();
    const body = {
      lines: [{ saleItemId: sale.items[1].id, quantity: 1 }],
      refund: 'storeCredit',
      reason: 'Troca',
    };
    const k = key();
    expectStatus(await api.post(`/sale/${sale.id}/return`, body, k), 201);
    const again = await api.post(`/sale/${sale.id}/return`, body, k);
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().returns).toHaveLength(1);
    expect(await creditOf(api, customer.id)).toBe(3150);
    expect((await api.post(`/sale/${sale.id}/return`, body)).statusCode).toBe(400);
  });

  it('answers 409 to the second of two concurrent returns of the whole line', async () => {
    const { api, sale, customer } = await shopWithSale();
    const body = {
      lines: [{ saleItemId: sale.items[0].id, quantity: 3 }],
      refund: 'storeCredit',
      reason: 'Troca',
    };
    const results = await Promise.all([
      api.post(`/sale/${sale.id}/return`, body, key()),
      api.post(`/sale/${sale.id}/return`, body, key()),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    expect(await creditOf(api, customer.id)).toBe(16173);
  });

  it('asks a manager for a Caixa (the settings) and refuses past the window', async () => {
    const { apis, sale, users } = await shopWithSale(undefined, [1, 4]);
    const cashier = apis[1];
    await openRegister(t, { authorization: `Bearer ${users[1].token}` });
    const body = {
      lines: [{ saleItemId: sale.items[1].id, quantity: 1 }],
      refund: 'storeCredit',
      reason: 'Troca',
    };
    const refused = await cashier.post(`/sale/${sale.id}/return`, body, key());
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(
      'Trocas e devoluções precisam da aprovação de um gerente: informe o email e a senha de um Administrador ou Gerente',
    );
    const approved = await cashier.post(
      `/sale/${sale.id}/return`,
      { ...body, approval: { email: users[0].email, password: TEST_PASSWORD } },
      key(),
    );
    expect(expectStatus<SaleReturns>(approved, 201).returns[0].approvedBy?.id).toBe(users[0].user.id);
    await t.database.db
      .update(sales)
      .set({ createdAt: new Date(Date.now() - 32 * 86_400_000) })
      .where(eq(sales.id, sale.id));
    const late = await apis[0].post(
      `/sale/${sale.id}/return`,
      { ...body, lines: [{ saleItemId: sale.items[0].id, quantity: 1 }] },
      key(),
    );
    expect(late.statusCode).toBe(422);
    expect(late.json().message).toBe('O prazo de troca desta venda terminou (30 dias após a compra)');
  });

  it('keeps a returned sale from being canceled', async () => {
    const { api, sale } = await shopWithSale();
    expectStatus(
      await api.post(
        `/sale/${sale.id}/return`,
        { lines: [{ saleItemId: sale.items[1].id, quantity: 1 }], refund: 'storeCredit', reason: 'Troca' },
        key(),
      ),
      201,
    );
    const res = await api.post(`/sale/${sale.id}/cancel`, { reason: 'Engano' });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(
      'Esta venda tem devoluções: devolva os itens restantes em vez de cancelar a venda',
    );
  });
});

describe('vale-troca at the PDV', () => {
  it('pays a sale with the credit, refuses more than the balance and gives it back on cancel', async () => {
    const { api, auth, sale, shirt, customer } = await shopWithSale();
    expectStatus(
      await api.post(
        `/sale/${sale.id}/return`,
        { lines: [{ saleItemId: sale.items[0].id, quantity: 1 }], refund: 'storeCredit', reason: 'Troca' },
        key(),
      ),
      201,
    );
    const tooMuch = await api.post('/sale', {
      items: [{ productId: shirt.id, quantity: 2 }],
      customerId: customer.id,
      payments: [{ method: 'storeCredit', amountCents: 11980 }],
    });
    expect(tooMuch.statusCode).toBe(422);
    expect(tooMuch.json().message).toBe('Saldo de vale-troca insuficiente: o cliente tem R$ 53,91');
    const noCustomer = await api.post('/sale', {
      items: [{ productId: shirt.id, quantity: 1 }],
      payments: [{ method: 'storeCredit', amountCents: 5990 }],
    });
    expect(noCustomer.json().message).toBe('Informe o cliente para pagar com vale-troca');
    // the exchange: a shirt of another size, 59,90 = 53,91 of credit + 5,99 in pix
    const exchange = await makeSale(t, auth, {
      items: [{ productId: shirt.id, quantity: 1 }],
      customerId: customer.id,
      payments: [
        { method: 'storeCredit', amountCents: 5391 },
        { method: 'pix', amountCents: 599 },
      ],
    });
    expect(await creditOf(api, customer.id)).toBe(0);
    expectStatus(await api.post(`/sale/${exchange.id}/cancel`, { reason: 'Desistiu' }), 200);
    expect(await creditOf(api, customer.id)).toBe(5391);
  });
});

describe('POST /v1/sale/:id/exchange', () => {
  it('returns and sells in one operation: the credit pays first, the difference is paid or stays as vale-troca', async () => {
    const { api, sale, shirt, cap, customer } = await shopWithSale();
    // A shirt (53,91 net) for a cap (35,00): 18,91 stays as vale-troca, nothing to pay.
    const k = key();
    const body = {
      lines: [{ saleItemId: sale.items[0].id, quantity: 1 }],
      reason: 'Trocou por um boné',
      sale: { items: [{ productId: cap.id, quantity: 1 }] },
    };
    const first = expectStatus(await api.post(`/sale/${sale.id}/exchange`, body, k), 201);
    expect(first).toMatchObject({
      customer: { id: customer.id },
      finalAmountCents: 3500,
      payments: [{ method: 'storeCredit', amountCents: 3500 }],
      notes: `Troca da venda nº ${sale.number}`,
    });
    expect(await creditOf(api, customer.id)).toBe(1891);
    const again = await api.post(`/sale/${sale.id}/exchange`, body, k);
    expect(again.statusCode).toBe(200);
    expect(again.json().id).toBe(first.id);
    expect(await creditOf(api, customer.id)).toBe(1891);
    expect(await stockOf(api, shirt.id)).toBe(8);
    // The cap (31,50 net) for two shirts (119,80): 88,30 paid in Pix; the 18,91 left stays.
    const second = await api.post(
      `/sale/${sale.id}/exchange`,
      {
        lines: [{ saleItemId: sale.items[1].id, quantity: 1 }],
        reason: 'Trocou por camisetas',
        sale: {
          items: [{ productId: shirt.id, quantity: 2 }],
          payments: [{ method: 'pix', amountCents: 8830 }],
        },
      },
      key(),
    );
    expect(expectStatus(second, 201).payments).toMatchObject([
      { method: 'storeCredit', amountCents: 3150 },
      { method: 'pix', amountCents: 8830 },
    ]);
    expect(await creditOf(api, customer.id)).toBe(1891);
    // Short of the difference: nothing happens (no return either).
    const short = await api.post(
      `/sale/${sale.id}/exchange`,
      {
        lines: [{ saleItemId: sale.items[0].id, quantity: 1 }],
        reason: 'Troca',
        sale: {
          items: [{ productId: shirt.id, quantity: 2 }],
          payments: [{ method: 'pix', amountCents: 100 }],
        },
      },
      key(),
    );
    expect(short.statusCode).toBe(422);
    const returns = expectStatus<SaleReturns>(await api.get(`/sale/${sale.id}/returns`), 200);
    expect(returns.returns).toHaveLength(2);
    expect(await creditOf(api, customer.id)).toBe(1891);
  });
});

describe('return and blind count settings', () => {
  it('follow the system page: a shorter window, a Caixa returning alone, no blind count', async () => {
    const { api, apis, sale, users } = await shopWithSale(undefined, [1, 4]);
    const current = expectStatus(await api.get('/settings/system'), 200);
    expect(current).toMatchObject({
      returns: { windowDays: 30, userTypeIds: [1, 2] },
      blindCountUserTypeIds: [4],
    });
    const { updatedAt: _u, updatedBy: _b, ...body } = current;
    const bad = await api.put('/settings/system', {
      ...body,
      returns: { windowDays: 0, userTypeIds: [] },
      updatedAt: null,
    });
    expect(bad.json().issues).toContainEqual({
      path: 'returns.windowDays',
      message: 'Prazo de troca: use no mínimo 1',
    });
    expectStatus(
      await api.put('/settings/system', {
        ...body,
        returns: { windowDays: 7, userTypeIds: [1, 4] },
        blindCountUserTypeIds: [],
        updatedAt: null,
      }),
      200,
    );
    await openRegister(t, { authorization: `Bearer ${users[1].token}` });
    expect(expectStatus(await apis[1].get('/cash-register/current'), 200).cashRegister.blindCount).toBe(
      false,
    );
    const body1 = {
      lines: [{ saleItemId: sale.items[1].id, quantity: 1 }],
      refund: 'storeCredit',
      reason: 'Troca',
    };
    expectStatus(await apis[1].post(`/sale/${sale.id}/return`, body1, key()), 201);
    await t.database.db
      .update(sales)
      .set({ createdAt: new Date(Date.now() - 8 * 86_400_000) })
      .where(eq(sales.id, sale.id));
    const late = await api.post(
      `/sale/${sale.id}/return`,
      { ...body1, lines: [{ saleItemId: sale.items[0].id, quantity: 1 }] },
      key(),
    );
    expect(late.json().message).toBe('O prazo de troca desta venda terminou (7 dias após a compra)');
  });
});

describe('blind cash count', () => {
  it('is on for a Caixa by default and off for an Administrador', async () => {
    const shop = await makeShop(t, [1, 4]);
    await openRegister(t, { authorization: `Bearer ${shop.users[1].token}` });
    expect(expectStatus(await shop.apis[1].get('/cash-register/current'), 200).cashRegister.blindCount).toBe(
      true,
    );
    expect(expectStatus(await shop.apis[0].get('/cash-register/current'), 200).cashRegister.blindCount).toBe(
      false,
    );
  });
});
