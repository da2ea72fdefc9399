import { execFileSync } from 'node:child_process';
import { withCheckDigit } from '@balcao/core/barcode';
import { makeBankBoletoLine } from '@balcao/core/boleto';
import { formatCents } from '@balcao/core/money';
import { DEFAULT_TIME_ZONE, dateIn, formatInZone } from '@balcao/core/time';
import { UserType } from '@balcao/core/userTypes';
import { type APIRequestContext, expect, test } from '@playwright/test';
import ExcelJS from 'exceljs';
import { type SupplierNfeItem, supplierNfe } from '../apps/api/test/supplierNfe';
import { apiLogin, demoEmail, loginAs } from './helpers';

const today = dateIn(DEFAULT_TIME_ZONE);
const month = today.slice(0, 7);
const formatDate = (day: string) => formatInZone(`${day}T12:00:00Z`, DEFAULT_TIME_ZONE, 'date');

/** A valid CNPJ from 12 random digits. */
function randomCnpj(): string {
  const base = Array.from({ length: 12 }, () => Math.floor(Math.random() * 10)).join('');
  const digit = (s: string, weights: number[]) => {
    const r = weights.reduce((sum, w, i) => sum + Number(s[i]) * w, 0) % 11;
    return r < 2 ? 0 : 11 - r;
  };
  const d1 = digit(base, [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  const d2 = digit(`${base}${d1}`, [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  return `${base}${d1}${d2}`;
}

async function figures(request: APIRequestContext, token: string) {
  const headers = { authorization: `Bearer ${token}` };
  const flow = await (
    await request.get(`/v1/finance/cash-flow?from=${today}&to=${today}`, { headers })
  ).json();
  const dre = await (await request.get(`/v1/finance/dre?month=${month}`, { headers })).json();
  return {
    paidToday: flow.rows[0].payablesOutCents as number,
    operating: dre.lines.find((l: { key: string }) => l.key === 'expense:operating').amountCents as number,
  };
}

test('the Financeiro records a supplier and a boleto, pays it from the till, closes the register and sees the bill in its close, the cash flow and the DRE PDF', async ({
  page,
}) => {
  const token = await apiLogin(page, demoEmail(UserType.FINANCIAL));
  const headers = { authorization: `Bearer ${token}` };
  // The till open with cash to pay from (already open from an earlier run is fine).
  const open = await page.request.post('/v1/cash-register/open', {
    headers,
    data: { openingAmountCents: 50000 },
  });
  expect([201, 409]).toContain(open.status());
  const before = await figures(page.request, token);

  await loginAs(page, UserType.FINANCIAL);
  await page.getByRole('link', { name: 'Fornecedores' }).click();
  await page.getByRole('link', { name: 'Novo fornecedor' }).first().click();
  const supplier = `Energia Sul ${Date.now().toString(36)}`;
  await page.getByLabel('Nome').fill(supplier);
  await page.getByLabel('CPF ou CNPJ').fill(randomCnpj());
  await page.getByLabel('Chave Pix').fill('financeiro@energiasul.com.br');
  await page.getByRole('button', { name: 'Salvar' }).click();
  await expect(page.getByText('Fornecedor cadastrado')).toBeVisible();

  await page.getByRole('link', { name: 'Contas a pagar' }).click();
  await page.getByRole('link', { name: 'Nova conta a pagar' }).first().click();
  const line = makeBankBoletoLine('341', 1234, today, String(Date.now()).padStart(25, '7'));
  await page.getByLabel('Linha digitável ou código de barras do boleto').fill(line);
  await expect(page.getByText(`Boleto válido: ${formatCents(1234)}`)).toBeVisible();
  await page.getByRole('button', { name: 'Usar valor e vencimento' }).click();
  await expect(page.getByLabel('Valor')).toHaveValue('12,34');
  await expect(page.getByLabel('Vencimento')).toHaveValue(today);
  const description = `Luz da loja ${Date.now().toString(36)}`;
  await page.getByLabel('Descrição').fill(description);
  await page.getByLabel('Categoria').click();
  await page.getByRole('option', { name: 'Energia elétrica (Despesas operacionais)' }).click();
  await page.getByLabel('Fornecedor').click();
  await page.getByRole('option', { name: supplier }).click();
  await page.getByRole('button', { name: 'Salvar' }).click();
  await expect(page.getByText('Conta a pagar cadastrada')).toBeVisible();

  await page.getByPlaceholder('Descrição, documento ou fornecedor').fill(description);
  const row = page.getByRole('row', { name: new RegExp(description) });
  await expect(row).toContainText('Em aberto');
  await row.getByRole('button', { name: `Pagar ${description}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Pagar conta' });
  await dialog.getByLabel('De onde saiu o dinheiro').click();
  await page.getByRole('option', { name: 'Caixa aberto (dinheiro da gaveta)' }).click();
  await dialog.getByLabel('Forma de pagamento').click();
  await page.getByRole('option', { name: 'Dinheiro' }).click();
  await dialog.getByRole('button', { name: 'Confirmar pagamento' }).click();
  await expect(page.getByText(`Pagamento de ${description} registrado`)).toBeVisible();
  await expect(row).toContainText('Pago');

  // The register's close: count the drawer, close, and the closing report lists the bill's withdrawal.
  const register = (await (await page.request.get('/v1/cash-register/current', { headers })).json())
    .cashRegister;
  await page.goto('/dashboard/sale/pdv/close');
  await expect(page.getByRole('heading', { name: 'Fechar caixa' })).toBeVisible();
  await page
    .getByLabel('Contado em Dinheiro')
    .fill(formatCents(register.money.expectedCents).replace(/^R\$\s/, ''));
  await page.getByRole('button', { name: 'Fechar caixa' }).click();
  await page
    .getByRole('dialog', { name: 'Fechar caixa' })
    .getByRole('button', { name: 'Fechar caixa' })
    .click();
  await expect(page.getByRole('heading', { name: 'Caixa fechado' })).toBeVisible();
  const withdrawal = page
    .getByRole('table', { name: 'Movimentações' })
    .getByRole('row', { name: new RegExp(`Conta a pagar: ${description}`) });
  await expect(withdrawal).toContainText('Sangria');
  await expect(withdrawal).toContainText(`- ${formatCents(1234)}`);
  await expect(page.getByTestId('register-difference')).toHaveText(formatCents(0));

  await page.getByRole('link', { name: 'Fluxo de caixa' }).click();
  await expect(page.getByRole('heading', { name: 'Fluxo de caixa' })).toBeVisible();
  await page.goto(`/dashboard/finance/cash-flow?from=${today}&to=${today}`);
  const todayRow = page.getByRole('table', { name: 'Fluxo de caixa' }).getByRole('row').nth(1);
  await expect(todayRow.getByRole('cell').nth(3)).toHaveText(formatCents(before.paidToday + 1234));

  await page.getByRole('link', { name: 'DRE' }).click();
  await expect(page.getByTestId('dre-expense:operating')).toContainText(formatCents(before.operating - 1234));
  const [pdf] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Baixar PDF' }).click(),
  ]);
  expect(pdf.suggestedFilename()).toBe(`dre-${month}.pdf`);
  // Opened as a reader would (poppler's pdftotext): the month's lines with their values.
  const dre = await (await page.request.get(`/v1/finance/dre?month=${month}`, { headers })).json();
  const value = (key: string) => dre.lines.find((l: { key: string }) => l.key === key).amountCents;
  expect(value('expense:operating')).toBe(before.operating - 1234);
  const text = execFileSync('pdftotext', ['-layout', await pdf.path(), '-'], { encoding: 'utf8' })
    .replace(/\u00a0/g, ' ')
    .split('\n')
    .map((l) => l.trim().replace(/\s{2,}/g, ' | '));
  // Each line: its label, this month, the month before (and the change when there is one).
  const cells = (label: string) => text.find((l) => l.startsWith(`${label} | `))?.split(' | ') ?? [];
  const previous = (key: string) =>
    dre.previous.lines.find((l: { key: string }) => l.key === key).amountCents;
  expect(text).toContain(
    `Linha | ${month.slice(5)}/${month.slice(0, 4)} | ${dre.previous.month.slice(5)}/${dre.previous.month.slice(0, 4)} | Variação`,
  );
  expect(cells('Receita bruta').slice(1, 3)).toEqual([
    formatCents(value('grossRevenue')),
    formatCents(previous('grossRevenue')),
  ]);
  expect(cells('Despesas operacionais')[1]).toBe(formatCents(before.operating - 1234));
  expect(cells('Resultado do mês').slice(1, 3)).toEqual([
    formatCents(value('result')),
    formatCents(previous('result')),
  ]);
  // The line opens the bills behind it: the one just paid links to its edit page.
  await page
    .getByTestId('dre-expense:operating')
    .getByRole('button', { name: 'Despesas operacionais' })
    .click();
  const entries = page.getByRole('dialog', { name: 'Despesas operacionais' });
  await expect(entries.getByRole('link', { name: description })).toHaveAttribute(
    'href',
    /\/dashboard\/payable\/edit\/\d+$/,
  );
  await entries.getByRole('button', { name: 'Fechar' }).click();
  await expect(entries).toBeHidden();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: test.info().outputPath('dre-390.png'), fullPage: true });
});

/** A supplier's nfeProc (schema-valid, signed) for the demo shop, with two duplicatas. */
function nfeFor(number: string, cnpj: string, recipient: string, items: SupplierNfeItem[]): string {
  return supplierNfe({
    issuerCnpj: cnpj,
    issuerName: `Atacado Boa Compra ${number}`,
    recipientCnpj: recipient,
    number,
    issuedOn: today,
    items,
    dups: [
      ['001', today, '150.01'],
      ['002', today, '150.00'],
    ],
  });
}

async function shopDocument(request: APIRequestContext, token: string): Promise<string> {
  const company = await (
    await request.get('/v1/settings/company', { headers: { authorization: `Bearer ${token}` } })
  ).json();
  return company.document as string;
}

test('the Financeiro sees overdue bills in the bell and on the home, attaches the boleto and imports a supplier NF-e', async ({
  page,
}) => {
  const token = await apiLogin(page, demoEmail(UserType.FINANCIAL));
  const headers = { authorization: `Bearer ${token}` };
  const categories = await (await page.request.get('/v1/payable/category', { headers })).json();
  const description = `Aluguel atrasado ${Date.now().toString(36)}`;
  const created = await page.request.post('/v1/payable', {
    headers,
    data: { categoryId: categories[0].id, description, amountCents: 4321, dueDate: '2020-01-10' },
  });
  expect(created.status()).toBe(201);
  const bill = (await created.json()).items[0];

  await loginAs(page, UserType.FINANCIAL);
  await expect(page.getByTestId('home-payables')).toContainText('Vencidas');
  await page.getByRole('button', { name: 'Notificações' }).click();
  await expect(page.getByTestId('bell-payables')).toContainText(/contas? a pagar vencidas?/);
  await page.getByTestId('bell-payables').getByRole('link', { name: 'Ver contas a pagar' }).click();
  await expect(page).toHaveURL(/\/dashboard\/payable\?status=overdue/);

  await page.goto(`/dashboard/payable/edit/${bill.id}`);
  await page.getByTestId('attachment-file').setInputFiles({
    name: 'boleto março.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from('%PDF-1.4\n%%EOF\n'),
  });
  await expect(page.getByText('Anexo adicionado')).toBeVisible();
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Baixar boleto março.pdf' }).click(),
  ]);
  expect(file.suggestedFilename()).toBe('boleto março.pdf');

  await page.goto('/dashboard/payable');
  const number = String(Date.now()).slice(-6);
  await page.getByTestId('nfe-file').setInputFiles({
    name: 'nfe.xml',
    mimeType: 'text/xml',
    buffer: Buffer.from(
      nfeFor(number, randomCnpj(), await shopDocument(page.request, token), [
        { code: 'X1', ean: null, name: 'Material de limpeza', quantity: '1', unitPrice: '300.01' },
      ]),
    ),
  });
  // Financeiro does not move stock: the review offers the bills only.
  const review = page.getByRole('dialog', { name: `NF-e ${number} - Atacado Boa Compra ${number}` });
  await expect(review.getByText('Seu perfil não dá entrada no estoque')).toBeVisible();
  await review.getByRole('button', { name: 'Só gerar as contas a pagar' }).click();
  await expect(page.getByText(`NF-e ${number} importada`)).toBeVisible();
  await expect(
    page.getByText(`2 contas a pagar de Atacado Boa Compra ${number}, ${formatCents(30001)}`),
  ).toBeVisible();

  // The list filtered by that supplier, exported whole as XLSX and opened with a reading library.
  await page.getByRole('combobox', { name: 'Fornecedor' }).click();
  await page.getByRole('option', { name: `Atacado Boa Compra ${number}` }).click();
  await expect(page).toHaveURL(/supplierId=\d+/);
  const rows = page.getByRole('table', { name: 'Contas a pagar' }).getByRole('row');
  await expect(rows).toHaveCount(3);
  const [xlsx] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Exportar XLSX' }).click(),
  ]);
  expect(xlsx.suggestedFilename()).toMatch(/^contas-a-pagar-\d{4}-\d{2}-\d{2}\.xlsx$/);
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(await xlsx.path());
  const suppliers: unknown[] = [];
  book.worksheets[0].eachRow((row) => suppliers.push(row.getCell(3).value));
  expect(suppliers).toEqual(['Fornecedor', `Atacado Boa Compra ${number}`, `Atacado Boa Compra ${number}`]);
});

test('the Gerente imports a supplier NF-e as a stock entry: one item found by its barcode, one registered as a new product', async ({
  page,
}) => {
  const token = await apiLogin(page, demoEmail(UserType.MANAGER));
  const headers = { authorization: `Bearer ${token}` };
  const tag = Date.now().toString(36);
  const ean = withCheckDigit(`789${String(Date.now()).slice(-9)}`);
  const made = await page.request.post('/v1/product', {
    headers,
    data: {
      name: `Café Pilão 500 g ${tag}`,
      barcode: ean,
      salePriceCents: 1890,
      costPriceCents: 1000,
      stock: 4,
    },
  });
  expect(made.status()).toBe(201);
  const cafe = await made.json();
  const number = String(Date.now()).slice(-6);
  const xml = nfeFor(number, randomCnpj(), await shopDocument(page.request, token), [
    // A box of 6 (uCom CX), taxed by the unit: the review offers 6 per box.
    {
      code: 'CF500',
      ean,
      name: 'CAFE PILAO 500G CX6',
      unit: 'CX',
      quantity: '1',
      unitPrice: '78.00',
      taxUnit: 'UN',
      taxQuantity: '6',
    },
    { code: 'AC1', ean: null, name: `Achocolatado 400 g ${tag}`, quantity: '10', unitPrice: '22.20' },
  ]);

  await loginAs(page, UserType.MANAGER);
  await page.goto('/dashboard/payable');
  await page
    .getByTestId('nfe-file')
    .setInputFiles({ name: 'nfe.xml', mimeType: 'text/xml', buffer: Buffer.from(xml) });
  const review = page.getByRole('dialog', { name: `NF-e ${number} - Atacado Boa Compra ${number}` });
  await expect(review.getByTestId('nfe-bills')).toHaveText(
    `2 contas a pagar: ${formatDate(today)} ${formatCents(15001)}; ${formatDate(today)} ${formatCents(15000)}`,
  );
  const first = review.getByRole('region', { name: 'Item 1: CAFE PILAO 500G CX6' });
  await expect(first).toContainText(`Entra em ${cafe.name}`);
  await expect(first).toContainText('pelo código de barras');
  await expect(first.getByTestId('nfe-stock-1')).toHaveText(
    `Entram 6 no estoque, a ${formatCents(1300)} cada (pela unidade tributável: 6 UN)`,
  );
  await expect(review.getByText('1 item não foi encontrado no seu cadastro')).toBeVisible();
  const second = review.getByRole('region', { name: `Item 2: Achocolatado 400 g ${tag}` });
  await expect(second.getByLabel('Nome do produto (item 2)')).toHaveValue(`Achocolatado 400 g ${tag}`);
  await review.getByRole('button', { name: 'Dar entrada no estoque' }).click();
  await expect(second.getByText('Informe o preço de venda')).toBeVisible();
  await second.getByLabel('Categoria (item 2)').click();
  const category = page.getByRole('option').nth(1);
  const categoryName = (await category.textContent()) ?? '';
  await category.click();
  await expect(second.getByLabel('Categoria (item 2)')).toHaveText(categoryName);
  await second.getByLabel('Preço de venda (item 2)').fill('34,90');
  await page.screenshot({ path: test.info().outputPath('nfe-review-1280.png'), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: test.info().outputPath('nfe-review-390.png') });
  await page.setViewportSize({ width: 1280, height: 800 });
  await review.getByRole('button', { name: 'Dar entrada no estoque' }).click();
  await expect(page.getByText(`NF-e ${number} no estoque`)).toBeVisible();
  await expect(
    page.getByText(
      `2 itens entraram no estoque (1 produto novo) e 2 contas a pagar de Atacado Boa Compra ${number}, ${formatCents(30001)}`,
    ),
  ).toBeVisible();
  // 1 CX of 6 in units; weighted average: 4 at R$ 10,00 and 6 at R$ 13,00 -> R$ 11,80.
  const after = await (await page.request.get(`/v1/product/${cafe.id}`, { headers })).json();
  expect(after).toMatchObject({ stock: 10, costPriceCents: 1180 });
});
