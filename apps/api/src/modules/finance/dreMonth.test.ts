import { addMonths } from '@balcao/core/payable';
import { DEFAULT_TIME_ZONE, dateIn } from '@balcao/core/time';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, makeCnpj, type TestApp } from '../../../test/helper.ts';
import { type Api, expectStatus, makeProduct, makeSale, makeShop } from '../../../test/kit.ts';
import { eachDreEntry } from './service.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const today = dateIn(DEFAULT_TIME_ZONE);
const month = today.slice(0, 7);
const nextMonth = addMonths(today, 1).slice(0, 7);

async function category(a: Api, name: string): Promise<number> {
  return expectStatus(await a.get('/payable/category'), 200).find((c: { name: string }) => c.name === name)
    .id;
}

/**
 * Issue 34, "DRE figures for a month built in the test from sales, stock entries and payables, exact to
 * the cent": the product's cost comes only from stock entries (two, at different costs, so the weighted
 * average matters), the month has a discount, a return put back in stock and card fees, and payables in
 * every DRE group (one of next month's competence, which stays out).
 */
describe('DRE of a month built from sales, stock entries and payables', () => {
  it('gives every line exact to the cent', async () => {
    const shop = await makeShop(t, [1]);
    const a = shop.api;
    // Fee table: debit 1,99%, credit 1x 3,19%.
    const table = expectStatus(
      await a.post('/fee-simulator/table', {
        name: 'Maquininha',
        acquirer: 'Teste',
        ratesDate: today,
        debitRate: 1.99,
        pixRate: 0,
        creditRates: [3.19],
        anticipationModel: 'none',
        anticipationRate: 0,
        settlementDays: 30,
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
    // No cost and no stock until the entries.
    const product = await makeProduct(t, shop.auth, { salePriceCents: 1000, costPriceCents: 0 });
    expectStatus(
      await a.post('/stock-movement/entry', {
        items: [{ productId: product.id, quantity: 10, unitCostCents: 400 }],
      }),
      201,
    );
    expect(expectStatus(await a.get(`/product/${product.id}`), 200).costPriceCents).toBe(400);

    // Sale 1: 2 x R$ 10,00 on credit 1x: fee 3,19% of 20,00 = 0,638 -> 0,64; CMV 2 x 4,00 = 8,00.
    await makeSale(t, shop.auth, {
      items: [{ productId: product.id, quantity: 2 }],
      payments: [{ method: 'creditCard', amountCents: 2000 }],
    });

    // The second entry, bought with its bill (CMV/compras payable, shown apart): 10 at R$ 5,55.
    // Average: (8 x 4,00 + 10 x 5,55) / 18 = 87,50 / 18 = 4,8611... -> R$ 4,86.
    const supplier = expectStatus(
      await a.post('/supplier', { name: 'Distribuidora Boa', document: makeCnpj('998877660001') }),
      201,
    );
    expectStatus(
      await a.post('/payable/purchase', {
        entry: { document: '777', items: [{ productId: product.id, quantity: 10, unitCostCents: 555 }] },
        bill: { supplierId: supplier.id, dueDate: today },
      }),
      201,
    );
    expect(expectStatus(await a.get(`/product/${product.id}`), 200).costPriceCents).toBe(486);

    // Sale 2: 3 x R$ 10,00 with R$ 1,50 off, on debit: fee 1,99% of 28,50 = 0,56715 -> 0,57;
    // CMV 3 x 4,86 = 14,58.
    await makeSale(t, shop.auth, {
      items: [{ productId: product.id, quantity: 3 }],
      discountType: 'fixed_amount',
      discountValue: 150,
      payments: [{ method: 'debitCard', amountCents: 2850 }],
    });
    // Sale 3: 1 x R$ 10,00 in cash, no fee; CMV 4,86. One unit of it comes back to the shelf.
    const sale3 = await makeSale(t, shop.auth, {
      items: [{ productId: product.id, quantity: 1 }],
      payments: [{ method: 'money', amountCents: 1000 }],
    });
    expectStatus(
      await a.post(
        `/sale/${sale3.id}/return`,
        {
          lines: [{ saleItemId: sale3.items[0].id, quantity: 1 }],
          refund: 'original',
          reason: 'Veio aberto',
        },
        { 'idempotency-key': `dre-mes-${sale3.id}` },
      ),
      201,
    );

    const make = async (name: string, amountCents: number, competenceMonth = month) =>
      expectStatus(
        await a.post('/payable', {
          categoryId: await category(a, name),
          description: name,
          amountCents,
          dueDate: today,
          competenceMonth,
        }),
        201,
      ).items[0];
    await make('Aluguel', 150000);
    await make('Energia elétrica', 23456);
    await make('Salários', 200000);
    await make('Simples Nacional (DAS)', 12345);
    await make('Tarifas bancárias', 990);
    await make('Outras despesas', 1);
    // Next month's competence: not in this month's DRE even though due today.
    await make('Salários', 777777, nextMonth);

    const result = expectStatus(await a.get(`/finance/dre?month=${month}`), 200);
    expect(result.salesCount).toBe(3);
    expect(
      result.lines.map((l: { key: string; label: string; amountCents: number }) => [
        l.key,
        l.label,
        l.amountCents,
      ]),
    ).toEqual([
      // 2 + 3 + 1 units at R$ 10,00.
      ['grossRevenue', 'Receita bruta', 6000],
      ['discounts', '(-) Descontos', -150],
      ['returns', '(-) Devoluções', -1000],
      // 0,64 + 0,57
      ['cardFees', '(-) Taxas de cartão, Pix e vales', -121],
      // 60,00 - 1,50 - 10,00 - 1,21
      ['netRevenue', 'Receita líquida', 4729],
      // 8,00 + 14,58 + 4,86 - 4,86 (the returned unit is back in stock)
      ['cmv', '(-) CMV (custo das mercadorias vendidas)', -2258],
      ['grossMargin', 'Margem bruta', 2471],
      ['expense:operating', 'Despesas operacionais', -173456],
      ['expense:personnel', 'Pessoal', -200000],
      ['expense:taxes', 'Impostos', -12345],
      ['expense:financial', 'Financeiras', -990],
      ['expense:other', 'Outras', -1],
      // 24,71 - 1.734,56 - 2.000,00 - 123,45 - 9,90 - 0,01
      ['result', 'Resultado do mês', -384321],
    ]);
    // The purchase's bill is stock bought: shown apart (10 x 5,55), not in the result.
    expect(result.purchasesCents).toBe(5550);

    // The CMV's records add up to its line: the three sales and the unit returned.
    const cmv = expectStatus(await a.get(`/finance/dre/entries?month=${month}&line=cmv`), 200);
    expect(cmv.entries.map((e: { kind: string; amountCents: number }) => [e.kind, e.amountCents])).toEqual([
      ['sale', -800],
      ['sale', -1458],
      ['sale', -486],
      ['return', 486],
    ]);
    expect(cmv.amountCents).toBe(-2258);
    expect(cmv.entries[3]).toMatchObject({
      id: sale3.id,
      description: `Devolução da venda nº ${sale3.number} (de volta ao estoque)`,
    });
    // The export reads the same records page by page.
    const paged = [];
    for await (const entry of eachDreEntry(
      t.database.db,
      { clientId: shop.client.id, userId: shop.users[0].user.id },
      month,
      'cmv',
      1,
    ))
      paged.push(entry);
    expect(paged).toEqual(cmv.entries);
  });
});
