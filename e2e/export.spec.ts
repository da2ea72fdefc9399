import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { loginAs } from './helpers';

// The CSV exports download through fetch + a temporary link (the Bearer header rules out a plain link).
test('a Gerente downloads the customer list as CSV with the filtered rows', async ({ page }) => {
  await loginAs(page, 2);
  await page.goto('/dashboard/customer');
  await page.getByLabel('Buscar').fill('Ana Paula');
  await expect(page.getByRole('link', { name: 'Ana Paula Ferreira', exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Carlos Eduardo Almeida', exact: true })).toBeHidden();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Exportar CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/\.csv$/);
  const text = readFileSync((await download.path())!, 'utf8');
  expect(text).toContain('Ana Paula Ferreira');
  expect(text).not.toContain('Carlos Eduardo Almeida');
});

test('a Estoquista downloads the product list as CSV', async ({ page }) => {
  await loginAs(page, 6);
  await page.goto('/dashboard/product');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Exportar CSV' }).click(),
  ]);
  const text = readFileSync((await download.path())!, 'utf8');
  expect(text).toContain('Cerveja Heineken Long Neck 330 ml');
});
