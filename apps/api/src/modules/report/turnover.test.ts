import { addDays, formatDateBr } from '@balcao/core/date';
import { formatCents } from '@balcao/core/money';
import { DEFAULT_TIME_ZONE, dateIn } from '@balcao/core/time';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helper.ts';
import { expectStatus, makeProduct, makeSale, makeShop } from '../../../test/kit.ts';
import { pdfText } from '../../../test/pdf.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const today = dateIn(DEFAULT_TIME_ZONE);

describe('stock turnover and days of stock', () => {
  it('gives CMV / average stock value and closing stock / daily average sold per product and category, exported whole', async () => {
    const shop = await makeShop(t, [1, 3]);
    const bebidas = expectStatus(await shop.api.post('/product-category', { name: 'Bebidas' }), 201);
    const suco = await makeProduct(t, shop.auth, {
      name: 'Suco de uva',
      salePriceCents: 1000,
      categoryId: bebidas.id,
    });
    const pano = await makeProduct(t, shop.auth, { name: 'Pano de prato', salePriceCents: 800 });
    expectStatus(
      await shop.api.post('/stock-movement/entry', {
        items: [
          { productId: suco.id, quantity: 10, unitCostCents: 500 },
          { productId: pano.id, quantity: 20, unitCostCents: 250 },
        ],
      }),
      201,
    );
    await makeSale(t, shop.auth, {
      items: [
        { productId: suco.id, quantity: 4 },
        { productId: pano.id, quantity: 6 },
      ],
      payments: [{ method: 'pix', amountCents: 8800 }],
    });
    // One Pano sold and canceled: it comes back and counts as not sold.
    const canceled = await makeSale(t, shop.auth, {
      items: [{ productId: pano.id, quantity: 1 }],
      payments: [{ method: 'pix', amountCents: 800 }],
    });
    expectStatus(await shop.api.post(`/sale/${canceled.id}/cancel`, { reason: 'Cliente desistiu' }), 200);

    // 30 days up to today: nothing before, so the opening stock is 0.
    const from = addDays(today, -29);
    const report = expectStatus(await shop.api.get(`/report/stock-turnover?from=${from}&to=${today}`), 200);
    expect(report.days).toBe(30);
    // Most CMV first.
    expect(report.products).toEqual([
      // Suco: 4 at R$ 5,00 = R$ 20,00; 6 left; average 3 x 5,00 = R$ 15,00; 1,33; 6 / (4 / 30) = 45.
      {
        productId: suco.id,
        name: 'Suco de uva',
        categoryName: 'Bebidas',
        openingQuantity: 0,
        closingQuantity: 6,
        soldQuantity: 4,
        cogsCents: 2000,
        averageStockCents: 1500,
        closingStockCents: 3000,
        turnover: 1.33,
        daysOfStock: 45,
        previousCogsCents: 0,
        previousTurnover: null,
      },
      // Pano: 6 sold at R$ 2,50 = R$ 15,00; 14 left; average (0 + 14) / 2 x 2,50 = R$ 17,50;
      // turnover 15 / 17,5 = 0,86; 14 / (6 / 30) = 70 days.
      {
        productId: pano.id,
        name: 'Pano de prato',
        categoryName: null,
        openingQuantity: 0,
        closingQuantity: 14,
        soldQuantity: 6,
        cogsCents: 1500,
        averageStockCents: 1750,
        closingStockCents: 3500,
        turnover: 0.86,
        daysOfStock: 70,
        previousCogsCents: 0,
        previousTurnover: null,
      },
    ]);
    expect(report.categories).toEqual([
      {
        categoryName: 'Bebidas',
        soldQuantity: 4,
        cogsCents: 2000,
        averageStockCents: 1500,
        closingStockCents: 3000,
        turnover: 1.33,
        daysOfStock: 45,
        previousCogsCents: 0,
        previousTurnover: null,
      },
      {
        categoryName: null,
        soldQuantity: 6,
        cogsCents: 1500,
        averageStockCents: 1750,
        closingStockCents: 3500,
        turnover: 0.86,
        daysOfStock: 70,
        previousCogsCents: 0,
        previousTurnover: null,
      },
    ]);

    const csv = await shop.api.get(`/report/stock-turnover/csv?from=${from}&to=${today}&section=category`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-disposition']).toBe(
      `attachment; filename="giro-de-estoque-category-${from}-${today}.csv"`,
    );
    expect(csv.body.split('\r\n')).toEqual([
      'Categoria;Vendido;CMV;Estoque médio;Estoque final;Giro;Dias de estoque;CMV no período anterior;Giro no período anterior',
      'Bebidas;4;20,00;15,00;30,00;1,33;45;0,00;',
      'Sem categoria;6;15,00;17,50;35,00;0,86;70;0,00;',
      '',
    ]);
    const xlsx = await shop.api.get(`/report/stock-turnover/xlsx?from=${from}&to=${today}&section=product`);
    expect(xlsx.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    expect(sheet.name).toBe('Giro de estoque por produto');
    expect(sheet.getRow(2).values).toEqual([
      undefined,
      'Suco de uva',
      'Bebidas',
      0,
      6,
      4,
      20,
      15,
      30,
      1.33,
      45,
      0,
    ]);

    // Nothing before the period: the previous totals are zero.
    expect(report.summary).toEqual({
      cogsCents: 3500,
      averageStockCents: 3250,
      closingStockCents: 6500,
      turnover: 1.08,
      daysOfStock: 55.7,
    });
    expect(report.previous).toMatchObject({ cogsCents: 0, turnover: null, to: addDays(from, -1) });

    // Tenancy and roles: another shop sees none of it; a seller reads no reports.
    const other = await makeShop(t);
    expect(
      expectStatus(await other.api.get(`/report/stock-turnover?from=${from}&to=${today}`), 200).products,
    ).toEqual([]);
    expect((await shop.apis[1].get(`/report/stock-turnover?from=${from}&to=${today}`)).statusCode).toBe(403);
  });
});

describe('stock turnover CMV of rows without a cost (issue 34, costed once per product)', () => {
  it("nets a canceled sale's return of stock at today's average cost, the sale itself at the ledger's", async () => {
    const shop = await makeShop(t, [1]);
    const vela = await makeProduct(t, shop.auth, { name: 'Vela aromática', salePriceCents: 1000 });
    expectStatus(
      await shop.api.post('/stock-movement/entry', {
        items: [{ productId: vela.id, quantity: 10, unitCostCents: 400 }],
      }),
      201,
    );
    // 2 sold at R$ 4,00 and 3 sold at R$ 4,00 (kept).
    const canceled = await makeSale(t, shop.auth, {
      items: [{ productId: vela.id, quantity: 2 }],
      payments: [{ method: 'pix', amountCents: 2000 }],
    });
    await makeSale(t, shop.auth, {
      items: [{ productId: vela.id, quantity: 3 }],
      payments: [{ method: 'pix', amountCents: 3000 }],
    });
    // 5 enter at R$ 10,00: (5 x 4,00 + 5 x 10,00) / 10 = R$ 7,00; then the first sale is canceled.
    expectStatus(
      await shop.api.post('/stock-movement/entry', {
        items: [{ productId: vela.id, quantity: 5, unitCostCents: 1000 }],
      }),
      201,
    );
    expectStatus(await shop.api.post(`/sale/${canceled.id}/cancel`, { reason: 'Cliente desistiu' }), 200);
    const report = expectStatus(
      await shop.api.get(`/report/stock-turnover?from=${addDays(today, -29)}&to=${today}`),
      200,
    );
    const row = report.products.find((p: { productId: number }) => p.productId === vela.id);
    expect(row.soldQuantity).toBe(3);
    // 5 x 4,00 taken, 2 back at today's R$ 7,00: 20,00 - 14,00 = R$ 6,00.
    expect(row.cogsCents).toBe(600);
  });
});

/**
 * The turnover's ledger figures as they were read before the month totals (issue 34): every ledger row
 * before the period's end summed per product. The reference the month totals must equal to the cent.
 */
async function ledgerByScan(clientId: number, from: string, to: string) {
  const start = sql`(${from}::date::timestamp at time zone ${DEFAULT_TIME_ZONE}::text)`;
  const end = sql`((${to}::date + 1)::timestamp at time zone ${DEFAULT_TIME_ZONE}::text)`;
  const sold = sql`m.type in ('sale', 'sale-cancel', 'sale-return') and m.created_at >= ${start}`;
  const result = await t.database.db.execute(sql`
    select x.product_id, x.opening, x.closing, x.sold,
      x.costed - x.uncosted * coalesce((select p.cost_price_cents from products p where p.id = x.product_id), 0) as cogs
    from (select m.product_id,
      coalesce(sum(m.quantity) filter (where m.created_at < ${start}), 0) as opening,
      sum(m.quantity) as closing,
      coalesce(-sum(m.quantity) filter (where ${sold}), 0) as sold,
      coalesce(-sum(m.quantity * m.unit_cost_cents) filter (where ${sold}), 0) as costed,
      coalesce(sum(m.quantity) filter (where ${sold} and m.unit_cost_cents is null), 0) as uncosted
    from stock_movements m
    where m.client_id = ${clientId} and m.created_at < ${end}
    group by m.product_id) x order by x.product_id`);
  return (result as unknown as { rows: Record<string, unknown>[] }).rows
    .map((r) => ({
      productId: Number(r.product_id),
      openingQuantity: Number(r.opening),
      closingQuantity: Number(r.closing),
      soldQuantity: Number(r.sold),
      cogsCents: Math.round(Number(r.cogs)),
    }))
    .filter((r) => r.openingQuantity !== 0 || r.closingQuantity !== 0 || r.soldQuantity !== 0);
}

describe('the month totals of the stock ledger (issue 34)', () => {
  it('gives every period the levels, sales and CMV that summing the whole ledger gives, to the cent', async () => {
    const shop = await makeShop(t, [1]);
    const clientId = shop.client.id;
    const cafe = await makeProduct(t, shop.auth, { name: 'Café moído', salePriceCents: 1800 });
    const filtro = await makeProduct(t, shop.auth, { name: 'Filtro de papel', salePriceCents: 600 });
    const entry = async (items: { productId: number; quantity: number; unitCostCents: number }[]) =>
      expectStatus(await shop.api.post('/stock-movement/entry', { items }), 201);
    await entry([
      { productId: cafe.id, quantity: 40, unitCostCents: 900 },
      { productId: filtro.id, quantity: 30, unitCostCents: 210 },
    ]);
    const sale = (items: { productId: number; quantity: number }[], amountCents: number) =>
      makeSale(t, shop.auth, { items, payments: [{ method: 'pix', amountCents }] });
    await sale(
      [
        { productId: cafe.id, quantity: 3 },
        { productId: filtro.id, quantity: 2 },
      ],
      6600,
    );
    const canceled = await sale([{ productId: cafe.id, quantity: 5 }], 9000);
    const returned = await sale(
      [
        { productId: cafe.id, quantity: 4 },
        { productId: filtro.id, quantity: 1 },
      ],
      7800,
    );
    await entry([{ productId: cafe.id, quantity: 20, unitCostCents: 1250 }]);
    expectStatus(await shop.api.post(`/sale/${canceled.id}/cancel`, { reason: 'Cliente desistiu' }), 200);
    expectStatus(
      await shop.api.post(
        `/sale/${returned.id}/return`,
        {
          lines: [{ saleItemId: returned.items[0].id, quantity: 1 }],
          refund: 'original',
          reason: 'Embalagem aberta',
        },
        { 'idempotency-key': `giro-${process.pid}-${Date.now()}` },
      ),
      201,
    );
    expectStatus(
      await shop.api.post('/stock-movement/exit', {
        items: [{ productId: filtro.id, quantity: 2, unitCostCents: 210 }],
        reason: 'breakage',
      }),
      201,
    );
    // An adjustment: the product form sets the level (the database records the difference).
    const form = expectStatus(await shop.api.get(`/product/${filtro.id}`), 200);
    expectStatus(await shop.api.put(`/product/${filtro.id}`, { ...form, stock: 30 }), 200);
    await sale([{ productId: cafe.id, quantity: 6 }], 10800);
    // Today's cost moves after the cancel's and return's uncosted rows: they are costed at it.
    await entry([{ productId: cafe.id, quantity: 10, unitCostCents: 1500 }]);

    // The rows spread over five months, in order, two of them on the shop's month boundary (02:30Z on
    // the 1st is the last day of the previous month in São Paulo, 03:30Z the first of the month).
    const when = [
      '2026-06-20T15:00:00Z',
      '2026-07-01T02:30:00Z',
      '2026-07-01T03:30:00Z',
      '2026-07-15T12:00:00Z',
      '2026-08-01T02:59:00Z',
      '2026-08-10T18:00:00Z',
      '2026-08-31T23:00:00Z',
      '2026-09-01T03:00:00Z',
      '2026-09-16T11:00:00Z',
      '2026-10-01T02:00:00Z',
      '2026-10-12T20:00:00Z',
      '2026-10-31T23:59:00Z',
      '2026-11-02T10:00:00Z',
    ];
    const ids = (
      (await t.database.db.execute(
        sql`select id from stock_movements where client_id = ${clientId} order by id`,
      )) as unknown as { rows: { id: number }[] }
    ).rows.map((r) => r.id);
    expect(ids.length).toBeGreaterThanOrEqual(10);
    for (const [n, id] of ids.entries()) {
      const at = when[Math.min(n, when.length - 1)];
      await t.database.db.execute(
        sql`update stock_movements set created_at = ${at}::timestamptz where id = ${id}`,
      );
    }
    // The totals the triggers kept (inserts, then these updates) are the ledger summed per UTC month.
    const totals = await t.database.db.execute(sql`select
        (select json_agg(x order by x.month, x.product_id) from (select month::text, product_id, quantity::float8,
          sold_quantity::float8, sold_cost_cents::float8, uncosted_quantity::float8 from stock_month_totals
          where client_id = ${clientId} and (quantity, sold_quantity, sold_cost_cents, uncosted_quantity) <> (0, 0, 0, 0)) x) as kept,
        (select json_agg(x order by x.month, x.product_id) from (select date_trunc('month', created_at at time zone 'UTC')::date::text as month,
          product_id, sum(quantity)::float8 as quantity,
          coalesce(sum(quantity) filter (where type in ('sale', 'sale-cancel', 'sale-return')), 0)::float8 as sold_quantity,
          coalesce(sum(quantity * unit_cost_cents) filter (where type in ('sale', 'sale-cancel', 'sale-return')), 0)::float8 as sold_cost_cents,
          coalesce(sum(quantity) filter (where type in ('sale', 'sale-cancel', 'sale-return') and unit_cost_cents is null), 0)::float8 as uncosted_quantity
          from stock_movements where client_id = ${clientId} group by 1, 2) x) as summed`);
    const [{ kept, summed }] = (totals as unknown as { rows: { kept: unknown; summed: unknown }[] }).rows;
    expect(kept).toEqual(summed);

    const periods: [string, string][] = [
      ['2026-06-01', '2026-06-30'],
      ['2026-07-01', '2026-07-31'],
      ['2026-08-01', '2026-08-31'],
      ['2026-09-01', '2026-09-30'],
      ['2026-10-01', '2026-10-31'],
      ['2026-11-01', '2026-11-30'],
      ['2026-07-01', '2026-09-30'],
      ['2026-07-14', '2026-08-12'],
      ['2026-08-16', '2026-10-15'],
      ['2026-01-01', '2026-12-31'],
    ];
    let sold = 0;
    for (const [from, to] of periods) {
      const report = expectStatus(await shop.api.get(`/report/stock-turnover?from=${from}&to=${to}`), 200);
      const got = report.products
        .map((p: Record<string, number>) => ({
          productId: p.productId,
          openingQuantity: p.openingQuantity,
          closingQuantity: p.closingQuantity,
          soldQuantity: p.soldQuantity,
          cogsCents: p.cogsCents,
        }))
        .sort((a: { productId: number }, b: { productId: number }) => a.productId - b.productId);
      expect([from, to, got]).toEqual([from, to, await ledgerByScan(clientId, from, to)]);
      sold += got.reduce((sum: number, p: { soldQuantity: number }) => sum + p.soldQuantity, 0);
    }
    // Not a comparison of empty reports: the periods saw sales.
    expect(sold).toBeGreaterThan(0);
  });
});

describe('stock turnover against the previous period (issue 34: every report compares)', () => {
  it('gives the previous CMV, average stock, turnover and days of stock per row and in total, in the answer and the PDF', async () => {
    const shop = await makeShop(t, [1]);
    const bebidas = expectStatus(await shop.api.post('/product-category', { name: 'Bebidas' }), 201);
    const suco = await makeProduct(t, shop.auth, {
      name: 'Suco de uva',
      salePriceCents: 1000,
      categoryId: bebidas.id,
    });
    const pano = await makeProduct(t, shop.auth, { name: 'Pano de prato', salePriceCents: 800 });
    expectStatus(
      await shop.api.post('/stock-movement/entry', {
        items: [
          { productId: suco.id, quantity: 10, unitCostCents: 500 },
          { productId: pano.id, quantity: 20, unitCostCents: 250 },
        ],
      }),
      201,
    );
    await makeSale(t, shop.auth, {
      items: [
        { productId: suco.id, quantity: 4 },
        { productId: pano.id, quantity: 6 },
      ],
      payments: [{ method: 'pix', amountCents: 8800 }],
    });
    // All of that happened yesterday; today one more Suco is sold.
    await t.database.db.execute(
      sql`update stock_movements set created_at = created_at - interval '1 day' where client_id = ${shop.client.id}`,
    );
    await makeSale(t, shop.auth, {
      items: [{ productId: suco.id, quantity: 1 }],
      payments: [{ method: 'pix', amountCents: 1000 }],
    });

    const yesterday = addDays(today, -1);
    const report = expectStatus(await shop.api.get(`/report/stock-turnover?from=${today}&to=${today}`), 200);
    // Today: Suco 1 sold at R$ 5,00 from 6 to 5 (average 5,5 x 5,00 = 27,50; 5,00 / 27,50 = 0,18; 5 days);
    // Pano none sold, 14 kept (R$ 35,00). Yesterday: Suco 20,00 / 15,00 = 1,33, Pano 15,00 / 17,50 = 0,86.
    expect(
      report.products.map((p: Record<string, unknown>) => [
        p.name,
        p.cogsCents,
        p.turnover,
        p.daysOfStock,
        p.previousCogsCents,
        p.previousTurnover,
      ]),
    ).toEqual([
      ['Suco de uva', 500, 0.18, 5, 2000, 1.33],
      ['Pano de prato', 0, 0, null, 1500, 0.86],
    ]);
    expect(
      report.categories.map((c: Record<string, unknown>) => [
        c.categoryName,
        c.previousCogsCents,
        c.previousTurnover,
      ]),
    ).toEqual([
      ['Bebidas', 2000, 1.33],
      [null, 1500, 0.86],
    ]);
    // In total: today 5,00 over 27,50 + 35,00 = 62,50 (0,08), 60,00 left = 12 days of today's CMV;
    // yesterday 35,00 over 32,50 (1,08), 65,00 left = 1,9 days.
    expect(report.summary).toEqual({
      cogsCents: 500,
      averageStockCents: 6250,
      closingStockCents: 6000,
      turnover: 0.08,
      daysOfStock: 12,
    });
    expect(report.previous).toEqual({
      from: yesterday,
      to: yesterday,
      cogsCents: 3500,
      averageStockCents: 3250,
      closingStockCents: 6500,
      turnover: 1.08,
      daysOfStock: 1.9,
    });

    // The PDF: the totals against yesterday, then every category and product, as a reader sees them.
    const pdf = await shop.api.get(`/report/stock-turnover/pdf?from=${today}&to=${today}`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toBe(
      `attachment; filename="giro-de-estoque-${today}-${today}.pdf"`,
    );
    const text = await pdfText(pdf.rawPayload);
    expect(text).toContain(`Giro de estoque de ${formatDateBr(today)} a ${formatDateBr(today)}`);
    expect(text).toContain(`Comparado com ${formatDateBr(yesterday)} a ${formatDateBr(yesterday)}`);
    expect(text).toContain(`CMV ${formatCents(500)} ${formatCents(3500)} -85,7%`);
    expect(text).toContain('Giro 0,08 1,08 -92,6%');
    expect(text).toContain('Giro de estoque por categoria');
    expect(text).toContain(
      `Suco de uva 1 ${formatCents(500)} ${formatCents(2750)} 0,18 5 ${formatCents(2000)} 1,33`,
    );
    expect(text).toContain(
      `Bebidas 1 ${formatCents(500)} ${formatCents(2750)} 0,18 5 ${formatCents(2000)} 1,33`,
    );
    expect(text).toContain('Pano de prato');
    expect(
      (await shop.apis[0].get(`/report/stock-turnover/pdf?from=${today}&to=${yesterday}`)).statusCode,
    ).toBe(400);
  });
});
