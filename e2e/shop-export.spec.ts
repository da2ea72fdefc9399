import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { DEMO_PASSWORD, loginAs } from './helpers';

// "Exportar todos os dados" (issue 37) on Configurações > Sistema: the Administrador's only.
test('the Administrador downloads the whole shop as one ZIP from the system page', async ({ page }) => {
  await loginAs(page, 1);
  await page.goto('/dashboard/settings/system');
  await expect(page.getByRole('heading', { name: 'Seus dados' })).toBeVisible();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Exportar todos os dados' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^balcao-dados-\d+-\d{4}-\d{2}-\d{2}\.zip$/);
  const zip = readFileSync((await download.path())!);
  // A ZIP (local file header), with the README, the tables and the manifest named in its entries.
  expect(zip.subarray(0, 4).toString('latin1')).toBe('PK\u0003\u0004');
  const names = zip.toString('latin1');
  for (const entry of [
    'README.md',
    'tables/clients.csv',
    'tables/products.csv',
    'tables/customers.csv',
    'manifest.json',
  ])
    expect(names).toContain(entry);
  await expect(page.getByRole('button', { name: 'Exportar todos os dados' })).toBeEnabled();
  await page.screenshot({ path: test.info().outputPath('system-1280.png'), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('button', { name: 'Exportar todos os dados' }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('system-390.png') });
});

test('a Gerente sees the system page without the export', async ({ page }) => {
  await loginAs(page, 2);
  await page.goto('/dashboard/settings/system');
  await expect(page.getByRole('heading', { name: 'Sistema' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Exportar todos os dados' })).toHaveCount(0);
});

test('the Administrador asks for the shop deletion with the password, sees the date and cancels it', async ({
  page,
}) => {
  await loginAs(page, 1);
  await page.goto('/dashboard/settings/system');
  await page.getByRole('button', { name: 'Excluir a loja' }).click();
  const dialog = page.getByRole('dialog', { name: 'Excluir a loja' });
  await dialog.getByLabel('Sua senha').fill('senha-errada');
  await dialog.getByRole('button', { name: 'Pedir exclusão' }).click();
  await expect(dialog.getByText('Senha incorreta: a exclusão não foi pedida')).toBeVisible();
  await dialog.getByLabel('Sua senha').fill(DEMO_PASSWORD);
  await dialog.getByRole('button', { name: 'Pedir exclusão' }).click();
  await expect(dialog).toBeHidden();
  await expect(
    page.getByText(/^A loja e todos os seus dados serão excluídos em \d{2}\/\d{2}\/\d{4}\.$/),
  ).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('deletion-1280.png') });
  await page.getByRole('button', { name: 'Cancelar exclusão' }).click();
  await expect(page.getByRole('button', { name: 'Excluir a loja' })).toBeVisible();
  await expect(page.getByText(/serão excluídos em/)).toHaveCount(0);
});
