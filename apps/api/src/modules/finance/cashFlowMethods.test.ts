import { CASH_FLOW_METHODS, cashFlowMethodOf } from '@balcao/core/cashFlowMethods';
import { addDays } from '@balcao/core/date';
import { formatCents } from '@balcao/core/money';
import { DEFAULT_TIME_ZONE, dateIn } from '@balcao/core/time';
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

type Row = { salesInCents: number; salesByMethodCents: Record<string, number> };
const sumOf = (r: Row) => CASH_FLOW_METHODS.reduce((s, m) => s + r.salesByMethodCents[m], 0);

describe('cash flow: sales received by payment method (issue 34)', () => {
  it('groups the methods as the owner reads them', () => {
    expect(
      [
        'money',
        'pix',
        'pixQrCode',
        'pixQrCodeStatic',
        'creditCard',
        'debitCard',
        'voucherAlelo',
        'voucherVr',
      ].map(cashFlowMethodOf),
    ).toEqual(['money', 'pix', 'pix', 'pix', 'creditCard', 'debitCard', 'voucher', 'voucher']);
    expect(['boleto', 'bankTransfer', 'check', 'marketplace'].map(cashFlowMethodOf)).toEqual(
      Array(4).fill('other'),
    );
  });

  it('splits what was received by method, net of fees, adding up to the single column to the cent, in the table and the CSV, XLSX and PDF', async () => {
    const shop = await makeShop(t, [1, 3]);
    const a = shop.api;
    // A fee table: Pix 0,99% on the day, debit 1,99% on D+1, credit 3,19% on D+30.
    const table = expectStatus(
      await a.post('/fee-simulator/table', {
        name: 'Maquininha',
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
    const product = await makeProduct(t, shop.auth, { salePriceCents: 10001, stock: 100 });
    const sell = (payments: { method: string; amountCents: number }[]) =>
      makeSale(t, shop.auth, { items: [{ productId: product.id, quantity: 1 }], payments });
    // R$ 100,01: 40,00 cash + 60,01 Pix (fee 0,594099 -> 0,59).
    await sell([
      { method: 'money', amountCents: 4000 },
      { method: 'pix', amountCents: 6001 },
    ]);
    // R$ 100,01 by bank transfer (no fee): "outras formas".
    await sell([{ method: 'bankTransfer', amountCents: 10001 }]);
    // R$ 100,01 on VR, whose contract pays on the day at 5% (5,0005 -> 5,00).
    expectStatus(
      await a.put('/fee-simulator/meal-voucher', {
        brands: [{ method: 'voucherVr', enabled: true, rate: 5, settlementDays: 0 }],
      }),
      200,
    );
    await sell([{ method: 'voucherVr', amountCents: 10001 }]);
    // Debit (1,99% = 1,99 -> 1,99: 98,02 tomorrow) and credit (3,19% = 3,19: 96,82 in 30 days): projected.
    await sell([{ method: 'debitCard', amountCents: 10001 }]);
    await sell([{ method: 'creditCard', amountCents: 10001 }]);

    const to = addDays(today, 30);
    const flow = expectStatus(await a.get(`/finance/cash-flow?from=${today}&to=${to}&groupBy=day`), 200);
    const day = (d: string) => flow.rows.find((r: { period: string }) => r.period === d);
    expect(day(today).salesByMethodCents).toEqual({
      money: 4000,
      pix: 6001 - 59,
      creditCard: 0,
      debitCard: 0,
      voucher: 9501,
      other: 10001,
    });
    expect(day(today).salesInCents).toBe(4000 + 5942 + 9501 + 10001);
    // Not yet in the account: projected, in no method's column.
    expect(day(addDays(today, 1))).toMatchObject({ salesInCents: 0, projectedInCents: 10001 - 199 });
    expect(day(addDays(today, 30))).toMatchObject({ salesInCents: 0, projectedInCents: 10001 - 319 });
    // Every row and the totals: the parts add up to the single column, to the cent.
    for (const r of flow.rows) expect(sumOf(r)).toBe(r.salesInCents);
    expect(sumOf(flow.totals)).toBe(flow.totals.salesInCents);
    expect(flow.totals.salesByMethodCents).toEqual(day(today).salesByMethodCents);

    // By week and by month the same money, in other periods.
    for (const groupBy of ['week', 'month']) {
      const grouped = expectStatus(
        await a.get(`/finance/cash-flow?from=${today}&to=${to}&groupBy=${groupBy}`),
        200,
      );
      expect(grouped.totals.salesByMethodCents).toEqual(flow.totals.salesByMethodCents);
      for (const r of grouped.rows) expect(sumOf(r)).toBe(r.salesInCents);
    }

    const range = `from=${today}&to=${today}`;
    // CSV: the method columns after the flow's, in reais.
    const csv = (await a.get(`/finance/cash-flow/csv?${range}`)).body.split('\r\n');
    expect(csv[0].split(';').slice(8)).toEqual([
      'Vendas recebidas: Dinheiro',
      'Vendas recebidas: Pix',
      'Vendas recebidas: Crédito',
      'Vendas recebidas: Débito',
      'Vendas recebidas: Vales-refeição',
      'Vendas recebidas: Outras formas',
    ]);
    expect(csv[1].split(';').slice(8)).toEqual(['40,00', '59,42', '0,00', '0,00', '95,01', '100,01']);

    // XLSX: the same columns, money as numbers; the total row too.
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(
      (await a.get(`/finance/cash-flow/xlsx?${range}`)).rawPayload as unknown as ArrayBuffer,
    );
    const sheet = book.worksheets[0];
    expect((sheet.getRow(1).values as unknown[]).slice(9)).toEqual([
      'Vendas recebidas: Dinheiro',
      'Vendas recebidas: Pix',
      'Vendas recebidas: Crédito',
      'Vendas recebidas: Débito',
      'Vendas recebidas: Vales-refeição',
      'Vendas recebidas: Outras formas',
    ]);
    expect((sheet.getRow(3).values as unknown[]).slice(9)).toEqual([40, 59.42, 0, 0, 95.01, 100.01]);
    // The totals, then the previous period's line (the comparison every report has).
    const total = sheet.getRow(sheet.rowCount - 1).values as unknown[];
    expect(total[1]).toBe('Total');
    expect(String((sheet.getRow(sheet.rowCount).values as unknown[])[1])).toMatch(/^Período anterior/);
    expect(total[2]).toBe(294.44);
    expect(total.slice(9)).toEqual([40, 59.42, 0, 0, 95.01, 100.01]);

    // PDF: a second table, "Vendas recebidas por forma de pagamento", as a reader sees it.
    const text = await pdfText((await a.get(`/finance/cash-flow/pdf?${range}`)).rawPayload);
    expect(text).toContain('Vendas recebidas por forma de pagamento');
    expect(text).toContain(
      `Total ${formatCents(4000)} ${formatCents(5942)} ${formatCents(0)} ${formatCents(0)} ${formatCents(9501)} ${formatCents(10001)} ${formatCents(29444)}`,
    );
    // Another shop reads none of it; the Vendedor is refused.
    const stranger = await makeShop(t, [1]);
    const theirs = expectStatus(await stranger.api.get(`/finance/cash-flow?${range}`), 200);
    expect(theirs.totals.salesInCents).toBe(0);
    expect((await shop.apis[1].get(`/finance/cash-flow/csv?${range}`)).statusCode).toBe(403);
  });
});
