import { buildScaleLabel } from '@balcao/core/scale/weighedLabel';
import { expect, test } from '@playwright/test';
import { apiLogin, closeRegisterViaApi, demoEmail, loginAs } from './helpers';

/**
 * Issue 36: weighed items. The shop's scale prints EAN-13 labels "2 CCCCC GGGGG D" (5-digit code,
 * weight in grams) and truncates; the caixa scans one at the PDV and the line shows the label's
 * weight and the amount the scale printed, to the cent.
 */

const stamp = Date.now().toString().slice(-4);
const layout = { enabled: true, codeLength: 5, content: 'weight', rounding: 'truncate' } as const;

test.afterAll(async ({ request }) => {
  // Back to the demo shop's defaults: the other specs scan prefix-2 barcodes as ordinary ones.
  const login = await request.post('/v1/login', { data: { email: demoEmail(1), password: 'demo1234' } });
  const headers = { authorization: `Bearer ${(await login.json()).token}` };
  await request.put('/v1/settings/scale', {
    headers,
    data: { enabled: false, codeLength: 5, content: 'price', rounding: 'round' },
  });
});

test('PDV: a scanned weighed label adds its product with the weight and the amount printed on it', async ({
  page,
}) => {
  const token = await apiLogin(page, demoEmail(1));
  const headers = { authorization: `Bearer ${token}` };
  const saved = await page.request.put('/v1/settings/scale', { headers, data: layout });
  expect(saved.status(), await saved.text()).toBe(200);
  const scaleCode = `9${stamp}`;
  const product = await page.request.post('/v1/product', {
    headers,
    data: {
      name: `Presunto ${stamp}`,
      productType: 'weighed',
      unit: 'kg',
      salePriceCents: 2990,
      stock: 10,
      scaleCode,
    },
  });
  expect(product.status(), await product.text()).toBe(201);

  await closeRegisterViaApi(page, 4);
  await loginAs(page, 4);
  await page.goto('/dashboard/sale/pdv');
  const opening = page.getByRole('dialog', { name: 'Abrir caixa' });
  await opening.getByLabel('Valor de abertura').fill('50,00');
  await opening.getByRole('button', { name: 'Abrir caixa' }).click();
  await expect(opening).toBeHidden();

  // 0,347 kg x R$ 29,90 = R$ 10,3753: the scale prints R$ 10,37 (half-up would say R$ 10,38).
  const search = page.getByTestId('pdv-search');
  await expect(search).toBeFocused();
  await page.keyboard.type(buildScaleLabel(scaleCode, 347, layout), { delay: 5 });
  await page.keyboard.press('Enter');
  const line = page.getByTestId('pdv-line');
  await expect(line).toHaveCount(1);
  await expect(line).toContainText(`Presunto ${stamp}`);
  await expect(page.getByLabel(`Quantidade de Presunto ${stamp}`)).toHaveValue('0,347');
  await expect(page.getByTestId('pdv-line-total')).toHaveText('R$ 10,37');
  await expect(page.getByTestId('pdv-final-amount')).toHaveText('R$ 10,37');

  // A label whose check digit was misread is refused with the reason; the cart is unchanged.
  const good = buildScaleLabel(scaleCode, 512, layout);
  await page.keyboard.type(`${good.slice(0, 12)}${(Number(good[12]) + 1) % 10}`, { delay: 5 });
  await page.keyboard.press('Enter');
  await expect(
    page.getByText('Etiqueta de balança inválida: o dígito verificador não confere. Leia de novo.'),
  ).toBeVisible();
  await expect(line).toHaveCount(1);
});

test('Etiquetas: choose a product and its quantity, then the A4 sheet PDF', async ({ page }) => {
  const token = await apiLogin(page, demoEmail(1));
  const created = await page.request.post('/v1/product', {
    headers: { authorization: `Bearer ${token}` },
    data: { name: `Etiqueta Caderno ${stamp}`, salePriceCents: 1290, sku: `ETQ-${stamp}` },
  });
  expect(created.status(), await created.text()).toBe(201);
  await loginAs(page, 1);
  await page.goto('/dashboard/product-label');
  await expect(page.getByRole('heading', { name: 'Etiquetas', exact: true })).toBeVisible();
  await page.getByLabel('Adicionar produto').fill(`Caderno ${stamp}`);
  await page.getByRole('option', { name: new RegExp(`Etiqueta Caderno ${stamp}`) }).click();
  const copies = page.getByLabel(`Etiquetas de Etiqueta Caderno ${stamp}`);
  await copies.fill('30');
  await expect(page.getByText('30 etiquetas')).toBeVisible();
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Gerar PDF (folha A4)' }).click(),
  ]);
  expect(file.suggestedFilename()).toBe('etiquetas.pdf');
  const { readFile } = await import('node:fs/promises');
  const bytes = await readFile(await file.path());
  expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
  // 30 labels at 24 a sheet: two pages.
  expect(bytes.toString('latin1').match(/\/Type \/Page\b/g)).toHaveLength(2);
});
