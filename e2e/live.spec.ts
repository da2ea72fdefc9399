import { formatCents } from '@balcao/core/money';
import { expect, test } from '@playwright/test';
import { demoEmail, loginAs } from './helpers';

/**
 * Live data: the API signals `change` on the shop's socket after a sale and the web refetches what
 * it moves. The Atendente (a till no other spec opens a register for) sells through the API while
 * the Gerente looks at the sales list.
 */
test('a sale made at another till shows in the open sales list without a reload', async ({
  page,
  request,
}) => {
  await loginAs(page, 2);
  let loads = 0;
  page.on('load', () => loads++);
  await page.goto('/dashboard/sale');
  await expect(page.getByRole('heading', { name: 'Vendas' })).toBeVisible();
  await expect(page.getByTestId('sales-total')).toBeVisible();
  const loadsBefore = loads;

  const login = await request.post('/v1/login', {
    data: { email: demoEmail(8), password: 'demo1234' },
  });
  const headers = { authorization: `Bearer ${(await login.json()).token}` };
  const opened = await request.post('/v1/cash-register/open', { headers, data: { openingAmountCents: 0 } });
  expect([201, 409]).toContain(opened.status());
  const valueCents = 70_000 + (Date.now() % 10_000);
  const sold = await request.post('/v1/sale/simple', {
    headers: { ...headers, 'idempotency-key': `live-${Date.now()}` },
    data: {
      description: 'Outro caixa',
      valueCents,
      payments: [{ method: 'money', amountCents: valueCents }],
    },
  });
  expect(sold.status()).toBe(201);

  await expect(page.getByRole('table', { name: 'Vendas' })).toContainText(formatCents(valueCents));
  expect(loads).toBe(loadsBefore);
});
