import type { Sale } from '@balcao/core/sale';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/helper.ts';
import {
  collectMessages,
  joinChannel,
  makeCoupon,
  makeCustomer,
  makeProduct,
  makeSale,
  makeShop,
  SE_ADDRESS,
  type SocketClients,
  useTestApp,
} from '../../../test/kit.ts';
import { cashRegisterMovements } from '../cash-register/schema.ts';
import { couponUses } from '../coupon/schema.ts';
import { deliveryOrders } from '../delivery/schema.ts';
import { sales } from './schema.ts';

/** Issue 21: POST /v1/sale/offline, a sale made at the PDV without a connection and sent later. */

const API_KEY = 'chave-offline';
let t: TestApp;
let sockets: SocketClients;
useTestApp({ config: { apiKey: API_KEY }, sockets: true }, (app) => ({ t, sockets } = app));

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();

function offlineBody(
  items: { productId: number; quantity: number; unitPriceCents: number }[],
  overrides: Record<string, unknown> = {},
) {
  const total = items.reduce((sum, i) => sum + Math.round(i.quantity * i.unitPriceCents), 0);
  return {
    clientSaleId: crypto.randomUUID(),
    madeAt: minutesAgo(30),
    sale: {
      items: items.map(({ productId, quantity }) => ({ productId, quantity })),
      payments: [{ method: 'money', amountCents: total }],
    },
    prices: items.map((i) => ({ unitPriceCents: i.unitPriceCents, additionals: [] })),
    ...overrides,
  };
}

describe('offline sync', () => {
  it('records the sale at its original time, marked offline, and replays a retry (cut, doubled) once', async () => {
    const { auth, api, client } = await makeShop(t);
    const p = await makeProduct(t, auth, { name: 'Água', salePriceCents: 300, stock: 10 });
    const body = offlineBody([{ productId: p.id, quantity: 2, unitPriceCents: 300 }]);

    // Two tabs sending the same sale at once, then a retry after a lost answer: one sale.
    const [a, b] = await Promise.all([api.post('/sale/offline', body), api.post('/sale/offline', body)]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 201]);
    const again = await api.post('/sale/offline', body);
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    const sale = again.json<Sale>();
    expect(a.json<Sale>().id).toBe(sale.id);
    expect(b.json<Sale>().id).toBe(sale.id);
    expect(sale).toMatchObject({
      madeOffline: true,
      offlineFlags: [],
      createdAt: new Date(body.madeAt).toISOString(),
      finishedAt: new Date(body.madeAt).toISOString(),
      finalAmountCents: 600,
    });
    expect(sale.syncedAt).not.toBeNull();
    expect(new Date(sale.syncedAt as string).getTime()).toBeGreaterThan(new Date(body.madeAt).getTime());
    const rows = await t.database.db.select().from(sales).where(eq(sales.clientId, client.id));
    expect(rows).toHaveLength(1);
    expect((await api.get(`/product/${p.id}`)).json().stock).toBe(8);

    // The list shows it as made offline, at its time.
    const list = (await api.get(`/sale/client/${client.id}`)).json();
    expect(list.items[0]).toMatchObject({ id: sale.id, madeOffline: true, createdAt: sale.createdAt });

    // The same id with another body is another sale: refused, not a second one.
    const reused = await api.post('/sale/offline', {
      ...body,
      sale: { ...body.sale, notes: 'outra' },
    });
    expect(reused.statusCode).toBe(422);
  });

  it('keeps the sales in the order they were made, numbered as they arrive', async () => {
    const { auth, api } = await makeShop(t);
    const p = await makeProduct(t, auth, { salePriceCents: 100, stock: 10 });
    const first = offlineBody([{ productId: p.id, quantity: 1, unitPriceCents: 100 }], {
      madeAt: minutesAgo(20),
    });
    const second = offlineBody([{ productId: p.id, quantity: 1, unitPriceCents: 100 }], {
      madeAt: minutesAgo(10),
    });
    const s1 = (await api.post('/sale/offline', first)).json<Sale>();
    const s2 = (await api.post('/sale/offline', second)).json<Sale>();
    expect([s1.number, s2.number]).toEqual([1, 2]);
    expect(s1.createdAt < s2.createdAt).toBe(true);
  });

  it('accepts conflicts as made, flags the sale and rings the bell', async () => {
    const { auth, api, client, token } = await makeShop(t);
    const socket = await sockets.connected({ key: API_KEY, token });
    expect(await joinChannel(socket, `notifications_${client.id}`)).toEqual({ ok: true });
    // Only 1 left in stock (negative stock not allowed), price raised since the till's copy, a
    // single-use coupon used meanwhile by another till.
    const p = await makeProduct(t, auth, { name: 'Café', salePriceCents: 1200, stock: 1 });
    const coupon = await makeCoupon(t, auth, {
      isSingleUse: true,
      discountType: 'FIXED_AMOUNT',
      discountValue: 2,
    });
    await makeSale(t, auth, {
      items: [{ productId: p.id, quantity: 1 }],
      couponCode: coupon.code,
      payments: [{ method: 'money', amountCents: 1000 }],
    });
    const body = offlineBody([{ productId: p.id, quantity: 2, unitPriceCents: 1000 }], {
      couponDiscountCents: 200,
    });
    body.sale = {
      ...body.sale,
      couponCode: coupon.code,
      payments: [{ method: 'money', amountCents: 1800 }],
    } as never;

    const bell = collectMessages(socket, 1500);
    const res = await api.post('/sale/offline', body);
    expect(res.statusCode, res.body).toBe(201);
    const sale = res.json<Sale>();
    expect(sale).toMatchObject({
      madeOffline: true,
      finalAmountCents: 1800,
      couponDiscountCents: 200,
      items: [{ description: 'Café', unitPriceCents: 1000, quantity: 2 }],
    });
    expect([...sale.offlineFlags].sort()).toEqual(['coupon_refused', 'negative_stock', 'price_changed']);
    expect((await api.get(`/product/${p.id}`)).json().stock).toBe(-2);
    // The detail answers the flags too.
    expect((await api.get(`/sale/${sale.id}`)).json().offlineFlags.sort()).toEqual([
      'coupon_refused',
      'negative_stock',
      'price_changed',
    ]);
    const messages = await bell;
    expect(messages).toContainEqual({
      message: `Venda nº ${sale.number} feita sem conexão com divergência: ${sale.offlineFlags
        .map(
          (f) =>
            ({
              negative_stock: 'estoque ficou negativo',
              coupon_refused: 'cupom não era mais válido',
              price_changed: 'preço diferente do catálogo',
            })[f as string],
        )
        .join(', ')}`,
      alertColor: 'warning',
    });
    // The coupon's use by the offline sale is not recorded as a second valid use.
    const uses = await t.database.db
      .select()
      .from(couponUses)
      .where(and(eq(couponUses.couponId, coupon.id), eq(couponUses.saleId, sale.id)));
    expect(uses).toHaveLength(0);
  });

  it('refuses a time in the future or older than 7 days, and another shop reads none of it', async () => {
    const { auth, api } = await makeShop(t);
    const other = await makeShop(t);
    const p = await makeProduct(t, auth, { salePriceCents: 100 });
    const future = await api.post(
      '/sale/offline',
      offlineBody([{ productId: p.id, quantity: 1, unitPriceCents: 100 }], {
        madeAt: new Date(Date.now() + 3_600_000).toISOString(),
      }),
    );
    expect(future.statusCode).toBe(422);
    expect(future.json().message).toBe('A hora da venda está no futuro: confira o relógio do aparelho');
    const old = await api.post(
      '/sale/offline',
      offlineBody([{ productId: p.id, quantity: 1, unitPriceCents: 100 }], {
        madeAt: minutesAgo(8 * 24 * 60),
      }),
    );
    expect(old.statusCode).toBe(422);

    // Another shop cannot sell this shop's product, nor replay its sale's key into its own.
    const body = offlineBody([{ productId: p.id, quantity: 1, unitPriceCents: 100 }]);
    const mine = await api.post('/sale/offline', body);
    expect(mine.statusCode).toBe(201);
    const theirs = await other.api.post('/sale/offline', body);
    expect(theirs.statusCode).toBe(422);
    expect((await other.api.get(`/sale/${mine.json<Sale>().id}`)).statusCode).toBe(404);
    // Prices must come one per item.
    const bad = await api.post('/sale/offline', { ...body, clientSaleId: crypto.randomUUID(), prices: [] });
    expect(bad.statusCode).toBe(400);
  });
});

describe('local catalog: product changes', () => {
  it('answers every product first, then only those changed since, with the ids deleted, paged by id', async () => {
    const { auth, api } = await makeShop(t);
    const other = await makeShop(t);
    const a = await makeProduct(t, auth, { name: 'Arroz', salePriceCents: 2500 });
    const b = await makeProduct(t, auth, { name: 'Feijão', salePriceCents: 900 });
    const c = await makeProduct(t, auth, { name: 'Farinha', salePriceCents: 700 });
    await makeProduct(t, other.auth, { name: 'De outra loja' });

    const first = (await api.get('/product/changes?limit=2')).json();
    expect(first.items.map((p: { name: string }) => p.name)).toEqual(['Arroz', 'Feijão']);
    expect(first.nextAfterId).toBe(b.id);
    const second = (await api.get(`/product/changes?limit=2&afterId=${first.nextAfterId}`)).json();
    expect(second.items.map((p: { id: number }) => p.id)).toEqual([c.id]);
    expect(second.nextAfterId).toBeNull();

    // Later: one price changed, one deleted. Rows older than the margin do not come again.
    await t.database.db.execute(
      `update products set updated_at = now() - interval '1 hour', stock_changed_at = now() - interval '1 hour' where id in (${a.id}, ${b.id}, ${c.id})` as never,
    );
    const since = new Date().toISOString();
    const edited = await api.put(`/product/${a.id}`, {
      ...(await api.get(`/product/${a.id}`)).json(),
      salePriceCents: 2700,
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect((await api.delete(`/product/${c.id}`)).statusCode).toBe(200);
    const changes = (await api.get(`/product/changes?since=${encodeURIComponent(since)}`)).json();
    expect(
      changes.items.map((p: { id: number; salePriceCents: number }) => [p.id, p.salePriceCents]),
    ).toEqual([[a.id, 2700]]);
    expect(changes.deletedIds).toEqual([c.id]);
    expect(new Date(changes.until).getTime()).toBeGreaterThanOrEqual(new Date(since).getTime());
    // Another shop's sync sees none of it.
    const theirs = (await other.api.get(`/product/changes?since=${encodeURIComponent(since)}`)).json();
    expect(theirs.items.map((p: { name: string }) => p.name)).toEqual(['De outra loja']);
    expect(theirs.deletedIds).toEqual([]);
  });
});

describe('a checkout whose answer was lost, then kept offline', () => {
  it('answers the sale the online request made, not a second one', async () => {
    const { auth, api, client } = await makeShop(t);
    const p = await makeProduct(t, auth, { salePriceCents: 500, stock: 10 });
    const body = offlineBody([{ productId: p.id, quantity: 1, unitPriceCents: 500 }]);
    const online = await api.post('/sale', body.sale, { 'idempotency-key': body.clientSaleId });
    expect(online.statusCode).toBe(201);
    const synced = await api.post('/sale/offline', body);
    expect(synced.statusCode).toBe(200);
    expect(synced.json<Sale>().id).toBe(online.json<Sale>().id);
    expect(await t.database.db.select().from(sales).where(eq(sales.clientId, client.id))).toHaveLength(1);
  });
});

describe('local copy: customer changes', () => {
  it("answers the customers changed since, with the ids deleted, only the shop's own", async () => {
    const { auth, api } = await makeShop(t);
    const other = await makeShop(t);
    const ana = await makeCustomer(t, auth, { name: 'Ana Souza', phone: '11987654321' });
    const bia = await makeCustomer(t, auth, { name: 'Bia Lima' });
    await makeCustomer(t, other.auth, { name: 'Cliente de outra loja' });
    const all = (await api.get('/customer/changes')).json();
    const figures = { addresses: [], creditLimitCents: 50000, pendingCents: 0, isDelinquent: false };
    expect(all.items).toEqual([
      { id: ana.id, name: 'Ana Souza', document: null, phone: '5511987654321', active: true, ...figures },
      { id: bia.id, name: 'Bia Lima', document: null, phone: null, active: true, ...figures },
    ]);
    await t.database.db.execute(
      `update customers set updated_at = now() - interval '1 hour' where id in (${ana.id}, ${bia.id})` as never,
    );
    const since = new Date().toISOString();
    expect((await api.delete(`/customer/${bia.id}`)).statusCode).toBe(200);
    const changes = (await api.get(`/customer/changes?since=${encodeURIComponent(since)}`)).json();
    expect(changes.items).toEqual([]);
    expect(changes.deletedIds).toEqual([bia.id]);
  });
});

describe('register movements made offline', () => {
  it('records a suprimento once at its original time, however often it is sent', async () => {
    const { api, client } = await makeShop(t);
    const body = {
      type: 'deposit',
      amountCents: 2500,
      reason: 'Troco extra',
      clientMovementId: crypto.randomUUID(),
      madeAt: minutesAgo(15),
    };
    const [a, b] = await Promise.all([
      api.post('/cash-register/movement', body),
      api.post('/cash-register/movement', body),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    expect((await api.post('/cash-register/movement', body)).statusCode).toBe(201);
    const rows = await t.database.db
      .select()
      .from(cashRegisterMovements)
      .where(
        and(
          eq(cashRegisterMovements.clientId, client.id),
          eq(cashRegisterMovements.clientMovementId, body.clientMovementId),
        ),
      );
    expect(rows).toHaveLength(1);
    expect(rows[0].createdAt.toISOString()).toBe(new Date(body.madeAt).toISOString());
    const future = await api.post('/cash-register/movement', {
      ...body,
      clientMovementId: crypto.randomUUID(),
      madeAt: new Date(Date.now() + 3_600_000).toISOString(),
    });
    expect(future.statusCode).toBe(422);
  });
});

describe('local copy: coupon changes', () => {
  it('answers the coupons changed since, a deleted one with its status', async () => {
    const { auth, api } = await makeShop(t);
    const coupon = await makeCoupon(t, auth, { discountValue: 5 });
    const all = (await api.get('/coupon/changes')).json();
    expect(all.items.map((c: { code: string }) => c.code)).toEqual([coupon.code]);
    await t.database.db.execute(
      `update coupons set updated_at = now() - interval '1 hour' where id = ${coupon.id}` as never,
    );
    const since = new Date().toISOString();
    expect((await api.get(`/coupon/changes?since=${encodeURIComponent(since)}`)).json().items).toEqual([]);
    expect((await api.delete(`/coupon/${coupon.id}`)).statusCode).toBe(200);
    const changes = (await api.get(`/coupon/changes?since=${encodeURIComponent(since)}`)).json();
    expect(changes.items.map((c: { id: number; status: string }) => [c.id, c.status])).toEqual([
      [coupon.id, 'deleted'],
    ]);
  });
});

/** Puts the shop's rows back an hour (older than the feeds' margin) and answers a `since` of now. */
async function sinceNow(table: 'products' | 'customers', ids: number[], extra = '') {
  if (table === 'products')
    await t.database.db.execute(
      `update product_variants set updated_at = now() - interval '1 hour' where product_id in (${ids.join(', ')})` as never,
    );
  await t.database.db.execute(
    `update ${table} set updated_at = now() - interval '1 hour'${extra} where id in (${ids.join(', ')})` as never,
  );
  return encodeURIComponent(new Date().toISOString());
}

describe('local catalog: stock levels', () => {
  it('sends a product again when a sale, an entry or an offline sale moves its stock, version kept', async () => {
    const { auth, api, client } = await makeShop(t);
    const other = await makeShop(t);
    const rice = await makeProduct(t, auth, { name: 'Arroz', salePriceCents: 2500, stock: 10 });
    const beans = await makeProduct(t, auth, { name: 'Feijão', salePriceCents: 900, stock: 5 });
    const shirt = await makeProduct(t, auth, {
      name: 'Camiseta',
      salePriceCents: 4000,
      productType: 'variants',
      grid: { colors: ['Preto'], sizes: ['P', 'M'] },
    });
    await makeProduct(t, other.auth, { name: 'De outra loja', stock: 3 });
    const stale = ", stock_changed_at = now() - interval '1 hour'";
    let since = await sinceNow('products', [rice.id, beans.id, shirt.id], stale);
    const changed = async () =>
      (await api.get(`/product/changes?since=${since}`)).json().items as {
        id: number;
        stock: number;
        updatedAt: string;
        variants: { id: number; stock: number }[];
      }[];
    expect(await changed()).toEqual([]);

    // A sale at another till: the product comes with its new level; its edit version is kept.
    const before = (await api.get(`/product/${rice.id}`)).json();
    await makeSale(t, auth, {
      items: [{ productId: rice.id, quantity: 3 }],
      payments: [{ method: 'money', amountCents: 7500 }],
    });
    const afterSale = await changed();
    expect(afterSale.map((p) => [p.id, p.stock])).toEqual([[rice.id, 7]]);
    expect(afterSale[0].updatedAt).toBe(before.updatedAt);

    // An entry, and a variant sold offline: both come with their levels (the variant's included).
    since = await sinceNow('products', [rice.id, beans.id, shirt.id], stale);
    expect(
      (
        await api.post('/stock-movement/entry', {
          items: [{ productId: beans.id, quantity: 4, unitCostCents: 500 }],
        })
      ).statusCode,
    ).toBe(201);
    const [small] = shirt.variants as { id: number }[];
    const body = offlineBody([{ productId: shirt.id, quantity: 2, unitPriceCents: 4000 }]);
    body.sale.items = [{ productId: shirt.id, variantId: small.id, quantity: 2 } as never];
    expect((await api.post('/sale/offline', body)).statusCode).toBe(201);
    const afterEntry = await changed();
    expect(afterEntry.map((p) => [p.id, p.stock])).toEqual([
      [beans.id, 9],
      [shirt.id, -2],
    ]);
    expect(afterEntry[1].variants.find((v) => v.id === small.id)?.stock).toBe(-2);
    // Another shop's feed carries none of it.
    const theirs = (await other.api.get(`/product/changes?since=${since}`)).json();
    expect(theirs.items.map((p: { name: string }) => p.name)).toEqual(['De outra loja']);
    expect(client.id).not.toBe(other.client.id);
  });
});

describe('an offline delivery sale', () => {
  it('makes its delivery order on sync, once however often it is sent, promised from the time it was made', async () => {
    const { auth, api, client } = await makeShop(t);
    const pizza = await makeProduct(t, auth, { name: 'Pizza', salePriceCents: 4200, stock: 50 });
    const ana = await makeCustomer(t, auth, {
      name: 'Ana Entrega',
      phone: '11987651234',
      addresses: [SE_ADDRESS],
    });
    const body = offlineBody([{ productId: pizza.id, quantity: 1, unitPriceCents: 4200 }], {
      madeAt: minutesAgo(20),
    });
    Object.assign(body.sale, {
      typeOfSale: 'delivery',
      customerId: ana.id,
      deliveryAddressId: ana.addresses[0].id,
      freightCents: 800,
      payments: [{ method: 'paymentOnDelivery', amountCents: 5000 }],
      delivery: { onDeliveryMethod: 'money', changeForCents: 10000, promiseMinutes: 45 },
    });
    const [a, b] = await Promise.all([api.post('/sale/offline', body), api.post('/sale/offline', body)]);
    expect([a.statusCode, b.statusCode].sort(), a.body).toEqual([200, 201]);
    expect((await api.post('/sale/offline', body)).statusCode).toBe(200);
    const sale = a.json<Sale>();
    expect(sale).toMatchObject({ typeOfSale: 'delivery', madeOffline: true, finalAmountCents: 5000 });

    const panel = (await api.get('/delivery/panel')).json();
    const orders = panel.orders.filter((o: { saleId: number }) => o.saleId === sale.id);
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({
      customerName: 'Ana Entrega',
      neighborhood: 'Centro',
      collectCents: 5000,
      changeForCents: 10000,
      changeCents: 5000,
    });
    expect(new Date(orders[0].promisedAt).toISOString()).toBe(
      new Date(new Date(body.madeAt as string).getTime() + 45 * 60_000).toISOString(),
    );
    const rows = await t.database.db
      .select()
      .from(deliveryOrders)
      .where(eq(deliveryOrders.clientId, client.id));
    expect(rows).toHaveLength(1);
    // Another shop's panel does not show it.
    const other = await makeShop(t);
    const theirs = (await other.api.get('/delivery/panel')).json();
    expect(theirs.orders.some((o: { saleId: number }) => o.saleId === sale.id)).toBe(false);
  });
});

describe('local copy: customer addresses and credit', () => {
  it('carries the addresses and crediário figures, and sends a customer again when a receivable moves', async () => {
    const { auth, api } = await makeShop(t);
    const p = await makeProduct(t, auth, { salePriceCents: 3000, stock: 10 });
    const ana = await makeCustomer(t, auth, {
      name: 'Ana Crediário',
      creditLimitCents: 20000,
      addresses: [SE_ADDRESS],
    });
    const first = (await api.get('/customer/changes')).json().items[0];
    expect(first).toMatchObject({
      id: ana.id,
      creditLimitCents: 20000,
      pendingCents: 0,
      isDelinquent: false,
      addresses: [
        {
          id: ana.addresses[0].id,
          street: 'Praça da Sé',
          number: '100',
          neighborhood: 'Centro',
          isDefault: true,
        },
      ],
    });
    const since = await sinceNow('customers', [ana.id]);
    expect((await api.get(`/customer/changes?since=${since}`)).json().items).toEqual([]);
    await makeSale(t, auth, {
      items: [{ productId: p.id, quantity: 1 }],
      customerId: ana.id,
      payments: [{ method: 'creditShop', amountCents: 3000, numberInstallments: 1 }],
    });
    const after = (await api.get(`/customer/changes?since=${since}`)).json().items;
    expect(after.map((c: { id: number; pendingCents: number }) => [c.id, c.pendingCents])).toEqual([
      [ana.id, 3000],
    ]);
  });
});
