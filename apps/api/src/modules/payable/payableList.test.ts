import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, makeCnpj, type TestApp } from '../../../test/helper.ts';
import { type Api, asUser, expectStatus } from '../../../test/kit.ts';

/**
 * The payables list (issue 34): its period filters (by due date, by paid date: any payment of the bill in
 * the period), the supplier and category filters with the exact rows, and the whole list as XLSX.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function categoryId(a: Api, name: string): Promise<number> {
  const list = expectStatus(await a.get('/payable/category'), 200);
  return list.find((c: { name: string }) => c.name === name).id;
}

type Row = { description: string };
const descriptions = (list: { items: Row[] }) => list.items.map((p) => p.description);

async function bill(
  a: Api,
  input: {
    description: string;
    amountCents: number;
    dueDate: string;
    categoryId: number;
    supplierId?: number;
  },
) {
  return expectStatus(await a.post('/payable', input), 201).items[0] as { id: number };
}

async function pay(a: Api, id: number, paidOn: string, amountCents: number) {
  return expectStatus(
    await a.post(`/payable/${id}/pay`, { paidOn, amountCents, method: 'pix', source: 'bank' }),
    200,
  ) as { payments: { id: number }[] };
}

/** A shop with two suppliers, two categories and five bills, some paid in parts across months. */
async function shopWithBills() {
  const { api: a } = await asUser(t, [1]);
  const rent = await categoryId(a, 'Aluguel');
  const goods = await categoryId(a, 'Compra de mercadorias');
  const boa = expectStatus(
    await a.post('/supplier', { name: 'Distribuidora Boa', document: makeCnpj('223456780001') }),
    201,
  ).id as number;
  const sul = expectStatus(
    await a.post('/supplier', { name: 'Atacado Sul', document: makeCnpj('323456780001') }),
    201,
  ).id as number;
  const jan = await bill(a, {
    description: 'Aluguel de janeiro',
    amountCents: 200000,
    dueDate: '2026-01-10',
    categoryId: rent,
  });
  const feb = await bill(a, {
    description: 'Aluguel de fevereiro',
    amountCents: 200000,
    dueDate: '2026-02-10',
    categoryId: rent,
  });
  const boaGoods = await bill(a, {
    description: 'Mercadorias Boa',
    amountCents: 90000,
    dueDate: '2026-01-20',
    categoryId: goods,
    supplierId: boa,
  });
  const sulGoods = await bill(a, {
    description: 'Mercadorias Sul',
    amountCents: 50000,
    dueDate: '2026-02-05',
    categoryId: goods,
    supplierId: sul,
  });
  const sulRent = await bill(a, {
    description: 'Galpão Sul',
    amountCents: 30000,
    dueDate: '2026-03-01',
    categoryId: rent,
    supplierId: sul,
  });
  // Mercadorias Boa paid in three parts: January, February and March (the last one in March).
  await pay(a, boaGoods.id, '2026-01-20', 30000);
  await pay(a, boaGoods.id, '2026-02-15', 30000);
  await pay(a, boaGoods.id, '2026-03-02', 30000);
  // Aluguel de janeiro paid once, in January.
  await pay(a, jan.id, '2026-01-09', 200000);
  // Mercadorias Sul: a February payment reversed, then paid in March.
  const reversed = await pay(a, sulGoods.id, '2026-02-06', 10000);
  expectStatus(await a.post(`/payable/${sulGoods.id}/payment/${reversed.payments[0].id}/reverse`), 200);
  await pay(a, sulGoods.id, '2026-03-03', 50000);
  return { a, rent, goods, boa, sul, ids: { jan, feb, boaGoods, sulGoods, sulRent } };
}

describe('the payables list filters', () => {
  it('filters the period by due date and by ANY payment in the period, the supplier and the category, exact rows', async () => {
    const { a, rent, goods, boa, sul } = await shopWithBills();
    const list = async (query: string) =>
      expectStatus(await a.get(`/payable?pageSize=100&sort=dueDate&${query}`), 200);

    // By due date (the default field), both ends inclusive.
    const dueJan = await list('from=2026-01-01&to=2026-01-31');
    expect(descriptions(dueJan)).toEqual(['Aluguel de janeiro', 'Mercadorias Boa']);
    expect(dueJan.totals).toEqual({ amountCents: 290000, paidCents: 290000, openCents: 0, overdueCents: 0 });
    expect(descriptions(await list('dateField=due&from=2026-02-05&to=2026-02-10'))).toEqual([
      'Mercadorias Sul',
      'Aluguel de fevereiro',
    ]);
    expect(descriptions(await list('dateField=due&from=2026-02-11'))).toEqual(['Galpão Sul']);

    // By paid date: a bill paid in parts shows in every month one of its parts was paid in.
    expect(descriptions(await list('dateField=paid&from=2026-01-01&to=2026-01-31'))).toEqual([
      'Aluguel de janeiro',
      'Mercadorias Boa',
    ]);
    // February: Mercadorias Boa's second part (its last one is in March); Mercadorias Sul's February
    // payment was reversed, so it is not there.
    const paidFeb = await list('dateField=paid&from=2026-02-01&to=2026-02-28');
    expect(descriptions(paidFeb)).toEqual(['Mercadorias Boa']);
    expect(descriptions(await list('dateField=paid&from=2026-03-01&to=2026-03-31'))).toEqual([
      'Mercadorias Boa',
      'Mercadorias Sul',
    ]);
    expect(descriptions(await list('dateField=paid&to=2026-01-15'))).toEqual(['Aluguel de janeiro']);
    // Unpaid bills never match a paid period.
    expect(descriptions(await list('dateField=paid&from=2026-01-01&to=2026-12-31'))).not.toContain(
      'Aluguel de fevereiro',
    );

    // Supplier and category, alone and together.
    expect(descriptions(await list(`supplierId=${sul}`))).toEqual(['Mercadorias Sul', 'Galpão Sul']);
    expect(descriptions(await list(`supplierId=${boa}`))).toEqual(['Mercadorias Boa']);
    expect(descriptions(await list(`categoryId=${rent}`))).toEqual([
      'Aluguel de janeiro',
      'Aluguel de fevereiro',
      'Galpão Sul',
    ]);
    expect(descriptions(await list(`categoryId=${goods}`))).toEqual(['Mercadorias Boa', 'Mercadorias Sul']);
    const sulRent = await list(`supplierId=${sul}&categoryId=${rent}`);
    expect(descriptions(sulRent)).toEqual(['Galpão Sul']);
    expect(sulRent.total).toBe(1);
    // With the status and the paid period.
    expect(
      descriptions(
        await list(`status=paid&dateField=paid&from=2026-03-01&to=2026-03-31&categoryId=${goods}`),
      ),
    ).toEqual(['Mercadorias Boa', 'Mercadorias Sul']);

    // Another shop's supplier matches nothing here.
    const other = await asUser(t, [1]);
    expect(expectStatus(await other.api.get(`/payable?supplierId=${sul}`), 200).total).toBe(0);
  });
});

describe('the payables XLSX', () => {
  it('exports every payable the filters match (not the page) as XLSX that a reading library opens', async () => {
    const { a, rent, sul } = await shopWithBills();
    // 25 more rent bills, more than a page of 20.
    expectStatus(
      await a.post('/payable', {
        categoryId: rent,
        description: 'Sala <2> & "depósito"',
        amountCents: 123456,
        dueDate: '2027-01-05',
        recurrence: 'monthly',
        occurrences: 25,
      }),
      201,
    );
    const read = async (query: string) => {
      const res = await a.get(`/payable/export/xlsx?${query}`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe(
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      );
      expect(res.headers['content-disposition']).toMatch(/^attachment; filename="contas-a-pagar-.+\.xlsx"$/);
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
      const sheet = book.worksheets[0];
      expect(sheet.name).toBe('Contas a pagar');
      const rows: unknown[][] = [];
      sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
      return rows;
    };

    const all = await read(`categoryId=${rent}&page=2&pageSize=20`);
    expect(all[0]).toEqual([
      'Vencimento',
      'Descrição',
      'Fornecedor',
      'Categoria',
      'Competência',
      'Documento',
      'Valor',
      'Pago',
      'Em aberto',
      'Situação',
      'Pago em',
      'Pago por',
    ]);
    // The header and every matching bill (3 + 25), whatever the page asked.
    expect(all).toHaveLength(1 + 28);
    // Dates as dates, money as numbers in reais; empty cells left empty.
    expect(all[1]).toEqual([
      new Date(Date.UTC(2026, 0, 10)),
      'Aluguel de janeiro',
      undefined,
      'Aluguel',
      '2026-01',
      undefined,
      2000,
      2000,
      0,
      'Pago',
      new Date(Date.UTC(2026, 0, 9)),
      'Conta bancária',
    ]);
    expect(all[4]).toEqual([
      new Date(Date.UTC(2027, 0, 5)),
      'Sala <2> & "depósito" (1/25)',
      undefined,
      'Aluguel',
      '2027-01',
      undefined,
      1234.56,
      0,
      1234.56,
      'Em aberto',
    ]);

    // The paid-period and supplier filters apply as in the list.
    const march = await read('dateField=paid&from=2026-03-01&to=2026-03-31');
    expect(march.slice(1).map((r) => r[1])).toEqual(['Mercadorias Boa', 'Mercadorias Sul']);
    expect(march[1].slice(6, 11)).toEqual([900, 900, 0, 'Pago', new Date(Date.UTC(2026, 2, 2))]);
    const sulRows = await read(`supplierId=${sul}`);
    expect(sulRows.slice(1).map((r) => [r[1], r[2]])).toEqual([
      ['Mercadorias Sul', 'Atacado Sul'],
      ['Galpão Sul', 'Atacado Sul'],
    ]);

    // Nothing matched: the header alone. A junk filter is a 400 in Portuguese, not a file.
    expect(await read('supplierId=999999')).toHaveLength(1);
    const junk = await a.get('/payable/export/xlsx?from=2026-13-45');
    expect(junk.statusCode).toBe(400);
    // A bad sort or a text the database refuses: the list's very 400, before any byte of a file.
    for (const bad of ['sort=abc', 'sort=-nope', 'q=a%00b']) {
      const list = await a.get(`/payable?${bad}`);
      const exported = await a.get(`/payable/export/xlsx?${bad}`);
      expect(list.statusCode, bad).toBe(400);
      expect(exported.statusCode, bad).toBe(400);
      expect(exported.headers['content-type']).toMatch(/application\/json/);
      expect(exported.json()).toEqual(list.json());
    }
  });

  it('is for Financeiro people only and shows one shop its own bills', async () => {
    const { api: seller } = await asUser(t, [3]);
    expect((await seller.get('/payable/export/xlsx')).statusCode).toBe(403);
  });
});
