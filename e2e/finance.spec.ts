import { readFileSync } from 'node:fs';
import { makeBankBoletoLine } from '@balcao/core/boleto';
import { formatCents } from '@balcao/core/money';
import { DEFAULT_TIME_ZONE, dateIn } from '@balcao/core/time';
import { UserType } from '@balcao/core/userTypes';
import { type APIRequestContext, expect, test } from '@playwright/test';
import { apiLogin, demoEmail, loginAs } from './helpers';

const today = dateIn(DEFAULT_TIME_ZONE);
const month = today.slice(0, 7);

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

test('the Financeiro records a supplier and a boleto, pays it from the till, and sees it in the register, the cash flow and the DRE', async ({
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

  // The register's close shows the withdrawal.
  const register = await (await page.request.get('/v1/cash-register/current', { headers })).json();
  expect(register.cashRegister.movements).toEqual(
    expect.arrayContaining([
      expect.objectContaining({
        type: 'withdrawal',
        amountCents: 1234,
        reason: `Conta a pagar: ${description}`,
      }),
    ]),
  );

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
  const bytes = readFileSync(await pdf.path());
  expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
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

/** A supplier's nfeProc with two duplicatas (the parts the import reads). */
function supplierNfe(number: string, cnpj: string): string {
  const key = `35261112345678000195550010${number.padStart(9, '0')}${String(Date.now()).slice(-9)}`;
  return `<?xml version="1.0" encoding="UTF-8"?><nfeProc xmlns="http://www.portalfiscal.inf.br/nfe" versao="4.00"><NFe><infNFe Id="NFe${key}" versao="4.00"><ide><nNF>${number}</nNF><dhEmi>${today}T09:00:00-03:00</dhEmi></ide><emit><CNPJ>${cnpj}</CNPJ><xNome>Atacado Boa Compra ${number}</xNome></emit><total><ICMSTot><vNF>300.01</vNF></ICMSTot></total><cobr><fat><nFat>${number}</nFat><vLiq>300.01</vLiq></fat><dup><nDup>001</nDup><dVenc>${today}</dVenc><vDup>150.01</vDup></dup><dup><nDup>002</nDup><dVenc>${today}</dVenc><vDup>150.00</vDup></dup></cobr></infNFe></NFe></nfeProc>`;
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
    buffer: Buffer.from(supplierNfe(number, randomCnpj())),
  });
  await expect(page.getByText(`NF-e ${number} importada`)).toBeVisible();
  await expect(
    page.getByText(`2 contas a pagar de Atacado Boa Compra ${number}, ${formatCents(30001)}`),
  ).toBeVisible();
});
