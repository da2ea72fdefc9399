import type { Sale } from '@balcao/core/sale';
import type { SaleListResult } from '@balcao/core/saleList';
import { type APIRequestContext, type BrowserContext, expect, type Page, test } from '@playwright/test';
import { ean13 } from './fixtures';
import { apiLogin, closeRegisterViaApi, demoEmail, loginAs, SE_ADDRESS } from './helpers';

/**
 * Issue 21: the PDV keeps selling offline (Playwright's offline mode) and syncs each sale exactly
 * once: reload mid-way, a sync cut after the server committed, two tabs syncing at once, a conflict
 * kept and flagged. The Atendente (type 8) sells; its register is opened here and closed at the end.
 */

const USER = 8 as const;
/** The demo shop's rule (apps/api seed): negative stock is not allowed. */
const DEMO_ALLOWS_NEGATIVE_STOCK = false;
const stamp = Date.now().toString().slice(-7);

type Api = { headers: Record<string, string>; clientId: number };

async function adminApi(page: Page): Promise<Api> {
  const token = await apiLogin(page, demoEmail(1));
  const headers = { authorization: `Bearer ${token}` };
  const me = await (await page.request.get('/v1/user/me', { headers })).json();
  return { headers, clientId: me.user.client.id };
}

async function makeProduct(page: Page, api: Api, name: string, barcode: string, salePriceCents: number) {
  const res = await page.request.post('/v1/product', {
    headers: api.headers,
    data: { name, salePriceCents, barcode, stock: 50 },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as { id: number; updatedAt: string };
}

/** The offline sales of today whose first item is this product, oldest first. */
async function offlineSalesOf(page: Page, api: Api, productName: string): Promise<Sale[]> {
  const res = await page.request.get(`/v1/sale/client/${api.clientId}?pageSize=100`, {
    headers: api.headers,
  });
  const list = (await res.json()) as SaleListResult;
  const details: Sale[] = [];
  for (const row of list.items) {
    const sale = (await (
      await page.request.get(`/v1/sale/${row.id}`, { headers: api.headers })
    ).json()) as Sale;
    if (sale.items[0]?.description === productName) details.push(sale);
  }
  return details.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

/**
 * The service worker controls the page (shell precached) and the local catalog has synced (`mark`:
 * the meta key the sync writes last; the waiter PDV syncs products only).
 */
async function readyForOffline(page: Page, mark = 'stock.settings') {
  await page.evaluate(async () => {
    const late = new Promise((_, reject) =>
      setTimeout(() => reject(new Error('the service worker was not ready within 20 s')), 20_000),
    );
    await Promise.race([navigator.serviceWorker.ready, late]);
  });
  await expect.poll(() => page.evaluate(readMeta, mark), { timeout: 20_000 }).not.toBeNull();
}

/**
 * A value of the offline copy's `meta` store, or null when it is not there (yet). The connection is
 * always closed and gives way to the app's own upgrades (versionchange), and a read that does not
 * answer within 5 s is null: a poll must never wait on a read that cannot end.
 */
async function readMeta(key: string): Promise<unknown> {
  const dbs = await indexedDB.databases();
  const name = dbs.find((d) => d.name?.startsWith('balcao-'))?.name;
  if (!name) return null;
  return new Promise<unknown>((resolve) => {
    const timer = setTimeout(() => resolve(null), 5_000);
    const done = (value: unknown, db?: IDBDatabase) => {
      clearTimeout(timer);
      db?.close();
      resolve(value);
    };
    const open = indexedDB.open(name);
    open.onsuccess = () => {
      const db = open.result;
      db.onversionchange = () => db.close();
      if (!db.objectStoreNames.contains('meta')) return done(null, db);
      try {
        const get = db.transaction('meta').objectStore('meta').get(key);
        get.onsuccess = () => done(get.result?.value ?? null, db);
        get.onerror = () => done(null, db);
      } catch {
        done(null, db);
      }
    };
    open.onerror = () => done(null);
    open.onblocked = () => done(null);
  });
}

async function scan(page: Page, code: string) {
  await page.getByTestId('pdv-search').focus();
  await page.keyboard.type(code, { delay: 5 });
  await page.keyboard.press('Enter');
}

/** One sale of one unit by barcode, paid in cash (exact amount), finished with F9. */
async function sellOffline(page: Page, barcode: string) {
  await scan(page, barcode);
  await expect(page.getByTestId('pdv-line')).toHaveCount(1);
  await page.keyboard.press('F6');
  const addPayment = page.getByRole('form', { name: 'Adicionar pagamento' });
  await addPayment.getByRole('button', { name: 'Adicionar' }).click();
  await expect(page.getByTestId('pdv-payment')).toHaveCount(1);
  await page.keyboard.press('F9');
  await expect(page.getByTestId('sale-finished')).toContainText('Venda finalizada sem conexão');
  await expect(page.getByTestId('receipt')).toContainText('Venda sem conexão');
  await page.getByRole('button', { name: /Nova venda/ }).click();
  await expect(page.getByTestId('pdv-line')).toHaveCount(0);
}

async function openPdv(page: Page) {
  await page.goto('/dashboard/sale/pdv');
  const opening = page.getByRole('dialog', { name: 'Abrir caixa' });
  await expect(opening.or(page.getByTestId('register-chip'))).toBeVisible();
  if (await opening.isVisible()) {
    await opening.getByLabel('Valor de abertura').fill('50,00');
    await opening.getByRole('button', { name: 'Abrir caixa' }).click();
    await expect(opening).toBeHidden();
  }
  await expect(page.getByTestId('register-chip')).toBeVisible();
}

async function goOffline(context: BrowserContext, page: Page) {
  await context.setOffline(true);
  await expect(page.getByTestId('offline-banner')).toContainText('Sem conexão');
}

// Long offline rounds wait on syncs that take several times longer on a loaded machine.
test.describe.configure({ mode: 'serial', timeout: 150_000 });
// A failure here keeps its trace (the negative-stock test hung only in full runs: see docs/decisions.md).
test.use({ trace: 'retain-on-failure' });

test.beforeAll(async ({ browser }) => {
  const page = await browser.newPage();
  await closeRegisterViaApi(page, USER);
  await page.close();
});
test.afterAll(async ({ browser }) => {
  const page = await browser.newPage();
  await closeRegisterViaApi(page, USER);
  // The shop's negative-stock rule as the demo has it, whatever a test that timed out left: the specs
  // after this one rely on it (a test's own restore cannot run once its page was torn down).
  const api = await adminApi(page);
  const res = await page.request.put(`/v1/stock-setting/client/${api.clientId}`, {
    headers: api.headers,
    data: { allowNegativeStock: DEMO_ALLOWS_NEGATIVE_STOCK },
  });
  expect(res.status(), await res.text()).toBe(200);
  await page.close();
});

test('offline: three sales by barcode with a reload mid-way, then online: exactly three, at their times; a cut sync retried is still one', async ({
  context,
  page,
}) => {
  const api = await adminApi(page);
  const name = `Suco offline ${stamp}`;
  const barcode = ean13(`789${stamp}11`);
  await makeProduct(page, api, name, barcode, 750);
  const customer = await page.request.post('/v1/customer', {
    headers: api.headers,
    data: { name: `Rosa Offline ${stamp}` },
  });
  expect(customer.status()).toBe(201);
  const couponCode = `OFF${stamp}`;
  const coupon = await page.request.post('/v1/coupon', {
    headers: api.headers,
    data: {
      code: couponCode,
      discountType: 'PERCENTAGE',
      discountValue: 10,
      startDate: '2020-01-01',
      endDate: '2099-12-31',
    },
  });
  expect(coupon.status(), await coupon.text()).toBe(201);
  await loginAs(page, USER);
  await openPdv(page);
  await readyForOffline(page);

  await goOffline(context, page);
  const before = new Date().toISOString();
  await sellOffline(page, barcode);
  await expect(page.getByTestId('offline-banner')).toContainText('1 venda aguardando envio');
  await sellOffline(page, barcode);
  // A reload without a connection: the service worker serves the app, the session and register are
  // the ones last seen, the waiting sales are still there.
  await page.reload();
  await expect(page.getByTestId('offline-banner')).toContainText('2 vendas aguardando envio');
  await sellOffline(page, barcode);
  await expect(page.getByTestId('offline-banner')).toContainText('3 vendas aguardando envio');
  // Payments that need the server say so.
  await scan(page, barcode);
  await expect(page.getByTestId('pdv-line')).toHaveCount(1);
  await page.keyboard.press('F6');
  await expect(page.getByTestId('offline-payments')).toContainText('crediário e boleto ficam indisponíveis');
  // A coupon is checked on the local copy: 10% of 7,50.
  await page.getByLabel('Código do cupom').fill(couponCode.toLowerCase());
  await page.getByRole('button', { name: 'Aplicar' }).click();
  await expect(page.getByTestId('pdv-coupon')).toContainText('R$ 0,75');
  await expect(page.getByTestId('pdv-final-amount')).toHaveText('R$ 6,75');
  // The customer step searches the local copy.
  await page.keyboard.press('F4');
  await page.getByLabel(/Buscar cliente/).fill('rosa offl');
  await page.getByRole('list', { name: 'Clientes encontrados' }).getByText(`Rosa Offline ${stamp}`).click();
  await expect(page.getByText(`Rosa Offline ${stamp}`).first()).toBeVisible();
  // That one is given up (Esc, confirm): it never reaches the outbox.
  await page.keyboard.press('Escape');
  await page
    .getByRole('dialog', { name: 'Cancelar venda' })
    .getByRole('button', { name: 'Cancelar venda' })
    .click();
  await expect(page.getByTestId('pdv-line')).toHaveCount(0);
  await expect(page.getByRole('dialog')).toHaveCount(0);
  const madeBy = new Date().toISOString();
  expect((await offlineSalesOf(page, api, name)).length).toBe(0);

  // Back online: the three go, in order, once.
  await context.setOffline(false);
  await expect.poll(async () => (await offlineSalesOf(page, api, name)).length, { timeout: 20_000 }).toBe(3);
  await expect(page.getByTestId('offline-banner')).toBeHidden({ timeout: 20_000 });
  const synced = await offlineSalesOf(page, api, name);
  expect(synced).toHaveLength(3);
  for (const sale of synced) {
    expect(sale.createdAt >= before && sale.createdAt <= madeBy).toBe(true);
    expect(sale.syncedAt && sale.syncedAt > madeBy).toBe(true);
    expect(sale.finalAmountCents).toBe(750);
  }
  expect(synced.map((s) => s.number)).toEqual([...synced.map((s) => s.number)].sort((a, b) => a - b));

  // A fourth sale whose sync is cut after the server committed: the answer never arrives.
  await goOffline(context, page);
  await sellOffline(page, barcode);
  let cut = 0;
  await page.route('**/v1/sale/offline', async (route) => {
    await route.fetch(); // the server records the sale...
    cut++;
    await route.abort('connectionreset'); // ...and the answer is lost.
  });
  await context.setOffline(false);
  await expect.poll(() => cut, { timeout: 20_000 }).toBeGreaterThan(0);
  await expect(page.getByTestId('offline-banner')).toBeVisible();
  expect(await offlineSalesOf(page, api, name)).toHaveLength(4);
  // Retried (the route works again; a reload syncs on opening): still four.
  await page.unroute('**/v1/sale/offline');
  await page.reload();
  await expect(page.getByTestId('offline-banner')).toBeHidden({ timeout: 20_000 });
  expect(await offlineSalesOf(page, api, name)).toHaveLength(4);

  // Online, but the server cannot write (disk full, issue 37): its 503 kept nothing, so the till keeps
  // the sale in its outbox as if offline, and it goes once the server writes again.
  let refused = 0;
  await page.route('**/v1/sale', async (route) => {
    if (route.request().method() !== 'POST') return route.fallback();
    refused++;
    await route.fulfill({
      status: 503,
      contentType: 'application/json',
      headers: { 'Retry-After': '30' },
      body: JSON.stringify({
        statusCode: 503,
        error: 'Service Unavailable',
        code: 'unavailable',
        message:
          'Sem espaço em disco no servidor: a operação não foi gravada. Libere espaço no disco e tente novamente.',
      }),
    });
  });
  await sellOffline(page, barcode);
  expect(refused).toBe(1);
  await page.unroute('**/v1/sale');
  await page.reload();
  await expect.poll(async () => (await offlineSalesOf(page, api, name)).length, { timeout: 20_000 }).toBe(5);
  await expect(page.getByTestId('offline-banner')).toBeHidden({ timeout: 20_000 });
});

test('two tabs syncing at once send each sale once; a conflict (price changed) is kept and flagged', async ({
  browser,
  context,
  page,
}) => {
  const api = await adminApi(page);
  const name = `Biscoito offline ${stamp}`;
  const barcode = ean13(`789${stamp}22`);
  const product = await makeProduct(page, api, name, barcode, 400);
  await loginAs(page, USER);
  await openPdv(page);
  await readyForOffline(page);
  const second = await context.newPage();
  await second.goto('/dashboard/sale/pdv');
  await expect(second.getByTestId('register-chip')).toBeVisible();

  await goOffline(context, page);
  await sellOffline(page, barcode);
  await sellOffline(page, barcode);
  await expect(second.getByTestId('offline-banner')).toContainText('2 vendas aguardando envio');
  // A suprimento offline waits with them; a sangria needing a manager's password is unavailable.
  const reason = `Troco offline ${stamp}`;
  await page.getByRole('button', { name: 'Suprimento' }).click();
  const deposit = page.getByRole('dialog', { name: 'Suprimento' });
  await deposit.getByLabel('Valor').fill('12,34');
  await deposit.getByLabel('Motivo').fill(reason);
  await deposit.getByRole('button', { name: 'Registrar suprimento' }).click();
  await expect(deposit).toBeHidden();
  await expect(page.getByTestId('offline-banner')).toContainText('1 movimento de caixa');
  await page.getByRole('button', { name: 'Sangria' }).click();
  await expect(page.getByTestId('offline-withdrawal')).toContainText('precisa da aprovação de um gerente');
  await page.getByRole('dialog', { name: 'Sangria' }).getByRole('button', { name: 'Cancelar' }).click();
  // Screens (offline, 2 sales and a movement waiting): 1280 and 390 px, light and dark.
  for (const theme of ['light', 'dark']) {
    await page.evaluate((mode) => localStorage.setItem('balcao:theme', mode), theme);
    await page.reload();
    await expect(page.getByTestId('offline-banner')).toContainText('2 vendas aguardando envio');
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: `/tmp/h21a/pdv-offline-${width}-${theme}.png` });
    }
  }
  await page.evaluate(() => localStorage.setItem('balcao:theme', 'light'));
  await page.setViewportSize({ width: 1280, height: 720 });

  // Meanwhile the price changed at the back office (the till sold at 4,00).
  const current = await (
    await page.request.get(`/v1/product/${product.id}`, { headers: api.headers })
  ).json();
  const edit = await page.request.put(`/v1/product/${product.id}`, {
    headers: api.headers,
    data: { ...current, salePriceCents: 450 },
  });
  expect(edit.status(), await edit.text()).toBe(200);

  // Both tabs see the connection return and sync at once.
  await context.setOffline(false);
  await expect(page.getByTestId('offline-banner')).toBeHidden({ timeout: 20_000 });
  await expect(second.getByTestId('offline-banner')).toBeHidden({ timeout: 20_000 });
  const synced = await offlineSalesOf(page, api, name);
  expect(synced).toHaveLength(2);
  // The suprimento was recorded once, in the register.
  const token = await apiLogin(page, demoEmail(USER));
  const register = await (
    await page.request.get('/v1/cash-register/current', { headers: { authorization: `Bearer ${token}` } })
  ).json();
  expect(JSON.stringify(register).split(reason).length - 1).toBe(1);
  for (const sale of synced) {
    expect(sale.finalAmountCents).toBe(400);
    expect(sale.offlineFlags).toContain('price_changed');
  }

  // The manager sees it flagged in the list and the detail.
  await second.close();
  const managerContext = await browser.newContext();
  const manager = await managerContext.newPage();
  await loginAs(manager, 2);
  await manager.goto(`/dashboard/sale/detail/${synced[0].id}`);
  await expect(manager.getByTestId('sale-offline')).toContainText('Feita sem conexão');
  await expect(manager.getByTestId('sale-offline-flags')).toContainText('preço diferente do catálogo');
  await manager.goto('/dashboard/sale');
  await expect(manager.getByTestId('sale-offline-chip').first()).toHaveText('Sem conexão · divergência');
  await managerContext.close();
});

/** The stock rule the PDV's local copy holds (run in the page). */
/**
 * The shop's negative-stock rule, set for one test and put back as it was, through the test's own API
 * request context (not the page's, which an offline step or a timeout may have closed).
 */
async function stockRule(request: APIRequestContext, api: Api) {
  const url = `/v1/stock-setting/client/${api.clientId}`;
  const previous = (await (await request.get(url, { headers: api.headers })).json()) as {
    allowNegativeStock: boolean;
  };
  const set = async (allowNegativeStock: boolean) => {
    const res = await request.put(url, { headers: api.headers, data: { allowNegativeStock } });
    expect(res.status(), await res.text()).toBe(200);
  };
  return { set, restore: () => set(previous.allowNegativeStock) };
}

/** "R$ 1.234,56" in a text -> cents. */
const centsIn = (text: string) => {
  const m = /R\$\s*([\d.]+,\d{2})/.exec(text);
  if (!m) throw new Error(`no amount in ${text}`);
  return Number(m[1].replace(/\./g, '').replace(',', ''));
};

test('offline stock, addresses and register cash: stock shown and lowered by an offline sale, a sale below zero refused as online, an offline delivery sale reaches the delivery panel after sync', async ({
  browser,
  context,
  page,
  request,
}) => {
  // A long flow: an offline round waiting for its sync (up to 20 s on a loaded machine) and a second
  // browser context for the delivery panel.
  test.setTimeout(150_000);
  const api = await adminApi(page);
  // This test's rule: the shop forbids negative stock (put back as it was at the end, through a
  // request context of its own: a page closed by the test's timeout cannot leave the rule changed
  // for the specs that follow).
  const rule = await stockRule(request, api);
  await rule.set(false);
  try {
    const name = `Pão offline ${stamp}`;
    const barcode = ean13(`789${stamp}33`);
    const created = await page.request.post('/v1/product', {
      headers: api.headers,
      data: { name, salePriceCents: 500, barcode, stock: 2 },
    });
    expect(created.status(), await created.text()).toBe(201);
    const product = (await created.json()) as { id: number };
    const customerName = `Lia Entrega ${stamp}`;
    const customer = await page.request.post('/v1/customer', {
      headers: api.headers,
      data: {
        name: customerName,
        phone: '11987654321',
        creditLimitCents: 30000,
        addresses: [SE_ADDRESS],
      },
    });
    expect(customer.status(), await customer.text()).toBe(201);

    await loginAs(page, USER);
    await openPdv(page);
    await readyForOffline(page);
    const chip = page.getByTestId('register-chip');
    const cashBefore = centsIn((await chip.textContent()) ?? '');
    await goOffline(context, page);

    // The local search shows the stock, as online.
    const results = page.getByRole('list', { name: 'Produtos encontrados' });
    const search = page.getByTestId('pdv-search');
    await search.fill(`pão offline ${stamp}`);
    await expect(results).toContainText('estoque 2');
    await search.fill('');
    // An offline sale (R$ 5,00 cash) lowers the local stock at once; the register's cash includes it.
    await sellOffline(page, barcode);
    await expect(chip).toContainText('inclui vendas não enviadas');
    expect(centsIn((await chip.textContent()) ?? '')).toBe(cashBefore + 500);
    await search.fill(`pão offline ${stamp}`);
    await expect(results).toContainText('estoque 1');
    await search.fill('');

    // Two more would take it below zero, which the shop forbids: refused as online.
    await scan(page, `2*${barcode}`);
    await expect(page.getByTestId('pdv-line')).toHaveCount(1);
    await page.keyboard.press('F6');
    await page
      .getByRole('form', { name: 'Adicionar pagamento' })
      .getByRole('button', { name: 'Adicionar' })
      .click();
    await page.keyboard.press('F9');
    await expect(page.getByTestId('pdv-finish-error')).toHaveText(
      `Estoque insuficiente para ${name} (disponível: 1)`,
    );
    await page.keyboard.press('Escape');
    await page
      .getByRole('dialog', { name: 'Cancelar venda' })
      .getByRole('button', { name: 'Cancelar venda' })
      .click();
    await expect(page.getByTestId('pdv-line')).toHaveCount(0);
    // The PDV's F-keys wait while a dialog is on screen: the confirmation must have faded out first.
    await expect(page.getByRole('dialog')).toHaveCount(0);

    // A delivery sale offline: the customer's address and crediário as last seen come from the copy.
    await scan(page, barcode);
    await expect(page.getByTestId('pdv-line')).toHaveCount(1);
    // F4 is ignored while a dialog is still on screen (the PDV's keys wait for it): pressed again until
    // the customer step shows, within a bound, instead of waiting out the test on one lost key.
    await expect(async () => {
      await page.keyboard.press('F4');
      await expect(page.getByLabel(/Buscar cliente/)).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 20_000 });
    await page.getByLabel(/Buscar cliente/).fill(customerName);
    await page.getByRole('list', { name: 'Clientes encontrados' }).getByText(customerName).click();
    await expect(page.getByTestId('pdv-customer-credit-seen')).toContainText(
      /limite R\$\s*300,00 · visto às \d{2}:\d{2}\. Sem conexão: crediário e boleto ficam indisponíveis/,
    );
    await page.getByRole('radio', { name: 'Entrega' }).check();
    const addressSelect = page.getByRole('combobox', { name: 'Endereço de entrega' });
    await expect(addressSelect).toContainText('Praça da Sé');
    await page.getByRole('textbox', { name: 'Frete' }).fill('3,00');
    await expect(page.getByTestId('pdv-final-amount')).toHaveText('R$ 8,00');
    await page.keyboard.press('F6');
    const addPayment = page.getByRole('form', { name: 'Adicionar pagamento' });
    await addPayment.getByLabel('Forma de pagamento').click();
    await page.getByRole('option', { name: 'Pagamento na entrega' }).click();
    await addPayment.getByLabel('Valor').fill('8,00');
    await addPayment.getByRole('button', { name: 'Adicionar' }).click();
    await page.keyboard.press('F9');
    await expect(page.getByTestId('sale-finished')).toContainText('Venda finalizada sem conexão');
    await page.getByRole('button', { name: /Nova venda/ }).click();
    await expect(page.getByTestId('offline-banner')).toContainText('2 vendas aguardando envio');

    // After a reload offline, the local copy still shows the stock the two sales took.
    await page.reload();
    await expect(page.getByTestId('offline-banner')).toContainText('2 vendas aguardando envio');
    await search.fill(`pão offline ${stamp}`);
    await expect(results).toContainText('estoque 0');
    await search.fill('');

    // Back online: both sales go; the delivery one makes its order, shown on the delivery panel.
    await context.setOffline(false);
    await expect(page.getByTestId('offline-banner')).toBeHidden({ timeout: 20_000 });
    await expect
      .poll(async () => (await offlineSalesOf(page, api, name)).length, { timeout: 20_000 })
      .toBe(2);
    const synced = await offlineSalesOf(page, api, name);
    expect(synced.map((s) => s.typeOfSale)).toEqual(['store', 'delivery']);
    const panel = await (await page.request.get('/v1/delivery/panel', { headers: api.headers })).json();
    const orders = panel.orders.filter((o: { saleId: number }) => o.saleId === synced[1].id);
    expect(orders).toHaveLength(1);
    const stock = await (
      await page.request.get(`/v1/product/${product.id}`, { headers: api.headers })
    ).json();
    expect(stock.stock).toBe(0);
    await expect(chip).not.toContainText('inclui vendas não enviadas');

    const managerContext = await browser.newContext();
    const manager = await managerContext.newPage();
    await loginAs(manager, 1);
    await manager.goto('/dashboard/sale/delivery');
    const card = manager.locator('[data-testid^="delivery-order-"]').filter({ hasText: customerName });
    await expect(card).toBeVisible();
    await expect(card).toContainText('Receber R$ 8,00');
    await managerContext.close();
    // Put back: the order is canceled, so later specs find the delivery panel as before.
    const cancel = await page.request.post(`/v1/delivery/orders/${orders[0].id}/cancel`, {
      headers: api.headers,
      data: { reason: 'Teste de venda offline' },
    });
    expect(cancel.status(), await cancel.text()).toBe(200);
    // Canceling a delivery order cancels its sale (issue 30 item 5): the unit is back in stock.
    const restocked = await (
      await page.request.get(`/v1/product/${product.id}`, { headers: api.headers })
    ).json();
    expect(restocked.stock).toBe(1);
  } finally {
    await context.setOffline(false).catch(() => {});
    await rule.restore();
  }
});

test('offline below zero where the shop allows negative stock: warned on this device, no conflict on arrival', async ({
  context,
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const api = await adminApi(page);
  const rule = await stockRule(request, api);
  await rule.set(true);
  try {
    const name = `Pão negativo ${stamp}`;
    const barcode = ean13(`789${stamp}34`);
    const created = await page.request.post('/v1/product', {
      headers: api.headers,
      data: { name, salePriceCents: 500, barcode, stock: 1 },
    });
    expect(created.status(), await created.text()).toBe(201);
    await loginAs(page, USER);
    await openPdv(page);
    await readyForOffline(page);
    await expect
      .poll(() => page.evaluate(readMeta, 'stock.settings'), { timeout: 20_000 })
      .toMatchObject({ allowNegativeStock: true });
    const results = page.getByRole('list', { name: 'Produtos encontrados' });
    const search = page.getByTestId('pdv-search');
    await goOffline(context, page);
    await search.fill(`pão negativo ${stamp}`);
    await expect(results).toContainText('estoque 1');
    await search.fill('');
    await scan(page, barcode);
    await scan(page, barcode);
    await expect(page.getByTestId('pdv-line')).toHaveCount(1);
    await page.keyboard.press('F6');
    await page
      .getByRole('form', { name: 'Adicionar pagamento' })
      .getByRole('button', { name: 'Adicionar' })
      .click({ timeout: 15_000 });
    await page.keyboard.press('F9');
    await expect(page.getByTestId('sale-finished')).toContainText('Venda finalizada sem conexão');
    await expect(page.getByTestId('offline-stock-warning')).toHaveText(
      `Estoque de ${name} ficará negativo (-1) neste aparelho`,
    );
    await page.getByRole('button', { name: /Nova venda/ }).click({ timeout: 15_000 });
    await context.setOffline(false);
    await expect(page.getByTestId('offline-banner')).toBeHidden({ timeout: 20_000 });
    await expect
      .poll(async () => (await offlineSalesOf(page, api, name)).length, { timeout: 20_000 })
      .toBe(1);
    const [sale] = await offlineSalesOf(page, api, name);
    // Allowed by the shop: no conflict on arrival.
    expect(sale.offlineFlags).toEqual([]);
  } finally {
    await context.setOffline(false).catch(() => {});
    await rule.restore();
  }
});

test("waiter offline (issue 30): after an offline reload the tab opens, the search and a category list the phone's copy, X-Burger's required 'Ponto da carne' is asked, and the queued line goes through on reconnect", async ({
  browser,
  page,
}) => {
  test.setTimeout(150_000);
  const api = await adminApi(page);
  const post = async (url: string, data: unknown) => {
    const res = await page.request.post(`/v1${url}`, { headers: api.headers, data });
    expect(res.status(), await res.text()).toBe(201);
    return res.json();
  };
  const category = await post('/product-category', { name: `Lanches W${stamp}` });
  const point = await post('/product-additional', {
    name: `Ponto da carne ${stamp}`,
    minQuantity: 1,
    maxQuantity: 1,
    items: [
      { name: 'Mal passado', priceCents: 0 },
      { name: 'Ao ponto', priceCents: 0 },
      { name: 'Bem passado', priceCents: 0 },
    ],
  });
  const burger = `X-Burger W${stamp}`;
  const juice = `Suco W${stamp}`;
  await post('/product', {
    name: burger,
    salePriceCents: 2200,
    categoryId: category.id,
    stock: 50,
    additionalGroupIds: [point.id],
  });
  await post('/product', { name: juice, salePriceCents: 800, categoryId: category.id, stock: 50 });

  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true });
  const phone = await context.newPage();
  try {
    await loginAs(phone, 5);
    await phone.goto('/dashboard/sale/waiter-pdv');
    await phone.getByRole('button', { name: 'Nova comanda' }).click();
    const dialog = phone.getByRole('dialog', { name: 'Nova comanda' });
    await dialog.getByLabel('Mesa').fill(`W${stamp}`);
    await dialog.getByRole('button', { name: 'Abrir comanda' }).click();
    const heading = phone.getByRole('heading', { name: new RegExp(`^Comanda \\d+ · Mesa W${stamp}$`) });
    await expect(heading).toBeVisible();
    const number = Number(/Comanda (\d+)/.exec((await heading.textContent()) ?? '')?.[1]);
    // Seen online first (the phone keeps the menu it last showed): on a loaded machine the menu's read
    // could still be on its way when the test cut the connection.
    await expect(phone.getByRole('button', { name: `Lanches W${stamp}` })).toBeVisible();
    await phone.getByRole('button', { name: 'Voltar às comandas' }).click();
    const tabButton = phone.getByRole('button', { name: `Comanda ${number} mesa W${stamp}` });
    await expect(tabButton).toBeVisible();
    await readyForOffline(phone, 'products.until');

    // Offline, the page reloaded: the tab list as last seen, and the tab opens.
    await context.setOffline(true);
    await phone.reload();
    await expect(phone.getByTestId('offline-banner')).toBeVisible();
    await tabButton.click();
    await expect(heading).toBeVisible();

    // The category chip lists the phone's copy of its products (not only the favourites).
    await phone.getByRole('button', { name: `Lanches W${stamp}` }).click();
    const found = phone.getByRole('list', { name: 'Produtos encontrados' });
    await expect(found.getByRole('button', { name: new RegExp(juice) })).toBeVisible();
    await expect(found.getByRole('button', { name: new RegExp(burger) })).toBeVisible();

    // The search too; X-Burger asks its required choice as online.
    await phone.getByLabel('Buscar produto').fill(burger);
    await found.getByRole('button', { name: new RegExp(burger) }).click();
    const options = phone.getByRole('dialog', { name: burger });
    await expect(options).toContainText(`Escolha 1 em Ponto da carne ${stamp}`);
    await phone.screenshot({ path: '/tmp/h30-checkout/waiter-offline-options-390.png' });
    await expect(options.getByRole('button', { name: 'Adicionar' })).toBeDisabled();
    await options.getByLabel('Ao ponto').check();
    await options.getByRole('button', { name: 'Adicionar' }).click();
    const draft = phone.getByTestId('add-item-draft');
    await expect(draft).toContainText('+ Ao ponto');
    await draft.getByRole('button', { name: 'Adicionar' }).click();
    await expect(phone.getByTestId('outbox')).toHaveText('1 pedido na fila');
    await expect(phone.getByText('Na fila', { exact: true })).toBeVisible();
    await phone.screenshot({ path: '/tmp/h30-checkout/waiter-offline-queued-390.png', fullPage: true });

    // Back online: the line reaches the tab, no refusal.
    await context.setOffline(false);
    await expect(phone.getByTestId('outbox')).toBeHidden({ timeout: 15_000 });
    await expect(phone.getByText(`1 x ${burger}`, { exact: true })).toBeVisible();
    await expect(phone.getByRole('alert').filter({ hasText: 'comanda' })).toHaveCount(0);
    const tabs = await (await page.request.get('/v1/comanda', { headers: api.headers })).json();
    const tabId = tabs.tabs.find((t: { number: number }) => t.number === number).id;
    const tab = await (await page.request.get(`/v1/comanda/${tabId}`, { headers: api.headers })).json();
    const line = tab.lines.find((l: { description: string }) => l.description.startsWith(burger));
    expect(line.additionals.map((a: { name: string }) => a.name)).toEqual(['Ao ponto']);
  } finally {
    await context.close();
  }
});
