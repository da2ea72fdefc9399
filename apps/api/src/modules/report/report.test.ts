import { addDays, formatDateBr } from '@balcao/core/date';
import { formatCents } from '@balcao/core/money';
import { DEFAULT_TIME_ZONE, dateIn, formatInZone } from '@balcao/core/time';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helper.ts';
import {
  asUser,
  expectStatus,
  makeCustomer,
  makeProduct,
  makeSale,
  makeShop,
  makeSimpleSale,
} from '../../../test/kit.ts';
import { pdfText } from '../../../test/pdf.ts';
import { copyLines } from '../../lib/copyOut.ts';
import { eachSaleLine, rawFigures } from '../sale/reportFigures.ts';
import { salesReport } from './service.ts';
import { type Column, textCell } from './tables.ts';
import { XLSX_DATA_ROWS, xlsxFromRowXml, xlsxRowsSql, xlsxStream } from './xlsx.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const today = dateIn(DEFAULT_TIME_ZONE);
let keySeq = 0;
const key = () => ({ 'idempotency-key': `relatorio-${process.pid}-${Date.now()}-${++keySeq}` });

/**
 * Today's sales of a shop: 3 x R$ 10,00 on credit by the Administrador; a quick sale of R$ 10,00 by Pix
 * by the Vendedor; 2 x R$ 10,00 with R$ 2,00 off in cash, one unit returned (R$ 9,00 back in cash);
 * a sale of R$ 90,00 canceled. The product costs R$ 4,00 and is in the category "Bebidas".
 */
async function seededShop() {
  const shop = await makeShop(t, [1, 3, 7]);
  const a = shop.api;
  const category = expectStatus(await a.post('/product-category', { name: 'Bebidas' }), 201);
  const product = await makeProduct(t, shop.auth, {
    name: 'Suco de laranja',
    salePriceCents: 1000,
    costPriceCents: 400,
    stock: 100,
    categoryId: category.id,
  });
  await makeSale(t, shop.auth, {
    items: [{ productId: product.id, quantity: 3 }],
    payments: [{ method: 'creditCard', amountCents: 3000 }],
  });
  const quick = await makeSimpleSale(t, shop.auth);
  // The quick sale is credited to the Vendedor.
  await t.database.db.execute(
    sql`update sales set seller_id = ${shop.users[1].user.id} where id = ${quick.id}`,
  );
  const withReturn = await makeSale(t, shop.auth, {
    items: [{ productId: product.id, quantity: 2 }],
    discountType: 'fixed_amount',
    discountValue: 200,
    payments: [{ method: 'money', amountCents: 1800 }],
  });
  expectStatus(
    await a.post(
      `/sale/${withReturn.id}/return`,
      {
        lines: [{ saleItemId: withReturn.items[0].id, quantity: 1 }],
        refund: 'original',
        reason: 'Veio aberto',
      },
      key(),
    ),
    201,
  );
  const canceled = await makeSale(t, shop.auth, {
    items: [{ productId: product.id, quantity: 9 }],
    payments: [{ method: 'money', amountCents: 9000 }],
  });
  expectStatus(await a.post(`/sale/${canceled.id}/cancel`, { reason: 'Cliente desistiu' }), 200);
  return { ...shop, product, category };
}

describe('GET /v1/report/sales', () => {
  it('nets returns and cancels to the cent: summary, methods, sellers, products with cost and margin, categories', async () => {
    const shop = await seededShop();
    const report = expectStatus(await shop.api.get(`/report/sales?from=${today}&to=${today}`), 200);
    expect(report.summary).toEqual({
      salesCount: 3,
      grossCents: 6000,
      discountsCents: 200,
      returnsCents: 900,
      netCents: 4900,
      costCents: 1600,
      marginCents: 3300,
      averageTicketCents: 1633,
      canceledCount: 1,
      canceledCents: 9000,
    });
    expect(report.byPeriod).toEqual([{ period: today, salesCount: 3, netCents: 4900 }]);
    expect(report.byMethod).toEqual([
      { method: 'creditCard', label: 'Cartão de crédito', amountCents: 3000, previousAmountCents: 0 },
      { method: 'pix', label: 'Pix', amountCents: 1000, previousAmountCents: 0 },
      { method: 'money', label: 'Dinheiro', amountCents: 900, previousAmountCents: 0 },
    ]);
    const admin = shop.users[0].user;
    const seller = shop.users[1].user;
    expect(report.bySeller).toEqual([
      {
        userId: admin.id,
        name: admin.name,
        salesCount: 2,
        netCents: 3900,
        averageTicketCents: 1950,
        discountsCents: 200,
        previousNetCents: 0,
      },
      {
        userId: seller.id,
        name: seller.name,
        salesCount: 1,
        netCents: 1000,
        averageTicketCents: 1000,
        discountsCents: 0,
        previousNetCents: 0,
      },
    ]);
    expect(report.byOrigin).toEqual([
      { origin: 'pdv', label: 'PDV', salesCount: 3, netCents: 4900, previousNetCents: 0 },
    ]);
    expect(report.byProduct).toEqual([
      {
        productId: shop.product.id,
        name: 'Suco de laranja',
        categoryName: 'Bebidas',
        quantity: 4,
        revenueCents: 3900,
        costCents: 1600,
        marginCents: 2300,
        shareBp: 7959,
        cumulativeBp: 7959,
        abc: 'A',
        previousRevenueCents: 0,
      },
      {
        productId: null,
        name: 'Itens avulsos (venda simples)',
        categoryName: null,
        quantity: 1,
        revenueCents: 1000,
        costCents: 0,
        marginCents: 1000,
        shareBp: 2041,
        cumulativeBp: 10000,
        abc: 'A',
        previousRevenueCents: 0,
      },
    ]);
    expect(report.byCategory).toEqual([
      {
        categoryId: shop.category.id,
        name: 'Bebidas',
        quantity: 4,
        revenueCents: 3900,
        costCents: 1600,
        marginCents: 2300,
        previousRevenueCents: 0,
      },
      {
        categoryId: null,
        name: 'Sem categoria',
        quantity: 1,
        revenueCents: 1000,
        costCents: 0,
        marginCents: 1000,
        previousRevenueCents: 0,
      },
    ]);
    expect(report.canceled).toEqual([{ userId: admin.id, name: admin.name, salesCount: 1, netCents: 9000 }]);
    expect(report.heatMap.reduce((s: number, c: { salesCount: number }) => s + c.salesCount, 0)).toBe(3);

    // Exported whole: the product table (ABC), every line of the period, the PDF.
    const products = await shop.api.get(`/report/sales/csv?from=${today}&to=${today}&section=product`);
    expect(products.statusCode).toBe(200);
    expect(products.headers['content-disposition']).toBe(
      `attachment; filename="relatorio-product-${today}-${today}.csv"`,
    );
    expect(products.body.split('\r\n')).toEqual([
      'Produto;Categoria;Quantidade;Receita;Custo;Margem;Participação;Acumulado;Curva;Receita no período anterior',
      'Suco de laranja;Bebidas;4;39,00;16,00;23,00;79,59%;79,59%;A;0,00',
      'Itens avulsos (venda simples);;1;10,00;0,00;10,00;20,41%;100,00%;A;0,00',
      '',
    ]);
    const lines = await shop.api.get(`/report/sales/csv?from=${today}&to=${today}&section=lines`);
    expect(lines.statusCode).toBe(200);
    const rows = lines.body.trim().split('\r\n');
    expect(rows[0]).toBe(
      'Venda;Data;Vendedor;Origem;Código do produto;Descrição;Variação;SKU;Código de barras;Quantidade;Devolvido;Preço unitário;Desconto do item;Total do item;Valor devolvido',
    );
    expect(rows).toHaveLength(4);
    expect(rows[3]).toContain(';Suco de laranja;;;;2;1;10,00;0,00;20,00;9,00');
    // The same table as XLSX, read back with ExcelJS: money and shares as numbers.
    const xlsx = await shop.api.get(`/report/sales/xlsx?from=${today}&to=${today}&section=product`);
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    expect(sheet.name).toBe('Por produto (curva ABC)');
    expect(sheet.getRow(1).values).toEqual([
      undefined,
      'Produto',
      'Categoria',
      'Quantidade',
      'Receita',
      'Custo',
      'Margem',
      'Participação',
      'Acumulado',
      'Curva',
      'Receita no período anterior',
    ]);
    expect(sheet.getRow(2).values).toEqual([
      undefined,
      'Suco de laranja',
      'Bebidas',
      4,
      39,
      16,
      23,
      0.7959,
      0.7959,
      'A',
      0,
    ]);
    expect(sheet.getRow(2).getCell(4).numFmt).toBe('#,##0.00');
    const linesBook = new ExcelJS.Workbook();
    await linesBook.xlsx.load(
      (await shop.api.get(`/report/sales/xlsx?from=${today}&to=${today}&section=lines`))
        .rawPayload as unknown as ArrayBuffer,
    );
    expect(linesBook.worksheets[0].rowCount).toBe(4);
    expect(linesBook.worksheets[0].getRow(4).getCell(6).value).toBe('Suco de laranja');

    // Read by keyset one sale per page, every line comes once, in the order sold.
    const paged = [];
    for await (const line of eachSaleLine(
      t.database.db,
      { clientId: shop.client.id, from: today, to: today, timeZone: DEFAULT_TIME_ZONE },
      1,
    ))
      paged.push([line.description, line.quantity, line.returnedQuantity]);
    expect(paged).toEqual([
      ['Suco de laranja', 3, 0],
      ['Serviço', 1, 0],
      ['Suco de laranja', 2, 1],
    ]);
    const pdf = await shop.api.get(`/report/sales/pdf?from=${today}&to=${today}`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    // Read back as a reader sees it: the heading, the comparison and every table's figures.
    const text = await pdfText(pdf.rawPayload);
    expect(text).toContain(`Relatório de vendas de ${formatDateBr(today)} a ${formatDateBr(today)}`);
    const yesterday = addDays(today, -1);
    expect(text).toContain(`Comparado com ${formatDateBr(yesterday)} a ${formatDateBr(yesterday)}`);
    expect(text).toContain(`Valor líquido ${formatCents(4900)} ${formatCents(0)} -`);
    expect(text).toContain(`Suco de laranja 4 ${formatCents(3900)} ${formatCents(1600)}`);
    expect(text).toContain(`Cartão de crédito ${formatCents(3000)}`);
    expect(text).toContain('Canceladas por usuário');
  });

  it('gives each table the previous period figure of each row, to the cent, in the answer, the CSV and the PDF', async () => {
    // Yesterday: the seeded sales (credit 30,00, Pix 10,00, cash 9,00 after the return; the Administrador
    // 39,00, the Vendedor 10,00; Suco 39,00 in Bebidas, the quick sale 10,00). Today: one Suco by Pix.
    const shop = await seededShop();
    await t.database.db.execute(
      sql`update sales set created_at = created_at - interval '1 day' where client_id = ${shop.client.id}`,
    );
    // The money by method is summed by the sale's writes (not a trigger): moved with the sales.
    await t.database.db.execute(
      sql`update sale_daily_payments set day = day - 1 where client_id = ${shop.client.id}`,
    );
    await makeSale(t, shop.auth, {
      items: [{ productId: shop.product.id, quantity: 1 }],
      payments: [{ method: 'pix', amountCents: 1000 }],
    });
    const admin = shop.users[0].user;
    const report = expectStatus(await shop.api.get(`/report/sales?from=${today}&to=${today}`), 200);
    expect(report.previous).toMatchObject({
      salesCount: 3,
      netCents: 4900,
      costCents: 1600,
      marginCents: 3300,
    });
    expect(report.byMethod).toEqual([
      { method: 'pix', label: 'Pix', amountCents: 1000, previousAmountCents: 1000 },
    ]);
    expect(report.bySeller).toEqual([
      {
        userId: admin.id,
        name: admin.name,
        salesCount: 1,
        netCents: 1000,
        averageTicketCents: 1000,
        discountsCents: 0,
        previousNetCents: 3900,
      },
    ]);
    expect(report.byOrigin).toEqual([
      { origin: 'pdv', label: 'PDV', salesCount: 1, netCents: 1000, previousNetCents: 4900 },
    ]);
    expect(
      report.byProduct.map((p: { name: string; revenueCents: number; previousRevenueCents: number }) => [
        p.name,
        p.revenueCents,
        p.previousRevenueCents,
      ]),
    ).toEqual([['Suco de laranja', 1000, 3900]]);
    expect(
      report.byCategory.map((c: { name: string; revenueCents: number; previousRevenueCents: number }) => [
        c.name,
        c.revenueCents,
        c.previousRevenueCents,
      ]),
    ).toEqual([['Bebidas', 1000, 3900]]);

    const csv = async (section: string) =>
      (await shop.api.get(`/report/sales/csv?from=${today}&to=${today}&section=${section}`)).body.split(
        '\r\n',
      );
    expect(await csv('method')).toEqual(['Forma de pagamento;Valor;Período anterior', 'Pix;10,00;10,00', '']);
    expect((await csv('seller'))[1]).toBe(`${admin.name};1;10,00;10,00;0,00;39,00`);
    expect((await csv('category'))[1]).toBe('Bebidas;1;10,00;4,00;6,00;39,00');

    const text = await pdfText(
      (await shop.api.get(`/report/sales/pdf?from=${today}&to=${today}`)).rawPayload,
    );
    expect(text).toContain(`Valor líquido ${formatCents(1000)} ${formatCents(4900)} -79,6%`);
    expect(text).toContain(`Pix ${formatCents(1000)} ${formatCents(1000)}`);
  });

  it('counts each meal-voucher brand apart by payment method (issue 33), in the answer and its CSV', async () => {
    const shop = await makeShop(t, [1]);
    expectStatus(
      await shop.api.put('/fee-simulator/meal-voucher', {
        brands: [
          { method: 'voucherAlelo', enabled: true, rate: 6.5, settlementDays: 30 },
          { method: 'voucherTicket', enabled: true, rate: 7.2, settlementDays: 28 },
          { method: 'voucherVr', enabled: true, rate: 6, settlementDays: 30 },
        ],
      }),
      200,
    );
    await makeSimpleSale(t, shop.auth, {
      valueCents: 5000,
      payments: [
        { method: 'voucherAlelo', amountCents: 3000 },
        { method: 'voucherTicket', amountCents: 1500 },
        { method: 'money', amountCents: 500 },
      ],
    });
    await makeSimpleSale(t, shop.auth, {
      valueCents: 2000,
      payments: [{ method: 'voucherAlelo', amountCents: 2000 }],
    });
    const canceled = await makeSimpleSale(t, shop.auth, {
      valueCents: 1000,
      payments: [{ method: 'voucherVr', amountCents: 1000 }],
    });
    expectStatus(await shop.api.post(`/sale/${canceled.id}/cancel`, { reason: 'Cliente desistiu' }), 200);

    const report = expectStatus(await shop.api.get(`/report/sales?from=${today}&to=${today}`), 200);
    expect(report.byMethod).toEqual([
      { method: 'voucherAlelo', label: 'VR/VA Alelo', amountCents: 5000, previousAmountCents: 0 },
      { method: 'voucherTicket', label: 'VR/VA Ticket', amountCents: 1500, previousAmountCents: 0 },
      { method: 'money', label: 'Dinheiro', amountCents: 500, previousAmountCents: 0 },
    ]);
    expect(report.summary).toMatchObject({
      salesCount: 2,
      netCents: 7000,
      canceledCount: 1,
      canceledCents: 1000,
    });
    const csv = await shop.api.get(`/report/sales/csv?from=${today}&to=${today}&section=method`);
    expect(csv.statusCode).toBe(200);
    expect(csv.body.split('\r\n').slice(1)).toEqual([
      'VR/VA Alelo;50,00;0,00',
      'VR/VA Ticket;15,00;0,00',
      'Dinheiro;5,00;0,00',
      '',
    ]);
  });

  it("places a sale on the shop's day and hour: 23:30 in São Paulo is the day before in UTC terms", async () => {
    const shop = await makeShop(t);
    const late = await makeSimpleSale(t, shop.auth, {
      valueCents: 2500,
      payments: [{ method: 'pix', amountCents: 2500 }],
    });
    const early = await makeSimpleSale(t, shop.auth);
    // 2026-03-10T02:30Z is Monday 9 March, 23:30 in São Paulo; 03:30Z is Tuesday 10 March, 00:30.
    await t.database.db.execute(
      sql`update sales set created_at = '2026-03-10T02:30:00Z' where id = ${late.id}`,
    );
    await t.database.db.execute(
      sql`update sales set created_at = '2026-03-10T03:30:00Z' where id = ${early.id}`,
    );
    const monday = expectStatus(await shop.api.get('/report/sales?from=2026-03-09&to=2026-03-09'), 200);
    expect(monday.summary.netCents).toBe(2500);
    expect(monday.heatMap).toEqual([{ weekday: 0, hour: 23, salesCount: 1, netCents: 2500 }]);
    const tuesday = expectStatus(await shop.api.get('/report/sales?from=2026-03-10&to=2026-03-10'), 200);
    expect(tuesday.summary.netCents).toBe(1000);
    expect(tuesday.heatMap).toEqual([{ weekday: 1, hour: 0, salesCount: 1, netCents: 1000 }]);
    // The previous period of one day is the day before.
    expect(tuesday.previous).toMatchObject({
      from: '2026-03-09',
      to: '2026-03-09',
      salesCount: 1,
      netCents: 2500,
    });
    const week = expectStatus(
      await shop.api.get('/report/sales?from=2026-03-01&to=2026-03-31&groupBy=week'),
      200,
    );
    expect(week.byPeriod).toEqual([{ period: '2026-03-09', salesCount: 2, netCents: 3500 }]);
  });

  it("is the Financeiro pages' people only, each shop its own, and refuses a bad period in Portuguese", async () => {
    const shop = await seededShop();
    // Vendedor (3): 403; Financeiro (7): the same figures as the Administrador.
    expect((await shop.apis[1].get(`/report/sales?from=${today}&to=${today}`)).statusCode).toBe(403);
    expect(
      (await shop.apis[1].get(`/report/sales/csv?from=${today}&to=${today}&section=lines`)).statusCode,
    ).toBe(403);
    const financial = expectStatus(await shop.apis[2].get(`/report/sales?from=${today}&to=${today}`), 200);
    expect(financial.summary.netCents).toBe(4900);
    const other = await asUser(t, [2]);
    const empty = expectStatus(await other.api.get(`/report/sales?from=${today}&to=${today}`), 200);
    expect(empty.summary).toMatchObject({ salesCount: 0, netCents: 0, canceledCount: 0 });
    expect(empty.byProduct).toEqual([]);
    const lines = await other.api.get(`/report/sales/csv?from=${today}&to=${today}&section=lines`);
    expect(lines.body.trim().split('\r\n')).toHaveLength(1);

    const bad = await shop.api.get('/report/sales?from=2026-03-10&to=2026-03-09');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().issues[0].message).toBe('A data final deve ser igual ou posterior à inicial');
    const long = await shop.api.get('/report/sales?from=2025-01-01&to=2026-03-09');
    expect(long.json().issues[0].message).toBe('Escolha um período de até 400 dias');
    const section = await shop.api.get(`/report/sales/csv?from=${today}&to=${today}&section=tudo`);
    expect(section.statusCode).toBe(400);
    expect(section.json().issues[0].message).toBe('Escolha o relatório a exportar');
  });
});

/** A report with its unordered lists in one order (ties of the sorted ones come in any order). */
function canonical(report: Record<string, unknown>) {
  const sorted = (list: unknown) =>
    [...(list as unknown[])].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  return Object.fromEntries(Object.entries(report).map(([k, v]) => [k, Array.isArray(v) ? sorted(v) : v]));
}

describe('the daily summary the reports read (issue 34)', () => {
  it('gives every report the raw sales give, to the cent, after sales, a cancel, a return and an exchange across days', async () => {
    const shop = await makeShop(t, [1, 3]);
    const a = shop.api;
    const d3 = addDays(today, -3);
    const d1 = addDays(today, -1);
    const category = expectStatus(await a.post('/product-category', { name: 'Mercearia' }), 201);
    const rice = await makeProduct(t, shop.auth, {
      name: 'Arroz 5 kg',
      salePriceCents: 2333,
      costPriceCents: 1410,
      stock: 100,
      categoryId: category.id,
    });
    const beans = await makeProduct(t, shop.auth, { name: 'Feijão', salePriceCents: 799, stock: 100 });
    const customer = await makeCustomer(t, shop.auth);
    const moveTo = async (saleId: number, day: string, time: string) =>
      t.database.db.execute(
        sql`update sales set created_at = (${`${day} ${time}`}::timestamp at time zone ${DEFAULT_TIME_ZONE}) where id = ${saleId}`,
      );
    // Three days ago: 7% off a sale of both products (the discount shared per line, in cents), a sale by
    // the Vendedor, a quick sale; yesterday: a sale to a customer.
    const old = await makeSale(t, shop.auth, {
      items: [
        { productId: rice.id, quantity: 3 },
        { productId: beans.id, quantity: 2 },
      ],
      discountType: 'percentage',
      discountValue: 700,
      payments: [{ method: 'money', amountCents: 7995 }],
    });
    await moveTo(old.id, d3, '09:15');
    const bySeller = await makeSale(t, shop.auth, {
      items: [{ productId: beans.id, quantity: 5 }],
      sellerId: shop.users[1].user.id,
      payments: [{ method: 'pix', amountCents: 3995 }],
    });
    await moveTo(bySeller.id, d3, '18:40');
    const quick = await makeSimpleSale(t, shop.auth, {
      valueCents: 1250,
      payments: [{ method: 'pix', amountCents: 1250 }],
    });
    await moveTo(quick.id, d3, '23:59');
    const yesterday = await makeSale(t, shop.auth, {
      items: [{ productId: rice.id, quantity: 2 }],
      customerId: customer.id,
      payments: [{ method: 'debitCard', amountCents: 4666 }],
    });
    await moveTo(yesterday.id, d1, '12:00');
    await makeSale(t, shop.auth, {
      items: [{ productId: beans.id, quantity: 1 }],
      payments: [{ method: 'money', amountCents: 799 }],
    });
    // Today: the Vendedor's old sale canceled, one rice of the 7% sale returned, yesterday's rice exchanged.
    expectStatus(await a.post(`/sale/${bySeller.id}/cancel`, { reason: 'Cliente desistiu' }), 200);
    expectStatus(
      await a.post(
        `/sale/${old.id}/return`,
        { lines: [{ saleItemId: old.items[0].id, quantity: 1 }], refund: 'original', reason: 'Furado' },
        key(),
      ),
      201,
    );
    expectStatus(
      await a.post(
        `/sale/${yesterday.id}/exchange`,
        {
          lines: [{ saleItemId: yesterday.items[0].id, quantity: 1 }],
          reason: 'Trocou por feijão',
          sale: { items: [{ productId: beans.id, quantity: 2 }] },
        },
        key(),
      ),
      201,
    );

    const actor = { clientId: shop.client.id, userId: shop.users[0].user.id };
    for (const [from, to] of [
      [d3, d3],
      [d1, d1],
      [today, today],
      [d3, today],
    ]) {
      const query = { from, to, groupBy: 'day' as const };
      const summary = await salesReport(t.database.db, actor, query);
      const raw = await salesReport(t.database.db, actor, query, rawFigures);
      expect(canonical(summary), `${from}..${to}`).toEqual(canonical(raw));
    }
    const days = expectStatus(await a.get(`/report/sales?from=${d3}&to=${today}`), 200);
    // Gross: 3 x 23,33 + 2 x 7,99 (85,97, 7% off: 6,02) + 12,50 + 2 x 23,33 + 7,99 + the exchange's 2 x 7,99.
    // Returned: one rice of the 7% sale (its net share, 21,70) and yesterday's rice (23,33).
    expect(days.summary).toEqual({
      salesCount: 5,
      grossCents: 16910,
      discountsCents: 602,
      returnsCents: 4503,
      netCents: 11805,
      costCents: 4230,
      marginCents: 7575,
      averageTicketCents: 2361,
      canceledCount: 1,
      canceledCents: 3995,
    });
    expect(days.canceled).toEqual([
      { userId: actor.userId, name: shop.users[0].user.name, salesCount: 1, netCents: 3995 },
    ]);
    const riceRow = days.byProduct.find((p: { productId: number }) => p.productId === rice.id);
    // 69,99 less its 7% share (65,09) + 46,66, less what came back (21,70 + 23,33).
    expect(riceRow).toMatchObject({
      quantity: 3,
      categoryName: 'Mercearia',
      revenueCents: 6672,
      costCents: 4230,
    });

    // The triggers' rows are the rows the backfill writes from the sales, and the backfill is idempotent.
    const tables = async () => {
      const out: Record<string, unknown> = {};
      for (const table of ['sale_daily_groups', 'sale_daily_products', 'sale_daily_cancels'])
        out[table] = (
          (await t.database.db.execute(
            sql`select * from ${sql.raw(table)} where client_id = ${shop.client.id}
              and (${sql.raw(table === 'sale_daily_products' ? 'lines_count' : 'sales_count')} <> 0)
              order by 1, 2, 3, 4`,
          )) as unknown as { rows: unknown[] }
        ).rows;
      return out;
    };
    const kept = await tables();
    await t.database.db.execute(sql`select sale_report_rebuild(${shop.client.id}::int)`);
    await t.database.db.execute(sql`select sale_report_rebuild(${shop.client.id}::int)`);
    expect(await tables()).toEqual(kept);
  });
});

describe('the lines export', () => {
  it('writes the same bytes whether PostgreSQL writes them (COPY) or Node does (PGlite pages)', async () => {
    const shop = await makeShop(t);
    const product = await makeProduct(t, shop.auth, {
      name: '=Caixa "Grande"; azul',
      salePriceCents: 1250,
      stock: 10,
    });
    const sale = await makeSale(t, shop.auth, {
      items: [{ productId: product.id, quantity: 2 }],
      payments: [{ method: 'money', amountCents: 2500 }],
    });
    const quick = await makeSimpleSale(t, shop.auth, { description: 'Frete\\Zona sul' });
    const res = await shop.api.get(`/report/sales/csv?from=${today}&to=${today}&section=lines`);
    expect(res.statusCode).toBe(200);
    const rows = res.body.split('\r\n');
    const when = (at: string) => formatInZone(at, DEFAULT_TIME_ZONE, 'sheet');
    const admin = shop.users[0].user.name;
    const item = sale.items[0];
    expect(rows).toEqual([
      rows[0],
      `${sale.number};${when(sale.createdAt)};${admin};PDV;${product.id};"'=Caixa ""Grande""; azul";;${textCell(item.sku)};${textCell(item.barcode)};2;0;12,50;0,00;25,00;0,00`,
      `${quick.number};${when(quick.createdAt)};${admin};PDV;;Frete\\Zona sul;;;;1;0;10,00;0,00;10,00;0,00`,
      '',
    ]);
  });

  it('writes every sale line as XLSX that a reading library opens: text, leading zeros, cents, dates, empty cells', async () => {
    const shop = await makeShop(t);
    const product = await makeProduct(t, shop.auth, {
      name: 'Pão de queijo & café <"especial">',
      sku: '000123',
      barcode: '0789123456788',
      salePriceCents: 1250,
      stock: 10,
    });
    const sale = await makeSale(t, shop.auth, {
      items: [{ productId: product.id, quantity: 2 }],
      payments: [{ method: 'money', amountCents: 2500 }],
    });
    const quick = await makeSimpleSale(t, shop.auth, {
      description: 'Frete\\Zona sul\tfim',
      valueCents: 1005,
      payments: [{ method: 'pix', amountCents: 1005 }],
    });
    const res = await shop.api.get(`/report/sales/xlsx?from=${today}&to=${today}&section=lines`);
    expect(res.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    expect(book.worksheets.map((s) => s.name)).toEqual(['Itens vendidos (todas as linhas']);
    const sheet = book.worksheets[0];
    // The time on the shop's clock as a date (ExcelJS reads a date-formatted number as that wall clock in UTC).
    const wallClock = (at: string) => {
      const [d, m, y, h, min] = formatInZone(at, DEFAULT_TIME_ZONE, 'sheet').split(/[/ :]/);
      return new Date(`${y}-${m}-${d}T${h}:${min}:00Z`);
    };
    const admin = shop.users[0].user.name;
    expect(sheet.getRow(2).values).toEqual([
      undefined,
      sale.number,
      wallClock(sale.createdAt),
      admin,
      'PDV',
      product.id,
      'Pão de queijo & café <"especial">',
      undefined,
      '000123',
      '0789123456788',
      2,
      0,
      12.5,
      0,
      25,
      0,
    ]);
    expect(sheet.getRow(3).values).toEqual([
      undefined,
      quick.number,
      wallClock(quick.createdAt),
      admin,
      'PDV',
      undefined,
      'Frete\\Zona sul\tfim',
      undefined,
      undefined,
      undefined,
      1,
      0,
      10.05,
      0,
      10.05,
      0,
    ]);
    expect(sheet.getRow(2).getCell(2).numFmt).toBe('dd/mm/yyyy hh:mm');
    expect(sheet.getRow(2).getCell(12).numFmt).toBe('#,##0.00');
    expect(sheet.getRow(1).getCell(1).font?.bold).toBe(true);
  });

  it("continues on a second sheet past a sheet's last row, the header on each", async () => {
    const columns: Column[] = [
      { label: 'Nome', kind: 'text' },
      { label: 'Valor', kind: 'money' },
    ];
    async function* rows() {
      for (let i = 1; i <= 5; i++) yield [`Item ${i}`, i * 100];
    }
    const read = async (stream: NodeJS.ReadableStream) => {
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(chunk as Buffer);
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(Buffer.concat(chunks) as unknown as ArrayBuffer);
      return book.worksheets.map((s) => [
        s.name,
        s
          .getSheetValues()
          .slice(1)
          .map((r) => (r as unknown[]).slice(1)),
      ]);
    };
    const split = [
      [
        'Uma planilha com um nome longo',
        [
          ['Nome', 'Valor'],
          ['Item 1', 1],
          ['Item 2', 2],
        ],
      ],
      [
        'Uma planilha com um nome lo (2)',
        [
          ['Nome', 'Valor'],
          ['Item 3', 3],
          ['Item 4', 4],
        ],
      ],
      [
        'Uma planilha com um nome lo (3)',
        [
          ['Nome', 'Valor'],
          ['Item 5', 5],
        ],
      ],
    ];
    expect(
      await read(xlsxStream('Uma planilha com um nome longo', columns, rows(), { rowsPerSheet: 2 })),
    ).toEqual(split);
    // Excel's limit: 1,048,576 rows a sheet, the header one of them.
    expect(XLSX_DATA_ROWS).toBe(1_048_575);
    // The same split when PostgreSQL writes the rows (COPY numbers them for the sheet): not on PGlite.
    const source = sql`select * from (values ('Item 1', 100, 1), ('Item 2', 200, 2), ('Item 3', 300, 3),
      ('Item 4', 400, 4), ('Item 5', 500, 5)) v(c0, c1, n) order by n`;
    const copied = await copyLines(t.database.db, xlsxRowsSql(columns, source, 2), { raw: true });
    if (copied)
      expect(
        await read(
          xlsxFromRowXml('Uma planilha com um nome longo', columns, copied as AsyncIterable<Buffer>, {
            rowsPerSheet: 2,
          }),
        ),
      ).toEqual(split);
  });

  it('stops reading the rows when the download is closed before its end', async () => {
    // Rows faster than the client (a write waits for the zip) and slower (the writer waits for a row).
    for (const slow of [false, true]) {
      let read = 0;
      let closed = false;
      async function* endless() {
        try {
          for (;;) {
            read++;
            if (slow) await new Promise((resolve) => setTimeout(resolve, 2));
            yield [`Linha ${read} ${'x'.repeat(200)}`, read];
          }
        } finally {
          closed = true;
        }
      }
      const out = xlsxStream(
        'Sem fim',
        [
          { label: 'Texto', kind: 'text' },
          { label: 'Valor', kind: 'money' },
        ],
        endless(),
      );
      out.resume();
      await new Promise((resolve) => setTimeout(resolve, 200));
      out.destroy();
      await vi.waitFor(() => expect(closed).toBe(true));
      const stopped = read;
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(read).toBe(stopped);
    }
  });

  it('writes a text cell as Papa does with escapeFormulae', () => {
    for (const value of [
      'Suco',
      '=SOMA(A1)',
      '+55',
      '-1',
      '@x',
      'a;b',
      'diz "oi"',
      ' espaço',
      'linha\nnova',
      '',
    ])
      expect(textCell(value)).toBe(Papa.unparse([[value]], { delimiter: ';', escapeFormulae: true }));
  });
});
