import { mkdirSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { apiLogin, closeRegisterViaApi, demoEmail, loginAs, shopSocket } from './helpers.ts';

const SHOTS = '/tmp/h16';

declare global {
  interface Window {
    __printed: { text: string; css: string }[];
  }
}

/** window.print replaced by a recorder of the print area (the printing spec's station does the same). */
async function recordPrints(page: Page) {
  await page.addInitScript(() => {
    window.__printed = [];
    window.print = () => {
      const area = document.getElementById('print-area');
      window.__printed.push({ text: area?.querySelector('pre')?.textContent ?? '', css: '' });
    };
  });
}

type Auth = { authorization: string };

async function call(
  request: APIRequestContext,
  auth: Auth,
  method: 'get' | 'post' | 'put',
  url: string,
  data?: unknown,
) {
  const res = await request[method](`/v1${url}`, { headers: auth, data });
  expect(res.ok(), `${method} ${url}: ${await res.text()}`).toBe(true);
  return res.json();
}

test('comandas: a Garçom at 390 px opens a tab, adds three items with a note (one while offline) and sends; the Cozinha station prints; the Caixa closes it split in two', async ({
  browser,
  page,
}) => {
  test.setTimeout(180_000);
  mkdirSync(SHOTS, { recursive: true });
  const stamp = Date.now() % 100_000;
  const admin = { authorization: `Bearer ${await apiLogin(page, demoEmail(1))}` };
  const caixa = { authorization: `Bearer ${await apiLogin(page, demoEmail(4))}` };

  // Arrange: a category routed to a Cozinha sector of its own printer profile, three products in it.
  const category = await call(page.request, admin, 'post', '/product-category', { name: `Lanches ${stamp}` });
  const names = [`X-Salada ${stamp}`, `Suco ${stamp}`, `Batata ${stamp}`];
  const prices = [1000, 1550, 800];
  for (const [i, name] of names.entries()) {
    await call(page.request, admin, 'post', '/product', {
      name,
      salePriceCents: prices[i],
      categoryId: category.id,
      stock: 50,
    });
  }
  const before = await call(page.request, admin, 'get', '/printing/settings');
  const profileName = `Cozinha ${stamp}`;
  await call(page.request, admin, 'put', '/printing/settings', {
    profiles: [
      ...before.profiles,
      {
        key: `cozinha-${stamp}`,
        name: profileName,
        paperWidth: 80,
        columns: 48,
        codePage: 'PC860',
        copies: 1,
        cut: true,
      },
    ],
    sectors: [
      ...before.sectors,
      {
        key: `cozinha-${stamp}`,
        name: 'Cozinha',
        profileKey: `cozinha-${stamp}`,
        categoryIds: [category.id],
      },
    ],
    receipt: before.receipt,
    updatedAt: before.updatedAt,
  });
  await closeRegisterViaApi(page, 4);
  await call(page.request, caixa, 'post', '/cash-register/open', { openingAmountCents: 10000 });

  try {
    // The station: the Gerente's browser prints the Cozinha profile.
    const stationContext = await browser.newContext();
    const station = await stationContext.newPage();
    await recordPrints(station);
    await loginAs(station, 2);
    await station.goto('/dashboard/settings/printer');
    await station.getByLabel('Nome da estação').fill('Cozinha');
    await station.getByRole('checkbox', { name: `${profileName} (80 mm)` }).check();
    await station.getByRole('button', { name: 'Ativar estação' }).click();
    await expect(station.getByText('Estação ativa')).toBeVisible();

    // The board at the Caixa's, live.
    const cashierContext = await browser.newContext();
    const cashier = await cashierContext.newPage();
    // The board's socket goes through the test, which can drop it (a phone asleep, a Wi-Fi gone).
    const boardSockets: { close: () => Promise<void> }[] = [];
    await cashier.routeWebSocket(/\/socket\.io\//, (ws) => {
      boardSockets.push(ws);
      ws.connectToServer();
    });
    await loginAs(cashier, 4);
    await cashier.goto('/dashboard/sale/command');
    await expect(cashier.getByRole('heading', { name: 'Comandas', level: 1 })).toBeVisible();

    // The waiter's phone.
    const phoneContext = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true });
    const phone = await phoneContext.newPage();
    await loginAs(phone, 5);
    await phone.goto('/dashboard/sale/waiter-pdv');
    await phone.getByRole('button', { name: 'Nova comanda' }).click();
    const dialog = phone.getByRole('dialog', { name: 'Nova comanda' });
    await dialog.getByLabel('Mesa').fill(`M${stamp}`);
    await dialog.getByLabel('Pessoas').fill('2');
    await dialog.getByRole('button', { name: 'Abrir comanda' }).click();
    const heading = phone.getByRole('heading', { name: new RegExp(`^Comanda \\d+ · Mesa M${stamp}$`) });
    await expect(heading).toBeVisible();
    const number = Number(/Comanda (\d+)/.exec((await heading.textContent()) ?? '')?.[1]);

    // The board shows the new tab without a reload.
    const card = cashier.getByTestId(`comanda-${number}`);
    await expect(card).toBeVisible();
    await expect(card).toContainText('Aberta');

    // The board's device loses its connection (socket dropped, network off); meanwhile the tab's bill
    // is asked for through the API. When the connection returns the board shows it, with no reload.
    await cashierContext.setOffline(true);
    await Promise.all(boardSockets.map((ws) => ws.close()));
    const tabId = (await call(page.request, admin, 'get', '/comanda')).tabs.find(
      (t: { number: number }) => t.number === number,
    ).id as number;
    // The signal goes out (a socket of the test's own receives it) and the offline board misses it.
    const live = await shopSocket(page, admin.authorization.slice('Bearer '.length));
    const signaled = live.change('comanda', tabId);
    await call(page.request, admin, 'post', `/comanda/${tabId}/request-bill`);
    await signaled;
    live.close();
    await expect(card).toContainText('Aberta');
    await cashierContext.setOffline(false);
    await expect(card).toContainText('Conta pedida', { timeout: 20_000 });
    await cashier.screenshot({ path: `${SHOTS}/board-1280.png`, fullPage: true });

    const addItem = async (name: string, note?: string, beforePick?: () => Promise<void>) => {
      await phone.getByLabel('Buscar produto').fill(name);
      const result = phone
        .getByRole('list', { name: 'Produtos encontrados' })
        .getByRole('button', { name: new RegExp(name) });
      await expect(result).toBeVisible();
      await beforePick?.();
      await result.click();
      const draft = phone.getByTestId('add-item-draft');
      await expect(draft).toContainText(name);
      if (note) await draft.getByLabel('Observação').fill(note);
      await draft.getByRole('button', { name: 'Adicionar' }).click();
      await expect(phone.getByText(`1 x ${name} adicionado`)).toBeVisible();
    };
    await addItem(names[0], 'sem cebola');
    await addItem(names[1]);
    await expect(phone.getByText('Não enviado')).toHaveCount(2);

    // Offline: the third item waits in the outbox, then goes once when the connection returns.
    await addItem(names[2], undefined, () => phoneContext.setOffline(true));
    await expect(phone.getByTestId('outbox')).toHaveText('1 pedido na fila');
    await expect(phone.getByTestId('offline-banner')).toBeVisible();
    await phone.screenshot({ path: `${SHOTS}/waiter-offline-390.png`, fullPage: true });
    await phoneContext.setOffline(false);
    await expect(phone.getByTestId('outbox')).toBeHidden({ timeout: 15_000 });
    await expect(phone.getByText('Não enviado')).toHaveCount(3);

    await phone.getByRole('button', { name: 'Enviar para produção (3)' }).click();
    await expect(phone.getByText('Enviado', { exact: true })).toHaveCount(3);
    await phone.screenshot({ path: `${SHOTS}/waiter-sent-390.png`, fullPage: true });

    // The station printed ONE Cozinha ticket with the table, the three items and the note.
    await expect.poll(() => station.evaluate(() => window.__printed.length), { timeout: 20_000 }).toBe(1);
    const [ticket] = await station.evaluate(() => window.__printed);
    expect(ticket.text).toContain('COZINHA');
    expect(ticket.text).toContain(`COMANDA ${number}  MESA M${stamp}`);
    for (const name of names) expect(ticket.text).toContain(`1 x ${name}`);
    expect(ticket.text).toContain('OBS: sem cebola');

    // The board on the waiter's phone, dark.
    await phone.emulateMedia({ colorScheme: 'dark' });
    await phone.goto('/dashboard/sale/command');
    await expect(phone.getByTestId(`comanda-${number}`)).toBeVisible();
    await phone.screenshot({ path: `${SHOTS}/board-390-dark.png`, fullPage: true });

    // The Caixa closes the tab in two equal shares and sees the sale.
    await cashier.getByTestId(`comanda-${number}`).click();
    await expect(cashier.getByRole('heading', { name: `Comanda ${number}` })).toBeVisible();
    await cashier.emulateMedia({ colorScheme: 'dark' });
    await cashier.screenshot({ path: `${SHOTS}/tab-1280-dark.png`, fullPage: true });
    await cashier.emulateMedia({ colorScheme: 'light' });
    // 10,00 + 15,50 + 8,00 = 33,50 + 10% = 36,85
    await expect(cashier.getByTestId('figure-Falta')).toHaveText('R$ 36,85');
    await cashier.getByRole('tab', { name: 'Partes iguais' }).click();
    await cashier.getByLabel('Dividir em').fill('2');
    await cashier.getByLabel('Forma de pagamento').click();
    await cashier.getByRole('option', { name: 'Pix', exact: true }).click();
    await cashier.getByRole('button', { name: 'Receber R$ 18,43' }).click();
    await expect(cashier.getByTestId('figure-Falta')).toHaveText('R$ 18,42');
    await cashier.getByRole('button', { name: 'Receber R$ 18,42' }).click();
    await expect(cashier.getByTestId('figure-Falta')).toHaveText('R$ 0,00');
    await cashier.screenshot({ path: `${SHOTS}/tab-paid-1280.png`, fullPage: true });
    await cashier.getByRole('button', { name: 'Fechar comanda' }).click();
    await expect(cashier.getByText('Comanda fechada na venda.')).toBeVisible();
    await cashier.getByRole('link', { name: 'Ver venda' }).click();
    await expect(cashier.getByText('R$ 36,85').first()).toBeVisible();
    await cashier.goto('/dashboard/sale');
    await expect(cashier.getByRole('row').filter({ hasText: 'R$ 36,85' }).first()).toBeVisible();

    await phoneContext.close();
    await cashierContext.close();
    await stationContext.close();
  } finally {
    // Restore the shared demo state: printing settings as they were, the Caixa's register closed.
    const now = await call(page.request, admin, 'get', '/printing/settings');
    await call(page.request, admin, 'put', '/printing/settings', {
      profiles: before.profiles,
      sectors: before.sectors,
      receipt: before.receipt,
      updatedAt: now.updatedAt,
    });
    await closeRegisterViaApi(page, 4);
  }
});

test.describe("the waiter PDV's Minhas/Todas toggle is readable (axe color-contrast, issue 30 item 22)", () => {
  for (const scheme of ['light', 'dark'] as const) {
    test(`${scheme} theme at 390 px`, async ({ browser }) => {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true });
      const phone = await context.newPage();
      await phone.emulateMedia({ colorScheme: scheme });
      await loginAs(phone, 5);
      await phone.goto('/dashboard/sale/waiter-pdv');
      const toggle = phone.getByRole('group', { name: 'Comandas a mostrar' });
      await expect(toggle.getByRole('button', { name: 'Todas' })).toBeVisible();
      for (const side of ['Minhas', 'Todas']) {
        await toggle.getByRole('button', { name: side }).click();
        await expect(toggle.getByRole('button', { name: side })).toHaveAttribute('aria-pressed', 'true');
        const result = await new AxeBuilder({ page: phone })
          .include('[aria-label="Comandas a mostrar"]')
          .withRules(['color-contrast'])
          .analyze();
        expect(
          result.violations.map((v) => `${side}: ${v.id} ${v.nodes.map((n) => n.target.join(' '))}`),
        ).toEqual([]);
      }
      await context.close();
    });
  }
});
