import { type APIRequestContext, expect, test } from '@playwright/test';
import { apiLogin, demoEmail, loginAs } from './helpers.ts';

type Auth = { authorization: string };

async function call(
  request: APIRequestContext,
  auth: Auth,
  method: 'get' | 'post' | 'put',
  url: string,
  data?: unknown,
  headers: Record<string, string> = {},
) {
  const res = await request[method](`/v1${url}`, { headers: { ...auth, ...headers }, data });
  expect(res.ok(), `${method} ${url}: ${await res.text()}`).toBe(true);
  return res.json();
}

test('kitchen display: a send shows once as a card, a line and the ticket are bumped, a reload mid-rush shows no duplicate, the board sees "Pronto"; a QR order at 390 px approved on the board reaches it once', async ({
  browser,
  page,
}) => {
  test.setTimeout(120_000);
  const stamp = Date.now() % 100_000;
  const admin = { authorization: `Bearer ${await apiLogin(page, demoEmail(1))}` };
  const garcom = { authorization: `Bearer ${await apiLogin(page, demoEmail(5))}` };

  // Arrange: a Chapa sector with its printer, a category routed to it, two products.
  const category = await call(page.request, admin, 'post', '/product-category', { name: `Chapa ${stamp}` });
  const burger = await call(page.request, admin, 'post', '/product', {
    name: `X-Tudo ${stamp}`,
    salePriceCents: 2500,
    categoryId: category.id,
    stock: 50,
  });
  const fries = await call(page.request, admin, 'post', '/product', {
    name: `Fritas ${stamp}`,
    salePriceCents: 1200,
    categoryId: category.id,
    stock: 50,
  });
  const before = await call(page.request, admin, 'get', '/printing/settings');
  const sectorName = `Chapa ${stamp}`;
  const saved = await call(page.request, admin, 'put', '/printing/settings', {
    profiles: [
      ...before.profiles,
      {
        key: `chapa-${stamp}`,
        name: `Chapa ${stamp}`,
        paperWidth: 80,
        columns: 48,
        codePage: 'PC860',
        copies: 1,
        cut: true,
      },
    ],
    sectors: [
      ...before.sectors,
      { key: `chapa-${stamp}`, name: sectorName, profileKey: `chapa-${stamp}`, categoryIds: [category.id] },
    ],
    receipt: before.receipt,
    updatedAt: before.updatedAt,
  });
  const sector = saved.sectors.find((s: { name: string }) => s.name === sectorName);

  // The garçom's tab: a burger with a note and fries, sent (and the send retried: same key).
  const tab = await call(page.request, garcom, 'post', '/comanda', { people: 2, tableLabel: `K${stamp}` });
  const addLine = (productId: number, notes?: string) =>
    call(
      page.request,
      garcom,
      'post',
      `/comanda/${tab.id}/line`,
      { productId, quantity: 1, ...(notes ? { notes } : {}) },
      { 'idempotency-key': `kds-add-${stamp}-${productId}-${(notes ?? '').replace(/\s/g, '_')}` },
    );
  await addLine(burger.id, 'sem cebola');
  await addLine(fries.id);
  const sendKey = { 'idempotency-key': `kds-send-${stamp}` };
  await call(page.request, garcom, 'post', `/comanda/${tab.id}/send`, undefined, sendKey);
  await call(page.request, garcom, 'post', `/comanda/${tab.id}/send`, undefined, sendKey);

  // The kitchen's tablet (1280x800): pick the station, see one card.
  const kitchenContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const kitchen = await kitchenContext.newPage();
  await loginAs(kitchen, 2);
  await kitchen.goto('/dashboard/sale/kds');
  await kitchen
    .getByRole('heading', { name: sectorName, level: 2 })
    .locator('..')
    .getByRole('link', { name: 'Abrir tela' })
    .click();
  await expect(kitchen.getByRole('heading', { name: sectorName, level: 1 })).toBeVisible();
  const cards = kitchen.getByTestId('kds-card');
  await expect(cards).toHaveCount(1);
  const card = cards.first();
  await expect(card).toContainText(`Comanda ${tab.number}`);
  await expect(card).toContainText(`1 x X-Tudo ${stamp}`);
  await expect(card).toContainText('OBS: sem cebola');

  // Bump the fries line: crossed out, the card stays.
  const friesLine = card.getByRole('button', { name: `Marcar pronto: 1 x Fritas ${stamp}` });
  await friesLine.click();
  await expect(friesLine).toBeDisabled();
  await expect(friesLine).toHaveCSS('text-decoration-line', 'line-through');

  // Mid-rush: a second send arrives live, and the tablet is reloaded. Two cards, not three.
  await addLine(burger.id, 'sem tomate');
  await call(page.request, garcom, 'post', `/comanda/${tab.id}/send`, undefined, {
    'idempotency-key': `kds-send2-${stamp}`,
  });
  await expect(cards).toHaveCount(2);
  await kitchen.reload();
  await expect(cards).toHaveCount(2);
  await expect(
    cards.first().getByRole('button', { name: `Marcar pronto: 1 x Fritas ${stamp}` }),
  ).toBeDisabled();

  // The board at the counter sees "Pronto" once the first ticket is bumped.
  const boardContext = await browser.newContext();
  const board = await boardContext.newPage();
  await loginAs(board, 4);
  await board.goto('/dashboard/sale/command');
  const tabCard = board.getByTestId(`comanda-${tab.number}`);
  await expect(tabCard).toBeVisible();
  await expect(tabCard).not.toContainText('Pronto');

  await cards.first().getByRole('button', { name: 'Pronto', exact: true }).click();
  await expect(cards).toHaveCount(1);
  await expect(tabCard).toContainText('Pronto');

  // Recall brings the last bumped back; the portrait tablet (800x1280) shows the same cards.
  await kitchen.getByRole('button', { name: 'Recuperar último' }).click();
  await expect(cards).toHaveCount(2);
  await kitchen.setViewportSize({ width: 800, height: 1280 });
  await kitchen.reload();
  await expect(cards).toHaveCount(2);
  await kitchen.screenshot({ path: '/tmp/pw-kds/kds-800.png' });

  // The QR-code menu at a table: the customer's phone (390 px, no login) orders with a note; the board
  // approves; the kitchen sees one more card, and a reload still shows each card once.
  // The X-Tudo asks for the meat's point (exactly one): the phone's add button opens the PDV's picker.
  const point = await call(page.request, admin, 'post', '/product-additional', {
    name: `Ponto ${stamp}`,
    minQuantity: 1,
    maxQuantity: 1,
    items: [
      { name: 'Mal passado', priceCents: 0 },
      { name: 'Ao ponto', priceCents: 0 },
    ],
  });
  await call(page.request, admin, 'put', `/product/${burger.id}`, {
    ...burger,
    categoryId: category.id,
    additionalGroupIds: [point.id],
  });
  const qr = await call(page.request, admin, 'post', '/comanda/table-qr', { tableLabel: `Q${stamp}` });
  const phoneContext = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true });
  const phone = await phoneContext.newPage();
  await phone.goto(qr.path);
  await expect(phone.getByText(`Mesa Q${stamp}`)).toBeVisible();
  await phone.getByRole('button', { name: `Adicionar X-Tudo ${stamp}` }).click();
  const options = phone.getByRole('dialog', { name: `X-Tudo ${stamp}` });
  await expect(options.getByText(`Escolha 1 em Ponto ${stamp}`)).toBeVisible();
  await expect(options.getByRole('button', { name: 'Adicionar' })).toBeDisabled();
  await options.getByLabel('Ao ponto').check();
  await phone.screenshot({ path: '/tmp/pw-kds/table-options-390.png' });
  await options.getByRole('button', { name: 'Adicionar' }).click();
  await phone.getByLabel(`Observação: X-Tudo ${stamp} (Ao ponto)`).fill('bem passado');
  await phone.getByRole('button', { name: /Enviar pedido/ }).click();
  await expect(phone.getByRole('status')).toHaveText('Pedido enviado! O garçom vai confirmar em instantes.');
  const waiting = board.getByRole('region', { name: 'Pedidos das mesas' });
  const row = waiting.locator('[data-testid^="table-order-"]', { hasText: `Mesa Q${stamp}` });
  await expect(row).toContainText(`1 x X-Tudo ${stamp} + Ao ponto (bem passado)`);
  await row.getByRole('button', { name: 'Aprovar' }).click();
  await expect(row).toHaveCount(0);
  await expect(cards).toHaveCount(3);
  await expect(cards.filter({ hasText: 'OBS: bem passado' })).toHaveCount(1);
  await kitchen.reload();
  await expect(cards).toHaveCount(3);

  // The manager prints the tables' QR cards from the comandas page: a PDF; the table's card prints
  // again with the same QR (the phone's page still works).
  await loginAs(page, 2);
  await page.goto('/dashboard/sale/command');
  await page.getByRole('button', { name: 'QR Codes das mesas' }).click();
  const qrDialog = page.getByRole('dialog', { name: 'QR Codes das mesas' });
  await qrDialog.getByLabel('Mesas').fill(`Q${stamp}, 1-3`);
  await expect(qrDialog.getByText('4 cartões')).toBeVisible();
  const downloading = page.waitForEvent('download');
  await qrDialog.getByRole('button', { name: 'Imprimir (PDF)' }).click();
  const pdf = await downloading;
  expect(pdf.suggestedFilename()).toBe('qrcodes-mesas.pdf');
  const { readFile } = await import('node:fs/promises');
  expect((await readFile(await pdf.path())).subarray(0, 5).toString()).toBe('%PDF-');
  await phone.reload();
  await expect(phone.getByText(`Mesa Q${stamp}`)).toBeVisible();
  await phoneContext.close();

  await kitchenContext.close();
  await boardContext.close();
  expect(sector.id).toBeGreaterThan(0);
});
