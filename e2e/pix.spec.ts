import { resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { apiLogin, closeRegisterViaApi, demoEmail, loginAs, SE_ADDRESS } from './helpers';
import { PIX_CLIENT, PIX_DIR, PIX_PAY_URL } from './playwright.config';

const stamp = Date.now().toString().slice(-7);

/**
 * Issue 33: the Administrador sets the shop's Pix account (certificate from the local CA of the fake
 * PSP) and tests it (token + webhook), a Caixa sells with "Pix QR dinâmico", the customer pays from
 * the bank app (the fake's page, another browser context) and the PDV turns "Pago" without a click.
 */
test('Pix QR dinâmico: account, PDV charge paid from the bank app, Pago by itself, sale finished', async ({
  page,
  browser,
}) => {
  const token = await apiLogin(page, demoEmail(1));
  const product = await page.request.post('/v1/product', {
    headers: { authorization: `Bearer ${token}` },
    data: { name: `Açaí ${stamp}`, salePriceCents: 1850, stock: 10 },
  });
  expect(product.status()).toBe(201);

  // Configurações > Conta Pix.
  await loginAs(page, 1);
  await page.goto('/dashboard/settings/pix');
  await expect(page).toHaveTitle('Conta Pix | Balcão');
  // The PSP comes from the server's catalogue: no URL field at all.
  await expect(page.getByLabel('URL da API Pix')).toHaveCount(0);
  await page.getByLabel('Banco (PSP)').click();
  await page.getByRole('option', { name: 'PSP de teste (local)' }).click();
  await page.getByLabel('Client ID').fill(PIX_CLIENT.id);
  await page.getByLabel('Client Secret').fill(PIX_CLIENT.secret);
  await page.getByLabel('Chave Pix da conta').fill('loja@demo.com.br');
  await page
    .getByTestId('pix-certificate')
    .setInputFiles([resolve(PIX_DIR, 'client.pem'), resolve(PIX_DIR, 'client-key.pem')]);
  await page.getByRole('button', { name: 'Salvar' }).click();
  await expect(page.getByText('Credenciais guardadas')).toBeVisible();
  await page.getByRole('button', { name: 'Testar conexão' }).click();
  await expect(page.getByTestId('pix-test-result')).toContainText('Webhook cadastrado');

  // The PDV, as the Caixa: one item, Pix QR dinâmico.
  await closeRegisterViaApi(page, 4);
  await page.context().clearCookies();
  await loginAs(page, 4);
  await page.goto('/dashboard/sale/pdv');
  const opening = page.getByRole('dialog', { name: 'Abrir caixa' });
  await opening.getByLabel('Valor de abertura').fill('0,00');
  await opening.getByRole('button', { name: 'Abrir caixa' }).click();
  await expect(opening).toBeHidden();
  await page.getByTestId('pdv-search').fill(`Açaí ${stamp}`);
  await page.getByRole('list', { name: 'Produtos encontrados' }).getByText(`Açaí ${stamp}`).click();
  await expect(page.getByTestId('pdv-line')).toHaveCount(1);
  await page.getByTestId('pdv-search').focus();
  await page.keyboard.press('F6');
  const addPayment = page.getByRole('form', { name: 'Adicionar pagamento' });
  await addPayment.getByLabel('Forma de pagamento').click();
  await page.getByRole('option', { name: 'Pix QR dinâmico' }).click();
  await addPayment.getByRole('button', { name: 'Adicionar' }).click();
  await expect(page.getByTestId('pix-qr')).toBeVisible();
  await expect(page.getByTestId('pix-dynamic-status')).toHaveText('Aguardando pagamento');
  await expect(page.getByTestId('pix-countdown')).toContainText('Expira em');
  const brCode = await page.getByTestId('pix-payload').inputValue();
  expect(brCode).toMatch(/^000201/);

  // The customer's bank app, another context: paste the copia e cola and pay.
  const customer = await browser.newContext();
  const bank = await customer.newPage();
  await bank.goto(`${PIX_PAY_URL}/pagar`);
  await bank.getByLabel('Pix copia e cola').fill(brCode);
  await bank.getByRole('button', { name: 'Pagar' }).click();
  await expect(bank.getByRole('status')).toHaveText('Pix enviado: R$ 18,50');
  await customer.close();

  // The PDV turns "Pago" by itself (webhook -> socket), then the sale finishes.
  await expect(page.getByTestId('pix-dynamic-status')).toHaveText('Pago', { timeout: 5000 });
  // The paid charge enables finishing in the render after "Pago" shows: F9 once the PDV allows it.
  await expect(page.getByRole('button', { name: 'Finalizar (F9)' }).first()).toBeEnabled();
  await page.keyboard.press('F9');
  await expect(page.getByText(/Venda nº \d+ finalizada/)).toBeVisible();
  await expect(page.getByTestId('receipt')).toContainText('Pix QR dinâmico');
  // The bank's id of the Pix on the receipt (issue 33).
  await expect(page.getByTestId('receipt')).toContainText(/E2E E[0-9A-Za-z]{31}/);

  // A comanda closed with Pix QR dinâmico: the Caixa charges the rest, the bank app pays, the
  // payment counts by itself and the tab closes into a sale.
  const auth = { authorization: `Bearer ${token}` };
  const productId = (await product.json()).id;
  const tabRes = await page.request.post('/v1/comanda', { headers: auth, data: { people: 1 } });
  expect(tabRes.status()).toBe(201);
  const tab = await tabRes.json();
  const line = await page.request.post(`/v1/comanda/${tab.id}/line`, {
    headers: { ...auth, 'idempotency-key': `pix-tab-line-${stamp}` },
    data: { productId, quantity: 1 },
  });
  expect(line.ok()).toBe(true);
  await page.goto('/dashboard/sale/command');
  await page.getByTestId(`comanda-${tab.number}`).click();
  await page.getByRole('button', { name: 'Restante' }).click();
  await page.getByLabel('Forma de pagamento').click();
  await page.getByRole('option', { name: 'Pix QR dinâmico' }).click();
  const due = (await page.getByTestId('figure-Falta').textContent()) ?? '';
  await page.getByRole('button', { name: `Receber ${due}` }).click();
  await expect(page.getByTestId('pix-dynamic-status')).toHaveText('Aguardando pagamento');
  const tabCode = await page.getByTestId('pix-payload').inputValue();
  const guest = await browser.newContext();
  const guestBank = await guest.newPage();
  await guestBank.goto(`${PIX_PAY_URL}/pagar`);
  await guestBank.getByLabel('Pix copia e cola').fill(tabCode);
  await guestBank.getByRole('button', { name: 'Pagar' }).click();
  await expect(guestBank.getByRole('status')).toContainText('Pix enviado');
  await guest.close();
  await expect(page.getByTestId('figure-Falta')).toHaveText('R$ 0,00', { timeout: 10_000 });
  await expect(page.getByRole('list', { name: 'Pagamentos' })).toContainText('Pix QR dinâmico');
  await page.getByRole('button', { name: 'Fechar comanda' }).click();
  await expect(page.getByText('Comanda fechada na venda.')).toBeVisible();

  // A delivery order to be paid on delivery in cash, switched to Pix QR dinâmico on the panel: the
  // customer pays, the dialog turns "Pago" by itself and the card has nothing left to collect.
  const caixa = { authorization: `Bearer ${await apiLogin(page, demoEmail(4))}` };
  const customerRes = await page.request.post('/v1/customer', {
    headers: auth,
    data: { name: `Cliente Pix ${stamp}`, phone: '11987654321', addresses: [SE_ADDRESS] },
  });
  expect(customerRes.status(), await customerRes.text()).toBe(201);
  const buyer = await customerRes.json();
  const saleRes = await page.request.post('/v1/sale', {
    headers: caixa,
    data: {
      items: [{ productId, quantity: 3 }],
      typeOfSale: 'delivery',
      customerId: buyer.id,
      deliveryAddressId: buyer.addresses[0].id,
      freightCents: 0,
      payments: [{ method: 'paymentOnDelivery', amountCents: 5550 }],
      delivery: { onDeliveryMethod: 'money' },
    },
  });
  expect(saleRes.status(), await saleRes.text()).toBe(201);
  const deliverySale = await saleRes.json();
  await page.context().clearCookies();
  await loginAs(page, 1);
  await page.goto('/dashboard/sale/delivery');
  const card = page.getByTestId(`delivery-order-${deliverySale.number}`);
  await expect(card).toContainText('Receber R$ 55,50 em Dinheiro');
  await card.getByRole('button', { name: 'Cobrar com Pix' }).click();
  const dialog = page.getByRole('dialog', { name: `Pix QR dinâmico - pedido nº ${deliverySale.number}` });
  await expect(dialog.getByTestId('pix-qr')).toBeVisible();
  await expect(dialog.getByTestId('pix-countdown')).toContainText('Expira em');
  const orderCode = await dialog.getByTestId('pix-payload').inputValue();
  if (process.env.SCREENS) {
    const dir = process.env.SCREENS_DIR ?? '/tmp/h17';
    await page.screenshot({ path: `${dir}/delivery-pix-1280-light.png` });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${dir}/delivery-pix-390-light.png` });
    await page.setViewportSize({ width: 1280, height: 720 });
  }
  const door = await browser.newContext();
  const doorBank = await door.newPage();
  await doorBank.goto(`${PIX_PAY_URL}/pagar`);
  await doorBank.getByLabel('Pix copia e cola').fill(orderCode);
  await doorBank.getByRole('button', { name: 'Pagar' }).click();
  await expect(doorBank.getByRole('status')).toHaveText('Pix enviado: R$ 55,50');
  await door.close();
  await expect(dialog.getByTestId('pix-dynamic-status')).toHaveText('Pago', { timeout: 5000 });
  await expect(dialog).toContainText('Pix recebido: nada a cobrar na entrega.');
  if (process.env.SCREENS)
    await page.screenshot({
      path: `${process.env.SCREENS_DIR ?? '/tmp/h17'}/delivery-pix-paid-1280-light.png`,
    });
  await dialog.getByRole('button', { name: 'Fechar' }).click();
  await expect(card).toContainText('Pago por Pix QR dinâmico (R$ 55,50)');
  await expect(card.getByRole('button', { name: 'Cobrar com Pix' })).toHaveCount(0);
});
