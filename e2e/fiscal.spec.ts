import { expect, type Page, test } from '@playwright/test';
import { ean13 } from './fixtures';
import { apiLogin, closeRegisterViaApi, demoEmail, loginAs } from './helpers';

/** The fake SEFAZ's control port the config starts (playwright.config.ts: E2E_PORT + 911). */
const SEFAZ_CONTROL_URL = `http://127.0.0.1:${Number(process.env.E2E_SEFAZ_PORT ?? Number(process.env.E2E_PORT ?? 3100) + 910) + 1}`;
const stamp = Date.now().toString().slice(-7);
const CNPJ = '11222333000181';

async function pick(page: Page, label: string, option: string) {
  // The combobox itself: a closing menu's listbox carries the same label for a moment.
  await page.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
  await expect(page.getByRole('listbox')).toBeHidden();
}

test('NFC-e: set up Configurações > Fiscal with an A1, sell at the PDV with CPF na nota, see the note authorised and its DANFE', async ({
  page,
  context,
}) => {
  const token = await apiLogin(page, demoEmail(1));
  const headers = { authorization: `Bearer ${token}` };
  const barcode = ean13(`201${stamp}09`);
  const product = await page.request.post('/v1/product', {
    headers,
    data: { name: `Pastel ${stamp}`, salePriceCents: 850, barcode, stock: 10 },
  });
  expect(product.status(), await product.text()).toBe(201);
  await closeRegisterViaApi(page, 1);

  await loginAs(page, 1);
  await page.goto('/dashboard/settings/fiscal');
  await expect(page).toHaveTitle('Fiscal | Balcão');
  const form = page.getByRole('form', { name: 'Emitente' });
  await form.getByLabel('CNPJ', { exact: true }).fill(CNPJ);
  await form.getByLabel('Inscrição estadual').fill('9044016688');
  await form.getByLabel('Razão social').fill('Loja Demo Ltda');
  await pick(page, 'UF', 'PR');
  await form.getByLabel('Código IBGE do município').fill('4106902');
  await form.getByLabel('Município', { exact: true }).fill('Curitiba');
  await form.getByLabel('Logradouro').fill('Rua XV de Novembro');
  await form.getByLabel('Número', { exact: true }).fill('100');
  await form.getByLabel('Bairro').fill('Centro');
  await form.getByLabel('CEP', { exact: true }).fill('80020-310');
  await form.getByLabel('NCM', { exact: true }).fill('21069090');
  // QR code v2 asks for the CSC and its id; v3 (NT 2025.001) has no CSC: the fields go away.
  await form.getByRole('button', { name: 'Salvar dados fiscais' }).click();
  await expect(form.getByText('Informe o identificador do CSC (o QR Code versão 2 usa o CSC)')).toBeVisible();
  await pick(page, 'Versão do QR Code', 'Versão 3 (sem CSC, NT 2025.001)');
  await expect(form.getByLabel('Identificador do CSC')).toBeHidden();
  await expect(form.getByLabel('CSC', { exact: true })).toBeHidden();
  await pick(page, 'Versão do QR Code', 'Versão 2 (com CSC)');
  await form.getByLabel('Identificador do CSC').fill('1');
  await form.getByLabel('CSC', { exact: true }).fill('GPB0JBWLUR6HWFTVEAS6RJ69GPCROFPBBB8G');
  // The CBS of 2027 is left by LC 214/2025 to be set: the shop types it in %; 2027's IBS is the law's.
  const rates = form.getByRole('group', { name: 'Alíquotas do IBS e da CBS por ano' });
  await expect(rates.getByText('IBS estadual: 0,05% (fixada na lei)').first()).toBeVisible();
  await rates.getByLabel('CBS 2027 (%)').fill('8,8');
  await form.getByRole('button', { name: 'Salvar dados fiscais' }).click();
  await expect(page.getByText('Dados fiscais salvos')).toBeVisible();
  await expect(rates.getByLabel('CBS 2027 (%)')).toHaveValue('8,8');

  // The shop's A1 (.pfx from the fake SEFAZ's test CA) with its password.
  const a1 = await (
    await page.request.get(`${SEFAZ_CONTROL_URL}/a1?cnpj=${CNPJ}&password=segredo-a1`)
  ).json();
  await page.getByLabel('Arquivo do certificado').setInputFiles({
    name: 'loja.pfx',
    mimeType: 'application/x-pkcs12',
    buffer: Buffer.from(a1.pfxBase64, 'base64'),
  });
  await page.getByLabel('Senha do certificado').fill('errada');
  await page.getByRole('button', { name: 'Enviar certificado' }).click();
  await expect(page.getByText('Senha do certificado incorreta ou arquivo .pfx inválido.')).toBeVisible();
  await page.getByLabel('Senha do certificado').fill('segredo-a1');
  await page.getByRole('button', { name: 'Enviar certificado' }).click();
  await expect(page.getByLabel('Certificado atual')).toContainText(`CNPJ ${CNPJ}`);

  await form.getByLabel('Emitir NFC-e em toda venda').check();
  await form.getByRole('button', { name: 'Salvar dados fiscais' }).click();
  await expect(page.getByText('Dados fiscais salvos').first()).toBeVisible();

  // A PDV sale with "CPF na nota".
  await page.goto('/dashboard/sale/pdv');
  const opening = page.getByRole('dialog', { name: 'Abrir caixa' });
  await opening.getByLabel('Valor de abertura').fill('50,00');
  await opening.getByRole('button', { name: 'Abrir caixa' }).click();
  await expect(opening).toBeHidden();
  await expect(page.getByTestId('pdv-search')).toBeFocused();
  await page.keyboard.type(barcode, { delay: 5 });
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('pdv-line')).toHaveCount(1);
  await page.keyboard.press('F6');
  await page.getByLabel('CPF na nota?').fill('52998224725');
  await expect(page.getByLabel('CPF na nota?')).toHaveValue('529.982.247-25');
  const addPayment = page.getByRole('form', { name: 'Adicionar pagamento' });
  await addPayment.getByLabel('Forma de pagamento').click();
  await page.getByRole('option', { name: 'Dinheiro' }).click();
  await addPayment.getByLabel('Valor recebido').fill('10,00');
  await addPayment.getByRole('button', { name: 'Adicionar' }).click();
  await page.keyboard.press('F9');
  await expect(page.getByText(/Venda nº \d+ finalizada · troco R\$ 1,50/)).toBeVisible();

  // The note, authorised by the (fake) SEFAZ, on the fiscal page; its DANFE opens as a PDF.
  await page.goto('/dashboard/settings/fiscal');
  const notes = page.getByRole('table', { name: 'Notas fiscais' });
  await expect(notes.getByRole('row').nth(1)).toContainText('Autorizada', { timeout: 20_000 });
  await expect(notes.getByRole('row').nth(1)).toContainText('R$ 8,50');
  const popup = context.waitForEvent('page');
  await notes.getByRole('row').nth(1).getByRole('button', { name: 'DANFE' }).click();
  expect((await popup).url()).toMatch(/^blob:/);

  const list = await (await page.request.get('/v1/fiscal/notes', { headers })).json();
  const note = list.notes[0];
  expect(note).toMatchObject({ status: 'authorised', consumerDocument: '52998224725', totalCents: 850 });
  const pdf = await page.request.get(`/v1/fiscal/notes/${note.id}/danfe`, { headers });
  const bytes = await pdf.body();
  expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
  // The QR code is an image in the PDF.
  expect(bytes.toString('latin1')).toContain('/Subtype /Image');

  // The product's own NFC-e fields on its edit page: blank ones show the shop's default.
  const productId = (await product.json()).id;
  await page.goto(`/dashboard/product/edit/${productId}`);
  const fiscal = page.getByRole('form', { name: 'Dados fiscais' });
  await expect(fiscal.getByLabel('NCM', { exact: true })).toHaveAttribute('placeholder', '21069090');
  await expect(fiscal.getByLabel('CFOP', { exact: true })).toHaveAttribute('placeholder', '5102');
  await fiscal.getByLabel('NCM', { exact: true }).fill('1905.90.90');
  await fiscal.getByRole('button', { name: 'Salvar dados fiscais' }).click();
  await expect(page.getByText('Dados fiscais do produto salvos')).toBeVisible();
  await expect(fiscal.getByLabel('NCM', { exact: true })).toHaveValue('19059090');
  const own = await (await page.request.get(`/v1/fiscal/product/${productId}`, { headers })).json();
  expect(own.fields).toEqual({ ncm: '19059090' });
});
