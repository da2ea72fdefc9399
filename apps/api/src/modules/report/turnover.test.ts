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
