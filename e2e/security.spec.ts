import { UserType } from '@balcao/core/userTypes';
import { expect, type Page, test } from '@playwright/test';
import { loginAs } from './helpers.ts';

/**
 * The built app under the API's Content-Security-Policy: a walk over the main pages must not trip a
 * single violation (the page's `securitypolicyviolation` events and Chromium's console CSP errors).
 */
async function watchCsp(page: Page) {
  const problems: string[] = [];
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __csp: string[] }).__csp = seen;
    document.addEventListener('securitypolicyviolation', (event) => {
      seen.push(`${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}`);
    });
  });
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) problems.push(message.text());
  });
  return async () => {
    const seen = await page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? []);
    return [...problems, ...seen];
  };
}

const PAGES = [
  '/dashboard',
  '/dashboard/customer',
  '/dashboard/customer/new',
  '/dashboard/product',
  '/dashboard/product/new',
  '/dashboard/product-category',
  '/dashboard/product-brand',
  '/dashboard/sale',
  '/dashboard/sale/pdv',
  '/dashboard/sale/pdv/close',
  '/dashboard/coupon',
  '/dashboard/coupon/new',
  '/dashboard/user',
  '/dashboard/stock-movement/entry',
  '/dashboard/settings/system',
];

test('the login and create-account pages load with no CSP violation, with the security headers', async ({
  page,
}) => {
  const violations = await watchCsp(page);
  const res = await page.goto('/login');
  const headers = res?.headers() ?? {};
  expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(headers['content-security-policy']).toContain("script-src 'self'");
  expect(headers['x-frame-options']).toBe('DENY');
  expect(headers['x-content-type-options']).toBe('nosniff');
  await expect(page.getByRole('heading', { name: 'Área Restrita' })).toBeVisible();
  await page.goto('/criar-conta');
  await expect(page.getByRole('heading').first()).toBeVisible();
  expect(await violations()).toEqual([]);
});

test('a walk over the main pages (light and dark) trips no CSP violation', async ({ page }) => {
  const violations = await watchCsp(page);
  await loginAs(page, UserType.ADMIN);
  for (const path of PAGES) {
    await page.goto(path);
    await expect(page.getByRole('heading').first()).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(await violations(), path).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto('/dashboard/sale/pdv');
  await page.waitForLoadState('networkidle');
  expect(await violations()).toEqual([]);
});

test('the app cannot be framed by another page', async ({ page }) => {
  const violations = await watchCsp(page);
  await page.goto('/login');
  const blocked = await page.evaluate(
    () =>
      new Promise<boolean>((resolve) => {
        const frame = document.createElement('iframe');
        frame.src = '/login';
        frame.onload = () => {
          try {
            resolve(!frame.contentDocument?.querySelector('#root'));
          } catch {
            resolve(true);
          }
        };
        document.body.append(frame);
        setTimeout(() => resolve(true), 5000);
      }),
  );
  expect(blocked).toBe(true);
  // The refusal itself is the only message expected here.
  expect((await violations()).every((text) => /frame-ancestors|X-Frame-Options|Refused to/i.test(text))).toBe(
    true,
  );
});

test('the API documentation page works under its CSP', async ({ page }) => {
  const violations = await watchCsp(page);
  await page.goto('/v1/docs');
  await expect(page.locator('.swagger-ui .info .title')).toContainText('Balcão API');
  expect(await violations()).toEqual([]);
});

test('the login page says to wait after too many wrong passwords for one email', async ({ page }) => {
  await page.goto('/login');
  const email = 'ninguem-aqui@demo.com.br';
  for (let i = 0; i < 5; i++) {
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Senha', { exact: true }).fill(`errada-${i}`);
    await page.getByRole('button', { name: 'Entrar' }).click();
    await expect(page.getByText('Ocorreu um erro tentar efetuar login')).toBeVisible();
  }
  await page.getByLabel('Senha', { exact: true }).fill('mais-uma');
  await page.getByRole('button', { name: 'Entrar' }).click();
  await expect(
    page.getByText('Muitas tentativas de login. Aguarde alguns minutos e tente novamente.'),
  ).toBeVisible();
});
