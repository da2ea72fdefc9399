import { DEFAULT_TIME_ZONE, dateIn } from '@balcao/core/time';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, makeCnpj, type TestApp } from '../../../test/helper.ts';
import { type Api, expectStatus, makeProduct, makeSale, makeShop } from '../../../test/kit.ts';
import { pdfText } from '../../../test/pdf.ts';
import { supplierNfe } from '../../../test/supplierNfe.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const today = dateIn(DEFAULT_TIME_ZONE);
const month = today.slice(0, 7);
/** The shop's bill: an amount found in no other figure of these tests. */
const AMOUNT = 432109;

/** Every cell of every sheet of an XLSX, as ExcelJS reads it. */
async function cells(bytes: Buffer): Promise<unknown[]> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(bytes as unknown as ArrayBuffer);
  const out: unknown[] = [];
  for (const sheet of book.worksheets)
    sheet.eachRow((row) => {
      for (const v of row.values as unknown[]) if (v !== undefined && v !== null) out.push(v);
    });
  return out;
}

/** What a download says, as text a test can search: CSV as is, XLSX cells, PDF text. */
async function contentOf(a: Api, url: string): Promise<string> {
  const res = await a.get(url);
  expect(res.statusCode, url).toBe(200);
  if (url.includes('/pdf')) return pdfText(res.rawPayload);
  if (url.includes('/xlsx')) return (await cells(res.rawPayload)).map(String).join('|');
  return res.body;
}

/**
 * Issue 34, "tenancy on every new route": shop A's supplier, bill, payment, product and sale; shop B (a
 * full Administrador, with the rights to every finance route) names A's ids and reads its own lists and
 * files. Every id of A is 404 to B and changes nothing; nothing of A shows in B's lists and exports.
 */
describe('finance routes between shops', () => {
  it("answers 404 to another shop's ids, changes nothing, and never shows another shop's rows", async () => {
    const shopA = await makeShop(t, [1]);
    const a = shopA.api;
    const shopB = await makeShop(t, [1]);
    const b = shopB.api;

    const categoriesA = expectStatus(await a.get('/payable/category'), 200);
    const rentA = categoriesA.find((c: { name: string }) => c.name === 'Aluguel');
    const supplierA = expectStatus(
      await a.post('/supplier', { name: 'Imobiliária da Loja A', document: makeCnpj('445566770001') }),
      201,
    );
    const billA = expectStatus(
      await a.post('/payable', {
        categoryId: rentA.id,
        supplierId: supplierA.id,
        description: 'Aluguel da loja A',
        amountCents: AMOUNT,
        dueDate: today,
      }),
      201,
    ).items[0];
    const paidA = expectStatus(
      await a.post(`/payable/${billA.id}/pay`, {
        paidOn: today,
        amountCents: AMOUNT,
        method: 'pix',
        source: 'bank',
      }),
      200,
    );
    const openA = expectStatus(
      await a.post('/payable', {
        categoryId: rentA.id,
        description: 'Condomínio da loja A',
        amountCents: 77701,
        dueDate: today,
      }),
      201,
    ).items[0];
    const productA = await makeProduct(t, shopA.auth, {
      name: 'Produto da loja A',
      salePriceCents: 1000,
      costPriceCents: 400,
      stock: 10,
    });
    await makeSale(t, shopA.auth, {
      items: [{ productId: productA.id, quantity: 1 }],
      payments: [{ method: 'money', amountCents: 1000 }],
    });
    const categoryB = expectStatus(await b.get('/payable/category'), 200).find(
      (c: { name: string }) => c.name === 'Aluguel',
    );

    // Another shop's ids: 404 with the Portuguese message, on every route that takes one.
    const supplierBody = { name: 'Tomado', document: null, updatedAt: supplierA.updatedAt };
    const billBody = {
      categoryId: categoryB.id,
      description: 'Tomado',
      amountCents: 1,
      dueDate: today,
      competenceMonth: month,
      updatedAt: openA.updatedAt,
    };
    const refused: [
      string,
      () => Promise<{ statusCode: number; json: () => { message: string } }>,
      string,
    ][] = [
      ['GET /supplier/:id', () => b.get(`/supplier/${supplierA.id}`), 'Fornecedor não encontrado'],
      [
        'PUT /supplier/:id',
        () => b.put(`/supplier/${supplierA.id}`, supplierBody),
        'Fornecedor não encontrado',
      ],
      ['DELETE /supplier/:id', () => b.delete(`/supplier/${supplierA.id}`), 'Fornecedor não encontrado'],
      ['GET /payable/:id', () => b.get(`/payable/${openA.id}`), 'Conta a pagar não encontrada'],
      ['PUT /payable/:id', () => b.put(`/payable/${openA.id}`, billBody), 'Conta a pagar não encontrada'],
      ['DELETE /payable/:id', () => b.delete(`/payable/${openA.id}`), 'Conta a pagar não encontrada'],
      [
        'DELETE /payable/:id?scope=all',
        () => b.delete(`/payable/${openA.id}?scope=all`),
        'Conta a pagar não encontrada',
      ],
      [
        'POST /payable/:id/payment/:paymentId/reverse',
        () => b.post(`/payable/${billA.id}/payment/${paidA.payments[0].id}/reverse`),
        'Conta a pagar não encontrada',
      ],
      [
        'POST /payable/:id/pay',
        () =>
          b.post(`/payable/${openA.id}/pay`, {
            paidOn: today,
            amountCents: 1,
            method: 'pix',
            source: 'bank',
          }),
        'Conta a pagar não encontrada',
      ],
      [
        "POST /payable with A's category",
        () => b.post('/payable', { ...billBody, categoryId: rentA.id }),
        'Categoria não encontrada',
      ],
      [
        "POST /payable with A's supplier",
        () => b.post('/payable', { ...billBody, supplierId: supplierA.id }),
        'Fornecedor não encontrado',
      ],
    ];
    for (const [what, call, message] of refused) {
      const res = await call();
      expect(res.statusCode, what).toBe(404);
      expect(res.json().message, what).toBe(message);
    }

    // The NF-e stock entry naming A's product: 404, and A's stock did not move.
    const xml = supplierNfe({
      issuerCnpj: makeCnpj('112233440001'),
      recipientCnpj: shopB.client.document,
      number: '9101',
      items: [{ code: 'X1', ean: null, name: 'ITEM', quantity: '5', unitPrice: '3.00' }],
      dups: [['001', today, '15.00']],
    });
    const entry = await b.post('/payable/nfe/entry', { xml, items: [{ index: 1, productId: productA.id }] });
    expect(entry.statusCode, entry.body).toBe(404);
    expect(entry.json().message).toBe('O produto escolhido para o item 1 não foi encontrado');
    expect(expectStatus(await b.get('/payable?pageSize=100'), 200).total).toBe(0);

    // Nothing of A changed.
    expect(expectStatus(await a.get(`/supplier/${supplierA.id}`), 200)).toMatchObject({
      name: 'Imobiliária da Loja A',
      updatedAt: supplierA.updatedAt,
    });
    expect(expectStatus(await a.get(`/payable/${openA.id}`), 200)).toMatchObject({
      description: 'Condomínio da loja A',
      amountCents: 77701,
      status: 'open',
      updatedAt: openA.updatedAt,
    });
    expect(expectStatus(await a.get(`/payable/${billA.id}`), 200)).toMatchObject({
      status: 'paid',
      payments: [expect.objectContaining({ id: paidA.payments[0].id, amountCents: AMOUNT })],
    });
    expect(expectStatus(await a.get(`/product/${productA.id}`), 200).stock).toBe(9);

    // B's lists: its own rows only, even filtered by A's supplier or category.
    expect(expectStatus(await b.get('/supplier'), 200).total).toBe(0);
    for (const query of ['', '?status=paid', `?supplierId=${supplierA.id}`, `?categoryId=${rentA.id}`]) {
      const list = expectStatus(await b.get(`/payable${query}`), 200);
      expect(list.total, query).toBe(0);
      expect(list.totals, query).toEqual({ amountCents: 0, paidCents: 0, openCents: 0, overdueCents: 0 });
    }
    const categoriesB = expectStatus(await b.get('/payable/category'), 200);
    const idsOfA = new Set(categoriesA.map((c: { id: number }) => c.id));
    expect(categoriesB.filter((c: { id: number }) => idsOfA.has(c.id))).toEqual([]);
    const newCategory = expectStatus(
      await b.post('/payable/category', { name: 'Frete', group: 'operating' }),
      201,
    );
    expect(
      expectStatus(await a.get('/payable/category'), 200).map((c: { id: number }) => c.id),
    ).not.toContain(newCategory.id);
    expect(expectStatus(await b.get(`/finance/day-close?date=${today}`), 200)).toMatchObject({
      salesCents: 0,
      expenses: [],
      expensesCents: 0,
    });
    expect(expectStatus(await a.get(`/finance/day-close?date=${today}`), 200)).toMatchObject({
      salesCents: 1000,
      expensesCents: AMOUNT,
    });
    const turnover = expectStatus(await b.get(`/report/stock-turnover?from=${today}&to=${today}`), 200);
    expect(JSON.stringify(turnover)).not.toContain('Produto da loja A');

    // Every file: A's own shows its bill (a positive control), B's never does.
    const range = `from=${today}&to=${today}`;
    const files: [string, string][] = [
      [`/payable/export?status=paid`, '4321,09'],
      [`/payable/export/xlsx?status=paid`, '4321.09'],
      [`/finance/cash-flow/csv?${range}`, '4321,09'],
      [`/finance/cash-flow/xlsx?${range}`, '4321.09'],
      [`/finance/cash-flow/pdf?${range}`, '4.321,09'],
      [`/finance/dre/csv?month=${month}`, '5098,10'],
      [`/finance/dre/xlsx?month=${month}`, '5098.1'],
      [`/finance/dre/pdf?month=${month}`, '5.098,10'],
      [`/finance/dre/entries/csv?month=${month}&line=expense:operating`, '4321,09'],
      [`/finance/dre/entries/xlsx?month=${month}&line=expense:operating`, '4321.09'],
    ];
    for (const [url, figure] of files) {
      expect(await contentOf(a, url), `A ${url}`).toContain(figure);
      const ofB = await contentOf(b, url);
      expect(ofB, `B ${url}`).not.toContain(figure);
      expect(ofB, `B ${url}`).not.toContain('Aluguel da loja A');
    }
    const flowB = expectStatus(await b.get(`/finance/cash-flow?${range}&groupBy=day`), 200);
    expect(flowB.totals).toMatchObject({ payablesOutCents: 0, projectedOutCents: 0 });
    const dreB = expectStatus(await b.get(`/finance/dre?month=${month}`), 200);
    expect(dreB.lines.find((l: { key: string }) => l.key === 'expense:operating').amountCents).toBe(0);
  });
});
