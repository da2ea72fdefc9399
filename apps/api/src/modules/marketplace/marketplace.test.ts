import { MARKETPLACE_MESSAGES } from '@balcao/core/marketplace';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeIfood, startFakeIfood } from '../../../test/fakes/ifood.ts';
import { type FakeOpenDelivery, startFakeOpenDelivery } from '../../../test/fakes/opendelivery.ts';
import type { TestApp } from '../../../test/helper.ts';
import { type Api, expectStatus, makeProduct, makeShop, useTestApp } from '../../../test/kit.ts';
import { testConfig } from '../../config.ts';
import { printJobs } from '../printing/schema.ts';
import { salePayments } from '../sale/schema.ts';
import { marketplaceAccounts, marketplaceOrders, marketplaceStatusSends } from './schema.ts';
import { pollAccount, pollMarketplaces, sendMarketplaceStatuses } from './service.ts';

let t: TestApp;
let ifood: FakeIfood;
let od: FakeOpenDelivery;
/** Event ids acknowledged while their order was not stored yet (must stay empty). */
const ackedBeforeStored: string[] = [];
/** A test's look at the database at the acknowledgment (after the storing, before any sale). */
let atAck: (() => Promise<void>) | null = null;

beforeAll(async () => {
  ifood = await startFakeIfood({
    onAck: async (ids) => {
      const orderOf = new Map(ifood.store.events.map((e) => [e.id, e.event.orderId]));
      const orderIds = [...new Set(ids.map((id) => orderOf.get(id) as string))];
      const stored = new Set(
        (
          await t.database.db
            .select({ externalId: marketplaceOrders.externalId })
            .from(marketplaceOrders)
            .where(inArray(marketplaceOrders.externalId, orderIds))
        ).map((r) => r.externalId),
      );
      ackedBeforeStored.push(...ids.filter((id) => !stored.has(orderOf.get(id) as string)));
      await atAck?.();
    },
  });
  od = await startFakeOpenDelivery();
});
useTestApp(
  {
    config: {
      marketplace: {
        ...testConfig().marketplace,
        get ifoodUrl() {
          return ifood.url;
        },
        get openDeliveryProviders() {
          return { aiqfome: od.url };
        },
      },
    },
  },
  (app) => {
    t = app.t;
  },
);
afterAll(async () => {
  await ifood?.close();
  await od?.close();
});

const ctx = () => t.app.ctx;

async function accountRow(id: number) {
  const [row] = await t.database.db.select().from(marketplaceAccounts).where(eq(marketplaceAccounts.id, id));
  return row;
}

/** A shop (Administrador with an open register) with an iFood account and a burger. */
async function ifoodShop(overrides: Record<string, unknown> = {}, userTypeIds = [1]) {
  const shop = await makeShop(t, userTypeIds);
  const admin: Api = shop.api;
  const burger = await makeProduct(t, shop.auth, {
    name: 'X-Burger da casa',
    salePriceCents: 2000,
    stock: 1000,
  });
  ifood.merchantId = crypto.randomUUID();
  const account = expectStatus(
    await admin.post('/marketplace/accounts', {
      kind: 'ifood',
      name: 'iFood',
      merchantId: ifood.merchantId,
      clientId: ifood.clientId,
      clientSecret: ifood.clientSecret,
      ...overrides,
    }),
    201,
  );
  return { shop, admin, burger, account };
}

/** Maps a marketplace item code to a product of the shop. */
async function mapItem(api: Api, accountId: number, externalCode: string, productId: number) {
  expectStatus(await api.put('/marketplace/mappings', { accountId, externalCode, productId }), 200);
}

/** The stored order of a marketplace order id. */
async function orderRow(externalId: string) {
  const [row] = await t.database.db
    .select()
    .from(marketplaceOrders)
    .where(eq(marketplaceOrders.externalId, externalId));
  return row;
}

async function pollUntilQuiet(accountId: number) {
  for (let i = 0; i < 20; i++) {
    const result = await pollAccount(ctx(), await accountRow(accountId));
    if (result.events === 0) return;
  }
  throw new Error('still events after 20 pollings');
}

describe('marketplace inbox (issue 35)', () => {
  it('keeps the client secret sealed and never answers it', async () => {
    const { admin, account } = await ifoodShop();
    expect(account).toMatchObject({ kind: 'ifood', hasSecret: true, clientId: ifood.clientId });
    expect(JSON.stringify(account)).not.toContain(ifood.clientSecret);
    const row = await accountRow(account.id);
    expect(row.clientSecret).toMatch(/^v1\./);
    expect(row.clientSecret).not.toContain(ifood.clientSecret);
    const list = expectStatus(await admin.get('/marketplace/accounts'), 200);
    expect(JSON.stringify(list)).not.toContain(ifood.clientSecret);
  });

  it('1,000 events with 5% repeats, shuffled: each order stored once, acknowledged only after it is stored', async () => {
    const { account } = await ifoodShop();
    const orders: string[] = [];
    const base = Date.now() - 60_000;
    for (let i = 0; i < 475; i++) {
      orders.push(
        ifood.placeOrder({
          items: [{ externalCode: 'X-BURGER', name: 'X-Burger', quantity: 1, unitPrice: 25.9 }],
          createdAt: new Date(base + i * 10).toISOString(),
        }),
      );
    }
    // Later events of the same orders, some dated before their placement (out of order).
    for (const [i, id] of orders.entries())
      ifood.publish(
        id,
        'CFM',
        'CONFIRMED',
        new Date(base + (i % 2 === 0 ? -5_000 : 5_000) + i).toISOString(),
      );
    expect(ifood.store.events.filter((e) => !e.acked)).toHaveLength(950);
    ifood.repeatEvery = 19; // 50 of the 950 answered twice: 1,000 events
    ifood.shuffle = true;
    ackedBeforeStored.length = 0;
    const acksBefore = ifood.acks.length;
    try {
      const first = await pollAccount(ctx(), await accountRow(account.id));
      expect(first.events).toBe(950);
      await pollUntilQuiet(account.id);
    } finally {
      ifood.repeatEvery = 0;
      ifood.shuffle = false;
    }
    const stored = await t.database.db
      .select({ externalId: marketplaceOrders.externalId })
      .from(marketplaceOrders)
      .where(eq(marketplaceOrders.accountId, account.id));
    expect(stored).toHaveLength(475);
    expect(new Set(stored.map((s) => s.externalId))).toEqual(new Set(orders));
    expect(new Set(ifood.acks.slice(acksBefore)).size).toBe(950);
    expect(ackedBeforeStored).toEqual([]);

    // A repeated placement in a later polling (the platform resends) finds the order there.
    ifood.publish(orders[0], 'PLC', 'PLACED');
    await pollUntilQuiet(account.id);
    const again = await t.database.db
      .select()
      .from(marketplaceOrders)
      .where(and(eq(marketplaceOrders.accountId, account.id), eq(marketplaceOrders.externalId, orders[0])));
    expect(again).toHaveLength(1);
  }, 120_000);

  it('an order whose details cannot be read keeps its events unacknowledged', async () => {
    const { account } = await ifoodShop();
    const ghost = crypto.randomUUID();
    const eventId = ifood.publish(ghost, 'PLC', 'PLACED');
    await pollAccount(ctx(), await accountRow(account.id));
    expect(ifood.acks).not.toContain(eventId);
    // Gone for good (8 h pass): the fake drops it.
    ifood.store.events = ifood.store.events.filter((e) => e.id !== eventId);
  });

  it('an unmapped item waits on the mapping screen; the mapping is remembered; confirming makes the delivery order once', async () => {
    const { admin, burger, account } = await ifoodShop();
    const id = ifood.placeOrder({
      customerName: 'Joana Marketplace',
      items: [{ externalCode: 'X-BURGER', name: 'X-Burger', quantity: 2, unitPrice: 25.9 }],
      deliveryFee: 5,
    });
    await pollUntilQuiet(account.id);
    const inbox = expectStatus(await admin.get('/marketplace/orders'), 200);
    const order = inbox.orders.find((o: { externalId: string }) => o.externalId === id);
    expect(order).toMatchObject({
      status: 'mapping',
      marketplace: 'iFood',
      customerName: 'Joana Marketplace',
      totalCents: 5680,
      prepaidCents: 5680,
      items: [{ externalCode: 'X-BURGER', name: 'X-Burger', product: null }],
    });
    const refused = await admin.post(`/marketplace/orders/${order.id}/confirm`);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe(MARKETPLACE_MESSAGES.unmapped);

    await mapItem(admin, account.id, 'X-BURGER', burger.id);
    const mapped = expectStatus(await admin.get('/marketplace/orders'), 200).orders.find(
      (o: { id: number }) => o.id === order.id,
    );
    expect(mapped).toMatchObject({
      status: 'new',
      items: [{ product: { id: burger.id, name: 'X-Burger da casa' } }],
    });

    const confirmed = expectStatus(await admin.post(`/marketplace/orders/${order.id}/confirm`), 200);
    expect(confirmed).toMatchObject({ status: 'confirmed', saleId: expect.any(Number) });
    const twice = await admin.post(`/marketplace/orders/${order.id}/confirm`);
    expect(twice.statusCode).toBe(409);

    const panel = expectStatus(await admin.get('/delivery/panel'), 200);
    const onPanel = panel.orders.filter((o: { saleId: number }) => o.saleId === confirmed.saleId);
    expect(onPanel).toHaveLength(1);
    expect(onPanel[0]).toMatchObject({
      customerName: 'Joana Marketplace',
      totalCents: 5680,
      collectCents: 0,
    });
    // Paid online: a marketplace payment, never the drawer's cash.
    const payments = await t.database.db
      .select({ method: salePayments.method, amountCents: salePayments.amountCents })
      .from(salePayments)
      .where(eq(salePayments.saleId, confirmed.saleId));
    expect(payments).toEqual([{ method: 'marketplace', amountCents: 5680 }]);
    const sale = expectStatus(await admin.get(`/sale/${confirmed.saleId}`), 200);
    expect(sale).toMatchObject({ originSale: 'ifood', typeOfSale: 'delivery' });

    // The next order with the same item needs no mapping.
    const next = ifood.placeOrder({
      items: [{ externalCode: 'X-BURGER', name: 'X-Burger', quantity: 1, unitPrice: 25.9 }],
    });
    await pollUntilQuiet(account.id);
    const row = await orderRow(next);
    expect(row.status).toBe('new');
  });

  it("maps and confirms an item to a lanche whose add-ons are required (the marketplace's customer chose in its own options)", async () => {
    const { shop, admin, account } = await ifoodShop();
    const ponto = expectStatus(
      await admin.post('/product-additional', {
        name: 'Ponto da carne',
        minQuantity: 1,
        maxQuantity: 1,
        items: [
          { name: 'Ao ponto', priceCents: 0 },
          { name: 'Bem passado', priceCents: 0 },
        ],
      }),
      201,
    );
    const salada = await makeProduct(t, shop.auth, {
      name: 'X-Salada',
      salePriceCents: 2690,
      stockControl: false,
      additionalGroupIds: [ponto.id],
    });
    const id = ifood.placeOrder({
      customerName: 'Joana iFood',
      items: [{ externalCode: 'IF-XSALADA', name: 'X-Salada do iFood', quantity: 2, unitPrice: 26.9 }],
    });
    await pollUntilQuiet(account.id);
    const order = await orderRow(id);
    expect(order.status).toBe('mapping');
    const mapped = await admin.put('/marketplace/mappings', {
      accountId: account.id,
      externalCode: 'IF-XSALADA',
      productId: salada.id,
    });
    expect(mapped.statusCode, mapped.body).toBe(200);
    expect((await orderRow(id)).status).toBe('new');
    const confirmed = expectStatus(await admin.post(`/marketplace/orders/${order.id}/confirm`), 200);
    const sale = expectStatus(await admin.get(`/sale/${confirmed.saleId}`), 200);
    expect(sale.items).toMatchObject([{ productId: salada.id, quantity: 2, unitPriceCents: 2690 }]);
  });

  it('each status reaches the marketplace once, retried until accepted', async () => {
    const { admin, burger, account } = await ifoodShop();
    await mapItem(admin, account.id, 'COMBO', burger.id);
    const id = ifood.placeOrder({
      items: [{ externalCode: 'COMBO', name: 'Combo', quantity: 1, unitPrice: 30 }],
    });
    await pollUntilQuiet(account.id);
    const row = await orderRow(id);
    // What earlier tests left to send goes first.
    await sendMarketplaceStatuses(ctx());
    const confirmed = expectStatus(await admin.post(`/marketplace/orders/${row.id}/confirm`), 200);
    const delivery = expectStatus(await admin.get('/delivery/panel'), 200).orders.find(
      (o: { saleId: number }) => o.saleId === confirmed.saleId,
    );

    ifood.failStatusNext = 1;
    await sendMarketplaceStatuses(ctx());
    const calls = () => ifood.statusCalls.filter((c) => c.orderId === id).map((c) => c.action);
    expect(calls()).toEqual([]);
    const [failed] = await t.database.db
      .select()
      .from(marketplaceStatusSends)
      .where(eq(marketplaceStatusSends.orderId, row.id));
    expect(failed).toMatchObject({ status: 'confirmed', attempts: 1, sentAt: null });
    // The shop reads our words; iFood's own text ("Try again") stays in the log (issue 31 item 1).
    expect(failed.lastError).toBe('O marketplace está indisponível (HTTP 500): nova tentativa em seguida');
    // The pause passes.
    await t.database.db
      .update(marketplaceStatusSends)
      .set({ nextAt: new Date(Date.now() - 1000) })
      .where(eq(marketplaceStatusSends.orderId, row.id));
    await sendMarketplaceStatuses(ctx());
    expect(calls()).toEqual(['confirm']);

    expectStatus(await admin.post(`/delivery/orders/${delivery.id}/status`, { status: 'waiting' }), 200);
    expectStatus(await admin.post(`/delivery/orders/${delivery.id}/status`, { status: 'available' }), 200);
    await sendMarketplaceStatuses(ctx());
    await sendMarketplaceStatuses(ctx());
    await pollUntilQuiet(account.id);
    await sendMarketplaceStatuses(ctx());
    expect(calls()).toEqual(['confirm', 'startPreparation', 'readyToPickup']);
  });

  it("an order iFood's own couriers deliver: origin iFood, only made ready, never the shop drivers'", async () => {
    const { admin, burger, account, shop } = await ifoodShop({}, [1, 10]);
    await mapItem(admin, account.id, 'COMBO', burger.id);
    const id = ifood.placeOrder({
      items: [{ externalCode: 'COMBO', name: 'Combo', quantity: 1, unitPrice: 30 }],
      deliveredBy: 'MARKETPLACE',
    });
    await pollUntilQuiet(account.id);
    const row = await orderRow(id);
    await sendMarketplaceStatuses(ctx());
    const confirmed = expectStatus(await admin.post(`/marketplace/orders/${row.id}/confirm`), 200);
    const delivery = expectStatus(await admin.get('/delivery/panel'), 200).orders.find(
      (o: { saleId: number }) => o.saleId === confirmed.saleId,
    );
    expect(delivery).toMatchObject({ origin: 'ifood', marketplaceCourier: 'iFood' });
    // The panel's filter by origin (issue 35): iFood's order under iFood, not under a phone order's.
    const byOrigin = async (origin: string) =>
      expectStatus(await admin.get(`/delivery/panel?origin=${origin}`), 200).orders.map(
        (o: { id: number }) => o.id,
      );
    expect(await byOrigin('ifood')).toEqual([delivery.id]);
    expect(await byOrigin('phone')).toEqual([]);
    expect((await admin.get('/delivery/panel?origin=fax')).statusCode).toBe(400);
    // The shop's drivers neither get it assigned nor see it to take.
    const driverApi = shop.apis[1];
    const assigned = await admin.post(`/delivery/orders/${delivery.id}/assign`, {
      driverId: shop.users[1].user.id,
    });
    expect(assigned.statusCode).toBe(422);
    expect(assigned.json().message).toBe(
      'Este pedido é entregue pelos entregadores do iFood: marque como pronto e aguarde a coleta',
    );
    expectStatus(await admin.post(`/delivery/orders/${delivery.id}/status`, { status: 'waiting' }), 200);
    expectStatus(await admin.post(`/delivery/orders/${delivery.id}/status`, { status: 'available' }), 200);
    expectStatus(await driverApi.post('/delivery/shift/check-in', {}), 200);
    const available = expectStatus(await driverApi.get('/delivery/driver/orders?list=available'), 200);
    expect(available.orders.map((o: { id: number }) => o.id)).not.toContain(delivery.id);
    const taken = await driverApi.post(`/delivery/orders/${delivery.id}/take`, {});
    expect(taken.statusCode).toBe(422);
    // iFood hears "ready to pick up", never a dispatch of the shop's.
    await sendMarketplaceStatuses(ctx());
    await sendMarketplaceStatuses(ctx());
    await sendMarketplaceStatuses(ctx());
    expect(ifood.statusCalls.filter((c) => c.orderId === id).map((c) => c.action)).toEqual([
      'confirm',
      'startPreparation',
      'readyToPickup',
    ]);
  });

  it("iFood's courier collects and delivers: the panel's order moves to in transit and delivered; iFood's cancel cancels it", async () => {
    const { admin, burger, account } = await ifoodShop();
    await mapItem(admin, account.id, 'COMBO', burger.id);
    const place = () =>
      ifood.placeOrder({
        items: [{ externalCode: 'COMBO', name: 'Combo', quantity: 1, unitPrice: 30 }],
        deliveredBy: 'MARKETPLACE',
      });
    const [first, second] = [place(), place()];
    await pollUntilQuiet(account.id);
    const deliveryOf = async (externalId: string) => {
      const row = await orderRow(externalId);
      if (row.status === 'new') expectStatus(await admin.post(`/marketplace/orders/${row.id}/confirm`), 200);
      const [again] = await t.database.db
        .select()
        .from(marketplaceOrders)
        .where(eq(marketplaceOrders.id, row.id));
      const panel = expectStatus(await admin.get('/delivery/panel'), 200);
      return {
        row: again,
        order: panel.orders.find((o: { saleId: number }) => o.saleId === again.saleId) as {
          id: number;
          status: string;
          marketplaceCourier: string | null;
        },
      };
    };
    const one = await deliveryOf(first);
    expect(one.order).toMatchObject({ marketplaceCourier: 'iFood', status: 'pending' });
    expectStatus(await admin.post(`/delivery/orders/${one.order.id}/status`, { status: 'waiting' }), 200);
    expectStatus(await admin.post(`/delivery/orders/${one.order.id}/status`, { status: 'available' }), 200);
    await sendMarketplaceStatuses(ctx());
    await sendMarketplaceStatuses(ctx());
    await sendMarketplaceStatuses(ctx());
    await pollUntilQuiet(account.id);

    // iFood's courier collects it (DSP, repeated): "Disponível" -> in transit, once.
    ifood.publish(first, 'DSP', 'DISPATCHED');
    ifood.publish(first, 'DSP', 'DISPATCHED');
    await pollUntilQuiet(account.id);
    expect((await deliveryOf(first)).order.status).toBe('sending');
    // Delivered (CON): the panel's order is delivered.
    ifood.publish(first, 'CON', 'CONCLUDED');
    await pollUntilQuiet(account.id);
    expect((await deliveryOf(first)).order.status).toBe('success');
    // iFood told Balcão: nothing of it goes back (no dispatch call), and every status is settled.
    await sendMarketplaceStatuses(ctx());
    expect(ifood.statusCalls.filter((c) => c.orderId === first).map((c) => c.action)).toEqual([
      'confirm',
      'startPreparation',
      'readyToPickup',
    ]);
    const sends = await t.database.db
      .select()
      .from(marketplaceStatusSends)
      .where(eq(marketplaceStatusSends.orderId, one.row.id));
    expect(sends.filter((r) => r.sentAt === null)).toEqual([]);
    expect(
      sends
        .filter((r) => r.skipped)
        .map((r) => r.status)
        .sort(),
    ).toEqual(['delivered', 'dispatched']);

    // The second: collected before the shop marked it ready, then iFood cancels it: canceled on the panel.
    const two = await deliveryOf(second);
    ifood.publish(second, 'DSP', 'DISPATCHED');
    await pollUntilQuiet(account.id);
    expect((await deliveryOf(second)).order.status).toBe('sending');
    await sendMarketplaceStatuses(ctx());
    expect(ifood.statusCalls.filter((c) => c.orderId === second).map((c) => c.action)).toEqual(['confirm']);
    ifood.cancel(second);
    await pollUntilQuiet(account.id);
    const canceled = await deliveryOf(second);
    expect(canceled.row.status).toBe('canceled');
    expect(canceled.order.status).toBe('canceled');
    expect(two.order.id).toBe(canceled.order.id);
  });

  it("out of order: iFood's courier news and its cancel read before the order is confirmed in Balcão are kept and applied after", async () => {
    const { admin, burger, account } = await ifoodShop();
    const place = () =>
      ifood.placeOrder({
        items: [{ externalCode: 'LATE', name: 'Combo tardio', quantity: 1, unitPrice: 30 }],
        deliveredBy: 'MARKETPLACE',
      });
    const [collected, delivered, canceled] = [place(), place(), place()];
    // The courier's DSP (and for the second its CON too) and a cancel, all before the shop confirmed
    // (the item is not even mapped yet), answered shuffled and repeated.
    ifood.publish(collected, 'DSP', 'DISPATCHED');
    ifood.publish(delivered, 'CON', 'CONCLUDED');
    ifood.publish(delivered, 'DSP', 'DISPATCHED');
    ifood.cancel(canceled);
    ifood.shuffle = true;
    ifood.repeatEvery = 2;
    try {
      await pollUntilQuiet(account.id);
    } finally {
      ifood.shuffle = false;
      ifood.repeatEvery = 0;
    }
    const rowOf = async (externalId: string) =>
      (
        await t.database.db
          .select()
          .from(marketplaceOrders)
          .where(eq(marketplaceOrders.externalId, externalId))
      )[0];
    expect((await rowOf(collected)).status).toBe('mapping');
    expect((await rowOf(canceled)).status).toBe('canceled');
    await mapItem(admin, account.id, 'LATE', burger.id);
    const panelStatusOf = async (externalId: string) => {
      const row = await rowOf(externalId);
      expectStatus(await admin.post(`/marketplace/orders/${row.id}/confirm`), 200);
      const panel = expectStatus(await admin.get('/delivery/panel'), 200);
      const saleId = (await rowOf(externalId)).saleId;
      return panel.orders.find((o: { saleId: number }) => o.saleId === saleId)?.status;
    };
    // Confirmed now: the kept news moves the panel's order (in transit; delivered), not dropped.
    expect(await panelStatusOf(collected)).toBe('sending');
    expect(await panelStatusOf(delivered)).toBe('success');
    expect((await rowOf(delivered)).courierEvent).toBeNull();
    // The order iFood canceled first cannot be confirmed afterwards.
    const late = await rowOf(canceled);
    const refused = await admin.post(`/marketplace/orders/${late.id}/confirm`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(MARKETPLACE_MESSAGES.notNew);
    // Nothing iFood told goes back to it: only the confirmations.
    await sendMarketplaceStatuses(ctx());
    expect(
      ifood.statusCalls
        .filter((c) => [collected, delivered, canceled].includes(c.orderId))
        .map((c) => c.action),
    ).toEqual(['confirm', 'confirm']);

    // Auto-confirm in the same polling as the placement: the DSP read before the sale is applied after it.
    const auto = await ifoodShop({ autoConfirm: true });
    await mapItem(auto.admin, auto.account.id, 'LATE', auto.burger.id);
    const same = place();
    ifood.publish(same, 'DSP', 'DISPATCHED');
    await pollUntilQuiet(auto.account.id);
    const row = await rowOf(same);
    expect(row.status).toBe('confirmed');
    const panel = expectStatus(await auto.admin.get('/delivery/panel'), 200);
    expect(panel.orders.find((o: { saleId: number }) => o.saleId === row.saleId)?.status).toBe('sending');
  });

  it('a 429 pauses the account: no call until the pause ends', async () => {
    const { account } = await ifoodShop();
    ifood.rateLimitNext = 1;
    const result = await pollAccount(ctx(), await accountRow(account.id));
    expect(result.rateLimited).toBe(true);
    const row = await accountRow(account.id);
    expect(row.pausedUntil?.getTime()).toBeGreaterThan(Date.now());
    const polls = () => ifood.polls.filter((p) => p.merchants?.includes(account.merchantId)).length;
    const before = polls();
    await pollMarketplaces(ctx());
    expect(polls()).toBe(before);
    // The pause over, the next polling goes out with the merchant in x-polling-merchants.
    await t.database.db
      .update(marketplaceAccounts)
      .set({ pausedUntil: new Date(Date.now() - 1000) })
      .where(eq(marketplaceAccounts.id, account.id));
    await pollMarketplaces(ctx());
    expect(polls()).toBe(before + 1);
  });

  it('a cancellation by the marketplace before its placement is read still cancels the order', async () => {
    const { account } = await ifoodShop();
    const id = ifood.placeOrder({ items: [{ externalCode: 'X', name: 'X', quantity: 1, unitPrice: 10 }] });
    ifood.cancel(id);
    ifood.shuffle = true;
    try {
      await pollUntilQuiet(account.id);
    } finally {
      ifood.shuffle = false;
    }
    const row = await orderRow(id);
    expect(row.status).toBe('canceled');
  });

  it('Open Delivery (aiqfome) is the same inbox: polling, acknowledgment with its event type, confirm', async () => {
    const shop = await makeShop(t, [1]);
    const burger = await makeProduct(t, shop.auth, { name: 'Pastel', salePriceCents: 900, stock: 100 });
    const account = expectStatus(
      await shop.api.post('/marketplace/accounts', {
        kind: 'opendelivery',
        provider: 'aiqfome',
        name: 'aiqfome',
        merchantId: od.merchantId,
        clientId: od.clientId,
        clientSecret: od.clientSecret,
      }),
      201,
    );
    const unknown = await shop.api.post('/marketplace/accounts', {
      kind: 'opendelivery',
      provider: 'nenhum',
      name: 'x',
      merchantId: 'm2',
      clientId: 'c',
      clientSecret: 's',
    });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().message).toBe(MARKETPLACE_MESSAGES.providerUnknown);
    await mapItem(shop.api, account.id, 'PASTEL', burger.id);
    const id = od.placeOrder({
      items: [{ externalCode: 'PASTEL', name: 'Pastel', quantity: 3, unitPrice: 9 }],
      payment: 'CASH',
      changeFor: 50,
    });
    await pollUntilQuiet(account.id);
    expect(od.store.events.filter((e) => e.event.orderId === id).every((e) => e.acked)).toBe(true);
    const order = expectStatus(await shop.api.get('/marketplace/orders'), 200).orders[0];
    expect(order).toMatchObject({
      externalId: id,
      marketplace: 'aiqfome',
      totalCents: 3300,
      pendingCents: 3300,
    });
    const confirmed = expectStatus(await shop.api.post(`/marketplace/orders/${order.id}/confirm`), 200);
    const onPanel = expectStatus(await shop.api.get('/delivery/panel'), 200).orders.find(
      (o: { saleId: number }) => o.saleId === confirmed.saleId,
    );
    expect(onPanel).toMatchObject({ collectCents: 3300, onDeliveryMethod: 'money', changeForCents: 5000 });
    await sendMarketplaceStatuses(ctx());
    expect(od.statusCalls.filter((c) => c.orderId === id).map((c) => c.action)).toEqual(['confirm']);
  });

  it('auto-confirm: the sale is made at the operator register; with it closed the order waits and says why', async () => {
    const { admin, burger, account } = await ifoodShop({ autoConfirm: true });
    await mapItem(admin, account.id, 'AUTO', burger.id);
    const first = ifood.placeOrder({
      items: [{ externalCode: 'AUTO', name: 'Auto', quantity: 1, unitPrice: 20 }],
    });
    await pollUntilQuiet(account.id);
    const confirmed = await orderRow(first);
    expect(confirmed).toMatchObject({ status: 'confirmed', saleId: expect.any(Number) });

    expectStatus(await admin.post('/cash-register/close', { counted: [] }), 200);
    const second = ifood.placeOrder({
      items: [{ externalCode: 'AUTO', name: 'Auto', quantity: 1, unitPrice: 20 }],
    });
    await pollUntilQuiet(account.id);
    const waiting = expectStatus(await admin.get('/marketplace/orders'), 200).orders.find(
      (o: { externalId: string }) => o.externalId === second,
    );
    expect(waiting).toMatchObject({ status: 'new', saleId: null });
    expect(waiting.problem).toBe(MARKETPLACE_MESSAGES.noRegister(account.operator.name));
  });

  it("the customer's cancellation request is answered once: accepted, the sale and its delivery order are canceled", async () => {
    const { admin, burger, account } = await ifoodShop();
    await mapItem(admin, account.id, 'CAN', burger.id);
    const id = ifood.placeOrder({
      items: [{ externalCode: 'CAN', name: 'Can', quantity: 1, unitPrice: 15 }],
    });
    await pollUntilQuiet(account.id);
    const row = await orderRow(id);
    const confirmed = expectStatus(await admin.post(`/marketplace/orders/${row.id}/confirm`), 200);
    ifood.consumerCancellation(id);
    await pollUntilQuiet(account.id);
    const asked = expectStatus(await admin.get('/marketplace/orders'), 200).orders.find(
      (o: { id: number }) => o.id === row.id,
    );
    expect(asked).toMatchObject({ cancellationRequested: true });
    expectStatus(await admin.post(`/marketplace/orders/${row.id}/cancellation`, { accept: true }), 200);
    const again = await admin.post(`/marketplace/orders/${row.id}/cancellation`, { accept: true });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(MARKETPLACE_MESSAGES.noCancellationRequest);
    const sale = expectStatus(await admin.get(`/sale/${confirmed.saleId}`), 200);
    expect(sale.status).toBe('canceled');
    await sendMarketplaceStatuses(ctx());
    await sendMarketplaceStatuses(ctx());
    // The canceled delivery order is not sent back as a second cancellation.
    expect(ifood.statusCalls.filter((c) => c.orderId === id).map((c) => c.action)).toEqual([
      'confirm',
      'acceptCancellation',
    ]);
  });

  it('auto-confirm: the kitchen tickets go to the KDS with the stored orders, before any sale; the sales print nothing more; a canceled order gets its cancel card once', async () => {
    const { admin, account, shop } = await ifoodShop({ autoConfirm: true });
    const lanches = expectStatus(await admin.post('/product-category', { name: 'Lanches' }), 201);
    const saved = expectStatus(
      await admin.put('/printing/settings', {
        profiles: [
          {
            key: 'cozinha',
            name: 'cozinha',
            paperWidth: 80,
            columns: 48,
            codePage: 'PC860',
            copies: 1,
            cut: true,
          },
        ],
        sectors: [{ key: 'cozinha', name: 'Cozinha', profileKey: 'cozinha', categoryIds: [lanches.id] }],
        receipt: { autoPrint: false, profileKey: null },
      }),
      200,
    );
    const station = saved.sectors[0].id as number;
    const smash = await makeProduct(t, shop.auth, {
      name: 'Smash da casa',
      salePriceCents: 3000,
      categoryId: lanches.id,
      stock: 100,
    });
    await mapItem(admin, account.id, 'SMASH', smash.id);
    type Card = { id: number; title: string; lines: string[]; cancel: boolean };
    const cards = async (): Promise<Card[]> =>
      expectStatus(await admin.get(`/kds/station/${station}`), 200).tickets;
    const orders = async () =>
      t.database.db.select().from(marketplaceOrders).where(eq(marketplaceOrders.accountId, account.id));
    const names = ['Ana Cozinha', 'Bruno Cozinha', 'Carla Cozinha'];
    for (const customerName of names)
      ifood.placeOrder({
        customerName,
        items: [{ externalCode: 'SMASH', name: 'Smash', quantity: 2, unitPrice: 30 }],
      });
    // Canceled before the polling reads it: stored canceled, never in the kitchen.
    const gone = ifood.placeOrder({
      customerName: 'Davi Cancelado',
      items: [{ externalCode: 'SMASH', name: 'Smash', quantity: 1, unitPrice: 30 }],
    });
    ifood.cancel(gone);
    let seenAtAck: { cards: Card[]; sales: (number | null)[] } | null = null;
    atAck = async () => {
      seenAtAck ??= { cards: await cards(), sales: (await orders()).map((o) => o.saleId) };
    };
    ifood.repeatEvery = 2;
    ifood.shuffle = true;
    try {
      await pollUntilQuiet(account.id);
    } finally {
      atAck = null;
      ifood.repeatEvery = 0;
      ifood.shuffle = false;
    }
    // At the acknowledgment no order had its sale yet, and every card was on the KDS already.
    const early = seenAtAck as unknown as { cards: Card[]; sales: (number | null)[] };
    expect(early.sales).toHaveLength(4);
    expect(early.sales.every((id) => id === null)).toBe(true);
    expect(early.cards.map((c) => c.lines.find((l) => l.startsWith('Cliente:'))).sort()).toEqual(
      names.map((n) => `Cliente: ${n}`),
    );
    expect(early.cards[0].title).toMatch(/^Cozinha - Entrega iFood #/);
    expect(early.cards[0].lines).toContain('2 x Smash da casa');

    // Then the sales: each order confirmed once, its ticket the sale's own (the same card, nothing new).
    const after = await orders();
    const confirmed = after.filter((o) => o.status === 'confirmed');
    expect(confirmed).toHaveLength(3);
    expect(after.find((o) => o.externalId === gone)?.status).toBe('canceled');
    const board = await cards();
    expect(board.map((c) => c.id)).toEqual(early.cards.map((c) => c.id));
    const jobs = await t.database.db
      .select({ key: printJobs.idempotencyKey })
      .from(printJobs)
      .where(and(eq(printJobs.clientId, shop.client.id), eq(printJobs.kind, 'ticket')));
    expect(jobs.map((j) => j.key).sort()).toEqual(
      confirmed.map((o) => `sale-production-${o.saleId}-${station}`).sort(),
    );
    // "Preparar" on the delivery panel prints nothing more either.
    const panel = expectStatus(await admin.get('/delivery/panel'), 200);
    const first = panel.orders.find((o: { saleId: number }) => o.saleId === confirmed[0].saleId);
    expectStatus(await admin.post(`/delivery/orders/${first.id}/status`, { status: 'waiting' }), 200);
    expect((await cards()).map((c) => c.id)).toEqual(early.cards.map((c) => c.id));

    // iFood cancels one (the event twice): one cancel card on the KDS, for that order's ticket.
    const canceled = confirmed[1];
    ifood.cancel(canceled.externalId);
    ifood.repeatEvery = 1;
    try {
      await pollUntilQuiet(account.id);
    } finally {
      ifood.repeatEvery = 0;
    }
    ifood.cancel(canceled.externalId);
    await pollUntilQuiet(account.id);
    const withCancel = await cards();
    const cancelCards = withCancel.filter((c) => c.cancel);
    expect(cancelCards).toHaveLength(1);
    const name = (canceled.detail as { customer: { name: string } }).customer.name;
    expect(cancelCards[0].lines).toEqual(
      expect.arrayContaining(['*** CANCELAMENTO ***', `Cliente: ${name}`, '2 x Smash da casa']),
    );
    expect(cancelCards[0].title).toMatch(/^CANCELAMENTO Cozinha - Entrega iFood #/);
    expect(withCancel).toHaveLength(4);

    // Another shop's KDS never sees them.
    const other = await ifoodShop();
    const otherSaved = expectStatus(
      await other.admin.put('/printing/settings', {
        profiles: [
          {
            key: 'cozinha',
            name: 'cozinha',
            paperWidth: 80,
            columns: 48,
            codePage: 'PC860',
            copies: 1,
            cut: true,
          },
        ],
        sectors: [{ key: 'cozinha', name: 'Cozinha', profileKey: 'cozinha', categoryIds: [] }],
        receipt: { autoPrint: false, profileKey: null },
      }),
      200,
    );
    expect((await other.admin.get(`/kds/station/${station}`)).statusCode).toBe(404);
    expect(
      expectStatus(await other.admin.get(`/kds/station/${otherSaved.sectors[0].id}`), 200).tickets,
    ).toEqual([]);
  });

  it('a pickup order becomes a counter sale (no delivery order), paid on the marketplace', async () => {
    const { admin, burger, account } = await ifoodShop();
    await mapItem(admin, account.id, 'PICK', burger.id);
    const id = ifood.placeOrder({
      type: 'TAKEOUT',
      items: [{ externalCode: 'PICK', name: 'Pick', quantity: 2, unitPrice: 12.5 }],
    });
    await pollUntilQuiet(account.id);
    const row = await orderRow(id);
    const confirmed = expectStatus(await admin.post(`/marketplace/orders/${row.id}/confirm`), 200);
    expect(confirmed).toMatchObject({ type: 'pickup', address: null, totalCents: 2500 });
    const sale = expectStatus(await admin.get(`/sale/${confirmed.saleId}`), 200);
    expect(sale).toMatchObject({ originSale: 'ifood', typeOfSale: 'store', finalAmountCents: 2500 });
    expect(sale.payments.map((p: { method: string }) => p.method)).toEqual(['marketplace']);
    const panel = expectStatus(await admin.get('/delivery/panel'), 200);
    expect(panel.orders.some((o: { saleId: number }) => o.saleId === confirmed.saleId)).toBe(false);
  });
});
