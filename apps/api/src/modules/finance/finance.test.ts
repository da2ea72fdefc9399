import { addDays, formatDateBr } from '@balcao/core/date';
import { formatCents } from '@balcao/core/money';
import { addMonths, monthOf } from '@balcao/core/payable';
import { DEFAULT_TIME_ZONE, dateIn } from '@balcao/core/time';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helper.ts';
import {
  type Api,
  asUser,
  expectStatus,
  makeCustomer,
  makeProduct,
  makeSale,
  makeShop,
  makeSimpleSale,
} from '../../../test/kit.ts';
import { pdfText } from '../../../test/pdf.ts';
import { rebuildSaleSummary } from '../sale/summary.ts';
import { eachDreEntry } from './service.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const today = dateIn(DEFAULT_TIME_ZONE);
const month = today.slice(0, 7);

async function workbook(bytes: Buffer): Promise<ExcelJS.Worksheet> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(bytes as unknown as ArrayBuffer);
  return book.worksheets[0];
}

async function category(a: Api, name: string): Promise<number> {
  return expectStatus(await a.get('/payable/category'), 200).find((c: { name: string }) => c.name === name)
    .id;
}

/**
 * A month built in the test: a fee table active (credit 3,19% D+30, Pix 0,99%), three sales (one
 * canceled too), payables of rent, salaries, a purchase and one of next month.
 */
async function seededShop() {
  const shop = await makeShop(t, [1, 3]);
  const a = shop.api;
  const table = expectStatus(
    await a.post('/fee-simulator/table', {
      name: 'Minha maquininha',
      acquirer: 'Teste',
      ratesDate: today,
      debitRate: 1.99,
      pixRate: 0.99,
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
  const product = await makeProduct(t, shop.auth, { salePriceCents: 1000, costPriceCents: 400, stock: 100 });
  // 3 x R$ 10,00 on credit (fee 3,19% of 30,00 = 0,957 -> 0,96; settles in 30 days).
  await makeSale(t, shop.auth, {
    items: [{ productId: product.id, quantity: 3 }],
    payments: [{ method: 'creditCard', amountCents: 3000 }],
  });
  // A quick sale of R$ 10,00 by Pix (fee 0,099 -> 0,10), no product: no cost.
  await makeSimpleSale(t, shop.auth);
  // 2 x R$ 10,00 with R$ 2,00 off, in cash.
  await makeSale(t, shop.auth, {
    items: [{ productId: product.id, quantity: 2 }],
    discountType: 'fixed_amount',
    discountValue: 200,
    payments: [{ method: 'money', amountCents: 1800 }],
  });
  // A canceled sale counts nowhere.
  const canceled = await makeSale(t, shop.auth, {
    items: [{ productId: product.id, quantity: 9 }],
    payments: [{ method: 'money', amountCents: 9000 }],
  });
  expectStatus(await a.post(`/sale/${canceled.id}/cancel`, { reason: 'Cliente desistiu' }), 200);

  const make = async (name: string, amountCents: number, dueDate: string) =>
    expectStatus(
      await a.post('/payable', {
        categoryId: await category(a, name),
        description: name,
        amountCents,
        dueDate,
        competenceMonth: dueDate.slice(0, 7),
      }),
      201,
    ).items[0];
  const rent = await make('Aluguel', 150000, today);
  await make('Salários', 200000, today);
  await make('Compra de mercadorias', 50000, today);
  await make('Energia elétrica', 99999, addMonths(today, 1));
  expectStatus(
    await a.post(`/payable/${rent.id}/pay`, {
      paidOn: today,
      amountCents: 150000,
      method: 'pix',
      source: 'bank',
    }),
    200,
  );
  return shop;
}

describe('DRE', () => {
  it('gives a month built from sales, product costs, card fees and payables exact to the cent', async () => {
    const shop = await seededShop();
    const result = expectStatus(await shop.api.get(`/finance/dre?month=${month}`), 200);
    const figures = Object.fromEntries(
      result.lines.map((l: { key: string; amountCents: number }) => [l.key, l.amountCents]),
    );
    expect(result.salesCount).toBe(3);
    expect(figures).toEqual({
      grossRevenue: 6000,
      discounts: -200,
      returns: 0,
      cardFees: -106,
      netRevenue: 5694,
      cmv: -2000,
      grossMargin: 3694,
      'expense:operating': -150000,
      'expense:personnel': -200000,
      'expense:taxes': 0,
      'expense:financial': 0,
      'expense:other': 0,
      result: -346306,
    });
    // The purchase is stock: shown apart, not subtracted from the result.
    expect(result.purchasesCents).toBe(50000);

    const csv = await shop.api.get(`/finance/dre/csv?month=${month}`);
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain('Resultado do mês;-3463,06');
    const pdf = await shop.api.get(`/finance/dre/pdf?month=${month}`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const monthCol = `${month.slice(5, 7)}/${month.slice(0, 4)}`;
    const before = addMonths(`${month}-01`, -1).slice(0, 7);
    const beforeCol = `${before.slice(5, 7)}/${before.slice(0, 4)}`;
    const text = await pdfText(pdf.rawPayload);
    expect(text).toContain('DRE - Demonstração do resultado de');
    expect(text).toContain(`Linha ${monthCol} ${beforeCol} Variação`);
    expect(text).toContain(`Receita bruta ${formatCents(6000)} ${formatCents(0)}`);
    expect(text).toContain(`Resultado do mês ${formatCents(-346306)} ${formatCents(0)}`);
    // The DRE as XLSX: every line with its value and the month before's as numbers the spreadsheet sums,
    // the change as a percent, then the purchases.
    const xlsx = await shop.api.get(`/finance/dre/xlsx?month=${month}`);
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    const sheet = await workbook(xlsx.rawPayload);
    expect(sheet.getRow(1).values).toEqual([undefined, 'Linha', monthCol, beforeCol, 'Variação']);
    expect(sheet.getRow(2).values).toEqual([undefined, 'Receita bruta', 60, 0]);
    expect(sheet.getRow(14).values).toEqual([undefined, 'Resultado do mês', -3463.06, 0]);
    expect(sheet.getRow(15).values).toEqual([
      undefined,
      'Compras de mercadorias no mês (estoque, fora do resultado)',
      500,
      0,
    ]);
    expect((await shop.apis[1].get(`/finance/dre/xlsx?month=${month}`)).statusCode).toBe(403);

    // A Vendedor (3) sees none of it; another shop's month is its own (empty).
    expect((await shop.apis[1].get(`/finance/dre?month=${month}`)).statusCode).toBe(403);
    const other = await asUser(t, [7]);
    const empty = expectStatus(await other.api.get(`/finance/dre?month=${month}`), 200);
    expect(empty.lines.find((l: { key: string }) => l.key === 'result').amountCents).toBe(0);
  });

  it('puts the month before beside each line, exact to the cent, with the change in its files', async () => {
    const shop = await seededShop();
    // Next month holds only the electricity bill; this month is the one before it.
    const next = monthOf(`${month}-01`, 1);
    const result = expectStatus(await shop.api.get(`/finance/dre?month=${next}`), 200);
    const figures = (lines: { key: string; amountCents: number }[]) =>
      Object.fromEntries(lines.map((l) => [l.key, l.amountCents]));
    expect(result.previous.month).toBe(month);
    expect(result.previous.salesCount).toBe(3);
    expect(figures(result.previous.lines)).toEqual({
      grossRevenue: 6000,
      discounts: -200,
      returns: 0,
      cardFees: -106,
      netRevenue: 5694,
      cmv: -2000,
      grossMargin: 3694,
      'expense:operating': -150000,
      'expense:personnel': -200000,
      'expense:taxes': 0,
      'expense:financial': 0,
      'expense:other': 0,
      result: -346306,
    });
    expect(result.previous.purchasesCents).toBe(50000);
    expect(figures(result.lines)).toMatchObject({
      grossRevenue: 0,
      'expense:operating': -99999,
      result: -99999,
    });
    // Operating expenses went from 1.500,00 to 999,99: -33,33%; the result from -3.463,06 to -999,99: +71,12%.
    const csv = (await shop.api.get(`/finance/dre/csv?month=${next}`)).body.split('\r\n');
    expect(csv).toContain('Despesas operacionais;-999,99;-1500,00;33,33%');
    expect(csv).toContain('Resultado do mês;-999,99;-3463,06;71,12%');
    expect(csv).toContain('Receita bruta;0,00;60,00;-100,00%');
  });
});

describe('DRE drill-down', () => {
  it('opens the sales, fees and payables behind a line, adding up to it', async () => {
    const shop = await seededShop();
    const entries = async (line: string) =>
      expectStatus(await shop.api.get(`/finance/dre/entries?month=${month}&line=${line}`), 200);
    const sum = (list: { amountCents: number }[]) => list.reduce((s, e) => s + e.amountCents, 0);

    const gross = await entries('grossRevenue');
    expect(gross).toMatchObject({ label: 'Receita bruta', amountCents: 6000, count: 3 });
    expect(
      gross.entries.map((e: { description: string; amountCents: number }) => [e.description, e.amountCents]),
    ).toEqual([
      ['Venda nº 1', 3000],
      ['Venda nº 2', 1000],
      ['Venda nº 3', 2000],
    ]);
    expect(gross.entries[0]).toMatchObject({ kind: 'sale', date: today, id: expect.any(Number) });
    // Only the sale with a discount; the canceled one nowhere.
    expect((await entries('discounts')).entries).toMatchObject([
      { description: 'Venda nº 3', amountCents: -200 },
    ]);
    const cmv = await entries('cmv');
    expect(sum(cmv.entries)).toBe(cmv.amountCents);
    expect(cmv.entries.map((e: { amountCents: number }) => e.amountCents)).toEqual([-1200, -800]);
    const fees = await entries('cardFees');
    expect(sum(fees.entries)).toBe(-106);
    expect(
      fees.entries.map((e: { description: string; amountCents: number }) => [e.description, e.amountCents]),
    ).toEqual(
      expect.arrayContaining([
        ['Cartão de crédito 1x: R$ 30,00 recebidos', -96],
        ['Pix: R$ 10,00 recebidos', -10],
      ]),
    );
    const personnel = await entries('expense:personnel');
    expect(personnel).toMatchObject({ label: 'Pessoal', amountCents: -200000, count: 1 });
    expect(personnel.entries).toEqual([
      { kind: 'payable', id: expect.any(Number), date: today, description: 'Salários', amountCents: -200000 },
    ]);
    expect((await entries('returns')).entries).toEqual([]);

    // The exports read the records page by page (keyset): every record once, as the dialog lists them,
    // whatever the page's size.
    const actor = { clientId: shop.client.id, userId: shop.users[0].user.id };
    for (const line of ['grossRevenue', 'discounts', 'cmv', 'cardFees', 'returns', 'expense:personnel'])
      for (const pageSize of [1, 2]) {
        const paged = [];
        for await (const entry of eachDreEntry(t.database.db, actor, month, line, pageSize))
          paged.push(entry);
        expect(paged).toEqual((await entries(line)).entries);
      }

    // Exported whole, as the other tables: CSV and XLSX with the line's total.
    const grossCsv = await shop.api.get(`/finance/dre/entries/csv?month=${month}&line=grossRevenue`);
    expect(grossCsv.statusCode).toBe(200);
    expect(grossCsv.headers['content-disposition']).toBe(
      `attachment; filename="dre-${month}-grossRevenue.csv"`,
    );
    const day = formatDateBr(today);
    expect(grossCsv.body.split('\r\n')).toEqual([
      'Data;Tipo;Lançamento;Valor',
      `${day};Venda;Venda nº 1;30,00`,
      `${day};Venda;Venda nº 2;10,00`,
      `${day};Venda;Venda nº 3;20,00`,
      ';;Total da linha: Receita bruta;60,00',
      '',
    ]);
    const personnelXlsx = await shop.api.get(
      `/finance/dre/entries/xlsx?month=${month}&line=expense:personnel`,
    );
    expect(personnelXlsx.statusCode).toBe(200);
    expect(personnelXlsx.headers['content-disposition']).toBe(
      `attachment; filename="dre-${month}-expense-personnel.xlsx"`,
    );
    const sheet = await workbook(personnelXlsx.rawPayload);
    expect(sheet.getRow(1).values).toEqual([undefined, 'Data', 'Tipo', 'Lançamento', 'Valor']);
    expect(sheet.getRow(2).values).toEqual([undefined, day, 'Conta a pagar', 'Salários', -2000]);
    // Empty cells read back as empty.
    expect(sheet.getRow(3).values).toEqual([
      undefined,
      undefined,
      undefined,
      'Total da linha: Pessoal',
      -2000,
    ]);
    // And as a PDF, every record then the line's total, read back as a reader sees it.
    const grossPdf = await shop.api.get(`/finance/dre/entries/pdf?month=${month}&line=grossRevenue`);
    expect(grossPdf.statusCode).toBe(200);
    expect(grossPdf.headers['content-type']).toBe('application/pdf');
    expect(grossPdf.headers['content-disposition']).toBe(
      `attachment; filename="dre-${month}-grossRevenue.pdf"`,
    );
    const grossText = await pdfText(grossPdf.rawPayload);
    expect(grossText).toContain('Receita bruta Lançamento Data Tipo Valor');
    expect(grossText).toContain(`Venda nº 1 ${day} Venda ${formatCents(3000)}`);
    expect(grossText).toContain(`Venda nº 3 ${day} Venda ${formatCents(2000)}`);
    expect(grossText).toContain(`Total da linha: Receita bruta ${formatCents(6000)}`);
    expect(
      (await shop.apis[1].get(`/finance/dre/entries/pdf?month=${month}&line=grossRevenue`)).statusCode,
    ).toBe(403);
    expect(
      (await shop.apis[1].get(`/finance/dre/entries/csv?month=${month}&line=grossRevenue`)).statusCode,
    ).toBe(403);

    const bad = await shop.api.get(`/finance/dre/entries?month=${month}&line=result`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().issues[0].message).toBe('Linha do DRE inválida');
    expect((await shop.apis[1].get(`/finance/dre/entries?month=${month}&line=grossRevenue`)).statusCode).toBe(
      403,
    );
    const other = await asUser(t, [7]);
    expect(
      expectStatus(await other.api.get(`/finance/dre/entries?month=${month}&line=grossRevenue`), 200).entries,
    ).toEqual([]);
  });
});

describe('CMV at the weighted average cost', () => {
  it('costs each sale at the average the stock entries kept when it was sold, not at the cost of today', async () => {
    const shop = await makeShop(t, [1]);
    const product = await makeProduct(t, shop.auth, { salePriceCents: 1000, costPriceCents: 400, stock: 10 });
    // 2 sold at R$ 4,00.
    await makeSale(t, shop.auth, {
      items: [{ productId: product.id, quantity: 2 }],
      payments: [{ method: 'money', amountCents: 2000 }],
    });
    // 10 enter at R$ 10,00: (8 x 4,00 + 10 x 10,00) / 18 = 7,333... -> R$ 7,33.
    expectStatus(
      await shop.api.post('/stock-movement/entry', {
        items: [{ productId: product.id, quantity: 10, unitCostCents: 1000 }],
      }),
      201,
    );
    expect(expectStatus(await shop.api.get(`/product/${product.id}`), 200).costPriceCents).toBe(733);
    // 3 sold at R$ 7,33.
    await makeSale(t, shop.auth, {
      items: [{ productId: product.id, quantity: 3 }],
      payments: [{ method: 'money', amountCents: 3000 }],
    });
    const dre = expectStatus(await shop.api.get(`/finance/dre?month=${month}`), 200);
    // 2 x 4,00 + 3 x 7,33 = 29,99 (today's cost would say 5 x 7,33 = 36,65).
    expect(dre.lines.find((l: { key: string }) => l.key === 'cmv').amountCents).toBe(-2999);
  });
});

describe('CMV of lines the ledger did and did not cost (issue 34, set-based CMV)', () => {
  it('costs a product sold on two lines of one sale at the ledger cost, one without stock control at today cost, a quick line at zero', async () => {
    const shop = await makeShop(t, [1]);
    const kept = await makeProduct(t, shop.auth, { salePriceCents: 1000, costPriceCents: 400, stock: 10 });
    const loose = await makeProduct(t, shop.auth, {
      salePriceCents: 800,
      costPriceCents: 250,
      stockControl: false,
    });
    // One sale: the kept product on two lines (1 + 2 at the ledger's R$ 4,00), the loose one twice.
    const sale = await makeSale(t, shop.auth, {
      items: [
        { productId: kept.id, quantity: 1 },
        { productId: loose.id, quantity: 2 },
        { productId: kept.id, quantity: 2 },
      ],
      payments: [{ method: 'money', amountCents: 4600 }],
    });
    await makeSimpleSale(t, shop.auth);
    // Costs change afterwards: the kept product's average goes to (7 x 4,00 + 7 x 10,00) / 14 = R$ 7,00,
    // the loose one's cost is edited to R$ 3,00 (it has no ledger row: today's cost counts).
    expectStatus(
      await shop.api.post('/stock-movement/entry', {
        items: [{ productId: kept.id, quantity: 7, unitCostCents: 1000 }],
      }),
      201,
    );
    const product = expectStatus(await shop.api.get(`/product/${loose.id}`), 200);
    expectStatus(await shop.api.put(`/product/${loose.id}`, { ...product, costPriceCents: 300 }), 200);
    const dre = expectStatus(await shop.api.get(`/finance/dre?month=${month}`), 200);
    // 3 x 4,00 + 2 x 3,00 + the quick line's 0 = R$ 18,00.
    expect(dre.lines.find((l: { key: string }) => l.key === 'cmv').amountCents).toBe(-1800);
    const cmv = expectStatus(await shop.api.get(`/finance/dre/entries?month=${month}&line=cmv`), 200);
    expect(cmv.entries.map((e: { id: number; amountCents: number }) => [e.id, e.amountCents])).toEqual([
      [sale.id, -1800],
    ]);
  });
});

describe("the DRE's CMV kept in the reports' daily summary (issue 34)", () => {
  it('adds a sale at the ledger cost with its uncosted quantity, takes a canceled one off, and a rebuild gives the same', async () => {
    const shop = await makeShop(t, [1]);
    const clientId = shop.client.id;
    const kept = await makeProduct(t, shop.auth, { salePriceCents: 1000, costPriceCents: 400, stock: 10 });
    const loose = await makeProduct(t, shop.auth, {
      salePriceCents: 800,
      costPriceCents: 250,
      stockControl: false,
    });
    await makeSale(t, shop.auth, {
      items: [
        { productId: kept.id, quantity: 2 },
        { productId: loose.id, quantity: 1 },
      ],
      payments: [{ method: 'money', amountCents: 2800 }],
    });
    const canceled = await makeSale(t, shop.auth, {
      items: [
        { productId: kept.id, quantity: 3 },
        { productId: loose.id, quantity: 4 },
      ],
      payments: [{ method: 'money', amountCents: 6200 }],
    });
    expectStatus(await shop.api.post(`/sale/${canceled.id}/cancel`, { reason: 'Cliente desistiu' }), 200);
    const summary = async () =>
      (
        (await t.database.db.execute(sql`select product_id as "productId", cmv_cents::float8 as cmv,
            uncosted_quantity::float8 as uncosted from sale_daily_products
          where client_id = ${clientId} order by product_id`)) as unknown as {
          rows: { productId: number; cmv: number; uncosted: number }[];
        }
      ).rows;
    // 2 x R$ 4,00 costed by the ledger; 1 loose unit the ledger did not cost; the canceled sale gone.
    expect(await summary()).toEqual([
      { productId: kept.id, cmv: 800, uncosted: 0 },
      { productId: loose.id, cmv: 0, uncosted: 1 },
    ]);
    const cmvLine = async () =>
      expectStatus(await shop.api.get(`/finance/dre?month=${month}`), 200).lines.find(
        (l: { key: string }) => l.key === 'cmv',
      ).amountCents;
    // 8,00 + 1 x 2,50 (today's cost of the loose one).
    expect(await cmvLine()).toBe(-1050);
    await rebuildSaleSummary(t.database.db, clientId);
    expect(await summary()).toEqual([
      { productId: kept.id, cmv: 800, uncosted: 0 },
      { productId: loose.id, cmv: 0, uncosted: 1 },
    ]);
    expect(await cmvLine()).toBe(-1050);
  });
});

describe('cash flow', () => {
  it('puts cash and Pix on the day net of fees, credit on its settlement day, and payables paid and due', async () => {
    const shop = await seededShop();
    const to = addDays(today, 40);
    const flow = expectStatus(
      await shop.api.get(`/finance/cash-flow?from=${today}&to=${to}&groupBy=day`),
      200,
    );
    expect(flow.openingCents).toBe(0);
    const day = (d: string) => flow.rows.find((r: { period: string }) => r.period === d);
    expect(day(today)).toMatchObject({
      salesInCents: 1800 + 990,
      payablesOutCents: 150000,
      projectedOutCents: 250000,
      netCents: 1800 + 990 - 150000,
    });
    expect(day(addDays(today, 30))).toMatchObject({ salesInCents: 0, projectedInCents: 3000 - 96 });
    expect(flow.totals.projectedOutCents).toBe(250000 + 99999);
    expect(flow.closingCents).toBe(1800 + 990 - 150000 - 250000 + 2904 - 99999);

    // From tomorrow, today's realised money is the opening balance.
    const next = expectStatus(
      await shop.api.get(`/finance/cash-flow?from=${addDays(today, 1)}&to=${to}&groupBy=month`),
      200,
    );
    expect(next.openingCents).toBe(1800 + 990 - 150000);
    const bad = await shop.api.get(`/finance/cash-flow?from=${today}&to=${addDays(today, -1)}`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().issues[0].message).toBe('A data final deve ser igual ou posterior à inicial');
    const csv = await shop.api.get(`/finance/cash-flow/csv?from=${today}&to=${to}&groupBy=week`);
    expect(csv.statusCode).toBe(200);
    expect(csv.body.split('\r\n')[0]).toBe(
      'Período;Vendas recebidas;Crediário recebido;Contas pagas;A receber (previsto);A pagar (previsto);Saldo realizado;Saldo acumulado;Vendas recebidas: Dinheiro;Vendas recebidas: Pix;Vendas recebidas: Crédito;Vendas recebidas: Débito;Vendas recebidas: Vales-refeição;Vendas recebidas: Outras formas',
    );

    // XLSX: the opening balance, one row per period, the totals; money as numbers.
    const range = `from=${addDays(today, 1)}&to=${to}&groupBy=month`;
    const xlsx = await shop.api.get(`/finance/cash-flow/xlsx?${range}`);
    expect(xlsx.statusCode).toBe(200);
    const sheet = await workbook(xlsx.rawPayload);
    expect(sheet.name).toBe('Fluxo de caixa');
    expect(sheet.getRow(2).values).toEqual([
      undefined,
      'Saldo inicial',
      ...Array(6).fill(undefined),
      -1472.1,
    ]);
    const total = sheet.getRow(sheet.rowCount - 1).values as unknown[];
    expect(total[1]).toBe('Total');
    expect(total[8]).toBeCloseTo(next.closingCents / 100, 2);
    // Then the previous period of the same length, its totals and closing balance.
    const previousRow = sheet.getRow(sheet.rowCount).values as unknown[];
    expect(previousRow[1]).toBe(
      `Período anterior (${formatDateBr(next.previous.from)} a ${formatDateBr(next.previous.to)})`,
    );
    expect(previousRow[8]).toBeCloseTo(next.previous.closingCents / 100, 2);
    expect(sheet.rowCount).toBe(next.rows.length + 4);

    // PDF: the same figures as a reader sees them.
    const pdf = await shop.api.get(`/finance/cash-flow/pdf?${range}`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const text = await pdfText(pdf.rawPayload);
    expect(text).toContain(`Fluxo de caixa de ${formatDateBr(addDays(today, 1))} a ${formatDateBr(to)}`);
    expect(text).toContain('Saldo inicial');
    expect(text).toContain(formatCents(next.openingCents));
    expect(text).toContain(formatCents(next.closingCents));
    expect((await shop.apis[1].get(`/finance/cash-flow/pdf?${range}`)).statusCode).toBe(403);
  });

  it("gives the previous period's opening, totals and closing, exact to the cent", async () => {
    const shop = await seededShop();
    // Tomorrow's flow: the period before it is today (cash 18,00 and Pix 9,90 net of its fee in, the rent
    // paid out; the salaries and the purchase due; the credit sale settles in 30 days, after it).
    const tomorrow = addDays(today, 1);
    const flow = expectStatus(
      await shop.api.get(`/finance/cash-flow?from=${tomorrow}&to=${tomorrow}&groupBy=day`),
      200,
    );
    expect(flow.previous).toEqual({
      from: today,
      to: today,
      openingCents: 0,
      totals: {
        salesInCents: 1800 + 990,
        salesByMethodCents: { money: 1800, pix: 990, creditCard: 0, debitCard: 0, voucher: 0, other: 0 },
        receivablesInCents: 0,
        payablesOutCents: 150000,
        projectedInCents: 0,
        projectedOutCents: 250000,
        netCents: 1800 + 990 - 150000,
      },
      closingCents: 1800 + 990 - 150000 - 250000,
    });
    expect(flow.openingCents).toBe(1800 + 990 - 150000);
  });
});

describe('cash flow of crediário', () => {
  it('puts an instalment received on the day it was received and the ones due on their due dates, the sale itself nowhere', async () => {
    const shop = await makeShop(t);
    const product = await makeProduct(t, shop.auth, { salePriceCents: 10001, stock: 5 });
    const maria = await makeCustomer(t, shop.auth);
    const sale = await makeSale(t, shop.auth, {
      items: [{ productId: product.id, quantity: 1 }],
      customerId: maria.id,
      payments: [{ method: 'creditShop', amountCents: 10001, numberInstallments: 3 }],
    });
    const [first, second, third] = sale.receivables;
    // R$ 100,01 in 3: the odd cents on the first (33,35 + 33,33 + 33,33), monthly from tomorrow.
    expect(
      sale.receivables.map((r: { amountCents: number; dueDate: string }) => [r.amountCents, r.dueDate]),
    ).toEqual([
      [3335, addDays(today, 1)],
      [3333, addMonths(addDays(today, 1), 1)],
      [3333, addMonths(addDays(today, 1), 2)],
    ]);
    expectStatus(
      await shop.api.post(`/sale/${sale.id}/receivable/${first.id}/settle`, { paymentMethod: 'pix' }),
      200,
    );
    const flow = expectStatus(
      await shop.api.get(`/finance/cash-flow?from=${today}&to=${third.dueDate}&groupBy=day`),
      200,
    );
    const row = (day: string) => flow.rows.find((r: { period: string }) => r.period === day);
    // Received today (before its due date): realised today, once (not again as a Pix sale); the
    // sale's crediário is not money in.
    expect(row(today)).toMatchObject({ salesInCents: 0, receivablesInCents: 3335, projectedInCents: 0 });
    expect(row(first.dueDate)).toMatchObject({ receivablesInCents: 0, projectedInCents: 0 });
    expect(row(second.dueDate)).toMatchObject({ receivablesInCents: 0, projectedInCents: 3333 });
    expect(row(third.dueDate)).toMatchObject({ receivablesInCents: 0, projectedInCents: 3333 });
    expect(flow.totals).toMatchObject({
      salesInCents: 0,
      receivablesInCents: 3335,
      projectedInCents: 6666,
      netCents: 3335,
    });
    expect(flow.rows.at(-1).balanceCents).toBe(flow.openingCents + 10001);
  });
});

describe('cash flow of meal vouchers (issue 33)', () => {
  it("counts each voucher brand on its own settlement day net of its rate, not on the sale's day", async () => {
    const shop = await seededShop();
    expectStatus(
      await shop.api.put('/fee-simulator/meal-voucher', {
        brands: [
          { method: 'voucherAlelo', enabled: true, rate: '6,5', settlementDays: 30 },
          { method: 'voucherTicket', enabled: true, rate: 7.2, settlementDays: 28 },
        ],
      }),
      200,
    );
    const product = await makeProduct(t, shop.auth, { salePriceCents: 3333, costPriceCents: 0, stock: 10 });
    // R$ 33,33 on Alelo: fee 6,5% = 2,16645 -> 2,17; R$ 66,66 on Ticket: 7,2% = 4,79952 -> 4,80.
    await makeSale(t, shop.auth, {
      items: [{ productId: product.id, quantity: 1 }],
      payments: [{ method: 'voucherAlelo', amountCents: 3333 }],
    });
    await makeSale(t, shop.auth, {
      items: [{ productId: product.id, quantity: 2 }],
      payments: [{ method: 'voucherTicket', amountCents: 6666 }],
    });
    const flow = expectStatus(
      await shop.api.get(`/finance/cash-flow?from=${today}&to=${addDays(today, 40)}&groupBy=day`),
      200,
    );
    const day = (d: string) => flow.rows.find((r: { period: string }) => r.period === d);
    // Today only the seeded cash and Pix: the vouchers are not money in hand yet.
    expect(day(today)).toMatchObject({ salesInCents: 1800 + 990, projectedInCents: 0 });
    expect(day(addDays(today, 28))).toMatchObject({ salesInCents: 0, projectedInCents: 6666 - 480 });
    // Alelo on D+30 with the credit sale of the seed (R$ 30,00 - 0,96).
    expect(day(addDays(today, 30))).toMatchObject({ projectedInCents: 3333 - 217 + 3000 - 96 });
    // The DRE takes the brands' fees with the card fees: 1,06 + 2,17 + 4,80.
    const dre = expectStatus(await shop.api.get(`/finance/dre?month=${month}`), 200);
    expect(dre.lines.find((l: { key: string }) => l.key === 'cardFees')).toMatchObject({
      label: '(-) Taxas de cartão, Pix e vales',
      amountCents: -(106 + 217 + 480),
    });
  });
});

describe("the day's close", () => {
  it('lists the sales by method, the bills paid and the net', async () => {
    const shop = await seededShop();
    const close = expectStatus(await shop.api.get(`/finance/day-close?date=${today}`), 200);
    expect(close.salesByMethod).toEqual(
      expect.arrayContaining([
        { method: 'creditCard', label: expect.any(String), amountCents: 3000 },
        { method: 'pix', label: 'Pix', amountCents: 1000 },
        { method: 'money', label: 'Dinheiro', amountCents: 1800 },
      ]),
    );
    expect(close.salesCents).toBe(5800);
    expect(close.expenses).toEqual([
      {
        paymentId: expect.any(Number),
        payableId: expect.any(Number),
        description: 'Aluguel',
        method: 'pix',
        fromRegister: false,
        amountCents: 150000,
      },
    ]);
    expect(close.netCents).toBe(5800 - 150000);
  });

  it('exports the close as CSV, XLSX and PDF: the sales by method, the bills paid, the net', async () => {
    const shop = await seededShop();
    const csv = await shop.api.get(`/finance/day-close/csv?date=${today}`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="fechamento-${today}.csv"`);
    const lines = csv.body.split('\r\n');
    expect(lines[0]).toBe('Tipo;Descrição;Valor');
    expect(lines).toEqual(
      expect.arrayContaining([
        'Venda;Cartão de crédito;30,00',
        'Venda;Pix;10,00',
        'Venda;Dinheiro;18,00',
        'Total vendido;;58,00',
        'Conta paga;Aluguel (Pix);1500,00',
        'Total pago;;1500,00',
        'Vendas menos contas pagas;;-1442,00',
      ]),
    );
    expect(lines).toHaveLength(9);

    const xlsx = await shop.api.get(`/finance/day-close/xlsx?date=${today}`);
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-disposition']).toBe(`attachment; filename="fechamento-${today}.xlsx"`);
    const sheet = await workbook(xlsx.rawPayload);
    expect(sheet.getRow(1).values).toEqual([undefined, 'Tipo', 'Descrição', 'Valor']);
    expect(sheet.getRow(sheet.rowCount).values).toEqual([
      undefined,
      'Vendas menos contas pagas',
      undefined,
      -1442,
    ]);

    const pdf = await shop.api.get(`/finance/day-close/pdf?date=${today}`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const text = await pdfText(pdf.rawPayload);
    expect(text).toContain(`Fechamento do dia ${formatDateBr(today)}`);
    expect(text).toContain(`Conta paga: Aluguel (Pix) ${formatCents(150000)}`);
    expect(text).toContain(`Venda: Dinheiro ${formatCents(1800)}`);
    expect(text).toContain(`Total vendido ${formatCents(5800)}`);
    expect(text).toContain(`Vendas menos contas pagas ${formatCents(-144200)}`);

    // A Vendedor reads none of it; another shop's day is its own (empty).
    expect((await shop.apis[1].get(`/finance/day-close/pdf?date=${today}`)).statusCode).toBe(403);
    const other = await asUser(t, [7]);
    const empty = (await other.api.get(`/finance/day-close/csv?date=${today}`)).body.split('\r\n');
    expect(empty).toEqual([
      'Tipo;Descrição;Valor',
      'Total vendido;;0,00',
      'Total pago;;0,00',
      'Vendas menos contas pagas;;0,00',
      '',
    ]);
  });
});
