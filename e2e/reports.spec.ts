import { readFileSync } from 'node:fs';
import { formatCents } from '@balcao/core/money';
import { DEFAULT_TIME_ZONE, dateIn } from '@balcao/core/time';
import { UserType } from '@balcao/core/userTypes';
import { expect, test } from '@playwright/test';
import ExcelJS from 'exceljs';
import { apiLogin, demoEmail, loginAs } from './helpers';

const today = dateIn(DEFAULT_TIME_ZONE);

/** A PDF's text, whitespace collapsed, as a reader sees it (pdfjs-dist, the API tests' reading library). */
async function pdfText(bytes: Buffer): Promise<string> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({ data: new Uint8Array(bytes), isEvalSupported: false }).promise;
  const parts: string[] = [];
  for (let n = 1; n <= doc.numPages; n++)
    for (const item of (await (await doc.getPage(n)).getTextContent()).items)
      if ('str' in item) parts.push(item.str);
  return parts.join(' ').replace(/\s+/g, ' ');
}

test("the Gerente reads the day's sales in Financeiro > Relatórios and exports every line, the products' XLSX and the PDF", async ({
  page,
}) => {
  const token = await apiLogin(page, demoEmail(UserType.MANAGER));
  const headers = { authorization: `Bearer ${token}` };
  const open = await page.request.post('/v1/cash-register/open', {
    headers,
    data: { openingAmountCents: 10000 },
  });
  expect([201, 409]).toContain(open.status());
  const description = `Serviço relatório ${Date.now().toString(36)}`;
  const sale = await page.request.post('/v1/sale/simple', {
    headers,
    data: { description, valueCents: 4321, payments: [{ method: 'pix', amountCents: 4321 }] },
  });
  expect(sale.status()).toBe(201);

  await loginAs(page, UserType.MANAGER);
  await page.getByRole('link', { name: 'Relatórios', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Relatórios', exact: true })).toBeVisible();
  // The day's figures are the API's (other tests may sell meanwhile: read both until they agree).
  await expect(async () => {
    const report = await (
      await page.request.get(`/v1/report/sales?from=${today}&to=${today}`, { headers })
    ).json();
    expect(report.summary.netCents).toBeGreaterThanOrEqual(4321);
    await expect(page.getByTestId('report-net')).toContainText(formatCents(report.summary.netCents), {
      timeout: 1000,
    });
  }).toPass();
  // Each table beside the previous period: the figure and the change per row, the total against before.
  const methods = page.getByRole('region', { name: 'Por forma de pagamento' });
  await expect(methods).toContainText('Pix');
  await expect(methods.getByRole('columnheader', { name: 'Período anterior' })).toBeVisible();
  await expect(methods.getByRole('row', { name: /^Total R\$/ })).toBeVisible();
  await expect(page.getByLabel(/h: \d+ vendas?, R\$/).first()).toBeVisible();

  await page.getByLabel('Relatório a exportar').click();
  await page.getByRole('option', { name: 'Itens vendidos (todas as linhas)' }).click();
  const [csv] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Exportar CSV' }).click(),
  ]);
  expect(csv.suggestedFilename()).toBe(`relatorio-lines-${today}-${today}.csv`);
  const text = readFileSync(await csv.path(), 'utf8');
  expect(text.split('\r\n')[0]).toContain('Venda;Data;Vendedor;Origem');
  expect(text).toContain(`;${description};;;;1;0;43,21;0,00;43,21;0,00`);

  // The products with their ABC class as XLSX, opened with a reading library.
  await page.getByLabel('Relatório a exportar').click();
  await page.getByRole('option', { name: 'Por produto (curva ABC)' }).click();
  const [xlsx] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Exportar XLSX' }).click(),
  ]);
  expect(xlsx.suggestedFilename()).toBe(`relatorio-product-${today}-${today}.xlsx`);
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(await xlsx.path());
  const sheet = book.worksheets[0];
  expect(sheet.getRow(1).getCell(1).value).toBe('Produto');
  const names: unknown[] = [];
  sheet.eachRow((row) => names.push(row.getCell(1).value));
  expect(names).toContain('Itens avulsos (venda simples)');

  // Stock turnover by category, whole, as XLSX.
  const turnover = page.getByRole('region', { name: 'Giro de estoque' });
  await expect(turnover.getByRole('table', { name: 'Giro de estoque por categoria' })).toBeVisible();
  await turnover.getByLabel('Giro a exportar').click();
  await page.getByRole('option', { name: 'Giro de estoque por categoria' }).click();
  const [giro] = await Promise.all([
    page.waitForEvent('download'),
    turnover.getByRole('button', { name: 'Exportar giro (XLSX)' }).click(),
  ]);
  expect(giro.suggestedFilename()).toBe(`giro-de-estoque-category-${today}-${today}.xlsx`);
  const giroBook = new ExcelJS.Workbook();
  await giroBook.xlsx.readFile(await giro.path());
  expect(giroBook.worksheets[0].getRow(1).values).toEqual([
    undefined,
    'Categoria',
    'Vendido',
    'CMV',
    'Estoque médio',
    'Estoque final',
    'Giro',
    'Dias de estoque',
    'CMV no período anterior',
    'Giro no período anterior',
  ]);
  // The turnover's PDF: the totals against the previous period, read with a reading library.
  await expect(turnover.getByRole('list', { name: 'Total do giro' })).toContainText('CMV:');
  const [giroPdf] = await Promise.all([
    page.waitForEvent('download'),
    turnover.getByRole('button', { name: 'Baixar giro (PDF)' }).click(),
  ]);
  expect(giroPdf.suggestedFilename()).toBe(`giro-de-estoque-${today}-${today}.pdf`);
  const giroText = await pdfText(readFileSync(await giroPdf.path()));
  expect(giroText).toContain('Resumo Período Período anterior Variação CMV');

  const [pdf] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Baixar PDF' }).click(),
  ]);
  expect(pdf.suggestedFilename()).toBe(`relatorio-vendas-${today}-${today}.pdf`);
  const pdfContent = await pdfText(readFileSync(await pdf.path()));
  expect(pdfContent).toContain('Resumo Período Período anterior Variação');
  expect(pdfContent).toContain('Por forma de pagamento Forma de pagamento Valor Período anterior');

  // Also reachable from Vendas (ROUTES.md), the same page.
  await page.getByRole('link', { name: 'Relatórios de vendas' }).click();
  await expect(page).toHaveURL(/\/dashboard\/sale\/reports/);
  await expect(page.getByTestId('report-net')).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('reports-1280.png'), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: test.info().outputPath('reports-390.png'), fullPage: true });
});
