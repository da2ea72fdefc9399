import { expect, type Page, test } from '@playwright/test';
import { type FakeIfood, startFakeIfood } from '../apps/api/test/fakes/ifood';
import { apiLogin, closeRegisterViaApi, demoEmail, loginAs } from './helpers';

/**
 * Marketplace inbox (issue 35): a shop connects its iFood account, a customer orders on (the fake)
 * iFood, the order shows in Vendas > Pedidos de marketplace, its item is mapped to a product, it is
 * confirmed by hand, goes to the delivery panel, is prepared, released and picked up by a driver, and
 * every status reaches iFood once.
 */

const IFOOD_PORT = Number(process.env.E2E_IFOOD_PORT ?? Number(process.env.E2E_PORT ?? 3100) + 900);
const stamp = Date.now().toString().slice(-7);
let ifood: FakeIfood;

test.beforeAll(async () => {
  ifood = await startFakeIfood({ port: IFOOD_PORT, merchantId: `e2e-merchant-${stamp}` });
});
test.afterAll(async () => {
  await ifood?.close();
});

async function asApi(page: Page, typeId: 1 | 10) {
  const headers = { authorization: `Bearer ${await apiLogin(page, demoEmail(typeId))}` };
  // biome-ignore lint/suspicious/noExplicitAny: JSON answers of the API
  const check = async (res: Awaited<ReturnType<Page['request']['get']>>): Promise<any> => {
    expect(res.ok(), await res.text()).toBe(true);
    return res.json();
  };
  return {
    get: async (url: string) => check(await page.request.get(`/v1${url}`, { headers })),
    post: async (url: string, data: unknown = {}) =>
      check(await page.request.post(`/v1${url}`, { headers, data })),
    put: async (url: string, data: unknown) => check(await page.request.put(`/v1${url}`, { headers, data })),
    raw: (url: string, data: unknown = {}) => page.request.post(`/v1${url}`, { headers, data }),
  };
}

test('an iFood order: placed on iFood, mapped, confirmed, on the delivery panel, dispatched, statuses back', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  const admin = await asApi(page, 1);
  const productName = `Hambúrguer iFood ${stamp}`;
  await admin.post('/product', { name: productName, salePriceCents: 2590, stock: 50 });
  await closeRegisterViaApi(page, 1);
  await admin.post('/cash-register/open', { openingAmountCents: 10000 });

  // Configurações > Marketplaces: the shop's iFood account.
  await loginAs(page, 1);
  await page.goto('/dashboard/settings/marketplace');
  await expect(page.getByRole('heading', { name: 'Marketplaces', level: 1 })).toBeVisible();
  const form = page.getByRole('region', { name: 'Conta de marketplace' });
  await form.getByLabel('ID da loja no marketplace (merchant ID)').fill(ifood.merchantId);
  await form.getByLabel('Client ID').fill(ifood.clientId);
  await form.getByLabel('Client secret').fill(ifood.clientSecret);
  await form.getByRole('button', { name: 'Adicionar' }).click();
  await expect(page.getByText('Conta de marketplace adicionada')).toBeVisible();
  const account = page.getByRole('region', { name: `Conta iFood` }).filter({ hasText: ifood.merchantId });
  await expect(account).toContainText('iFood · iFood');

  // A customer orders on iFood (the fake's page), an item the shop never mapped.
  const customer = await browser.newPage();
  await customer.goto(`${ifood.url}/__fake/place`);
  await customer.getByLabel('Cliente').fill(`Maria iFood ${stamp}`);
  await customer.getByLabel('Código do item').fill(`XB-${stamp}`);
  await customer.getByLabel('Nome do item').fill('X-Burger duplo');
  await customer.getByLabel('Quantidade').fill('2');
  await customer.getByLabel('Preço').fill('25.90');
  await customer.getByRole('button', { name: 'Fazer pedido' }).click();
  await expect(customer.getByText('Pedido feito')).toBeVisible();
  await customer.close();

  // The inbox: the order arrives by itself (polling), its item waiting for a product.
  await page.goto('/dashboard/sale/marketplace');
  const card = page.getByRole('article').filter({ hasText: `Maria iFood ${stamp}` });
  await expect(card).toBeVisible({ timeout: 20_000 });
  await expect(card).toContainText('Item sem produto');
  await expect(card).toContainText(/Confirme em \d+:\d\d/);
  await expect(card).toContainText('Pago online R$ 56,80');
  await expect(card.getByRole('button', { name: 'Confirmar' })).toBeDisabled();
  await card.getByLabel('Produto da loja para "X-Burger duplo"').fill(productName);
  await page.getByRole('option', { name: productName }).click();
  await expect(card).toContainText(`Produto da loja: ${productName}`);
  await card.getByRole('button', { name: 'Confirmar' }).click();
  await expect(page.getByText(/confirmado: venda nº \d+ no painel de entregas/)).toBeVisible();
  await expect(card).toHaveCount(0);

  // The delivery panel: the order, prepared and released to the drivers.
  await page.goto('/dashboard/sale/delivery');
  const order = page.locator('[data-testid^="delivery-order-"]').filter({ hasText: `Maria iFood ${stamp}` });
  await expect(order).toBeVisible();
  await expect(order).toContainText('Origem: iFood');
  await order.getByRole('button', { name: 'Preparar' }).click();
  await expect(page.getByText('Pedido em preparo')).toBeVisible();
  await order.getByRole('button', { name: 'Liberar' }).click();
  await expect(page.getByText('Pedido liberado para os entregadores')).toBeVisible();

  // A driver takes it and picks it up: dispatched.
  const driver = await asApi(page, 10);
  const me = await driver.get('/user/me');
  const check = await driver.raw('/delivery/shift/check-in');
  expect([200, 201, 409], await check.text()).toContain(check.status());
  const panel = await admin.get('/delivery/panel');
  const ours = panel.orders.find((o: { customerName: string }) => o.customerName === `Maria iFood ${stamp}`);
  await admin.post(`/delivery/orders/${ours.id}/assign`, { driverId: me.user?.id ?? me.id });
  await driver.post(`/delivery/orders/${ours.id}/pickup`);
  await expect(
    page
      .getByRole('region', { name: 'Em trânsito' })
      .locator('[data-testid^="delivery-order-"]')
      .filter({ hasText: `Maria iFood ${stamp}` }),
  ).toBeVisible();

  // iFood received each status once, in order.
  const [orderId] = [...ifood.orders.keys()];
  await expect
    .poll(() => ifood.statusCalls.filter((c) => c.orderId === orderId).map((c) => c.action), {
      timeout: 20_000,
    })
    .toEqual(['confirm', 'startPreparation', 'readyToPickup', 'dispatch']);

  // The account stops polling this fake after the test (it closes with the spec).
  const accounts = await admin.get('/marketplace/accounts');
  const mine = accounts.accounts.find((a: { merchantId: string }) => a.merchantId === ifood.merchantId);
  await admin.put(`/marketplace/accounts/${mine.id}`, { ...mine, clientSecret: '', active: false });
});
