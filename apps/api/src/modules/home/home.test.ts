import { addDays } from '@balcao/core/date';
import { DEFAULT_TIME_ZONE, dateIn } from '@balcao/core/time';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helper.ts';
import { makeCustomer, makeProduct, makeSale, makeShop } from '../../../test/kit.ts';
import { clients } from '../../db/schema.ts';
import { receivables } from '../receivable/schema.ts';
import { sales } from '../sale/schema.ts';
import { rebuildSaleSummary } from '../sale/summary.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** Moves a sale back in time by `interval` and rebuilds the client's summary from its sales. */
async function backdate(clientId: number, saleId: number, interval: string) {
  await t.database.db
    .update(sales)
    .set({ createdAt: sql`${sales.createdAt} - ${interval}::interval` })
    .where(eq(sales.id, saleId));
  await rebuildSaleSummary(t.database.db, clientId);
}

describe('GET /v1/home', () => {
  it("answers today's and this month's sales, ticket médio, methods and best sellers from the sales written", async () => {
    const { auth, api, client } = await makeShop(t);
    const coffee = await makeProduct(t, auth, { name: 'Café 500g', salePriceCents: 1000, stock: 100 });
    const cake = await makeProduct(t, auth, { name: 'Bolo de fubá', salePriceCents: 2500, stock: 100 });
    await makeSale(t, auth, {
      items: [{ productId: coffee.id, quantity: 2 }],
      payments: [{ method: 'pix', amountCents: 2000 }],
    });
    // R$ 30,00 received for R$ 25,00: the change is not a sale.
    await makeSale(t, auth, {
      items: [{ productId: cake.id, quantity: 1 }],
      payments: [{ method: 'money', amountCents: 3000 }],
    });
    const canceled = await makeSale(t, auth, {
      items: [{ productId: coffee.id, quantity: 5 }],
      payments: [{ method: 'creditCard', amountCents: 5000 }],
    });
    expect((await api.post(`/sale/${canceled.id}/cancel`, { reason: 'Cliente desistiu' })).statusCode).toBe(
      200,
    );

    const res = await api.get('/home');
    expect(res.statusCode, res.body).toBe(200);
    const home = res.json();
    expect(home.today).toBe(dateIn(DEFAULT_TIME_ZONE));
    expect(home.sales.today).toEqual({ salesCount: 2, amountCents: 4500, averageTicketCents: 2250 });
    expect(home.sales.month).toEqual({ salesCount: 2, amountCents: 4500, averageTicketCents: 2250 });
    expect(home.sales.yesterdayUntilNow).toEqual({ salesCount: 0, amountCents: 0, averageTicketCents: 0 });
    expect(home.sales.byMethodToday).toEqual([
      { method: 'money', amountCents: 2500 },
      { method: 'pix', amountCents: 2000 },
    ]);
    expect(home.sales.topProducts).toEqual([
      { productId: cake.id, name: 'Bolo de fubá', quantity: 1, amountCents: 2500 },
      { productId: coffee.id, name: 'Café 500g', quantity: 2, amountCents: 2000 },
    ]);
    expect(home.sales.days).toHaveLength(30);
    expect(home.sales.days.at(-1)).toEqual({
      day: dateIn(DEFAULT_TIME_ZONE),
      salesCount: 2,
      amountCents: 4500,
    });
    expect(home.register.cashRegister.sales).toMatchObject({ count: 2, canceledCount: 1, amountCents: 4500 });

    // The summary kept by the triggers is what a rebuild from the sales gives.
    const before = (await api.get('/home')).json();
    await rebuildSaleSummary(t.database.db, client.id);
    expect((await api.get('/home')).json()).toEqual(before);
  });

  it('compares with yesterday until the same time and with last month until the same day', async () => {
    const { auth, api, client } = await makeShop(t);
    const p = await makeProduct(t, auth, { salePriceCents: 1000, stock: 100 });
    const sell = (quantity: number) =>
      makeSale(t, auth, {
        items: [{ productId: p.id, quantity }],
        payments: [{ method: 'pix', amountCents: quantity * 1000 }],
      });
    await sell(3);
    const yesterdayEarlier = await sell(1);
    const yesterdayLater = await sell(2);
    const lastMonth = await sell(4);
    // Offsets that stay inside yesterday whatever the time of day the suite runs at (a fixed "-1 hour"
    // landed on today between 23:00 and midnight in the shop's zone).
    const clock = async () => {
      const result = await t.database.db.execute(
        sql`select extract(epoch from (now() at time zone ${clients.timeZone})::time)::float8 as s from ${clients} where ${clients.id} = ${client.id}`,
      );
      const [row] = (result as unknown as { rows: { s: number }[] }).rows;
      return { sinceMidnight: Number(row.s), untilMidnight: 86_400 - Number(row.s) };
    };
    let { sinceMidnight, untilMidnight } = await clock();
    if (sinceMidnight < 10 || untilMidnight < 10) {
      await new Promise((done) => setTimeout(done, 11_000));
      ({ sinceMidnight, untilMidnight } = await clock());
    }
    const before = `${Math.min(60, Math.floor(sinceMidnight / 2))} seconds`;
    await backdate(client.id, yesterdayEarlier.id, `1 day ${before}`);
    // Yesterday, later than the current time of day: not in "yesterday until now".
    await backdate(
      client.id,
      yesterdayLater.id,
      `1 day -${Math.min(3600, Math.floor(untilMidnight / 2))} seconds`,
    );
    await backdate(client.id, lastMonth.id, `1 month ${before}`);

    const { sales: figures } = (await api.get('/home')).json();
    expect(figures.today).toEqual({ salesCount: 1, amountCents: 3000, averageTicketCents: 3000 });
    expect(figures.yesterdayUntilNow).toEqual({ salesCount: 1, amountCents: 1000, averageTicketCents: 1000 });
    expect(figures.previousMonthUntilNow).toEqual({
      salesCount: 1,
      amountCents: 4000,
      averageTicketCents: 4000,
    });
    const yesterday = figures.days.find(
      (d: { day: string }) => d.day === addDays(dateIn(DEFAULT_TIME_ZONE), -1),
    );
    expect(yesterday).toEqual({
      day: addDays(dateIn(DEFAULT_TIME_ZONE), -1),
      salesCount: 2,
      amountCents: 3000,
    });
  });

  it('counts low stock and installments due and overdue', async () => {
    const { auth, api } = await makeShop(t);
    await makeProduct(t, auth, { salePriceCents: 1000, stock: 2, minStock: 5 });
    await makeProduct(t, auth, { salePriceCents: 1000, stock: 5, minStock: 5 });
    const plenty = await makeProduct(t, auth, { salePriceCents: 10000, stock: 50, minStock: 5 });
    const maria = await makeCustomer(t, auth);
    const sale = await makeSale(t, auth, {
      items: [{ productId: plenty.id, quantity: 1 }],
      customerId: maria.id,
      payments: [{ method: 'creditShop', amountCents: 10000, numberInstallments: 4 }],
    });
    const [first, second, third] = sale.receivables;
    const today = dateIn(DEFAULT_TIME_ZONE);
    const due = async (id: number, dueDate: string) =>
      t.database.db.update(receivables).set({ dueDate }).where(eq(receivables.id, id));
    await due(first.id, addDays(today, -2));
    await due(second.id, today);
    await due(third.id, addDays(today, 3));
    const home = (await api.get('/home')).json();
    expect(home.lowStock).toEqual({ count: 2 });
    expect(home.receivables).toEqual({
      overdue: { count: 1, amountCents: 2500 },
      dueToday: { count: 1, amountCents: 2500 },
      dueNextDays: { count: 1, amountCents: 2500 },
    });
  });

  it('answers each user type only its parts', async () => {
    const { api, apis } = await makeShop(t, [1, 6, 4, 9]);
    const [, stockist, cashier, marketing] = apis;
    expect((await api.get('/home')).json()).toMatchObject({
      sales: expect.any(Object),
      register: expect.any(Object),
      lowStock: expect.any(Object),
      receivables: expect.any(Object),
    });
    expect((await stockist.get('/home')).json()).toMatchObject({
      sales: null,
      register: null,
      lowStock: { count: 0 },
      receivables: null,
    });
    // The cashier has no register open yet.
    expect((await cashier.get('/home')).json()).toMatchObject({
      sales: null,
      register: { cashRegister: null },
      lowStock: null,
      receivables: expect.any(Object),
    });
    // Marketing may sell at the PDV (its register), and sees no figures of the shop.
    expect((await marketing.get('/home')).json()).toMatchObject({
      sales: null,
      register: { cashRegister: null },
      lowStock: null,
      receivables: null,
    });
    expect((await t.app.inject({ method: 'GET', url: '/v1/home' })).statusCode).toBe(401);
  });

  it("counts the day in the shop's time zone", async () => {
    const { api, client } = await makeShop(t);
    await t.database.db
      .update(clients)
      .set({ timeZone: 'Pacific/Kiritimati' })
      .where(eq(clients.id, client.id));
    const home = (await api.get('/home')).json();
    expect(home.today).toBe(dateIn('Pacific/Kiritimati'));
  });
});
