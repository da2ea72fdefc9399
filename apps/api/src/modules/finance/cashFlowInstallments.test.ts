import { addDays } from '@balcao/core/date';
import { DEFAULT_TIME_ZONE, dateIn } from '@balcao/core/time';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helper.ts';
import { expectStatus, makeProduct, makeSale, makeShop } from '../../../test/kit.ts';
import { rebuildSaleSummary } from '../sale/summary.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const today = dateIn(DEFAULT_TIME_ZONE);

/** A shop whose card machine charges 3,19% at 1x and 5,5% at 3x, paying in `settlementDays`. */
async function shopPaidIn(settlementDays: number) {
  const shop = await makeShop(t, [1]);
  const a = shop.api;
  const table = expectStatus(
    await a.post('/fee-simulator/table', {
      name: 'Maquininha',
      acquirer: 'Teste',
      ratesDate: today,
      debitRate: 1.99,
      pixRate: 0.99,
      creditRates: [3.19, 4.5, 5.5],
      anticipationModel: 'none',
      anticipationRate: 0,
      settlementDays,
    }),
    201,
  );
  const settings = expectStatus(await a.get('/fee-simulator/settings'), 200);
  expectStatus(
    await a.put('/fee-simulator/settings', {
      activeTableId: table.id,
      pdvSurcharge: false,
      updatedAt: settings.updatedAt,
    }),
    200,
  );
  const product = await makeProduct(t, shop.auth, { salePriceCents: 10001, stock: 10 });
  // R$ 100,01 in 3x: 5,5% = 5,50055 -> 5,50; R$ 94,51 in three parts, the extra cent on the first.
  await makeSale(t, shop.auth, {
    items: [{ productId: product.id, quantity: 1 }],
    payments: [{ method: 'creditCard', amountCents: 10001, numberInstallments: 3 }],
  });
  // R$ 20,00 at 1x: 3,19% = 0,638 -> 0,64; R$ 19,36.
  const small = await makeProduct(t, shop.auth, { salePriceCents: 2000, stock: 10 });
  await makeSale(t, shop.auth, {
    items: [{ productId: small.id, quantity: 1 }],
    payments: [{ method: 'creditCard', amountCents: 2000 }],
  });
  // A canceled sale in 3x counts nowhere.
  const canceled = await makeSale(t, shop.auth, {
    items: [{ productId: product.id, quantity: 1 }],
    payments: [{ method: 'creditCard', amountCents: 10001, numberInstallments: 3 }],
  });
  expectStatus(await a.post(`/sale/${canceled.id}/cancel`, { reason: 'Cliente desistiu' }), 200);
  return shop;
}

async function projectedByDay(shop: Awaited<ReturnType<typeof makeShop>>) {
  const flow = expectStatus(
    await shop.api.get(`/finance/cash-flow?from=${today}&to=${addDays(today, 95)}&groupBy=day`),
    200,
  );
  return {
    flow,
    days: Object.fromEntries(
      flow.rows
        .filter((r: { projectedInCents: number }) => r.projectedInCents !== 0)
        .map((r: { period: string; projectedInCents: number }) => [r.period, r.projectedInCents]),
    ),
  };
}

describe('cash flow: credit sales in instalments (issue 34)', () => {
  it('settles each instalment 30 days after the last, net of the rate for that many instalments, to the cent', async () => {
    const shop = await shopPaidIn(30);
    const { flow, days } = await projectedByDay(shop);
    expect(days).toEqual({
      [addDays(today, 30)]: 3151 + 1936,
      [addDays(today, 60)]: 3150,
      [addDays(today, 90)]: 3150,
    });
    expect(flow.totals.projectedInCents).toBe(10001 - 550 + 2000 - 64);
    expect(flow.totals.salesInCents).toBe(0);
    // The summary the triggers kept is what a rebuild from the sales gives (emptied first, so the rebuild
    // must write it).
    await t.database.db.execute(
      sql`delete from sale_daily_credit_installments where client_id = ${shop.client.id}`,
    );
    expect((await projectedByDay(shop)).days).not.toEqual(days);
    await t.database.db.transaction((tx) => rebuildSaleSummary(tx, shop.client.id));
    expect((await projectedByDay(shop)).days).toEqual(days);
  });

  it('pays every instalment at once when the table anticipates them (settles in less than 30 days)', async () => {
    const shop = await shopPaidIn(2);
    const { days } = await projectedByDay(shop);
    expect(days).toEqual({ [addDays(today, 2)]: 10001 - 550 + 2000 - 64 });
  });
});
