import { mkdirSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { layoutSettled, loginAs, settled } from './helpers';

/**
 * The walk of every built screen (issue 13): screenshots at 1280 and 390 px, light and dark, into
 * SCREENS_DIR (default /tmp/h13), to look at. Runs only with SCREENS=1: it checks nothing but that each
 * page opens without an error boundary.
 */
const DIR = process.env.SCREENS_DIR ?? '/tmp/h13';
const PAGES = [
  ['home', '/dashboard'],
  ['customers', '/dashboard/customer'],
  ['customer-new', '/dashboard/customer/new'],
  ['products', '/dashboard/product'],
  ['product-new', '/dashboard/product/new'],
  ['categories', '/dashboard/product-category'],
  ['brands', '/dashboard/product-brand'],
  ['coupons', '/dashboard/coupon'],
  ['users', '/dashboard/user'],
  ['sales', '/dashboard/sale'],
  ['pdv', '/dashboard/sale/pdv'],
  ['quick-sale', '/dashboard/sale/create-simple'],
  ['stock-entry', '/dashboard/stock-movement/entry'],
  ['stock-exit', '/dashboard/stock-movement/exit'],
  ['working-hour', '/dashboard/settings/working-hour'],
] as const;

test.skip(!process.env.SCREENS, 'screenshots only with SCREENS=1');

for (const width of [1280, 390]) {
  for (const scheme of ['light', 'dark'] as const) {
    test(`screens at ${width} px, ${scheme}`, async ({ page }) => {
      test.setTimeout(180_000);
      mkdirSync(DIR, { recursive: true });
      await page.setViewportSize({ width, height: width > 600 ? 900 : 844 });
      await page.addInitScript((mode) => localStorage.setItem('balcao:theme', mode), scheme);
      await loginAs(page, 1);
      for (const [name, path] of PAGES) {
        await page.goto(path);
        await expect(page.locator('main')).toBeVisible();
        await settled(page);
        // A phone's first screen is what matters (and what fits the eye); a desktop page whole.
        await page.screenshot({ path: `${DIR}/${name}-${width}-${scheme}.png`, fullPage: width > 600 });
      }
    });
  }
}

test('the PDV with an item, at 390 and 1280 px', async ({ page }) => {
  mkdirSync(DIR, { recursive: true });
  const token = (
    await (
      await page.request.post('/v1/login', {
        data: { email: 'administrador@demo.com.br', password: 'demo1234' },
      })
    ).json()
  ).token;
  const barcode = '2009990000012';
  await page.request.post('/v1/product', {
    headers: { authorization: `Bearer ${token}` },
    data: { name: 'Biscoito de polvilho 200 g', salePriceCents: 1250, barcode, stock: 10 },
  });
  await loginAs(page, 1);
  await page.goto('/dashboard/sale/pdv');
  const opening = page.getByRole('dialog', { name: 'Abrir caixa' });
  await opening.getByLabel('Valor de abertura').fill('10,00');
  await opening.getByRole('button', { name: 'Abrir caixa' }).click();
  await expect(opening).toBeHidden();
  await page.keyboard.type(barcode, { delay: 5 });
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('pdv-line')).toHaveCount(1);
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width > 600 ? 900 : 844 });
    await layoutSettled(page, width);
    await page.screenshot({ path: `${DIR}/pdv-item-${width}.png` });
  }
});
