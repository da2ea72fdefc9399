import { mkdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { apiLogin, closeRegisterViaApi, demoEmail, loginAs, settled } from './helpers';
import { PIX_CLIENT, PIX_DIR, PIX_PAY_URL } from './playwright.config';

const stamp = Date.now().toString().slice(-7);

/** A product with stock and a customer with a phone, created through the API as the Administrador. */
async function arrange(page: Page) {
  const token = await apiLogin(page, demoEmail(1));
  const headers = { authorization: `Bearer ${token}` };
  const product = `Luminária ${stamp}`;
  const res = await page.request.post('/v1/product', {
    headers,
    data: { name: product, salePriceCents: 8990, stock: 30 },
  });
  expect(res.status(), await res.text()).toBe(201);
  const customer = `Conceição ${stamp}`;
  const c = await page.request.post('/v1/customer', {
    headers,
    data: { name: customer, phone: '11987650000' },
  });
  expect(c.status(), await c.text()).toBe(201);
  return { product, customer };
}

test('budget: build it for a customer, the customer approves through the link logged out, the bell rings, it becomes a sale in the PDV', async ({
  page,
  browser,
}) => {
  const { product, customer } = await arrange(page);
  // The Vendedor starts without an open register (the conversion asks for one).
  await closeRegisterViaApi(page, 3);
  await loginAs(page, 3);

  // The budget PDV: the PDV's item and customer steps.
  await page.goto('/dashboard/budget/pdv');
  await expect(page).toHaveTitle('Novo orçamento | Balcão');
  await page.getByTestId('pdv-search').fill(product);
  await page.getByRole('list', { name: 'Produtos encontrados' }).getByText(product).click();
  await expect(page.getByTestId('pdv-line')).toHaveCount(1);
  await page.getByLabel(`Quantidade de ${product}`).fill('2');
  await page.getByLabel(`Quantidade de ${product}`).blur();
  await expect(page.getByTestId('budget-final-amount')).toHaveText('R$ 179,80');
  await page.getByLabel(`Observação de ${product}`).fill('Cúpula na cor preta');
  await page.getByRole('button', { name: 'Avançar' }).click();
  await page.getByLabel('Buscar cliente por nome, CPF/CNPJ ou telefone (F4)').fill(customer);
  await page.getByRole('list', { name: 'Clientes encontrados' }).getByText(customer).click();
  await expect(page.getByTestId('pdv-customer')).toHaveText(customer);
  await page.getByRole('button', { name: 'Avançar' }).click();
  await page.getByLabel('Condições de pagamento').fill('Pix à vista com 5% já aplicado');
  await page.getByRole('button', { name: 'Salvar orçamento' }).click();

  // The detail: saved, pending; the approval link is issued by "Copiar link" (pending -> sent).
  await expect(page).toHaveTitle('Orçamento | Balcão');
  await expect(page.getByText(/Orçamento nº \d+ salvo/)).toBeVisible();
  await expect(page.getByTestId('budget-status')).toHaveText('Pendente');
  await expect(page.getByTestId('budget-total')).toHaveText('R$ 179,80');
  await page.getByRole('button', { name: 'Copiar link' }).click();
  await expect(page.getByTestId('budget-status')).toHaveText('Enviado');
  const link = await page.getByTestId('approval-link').inputValue();
  expect(link).toMatch(/\/orcamento\/[A-Za-z0-9_-]{32}$/);
  await expect(page.getByTestId('budget-viewed')).toHaveText('Ainda não visualizado pelo cliente');

  // The customer, logged out, in another browser context.
  const outside = await browser.newContext();
  const customerPage = await outside.newPage();
  await customerPage.goto(link);
  await expect(customerPage).toHaveURL(/\/orcamento\//);
  await expect(customerPage.getByRole('heading', { name: /Orçamento nº \d+/ })).toBeVisible();
  await expect(customerPage.getByText(product)).toBeVisible();
  await expect(customerPage.getByTestId('approval-total')).toHaveText('R$ 179,80');
  await expect(customerPage.getByText('Pix à vista com 5% já aplicado')).toBeVisible();
  await expect(customerPage.getByText('Obs.: Cúpula na cor preta')).toBeVisible();

  // The shop's screen learns it was viewed without a reload.
  await expect(page.getByTestId('budget-viewed')).toContainText('Visualizado pelo cliente em');

  await customerPage.getByRole('button', { name: 'Aprovar' }).click();
  await expect(customerPage.getByTestId('approval-answer')).toHaveText(
    'Orçamento aprovado. Obrigado! A loja já foi avisada.',
  );
  await outside.close();

  // The bell, and the answer on the detail.
  await expect(page.getByTestId('notification-toast')).toContainText(`aprovado por ${customer}`);
  await expect(page.getByTestId('bell-badge')).toContainText('1');
  await expect(page.getByTestId('budget-answer')).toHaveText('Aprovado pelo cliente');

  // Convert: the PDV's payment step, after opening the register.
  await page.getByRole('link', { name: 'Converter em venda' }).click();
  await expect(page).toHaveTitle('Converter orçamento | Balcão');
  const opening = page.getByRole('dialog', { name: 'Abrir caixa' });
  await opening.getByLabel('Valor de abertura').fill('50,00');
  await opening.getByRole('button', { name: 'Abrir caixa' }).click();
  await expect(opening).toBeHidden();
  await expect(page.getByTestId('convert-final-amount')).toHaveText('R$ 179,80');
  const addPayment = page.getByRole('form', { name: 'Adicionar pagamento' });
  await addPayment.getByLabel('Forma de pagamento').click();
  await page.getByRole('option', { name: 'Pix', exact: true }).click();
  await addPayment.getByRole('button', { name: 'Adicionar' }).click();
  await page.getByRole('button', { name: 'Finalizar venda (F9)' }).click();
  await expect(page.getByText(/Orçamento nº \d+ convertido: venda nº \d+ finalizada/)).toBeVisible();

  await page.getByRole('link', { name: 'Ver orçamento' }).click();
  await expect(page.getByTestId('budget-status')).toHaveText('Convertido em venda');
  await expect(page.getByRole('link', { name: /^nº \d+$/ })).toBeVisible();

  // Once converted the link is read-only: the shop's name, what happened, and the PDF (issue 30: a bare 409).
  const after = await page.request.get(link.replace(/.*\/orcamento\//, '/v1/public/budget/'));
  expect(after.status()).toBe(200);
  expect((await after.json()).budget.state).toBe('converted');
  const pdf = await page.request.get(`${link.replace(/.*\/orcamento\//, '/v1/public/budget/')}/pdf`);
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()['content-type']).toBe('application/pdf');

  // Leave the demo shop as found: the Vendedor's register closed again.
  await closeRegisterViaApi(page, 3);
});

/**
 * Issue 33: the approval link's Pix panel. The shop's Pix account is the local fake PSP's; the
 * customer approves on a phone (390 px), pays with the bank app (the fake's page, another context)
 * and the panel turns "Pago" without a click.
 */
test('budget: the link approved and paid by Pix QR dinâmico, Pago by itself', async ({ page, browser }) => {
  const token = await apiLogin(page, demoEmail(1));
  const headers = { authorization: `Bearer ${token}` };
  const account = await page.request.put('/v1/pix/account', {
    headers,
    data: {
      provider: 'fake',
      environment: 'production',
      clientId: PIX_CLIENT.id,
      clientSecret: PIX_CLIENT.secret,
      certificate: {
        format: 'pem',
        certPem: readFileSync(resolve(PIX_DIR, 'client.pem'), 'utf8'),
        keyPem: readFileSync(resolve(PIX_DIR, 'client-key.pem'), 'utf8'),
      },
      pixKey: 'loja@demo.com.br',
    },
  });
  expect(account.status(), await account.text()).toBe(200);
  const tested = await page.request.post('/v1/pix/account/test', { headers });
  expect((await tested.json()).ok, await tested.text()).toBe(true);
  const product = await page.request.post('/v1/product', {
    headers,
    data: { name: `Abajur ${stamp}`, salePriceCents: 12_345, stock: 5 },
  });
  expect(product.status(), await product.text()).toBe(201);
  const customer = await page.request.post('/v1/customer', {
    headers,
    data: { name: `Cliente Pix ${stamp}`, phone: '11987650001' },
  });
  const budget = await page.request.post('/v1/budget', {
    headers,
    data: {
      items: [{ productId: (await product.json()).id, quantity: 1 }],
      customerId: (await customer.json()).id,
    },
  });
  expect(budget.status(), await budget.text()).toBe(201);
  const sent = await page.request.post(`/v1/budget/${(await budget.json()).id}/send`, {
    headers,
    data: { channel: 'link' },
  });
  const publicPath = new URL((await sent.json()).link.url).pathname;

  const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const customerPage = await phone.newPage();
  await customerPage.goto(publicPath);
  await customerPage.getByRole('button', { name: 'Aprovar' }).click();
  const panel = customerPage.getByTestId('budget-pix');
  await panel.getByRole('button', { name: 'Pagar com Pix' }).click();
  await expect(panel.getByTestId('pix-qr')).toBeVisible();
  await expect(panel.getByTestId('pix-dynamic-status')).toHaveText('Aguardando pagamento');
  await expect(panel.getByTestId('pix-countdown')).toContainText('Expira em');
  const brCode = await panel.getByTestId('pix-payload').inputValue();
  expect(brCode).toMatch(/^000201/);
  const screens = process.env.SCREENS ? (process.env.SCREENS_DIR ?? '/tmp/h17') : null;
  if (screens) {
    mkdirSync(screens, { recursive: true });
    await panel.scrollIntoViewIfNeeded();
    await customerPage.screenshot({ path: `${screens}/approval-pix-390-light.png`, fullPage: true });
    const dark = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const darkPage = await dark.newPage();
    await darkPage.addInitScript(() => localStorage.setItem('balcao:theme', 'dark'));
    await darkPage.goto(publicPath);
    await expect(darkPage.getByTestId('pix-qr')).toBeVisible();
    await darkPage.screenshot({ path: `${screens}/approval-pix-390-dark.png`, fullPage: true });
    await dark.close();
  }

  // The customer's bank app pays the copia e cola; the link's panel turns "Pago" by itself.
  const bankContext = await browser.newContext();
  const bank = await bankContext.newPage();
  await bank.goto(`${PIX_PAY_URL}/pagar`);
  await bank.getByLabel('Pix copia e cola').fill(brCode);
  await bank.getByRole('button', { name: 'Pagar' }).click();
  await expect(bank.getByRole('status')).toHaveText('Pix enviado: R$ 123,45');
  await bankContext.close();
  await expect(panel.getByTestId('pix-dynamic-status')).toHaveText('Pago', { timeout: 5000 });
  await expect(panel).toContainText('Pix recebido pela loja. Obrigado!');
  await expect(panel.getByRole('button', { name: /Pix/ })).toHaveCount(0);
  if (screens)
    await customerPage.screenshot({ path: `${screens}/approval-pix-paid-390-light.png`, fullPage: true });
  await phone.close();
});

/** Screenshots of the budget screens (1280 and 390 px, light and dark) into /tmp/h17: only with SCREENS=1. */
test('budget screens', async ({ page, browser }) => {
  test.skip(!process.env.SCREENS, 'screenshots only with SCREENS=1');
  test.setTimeout(240_000);
  const dir = process.env.SCREENS_DIR ?? '/tmp/h17';
  mkdirSync(dir, { recursive: true });
  const { product } = await arrange(page);
  const token = await apiLogin(page, demoEmail(1));
  const headers = { authorization: `Bearer ${token}` };
  const products = await (
    await page.request.get(`/v1/product/client/1?q=${encodeURIComponent(product)}`, { headers })
  ).json();
  const customers = await (await page.request.get(`/v1/customer/client/1?q=${stamp}`, { headers })).json();
  const created = await (
    await page.request.post('/v1/budget', {
      headers,
      data: {
        items: [
          { productId: products.items[0].id, quantity: 3, discountType: 'percentage', discountValue: 500 },
        ],
        customerId: customers.items[0].id,
        paymentConditions: 'Entrada de 50% e o restante na entrega',
        notes: 'Montagem inclusa',
      },
    })
  ).json();
  const sent = await (
    await page.request.post(`/v1/budget/${created.id}/send`, {
      headers,
      data: { channel: 'link' },
    })
  ).json();
  const publicPath = new URL(sent.link.url).pathname;
  for (const width of [1280, 390]) {
    for (const scheme of ['light', 'dark'] as const) {
      const context = await browser.newContext({ viewport: { width, height: width > 600 ? 900 : 844 } });
      const p = await context.newPage();
      await p.addInitScript((mode) => localStorage.setItem('balcao:theme', mode), scheme);
      await p.goto(publicPath);
      await expect(p.getByRole('heading', { name: /Orçamento nº/ })).toBeVisible();
      await p.screenshot({ path: `${dir}/approval-${width}-${scheme}.png`, fullPage: true });
      await loginAs(p, 1);
      for (const [name, path] of [
        ['list', '/dashboard/budget'],
        ['pdv', '/dashboard/budget/pdv'],
        ['detail', `/dashboard/budget/detail/${created.id}`],
        ['convert', `/dashboard/budget/convert/${created.id}`],
      ]) {
        await p.goto(path);
        await expect(p.locator('main')).toBeVisible();
        await settled(p);
        await p.screenshot({ path: `${dir}/${name}-${width}-${scheme}.png`, fullPage: width > 600 });
      }
      await context.close();
    }
  }
});
