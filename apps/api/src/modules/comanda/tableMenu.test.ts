import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import type { Comanda } from '@balcao/core/comanda';
import type { KdsBoard } from '@balcao/core/kds';
import { TABLE_MENU_MESSAGES } from '@balcao/core/tableMenu';
import { and, eq, inArray, isNull, like } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/helper.ts';
import { api, asUser, expectStatus, makeProduct, useTestApp } from '../../../test/kit.ts';
import { clients, rateLimits } from '../../db/schema.ts';
import { comandaTableQrs } from './schema.ts';

let t: TestApp;
useTestApp({}, (app) => ({ t } = app));

let seq = 0;
const key = () => ({ 'idempotency-key': `table-${process.pid}-${Date.now()}-${++seq}` });
const profile = {
  key: 'cozinha',
  name: 'Cozinha',
  paperWidth: 80,
  columns: 48,
  codePage: 'PC860',
  copies: 1,
  cut: true,
};

/** A restaurant with a Cozinha sector and printer, a burger in it, and a QR for table 7. */
async function restaurant(types = [1]) {
  const shop = await asUser(t, types, { clientTypeId: 6 });
  const lanches = expectStatus(await shop.api.post('/product-category', { name: 'Lanches' }), 201);
  const saved = expectStatus(
    await shop.api.put('/printing/settings', {
      profiles: [profile],
      sectors: [{ key: 'cozinha', name: 'Cozinha', profileKey: 'cozinha', categoryIds: [lanches.id] }],
      receipt: { autoPrint: false, profileKey: null },
    }),
    200,
  );
  const burger = await makeProduct(t, shop.auth, {
    name: 'X-Bacon',
    salePriceCents: 2200,
    categoryId: lanches.id,
    stock: 9,
  });
  await makeProduct(t, shop.auth, { name: 'Esgotado', categoryId: lanches.id, stock: 0 });
  const qr = expectStatus(await shop.api.post('/comanda/table-qr', { tableLabel: '7' }), 200);
  return { ...shop, burger, qr, kitchen: saved.sectors[0].id as number };
}

/** The customer's phone: no session (every test request comes from one address: proxies are not trusted). */
const guest = (_address?: string) => api(t);

describe('the QR-code menu at the table', () => {
  it('offers no product sold by weight and takes an order only for what the menu offers', async () => {
    const shop = await restaurant();
    const acai = await makeProduct(t, shop.auth, {
      name: 'Açaí no peso',
      categoryId: shop.burger.categoryId,
      productType: 'weighed',
      unit: 'kg',
      stockControl: false,
      salePriceCents: 5990,
    });
    const phone = guest();
    const menu = expectStatus(await phone.get(`/public/table/${shop.qr.token}`), 200);
    expect(menu.products.map((p: { name: string }) => p.name)).toEqual(['X-Bacon']);
    const soldOut = await makeProduct(t, shop.auth, { name: 'Suco esgotado', stock: 0 });
    // The page is not trusted: a line for the weighed product or the sold-out one is refused, nothing kept.
    for (const productId of [acai.id, soldOut.id]) {
      const refused = await phone.post(
        `/public/table/${shop.qr.token}/order`,
        {
          lines: [
            { productId: shop.burger.id, quantity: 1 },
            { productId, quantity: 1 },
          ],
        },
        key(),
      );
      expect(refused.statusCode).toBe(422);
      expect(refused.json().message).toBe(TABLE_MENU_MESSAGES.notOnMenu);
    }
    expect(expectStatus(await shop.api.get('/comanda/table-orders'), 200)).toEqual([]);
  });

  it('orders from the table, waits for approval, then reaches the tab and the kitchen once', async () => {
    const shop = await restaurant();
    // Made to order (no stock control, stock 0): a lanchonete's whole kitchen menu, offered.
    const lanches = shop.burger.categoryId;
    await makeProduct(t, shop.auth, {
      name: 'Xis da casa',
      categoryId: lanches,
      stockControl: false,
      stock: 0,
    });
    const phone = guest();
    const menu = expectStatus(await phone.get(`/public/table/${shop.qr.token}`), 200);
    // A shop without opening hours: no hours line on the page.
    expect(menu).toMatchObject({ tableLabel: '7', open: true, closedMessage: null, hours: null });
    // Only what is active and in stock (or made to order), and nothing of the back office (no cost,
    // stock or codes).
    expect(menu.products.map((p: { name: string }) => p.name)).toEqual(['X-Bacon', 'Xis da casa']);
    expect(Object.keys(menu.products[0]).sort()).toEqual([
      'additionalGroups',
      'category',
      'id',
      'imageUrl',
      'name',
      'priceCents',
    ]);

    const orderKey = key();
    const body = { lines: [{ productId: shop.burger.id, quantity: 2, notes: 'sem cebola' }] };
    const placed = expectStatus(
      await phone.post(`/public/table/${shop.qr.token}/order`, body, orderKey),
      201,
    );
    expect(placed).toMatchObject({
      status: 'pending',
      tableLabel: '7',
      lines: [{ description: 'X-Bacon', quantity: 2 }],
    });
    // The phone retries (lost answer): the same order.
    const again = expectStatus(await phone.post(`/public/table/${shop.qr.token}/order`, body, orderKey), 200);
    expect(again.id).toBe(placed.id);
    const pending = expectStatus(await shop.api.get('/comanda/table-orders'), 200);
    expect(pending.map((o: { id: number }) => o.id)).toEqual([placed.id]);
    // Nothing reached a tab before the approval.
    expect(expectStatus(await shop.api.get('/comanda'), 200).tabs).toEqual([]);

    // Approved twice at once (two waiters): one tab at table 7, one line, one kitchen card.
    const approvals = await Promise.all([
      shop.api.post(`/comanda/table-order/${placed.id}/approve`, {}),
      shop.api.post(`/comanda/table-order/${placed.id}/approve`, {}),
    ]);
    const approved = approvals.map((r) => r.json());
    expect(approvals.every((r) => r.statusCode === 200)).toBe(true);
    expect(approved[0].comandaId).toBe(approved[1].comandaId);
    const tab: Comanda = expectStatus(await shop.api.get(`/comanda/${approved[0].comandaId}`), 200);
    expect(tab.tableLabel).toBe('7');
    expect(tab.lines.map((l) => [l.description, l.quantity, l.notes, l.sentAt !== null])).toEqual([
      ['X-Bacon', 2, 'sem cebola', true],
    ]);
    const board: KdsBoard = expectStatus(await shop.api.get(`/kds/station/${shop.kitchen}`), 200);
    expect(board.tickets.map((c) => c.items.map((i) => `${i.quantity} x ${i.description}`))).toEqual([
      ['2 x X-Bacon'],
    ]);
    expect(expectStatus(await shop.api.get('/comanda/table-orders'), 200)).toEqual([]);
  });

  it('refuses a regenerated QR, a closed shop, and too many orders from one table', async () => {
    const shop = await restaurant();
    const phone = guest('203.0.113.8');
    const renewed = expectStatus(await shop.api.post('/comanda/table-qr', { tableLabel: '7' }), 200);
    const old = await phone.get(`/public/table/${shop.qr.token}`);
    expect(old.statusCode).toBe(404);
    expect(old.json().message).toBe(TABLE_MENU_MESSAGES.notFound);
    const body = { lines: [{ productId: shop.burger.id, quantity: 1 }] };
    expect((await phone.post(`/public/table/${shop.qr.token}/order`, body, key())).statusCode).toBe(404);

    // Closed now (opening hours on, none set): the order is refused with the reason.
    await t.database.db.update(clients).set({ checkIsOpen: true }).where(eq(clients.id, shop.client.id));
    expect(expectStatus(await phone.get(`/public/table/${renewed.token}`), 200)).toMatchObject({
      open: false,
      // No hours set: closed, and no opening in the coming week.
      hours: { open: false, nextChange: null, timeZone: 'America/Sao_Paulo' },
    });
    const closed = await phone.post(`/public/table/${renewed.token}/order`, body, key());
    expect(closed.statusCode).toBe(422);
    expect(closed.json().message).toBe(TABLE_MENU_MESSAGES.closed);
    await t.database.db.update(clients).set({ checkIsOpen: false }).where(eq(clients.id, shop.client.id));

    // Ten orders in ten minutes from a table; the eleventh waits (429).
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) {
      statuses.push(
        (await guest(`198.51.100.${i}`).post(`/public/table/${renewed.token}/order`, body, key())).statusCode,
      );
    }
    expect(statuses.filter((s) => s === 201).length).toBeGreaterThanOrEqual(9);
    const over = await guest('198.51.100.99').post(`/public/table/${renewed.token}/order`, body, key());
    expect(over.statusCode).toBe(429);
    expect(over.json().message).toBe(TABLE_MENU_MESSAGES.tooMany);
  });

  it("keeps a shop's table orders to itself; calls ring the bell", async () => {
    const shop = await restaurant();
    const other = await restaurant();
    const placed = expectStatus(
      await guest('203.0.113.20').post(
        `/public/table/${shop.qr.token}/order`,
        { lines: [{ productId: shop.burger.id, quantity: 1 }] },
        key(),
      ),
      201,
    );
    // Another shop's product through this shop's table: refused on the line.
    const foreign = await guest('203.0.113.20').post(
      `/public/table/${shop.qr.token}/order`,
      { lines: [{ productId: other.burger.id, quantity: 1 }] },
      key(),
    );
    expect(foreign.statusCode).toBe(422);
    expect(expectStatus(await other.api.get('/comanda/table-orders'), 200)).toEqual([]);
    const approve = await other.api.post(`/comanda/table-order/${placed.id}/approve`, {});
    expect(approve.statusCode).toBe(404);
    expect(approve.json().message).toBe(TABLE_MENU_MESSAGES.orderNotFound);
    const call = await guest('203.0.113.20').post(`/public/table/${shop.qr.token}/call`, { kind: 'bill' });
    expect(expectStatus(call, 200)).toEqual({ ok: true });
  });
});

describe('the table menu: add-ons, comandas off, accepting directly (issue 35)', () => {
  // Every test request comes from one address: the address's limit starts over for each test here.
  beforeEach(async () => {
    await t.database.db.delete(rateLimits).where(like(rateLimits.key, 'table-%'));
  });

  /** A burger with a required "Ponto da carne" (exactly 1) and optional "Extras" (up to 2). */
  async function withAddOns(shop: Awaited<ReturnType<typeof restaurant>>) {
    const ponto = expectStatus(
      await shop.api.post('/product-additional', {
        name: 'Ponto da carne',
        minQuantity: 1,
        maxQuantity: 1,
        items: [
          { name: 'Mal passado', priceCents: 0 },
          { name: 'Ao ponto', priceCents: 0 },
        ],
      }),
      201,
    );
    const extras = expectStatus(
      await shop.api.post('/product-additional', {
        name: 'Extras',
        minQuantity: 0,
        maxQuantity: 2,
        items: [
          { name: 'Bacon', priceCents: 400 },
          { name: 'Ovo', priceCents: 200, active: false },
        ],
      }),
      201,
    );
    const burger = expectStatus(
      await shop.api.put(`/product/${shop.burger.id}`, {
        ...shop.burger,
        categoryId: shop.burger.category.id,
        additionalGroupIds: [ponto.id, extras.id],
      }),
      200,
    );
    return { burger, ponto, extras };
  }

  it('offers the add-on groups and refuses an order without the required choice', async () => {
    const shop = await restaurant();
    const { ponto, extras } = await withAddOns(shop);
    const phone = guest();
    const menu = expectStatus(await phone.get(`/public/table/${shop.qr.token}`), 200);
    // Only active items are offered; the groups in the product's order with their min..max.
    expect(menu.products[0].additionalGroups).toEqual([
      {
        id: ponto.id,
        name: 'Ponto da carne',
        minQuantity: 1,
        maxQuantity: 1,
        items: ponto.items.map((i: { id: number; name: string }) => ({
          id: i.id,
          name: i.name,
          priceCents: 0,
        })),
      },
      {
        id: extras.id,
        name: 'Extras',
        minQuantity: 0,
        maxQuantity: 2,
        items: [{ id: extras.items[0].id, name: 'Bacon', priceCents: 400 }],
      },
    ]);
    const url = `/public/table/${shop.qr.token}/order`;
    // The page enforces the choice, and so does the server (a hand-made request).
    const missing = await phone.post(url, { lines: [{ productId: shop.burger.id, quantity: 1 }] }, key());
    expect(missing.statusCode).toBe(422);
    expect(missing.json().message).toBe('Escolha 1 item em Ponto da carne (X-Bacon)');
    const inactive = await phone.post(
      url,
      {
        lines: [
          {
            productId: shop.burger.id,
            quantity: 1,
            additionals: [
              { id: ponto.items[0].id, quantity: 1 },
              { id: extras.items[1].id, quantity: 1 },
            ],
          },
        ],
      },
      key(),
    );
    expect(inactive.statusCode).toBe(422);
    expect(inactive.json().message).toBe('Adicional indisponível para X-Bacon');
    const placed = expectStatus(
      await phone.post(
        url,
        {
          lines: [
            {
              productId: shop.burger.id,
              quantity: 1,
              additionals: [
                { id: ponto.items[1].id, quantity: 1 },
                { id: extras.items[0].id, quantity: 1 },
              ],
            },
          ],
        },
        key(),
      ),
      201,
    );
    // The waiter sees the choices before approving.
    expect(placed.lines).toEqual([
      { description: 'X-Bacon', quantity: 1, additionals: ['Ao ponto', 'Bacon'], notes: null },
    ]);
    const approved = expectStatus(await shop.api.post(`/comanda/table-order/${placed.id}/approve`, {}), 200);
    const tab: Comanda = expectStatus(await shop.api.get(`/comanda/${approved.comandaId}`), 200);
    expect(tab.lines.map((l) => [l.description, l.additionals.map((a) => a.name), l.totalCents])).toEqual([
      ['X-Bacon', ['Ao ponto', 'Bacon'], 2600],
    ]);
  });

  it('refuses table orders while the shop has comandas off', async () => {
    const shop = await restaurant();
    await t.database.db.update(clients).set({ saleCommand: false }).where(eq(clients.id, shop.client.id));
    const phone = guest();
    const menu = expectStatus(await phone.get(`/public/table/${shop.qr.token}`), 200);
    expect(menu).toMatchObject({ open: false, closedMessage: TABLE_MENU_MESSAGES.noComandas });
    const refused = await phone.post(
      `/public/table/${shop.qr.token}/order`,
      { lines: [{ productId: shop.burger.id, quantity: 1 }] },
      key(),
    );
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe(
      'Esta loja não recebe pedidos pela mesa no momento. Chame o garçom para fazer o seu pedido.',
    );
    await t.database.db.update(clients).set({ saleCommand: true }).where(eq(clients.id, shop.client.id));
    expect(expectStatus(await shop.api.get('/comanda/table-orders'), 200)).toEqual([]);
  });

  it('"Aceitar pedidos da mesa direto": the order reaches the tab and the kitchen once, no approval', async () => {
    const shop = await restaurant();
    const settings = expectStatus(await shop.api.get('/settings/system'), 200);
    expect(settings.tableOrdersDirect).toBe(false);
    const saved = expectStatus(
      await shop.api.put('/settings/system', {
        timeZone: settings.timeZone,
        allowNegativeStock: settings.allowNegativeStock,
        discountLimits: settings.discountLimits,
        budgetValidityDays: settings.budgetValidityDays,
        serviceFeePercent: settings.serviceFeePercent,
        couvertCents: settings.couvertCents,
        tabIdleMinutes: settings.tabIdleMinutes,
        delivery: settings.delivery,
        tableOrdersDirect: true,
        updatedAt: settings.updatedAt,
      }),
      200,
    );
    expect(saved.tableOrdersDirect).toBe(true);
    const url = `/public/table/${shop.qr.token}/order`;
    const body = { lines: [{ productId: shop.burger.id, quantity: 2, notes: 'sem cebola' }] };
    const orderKey = key();
    // The phone sends twice at once with the same key (a double tap after a lost answer): one order.
    const [a, b] = await Promise.all([guest().post(url, body, orderKey), guest().post(url, body, orderKey)]);
    const placed = [a, b].map((r) => r.json());
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 201]);
    expect(placed[0].id).toBe(placed[1].id);
    const again = expectStatus(await guest().post(url, body, orderKey), 200);
    expect(again).toMatchObject({ id: placed[0].id, status: 'approved' });
    expect(expectStatus(await shop.api.get('/comanda/table-orders'), 200)).toEqual([]);
    const tab: Comanda = expectStatus(await shop.api.get(`/comanda/${again.comandaId}`), 200);
    expect(tab.tableLabel).toBe('7');
    expect(tab.lines.map((l) => [l.description, l.quantity, l.notes, l.sentAt !== null])).toEqual([
      ['X-Bacon', 2, 'sem cebola', true],
    ]);
    const board: KdsBoard = expectStatus(await shop.api.get(`/kds/station/${shop.kitchen}`), 200);
    expect(board.tickets.map((c) => c.items.map((i) => `${i.quantity} x ${i.description}`))).toEqual([
      ['2 x X-Bacon'],
    ]);
  });
});

describe("printing the tables' QR codes (issue 35)", () => {
  async function pdfText(bytes: Buffer): Promise<{ text: string; pages: number }> {
    const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
    const fonts = `${dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'))}/standard_fonts/`;
    const doc = await pdfjs.getDocument({
      data: new Uint8Array(bytes),
      isEvalSupported: false,
      standardFontDataUrl: fonts,
    }).promise;
    const parts: string[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const content = await (await doc.getPage(n)).getTextContent();
      for (const item of content.items) if ('str' in item) parts.push(item.str);
      parts.push(' ');
    }
    return { text: parts.join(' ').replace(/\s+/g, ' '), pages: doc.numPages };
  }
  const liveQrs = async (clientId: number) =>
    t.database.db
      .select()
      .from(comandaTableQrs)
      .where(and(eq(comandaTableQrs.clientId, clientId), isNull(comandaTableQrs.revokedAt)));

  it('prints one card per table with its number and QR; printing again keeps the same QRs', async () => {
    const shop = await restaurant();
    const res = await shop.api.get('/comanda/table-qr/pdf?tables=5-7,%20Varanda,6');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const { text, pages } = await pdfText(res.rawPayload);
    expect(text).toContain('Mesa 5');
    expect(text).toContain('Mesa 6');
    expect(text).toContain('Mesa 7');
    expect(text).toContain('Mesa Varanda');
    expect(text).toContain('Aponte a câmera do celular para ver o cardápio e fazer o seu pedido.');
    expect(pages).toBe(1); // four cards on a sheet
    // Tables 5, 6 and Varanda got a QR; table 7 kept the one it had (its customers' phones still order).
    const after = await liveQrs(shop.client.id);
    expect(after.map((q) => q.tableLabel).sort()).toEqual(['5', '6', '7', 'Varanda']);
    expect(expectStatus(await guest().get(`/public/table/${shop.qr.token}`), 200).tableLabel).toBe('7');
    // The same print again: no new QR, none revoked.
    expect((await shop.api.get('/comanda/table-qr/pdf?tables=5-7,Varanda')).statusCode).toBe(200);
    expect((await liveQrs(shop.client.id)).map((q) => q.id).sort()).toEqual(after.map((q) => q.id).sort());
  });

  it("two first prints of a QR-less table's card at the same instant issue ONE QR, printed on both", async () => {
    const shop = await restaurant();
    const prints = await Promise.all(
      Array.from({ length: 3 }, () => shop.api.get('/comanda/table-qr/pdf?tables=20,21')),
    );
    for (const res of prints) expect(res.statusCode).toBe(200);
    // One QR per table ever issued, none revoked: the three cards of a table carry the same QR.
    const rows = await t.database.db
      .select()
      .from(comandaTableQrs)
      .where(
        and(eq(comandaTableQrs.clientId, shop.client.id), inArray(comandaTableQrs.tableLabel, ['20', '21'])),
      );
    expect(rows.map((q) => [q.tableLabel, q.revokedAt]).sort()).toEqual([
      ['20', null],
      ['21', null],
    ]);
  });

  it("refuses a list it cannot read, and a waiter's print of a table without a QR", async () => {
    const shop = await restaurant([1, 5]);
    const bad = await shop.api.get('/comanda/table-qr/pdf?tables=10-1');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(
      'Informe as mesas, por exemplo 1-10, 12 (até 100 mesas, até 20 caracteres cada)',
    );
    expect((await shop.api.get('/comanda/table-qr/pdf?tables=1-101')).statusCode).toBe(400);
    // A waiter reprints a table's card, but cannot issue a table's first QR.
    const waiter = shop.apis[1];
    const first = await waiter.get('/comanda/table-qr/pdf?tables=1');
    expect(first.statusCode).toBe(403);
    expect(first.json().message).toBe('A mesa 1 ainda não tem QR Code: peça a um gerente para gerá-lo');
    expect((await waiter.get('/comanda/table-qr/pdf?tables=7')).statusCode).toBe(200);
  });
});
