import { DEFAULT_TIME_ZONE, dateIn } from '@balcao/core/time';
import { eq } from 'drizzle-orm';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { FakeEvolution } from '../../../test/fakes/evolution.ts';
import { bearer, TEST_PASSWORD, type TestApp } from '../../../test/helper.ts';
import {
  type Api,
  expectStatus,
  joinChannel,
  listenForSockets,
  makeCustomer,
  makeProduct,
  makeShop,
  nextChange,
  nextMessage,
  SE_ADDRESS,
  useTestApp,
} from '../../../test/kit.ts';
import { clients } from '../../db/schema.ts';
import { sales } from '../sale/schema.ts';
import { deliveryOrders } from './schema.ts';

let t: TestApp;
let evolution: FakeEvolution;
useTestApp({ evolution: true }, (app) => ({ t, evolution } = app));

/** A shop: Administrador (open register), two Entregadores, an Entregador parceiro, a Marketing user. */
async function deliveryShop() {
  const shop = await makeShop(t, [1, 10, 10, 11, 9]);
  const [admin, driverA, driverB, partner, marketing] = shop.apis;
  // The driver's fee: R$ 7,00 fixed per delivery.
  expectStatus(
    await admin.post('/shipping-settings', {
      name: 'Entrega fixa',
      feeMode: 'fixed',
      fixedPriceCents: 800,
      driverFeeMode: 'fixed',
      driverFixedCents: 700,
      isDefault: true,
    }),
    201,
    'rule set',
  );
  const product = await makeProduct(t, shop.auth, { name: 'Pizza grande', salePriceCents: 4200, stock: 100 });
  const customer = await makeCustomer(t, shop.auth, {
    name: 'Ana Entrega',
    phone: '11987651234',
    addresses: [SE_ADDRESS],
  });
  const ids = shop.users.map((u) => u.user.id);
  return {
    shop,
    admin,
    driverA,
    driverB,
    partner,
    marketing,
    product,
    customer,
    driverAId: ids[1],
    driverBId: ids[2],
    partnerId: ids[3],
  };
}

type Shop = Awaited<ReturnType<typeof deliveryShop>>;

/** A PDV delivery sale of one pizza + R$ 8,00 freight (R$ 50,00): paid on delivery in cash, change for R$ 100,00. */
async function sellDelivery(s: Shop, overrides: Record<string, unknown> = {}) {
  const sale = expectStatus(
    await s.admin.post('/sale', {
      items: [{ productId: s.product.id, quantity: 1 }],
      typeOfSale: 'delivery',
      customerId: s.customer.id,
      deliveryAddressId: s.customer.addresses[0].id,
      freightCents: 800,
      payments: [{ method: 'paymentOnDelivery', amountCents: 5000 }],
      delivery: { onDeliveryMethod: 'money', changeForCents: 10000 },
      ...overrides,
    }),
    201,
    'delivery sale',
  );
  const panel = expectStatus(await s.admin.get('/delivery/panel'), 200);
  const order = panel.orders.find((o: { saleId: number }) => o.saleId === sale.id);
  return { sale, order };
}

const post = (api: Api, id: number, action: string, body: Record<string, unknown> = {}) =>
  api.post(`/delivery/orders/${id}/${action}`, body);

describe('delivery orders from the PDV', () => {
  it('a delivery sale becomes one order in the same transaction, on the panel with the bell', async () => {
    const s = await deliveryShop();
    const sockets = await listenForSockets(t);
    onTestFinished(() => sockets.disconnectAll());
    const socket = await sockets.connected({ key: 'balcao-public-key', token: s.shop.token });
    expect((await joinChannel(socket, `notifications_${s.shop.client.id}`)).ok).toBe(true);
    const change = nextChange(socket, 'delivery', 3000);
    const bell = nextMessage(socket, 3000);
    const { sale, order } = await sellDelivery(s);
    expect(await change).toMatchObject({ resource: 'delivery' });
    expect(JSON.parse(((await bell) as { message: string }).message)).toEqual({
      message: `Novo pedido de entrega nº ${sale.number} - Ana Entrega`,
      alertColor: 'info',
    });
    expect(sale.originSale).toBe('pdv');
    expect(order).toMatchObject({
      saleNumber: sale.number,
      status: 'pending',
      customerName: 'Ana Entrega',
      neighborhood: 'Centro',
      totalCents: 5000,
      freightCents: 800,
      collectCents: 5000,
      onDeliveryMethod: 'money',
      changeForCents: 10000,
      changeCents: 5000,
      driverFeeCents: 700,
      driver: null,
      itemsText: '1x Pizza grande',
    });
    // The code is the customer's phone's last 4 digits; it is never answered.
    const [row] = await t.database.db.select().from(deliveryOrders).where(eq(deliveryOrders.saleId, sale.id));
    expect(row.code).toBe('1234');
    expect(order).not.toHaveProperty('code');
  });

  it('records the sale once through the seam: a retried key replays without a second order', async () => {
    const s = await deliveryShop();
    const body = {
      items: [{ productId: s.product.id, quantity: 1 }],
      typeOfSale: 'delivery',
      customerId: s.customer.id,
      deliveryAddressId: s.customer.addresses[0].id,
      payments: [{ method: 'pix', amountCents: 4200 }],
    };
    const key = { 'idempotency-key': `deliv-${Date.now()}` };
    const first = expectStatus(await s.admin.post('/sale', body, key), 201);
    const again = await s.admin.post('/sale', body, key);
    expect(again.statusCode).toBe(200);
    expect(again.json().id).toBe(first.id);
    const rows = await t.database.db
      .select()
      .from(deliveryOrders)
      .where(eq(deliveryOrders.clientId, s.shop.client.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      saleId: first.id,
      collectCents: 0,
      onDeliveryMethod: null,
      changeCents: 0,
    });
  });

  it('canceling the sale cancels its open order; a delivered order keeps its history', async () => {
    const s = await deliveryShop();
    const { sale, order } = await sellDelivery(s);
    expectStatus(await s.admin.post(`/sale/${sale.id}/cancel`, { reason: 'Cliente desistiu' }), 200);
    const [row] = await t.database.db.select().from(deliveryOrders).where(eq(deliveryOrders.id, order.id));
    expect(row).toMatchObject({ status: 'canceled', cancelReason: 'Venda cancelada: Cliente desistiu' });
    // The driver can no longer move it.
    expect((await post(s.admin, order.id, 'assign', { driverId: s.driverAId })).statusCode).toBe(409);
  });

  it('refuses change for a note below the amount, and the sale is not recorded either', async () => {
    const s = await deliveryShop();
    const res = await s.admin.post('/sale', {
      items: [{ productId: s.product.id, quantity: 1 }],
      typeOfSale: 'delivery',
      customerId: s.customer.id,
      deliveryAddressId: s.customer.addresses[0].id,
      payments: [{ method: 'paymentOnDelivery', amountCents: 4200 }],
      delivery: { onDeliveryMethod: 'money', changeForCents: 2000 },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe('O troco deve ser para um valor maior que o valor a receber');
    const own = await t.database.db.select().from(sales).where(eq(sales.clientId, s.shop.client.id));
    expect(own).toHaveLength(0);
  });

  it('a phone order records its sale at once with origin delivery', async () => {
    const s = await deliveryShop();
    const sale = expectStatus(
      await s.admin.post('/delivery/orders', {
        items: [{ productId: s.product.id, quantity: 2 }],
        customerId: s.customer.id,
        deliveryAddressId: s.customer.addresses[0].id,
        freightCents: 800,
        payments: [{ method: 'paymentOnDelivery', amountCents: 9200 }],
        delivery: { onDeliveryMethod: 'debitCard' },
      }),
      201,
    );
    expect(sale).toMatchObject({ originSale: 'delivery', typeOfSale: 'delivery', finalAmountCents: 9200 });
    const panel = expectStatus(await s.admin.get('/delivery/panel'), 200);
    expect(panel.orders).toHaveLength(1);
    expect(panel.orders[0]).toMatchObject({ saleId: sale.id, onDeliveryMethod: 'debitCard', changeCents: 0 });
  });

  it('a delivery budget converted into a sale makes its delivery order once (issue 30 item 7)', async () => {
    const s = await deliveryShop();
    const budget = expectStatus(
      await s.admin.post('/budget', {
        items: [{ productId: s.product.id, quantity: 1 }],
        typeOfSale: 'delivery',
        customerId: s.customer.id,
        deliveryAddressId: s.customer.addresses[0].id,
        freightCents: 800,
      }),
      201,
    );
    const body = {
      payments: [{ method: 'paymentOnDelivery', amountCents: 5000 }],
      delivery: { onDeliveryMethod: 'money', changeForCents: 10000 },
    };
    const key = { 'idempotency-key': `orc-${Date.now()}` };
    const sale = expectStatus(await s.admin.post(`/budget/${budget.id}/convert`, body, key), 201);
    expect(sale).toMatchObject({ originSale: 'budget', typeOfSale: 'delivery', finalAmountCents: 5000 });
    expect((await s.admin.post(`/budget/${budget.id}/convert`, body, key)).statusCode).toBe(200);
    const panel = expectStatus(await s.admin.get('/delivery/panel'), 200);
    expect(panel.orders).toHaveLength(1);
    expect(panel.orders[0]).toMatchObject({
      saleId: sale.id,
      status: 'pending',
      neighborhood: 'Centro',
      collectCents: 5000,
      changeCents: 5000,
      driverFeeCents: 700,
    });
  });
});

/**
 * A lanchonete (comandas on): Lanches print in the Cozinha, Bebidas in the Bar (given a printer only
 * when `barPrinter`); an X-Burger with the Bacon add-on and a soda.
 */
async function lanchonete(barPrinter = true) {
  const shop = await makeShop(t, [1, 10], { clientTypeId: 7 });
  const [admin, driver] = shop.apis;
  const lanches = expectStatus(await admin.post('/product-category', { name: 'Lanches' }), 201);
  const bebidas = expectStatus(await admin.post('/product-category', { name: 'Bebidas' }), 201);
  const profile = (key: string, name: string) => ({
    key,
    name,
    paperWidth: 80,
    columns: 48,
    codePage: 'PC860',
    copies: 1,
    cut: true,
  });
  const printing = (bar: boolean, updatedAt?: string) => ({
    profiles: [profile('cozinha', 'Cozinha'), profile('bar', 'Bar'), profile('caixa', 'Caixa')],
    sectors: [
      { key: 'cozinha', name: 'Cozinha', profileKey: 'cozinha', categoryIds: [lanches.id] },
      { key: 'bar', name: 'Bar', profileKey: bar ? 'bar' : null, categoryIds: [bebidas.id] },
    ],
    receipt: { autoPrint: false, profileKey: 'caixa' },
    ...(updatedAt ? { updatedAt } : {}),
  });
  const saved = expectStatus(await admin.put('/printing/settings', printing(barPrinter)), 200);
  const group = expectStatus(
    await admin.post('/product-additional', {
      name: 'Adicionais',
      minQuantity: 0,
      maxQuantity: 3,
      items: [{ name: 'Bacon', priceCents: 400 }],
    }),
    201,
  );
  const burger = await makeProduct(t, shop.auth, {
    name: 'X-Burger',
    salePriceCents: 2000,
    categoryId: lanches.id,
    additionalGroupIds: [group.id],
    stock: 100,
  });
  const soda = await makeProduct(t, shop.auth, {
    name: 'Refrigerante',
    salePriceCents: 600,
    categoryId: bebidas.id,
    stock: 100,
  });
  const customer = await makeCustomer(t, shop.auth, {
    name: 'Bruno Lanche',
    phone: '11987654321',
    addresses: [SE_ADDRESS],
  });
  const items = [
    { productId: burger.id, quantity: 1, additionals: [{ id: group.items[0].id }], notes: 'sem cebola' },
    { productId: soda.id, quantity: 1 },
  ];
  const giveBarPrinter = async () =>
    expectStatus(await admin.put('/printing/settings', printing(true, saved.updatedAt)), 200);
  return { shop, admin, driver, customer, items, giveBarPrinter };
}

type Job = { id: number; kind: string; payload: { title: string; lines: string[] } };
const ticketsOf = async (api: Api): Promise<Job[]> =>
  expectStatus(await api.get('/printing/jobs'), 200).filter((j: Job) => j.kind === 'ticket');
const textOf = (job: Job | undefined) => job?.payload.lines.join('\n') ?? '';

describe('kitchen tickets of delivery and pickup orders (issue 30 item 3)', () => {
  it('a PDV delivery sale sends its lines with add-ons to each sector once; Preparar prints nothing twice', async () => {
    const l = await lanchonete();
    const body = {
      items: l.items,
      typeOfSale: 'delivery',
      customerId: l.customer.id,
      deliveryAddressId: l.customer.addresses[0].id,
      payments: [{ method: 'paymentOnDelivery', amountCents: 3000 }],
      delivery: { onDeliveryMethod: 'money' },
    };
    const key = { 'idempotency-key': `cozinha-${Date.now()}` };
    const sale = expectStatus(await l.admin.post('/sale', body, key), 201);
    expect((await l.admin.post('/sale', body, key)).statusCode).toBe(200);
    const tickets = await ticketsOf(l.admin);
    expect(tickets.map((j) => j.payload.title).sort()).toEqual([
      `Bar - Entrega nº ${sale.number}`,
      `Cozinha - Entrega nº ${sale.number}`,
    ]);
    const kitchen = textOf(tickets.find((j) => j.payload.title.startsWith('Cozinha')));
    expect(kitchen).toContain(`ENTREGA Nº ${sale.number}`);
    expect(kitchen).toContain('Cliente: Bruno Lanche');
    expect(kitchen).toContain('1 x X-Burger');
    expect(kitchen).toContain('  + Bacon');
    expect(kitchen).toContain('  OBS: sem cebola');
    expect(kitchen).not.toContain('Refrigerante');
    expect(textOf(tickets.find((j) => j.payload.title.startsWith('Bar')))).toContain('1 x Refrigerante');

    // "Preparar": the tickets are already printed, nothing more.
    const order = expectStatus(await l.admin.get('/delivery/panel'), 200).orders[0];
    expectStatus(await post(l.admin, order.id, 'status', { status: 'waiting' }), 200);
    expect(await ticketsOf(l.admin)).toHaveLength(2);

    // The bag ticket lists the add-ons and the line's note.
    const bag = expectStatus(
      await post(l.admin, order.id, 'print', { idempotencyKey: `saco-${Date.now()}` }),
      200,
    );
    const bagText = bag.payload.lines.join('\n');
    expect(bagText).toContain('1x X-Burger');
    expect(bagText).toContain('  + Bacon');
    expect(bagText).toContain('  OBS: sem cebola');
  });

  it('a phone order, an offline-synced delivery sale and a counter pickup reach the kitchen', async () => {
    const l = await lanchonete();
    const phone = expectStatus(
      await l.admin.post('/delivery/orders', {
        items: l.items,
        customerId: l.customer.id,
        deliveryAddressId: l.customer.addresses[0].id,
        payments: [{ method: 'pix', amountCents: 3000 }],
      }),
      201,
    );
    const offline = expectStatus(
      await l.admin.post('/sale/offline', {
        clientSaleId: crypto.randomUUID(),
        madeAt: new Date(Date.now() - 10 * 60_000).toISOString(),
        sale: {
          items: l.items,
          typeOfSale: 'delivery',
          customerId: l.customer.id,
          deliveryAddressId: l.customer.addresses[0].id,
          payments: [{ method: 'money', amountCents: 3000 }],
        },
        prices: [
          { unitPriceCents: 2000, additionals: [{ id: l.items[0].additionals?.[0].id, priceCents: 400 }] },
          { unitPriceCents: 600, additionals: [] },
        ],
      }),
      201,
    );
    const pickup = expectStatus(
      await l.admin.post('/sale', { items: l.items, payments: [{ method: 'pix', amountCents: 3000 }] }),
      201,
    );
    const titles = (await ticketsOf(l.admin)).map((j) => j.payload.title).sort();
    expect(titles).toEqual(
      [
        `Bar - Entrega nº ${phone.number}`,
        `Cozinha - Entrega nº ${phone.number}`,
        `Bar - Entrega nº ${offline.number}`,
        `Cozinha - Entrega nº ${offline.number}`,
        `Bar - Retirada nº ${pickup.number}`,
        `Cozinha - Retirada nº ${pickup.number}`,
      ].sort(),
    );
  });

  it('"Preparar" prints the tickets a sector did not get at the sale, once', async () => {
    const l = await lanchonete(false);
    const sale = expectStatus(
      await l.admin.post('/delivery/orders', {
        items: l.items,
        customerId: l.customer.id,
        deliveryAddressId: l.customer.addresses[0].id,
        payments: [{ method: 'pix', amountCents: 3000 }],
      }),
      201,
    );
    expect((await ticketsOf(l.admin)).map((j) => j.payload.title)).toEqual([
      `Cozinha - Entrega nº ${sale.number}`,
    ]);
    await l.giveBarPrinter();
    const order = expectStatus(await l.admin.get('/delivery/panel'), 200).orders[0];
    expectStatus(await post(l.admin, order.id, 'status', { status: 'waiting' }), 200);
    expect((await post(l.admin, order.id, 'status', { status: 'waiting' })).statusCode).toBe(409);
    expect((await ticketsOf(l.admin)).map((j) => j.payload.title).sort()).toEqual([
      `Bar - Entrega nº ${sale.number}`,
      `Cozinha - Entrega nº ${sale.number}`,
    ]);
  });
});

describe('transitions', () => {
  it('moves only in order and only by the right users; a driver moves only their orders', async () => {
    const s = await deliveryShop();
    const { order } = await sellDelivery(s);
    // Not yet in transit: no pickup skip, no delivery.
    expect((await post(s.admin, order.id, 'status', { status: 'waiting' })).statusCode).toBe(200);
    expect((await post(s.driverA, order.id, 'pickup')).statusCode).toBe(403);
    // Marketing may not dispatch; drivers may not assign.
    expect((await post(s.marketing, order.id, 'assign', { driverId: s.driverAId })).statusCode).toBe(403);
    expect((await post(s.driverA, order.id, 'assign', { driverId: s.driverAId })).statusCode).toBe(403);
    // Assign to a non-driver: refused.
    const notDriver = await post(s.admin, order.id, 'assign', { driverId: s.shop.users[0].user.id });
    expect(notDriver.statusCode).toBe(422);
    const assigned = expectStatus(await post(s.admin, order.id, 'assign', { driverId: s.driverAId }), 200);
    expect(assigned).toMatchObject({ status: 'accepted', driver: { id: s.driverAId } });
    // Another driver cannot pick it up; delivering before the pickup is out of order.
    const other = await post(s.driverB, order.id, 'pickup');
    expect(other.statusCode).toBe(403);
    expect(other.json().message).toBe('Este pedido não está com você');
    const early = await post(s.driverA, order.id, 'deliver', { code: '1234' });
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe('Este pedido está "Aguardando coleta": a ação não vale mais para ele');
    // The driver's awaiting-collection list shows it with the change to carry.
    const awaiting = expectStatus(
      await s.driverA.get('/delivery/driver/orders?list=awaiting-collection'),
      200,
    );
    expect(awaiting.orders.map((o: { id: number }) => o.id)).toEqual([order.id]);
    expect(awaiting.orders[0].changeCents).toBe(5000);
    expect(expectStatus(await post(s.driverA, order.id, 'pickup'), 200).status).toBe('sending');
    // Wrong code refused; failure needs a reason from the list.
    const wrong = await post(s.driverA, order.id, 'deliver', { code: '0000' });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().message).toBe('Código de entrega incorreto');
    expect((await post(s.driverA, order.id, 'fail', {})).statusCode).toBe(400);
    expect((await post(s.driverA, order.id, 'fail', { reason: 'porque sim' })).statusCode).toBe(400);
    const delivered = expectStatus(await post(s.driverA, order.id, 'deliver', { code: '1234' }), 200);
    expect(delivered).toMatchObject({ status: 'success', finishedAt: expect.any(String) });
    // Reabrir within the minutes, by its driver only; then fail with a reason.
    expect((await post(s.driverB, order.id, 'reopen')).statusCode).toBe(403);
    expect(expectStatus(await post(s.driverA, order.id, 'reopen'), 200).status).toBe('sending');
    const failed = expectStatus(await post(s.driverA, order.id, 'fail', { reason: 'Cliente ausente' }), 200);
    expect(failed).toMatchObject({ status: 'failed', failureReason: 'Cliente ausente' });
    // Too late to reopen: the tap is older than the window.
    await t.database.db
      .update(deliveryOrders)
      .set({ finishedAt: new Date(Date.now() - 11 * 60_000) })
      .where(eq(deliveryOrders.id, order.id));
    const late = await post(s.driverA, order.id, 'reopen');
    expect(late.statusCode).toBe(422);
    expect(late.json().message).toBe('Só dá para reabrir até 10 minutos depois');
    // Canceled while open or failed (issue 30 item 5: the failed one with its sale), with a reason.
    expect(
      expectStatus(await post(s.admin, order.id, 'cancel', { reason: 'Cliente desistiu' }), 200).status,
    ).toBe('canceled');
    expect((await post(s.admin, order.id, 'cancel', { reason: 'Cliente desistiu' })).statusCode).toBe(409);
    const { order: second } = await sellDelivery(s);
    expect((await post(s.admin, second.id, 'cancel', {})).statusCode).toBe(400);
    const canceled = expectStatus(
      await post(s.admin, second.id, 'cancel', { reason: 'Cliente desistiu' }),
      200,
    );
    expect(canceled).toMatchObject({ status: 'canceled', cancelReason: 'Cliente desistiu' });
  });

  it('two drivers taking the same order at once: exactly one gets it; partners cannot take', async () => {
    const s = await deliveryShop();
    const { order } = await sellDelivery(s);
    expect(expectStatus(await post(s.admin, order.id, 'status', { status: 'available' }), 200).status).toBe(
      'available',
    );
    // Off shift: no taking.
    const off = await post(s.driverA, order.id, 'take');
    expect(off.statusCode).toBe(422);
    expect(off.json().message).toBe('Faça o check-in do turno para aceitar pedidos');
    expectStatus(await s.driverA.post('/delivery/shift/check-in'), 200);
    expectStatus(await s.driverB.post('/delivery/shift/check-in'), 200);
    expect((await s.driverA.post('/delivery/shift/check-in')).statusCode).toBe(409);
    const panel = expectStatus(await s.admin.get('/delivery/panel'), 200);
    expect(panel.driversOnShift).toBe(2);
    // The partner neither lists nor takes available orders.
    const partnerList = await s.partner.get('/delivery/driver/orders?list=available');
    expect(partnerList.statusCode).toBe(403);
    const partnerTake = await post(s.partner, order.id, 'take');
    expect(partnerTake.statusCode).toBe(403);
    expect(partnerTake.json().message).toBe(
      'Entregador parceiro não aceita pedidos disponíveis: aguarde um pedido atribuído a você',
    );
    const available = expectStatus(await s.driverB.get('/delivery/driver/orders?list=available'), 200);
    expect(available.orders.map((o: { id: number }) => o.id)).toEqual([order.id]);
    const results = await Promise.all([post(s.driverA, order.id, 'take'), post(s.driverB, order.id, 'take')]);
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes).toEqual([200, 409]);
    const loser = results.find((r) => r.statusCode === 409);
    expect(loser?.json().message).toBe('Este pedido já foi aceito por outro entregador');
    const after = expectStatus(await s.driverB.get('/delivery/driver/orders?list=available'), 200);
    expect(after.orders).toHaveLength(0);
    expectStatus(await s.driverA.post('/delivery/shift/check-out'), 200);
    expect(expectStatus(await s.admin.get('/delivery/panel'), 200).driversOnShift).toBe(1);
  });

  it('tenancy: another shop sees nothing and moves nothing', async () => {
    const s = await deliveryShop();
    const other = await deliveryShop();
    const { order } = await sellDelivery(s);
    expect(expectStatus(await other.admin.get('/delivery/panel'), 200).orders).toHaveLength(0);
    expect((await post(other.admin, order.id, 'assign', { driverId: other.driverAId })).statusCode).toBe(404);
    expect((await post(s.admin, order.id, 'assign', { driverId: other.driverAId })).statusCode).toBe(422);
    expect((await post(other.driverA, order.id, 'pickup')).statusCode).toBe(404);
    const preview = await other.admin.get(
      `/delivery/settlement/preview?driverId=${s.driverAId}&from=${dateIn(DEFAULT_TIME_ZONE)}&to=${dateIn(DEFAULT_TIME_ZONE)}`,
    );
    expect(preview.statusCode).toBe(404);
  });
});

describe('settlement (acerto)', () => {
  it('sums change, cash collected and fees in cents; a manager confirms once', async () => {
    const s = await deliveryShop();
    // 1) cash R$ 50,00 with change for R$ 100,00 -> carries R$ 50,00 of change; delivered.
    const one = (await sellDelivery(s)).order;
    // 2) card on delivery R$ 42,00; delivered.
    const two = (
      await sellDelivery(s, {
        freightCents: 0,
        payments: [{ method: 'paymentOnDelivery', amountCents: 4200 }],
        delivery: { onDeliveryMethod: 'creditCard' },
      })
    ).order;
    // 3) cash R$ 50,00 with change for R$ 60,00 -> carries R$ 10,00; fails (change comes back).
    const three = (await sellDelivery(s, { delivery: { onDeliveryMethod: 'money', changeForCents: 6000 } }))
      .order;
    // 4) prepaid by pix; delivered.
    const four = (
      await sellDelivery(s, {
        freightCents: 0,
        payments: [{ method: 'pix', amountCents: 4200 }],
        delivery: {},
      })
    ).order;
    for (const o of [one, two, three, four]) {
      expectStatus(await post(s.admin, o.id, 'assign', { driverId: s.driverAId }), 200);
      expectStatus(await post(s.driverA, o.id, 'pickup'), 200);
    }
    for (const o of [one, two, four])
      expectStatus(await post(s.driverA, o.id, 'deliver', { code: '1234' }), 200);
    expectStatus(await post(s.driverA, three.id, 'fail', { reason: 'Cliente ausente' }), 200);

    const delivered = expectStatus(await s.driverA.get('/delivery/driver/orders?list=delivered'), 200);
    expect(delivered.totals).toEqual({ count: 3, collectedCents: 5000 + 4200, feesCents: 2100 });

    const today = dateIn(DEFAULT_TIME_ZONE);
    const q = `driverId=${s.driverAId}&from=${today}&to=${today}`;
    const preview = expectStatus(await s.admin.get(`/delivery/settlement/preview?${q}`), 200);
    expect(preview).toMatchObject({
      changeCents: 5000 + 1000,
      cashCents: 5000,
      otherCents: 4200,
      feesCents: 700 * 3,
      toHandOverCents: 5000 + 1000 + 5000,
      owedCents: 2100,
    });
    expect(preview.lines).toHaveLength(4);
    const orderIds = preview.lines.map((l: { orderId: number }) => l.orderId);
    // Only a manager confirms; a stale set of orders is refused.
    expect(
      (
        await s.driverA.post('/delivery/settlements', {
          driverId: s.driverAId,
          from: today,
          to: today,
          countedCents: 0,
          cashRegisterId: 1,
          orderIds,
        })
      ).statusCode,
    ).toBe(403);
    const stale = await s.admin.post('/delivery/settlements', {
      driverId: s.driverAId,
      from: today,
      to: today,
      countedCents: 10000,
      cashRegisterId: expectStatus(await s.admin.get('/cash-register/current'), 200).cashRegister.id,
      orderIds: orderIds.slice(1),
    });
    expect(stale.statusCode).toBe(409);
    const register = expectStatus(await s.admin.get('/cash-register/current'), 200).cashRegister;
    const body = {
      driverId: s.driverAId,
      from: today,
      to: today,
      countedCents: 10900,
      cashRegisterId: register.id,
      orderIds,
    };
    const confirmed = expectStatus(await s.admin.post('/delivery/settlements', body), 201);
    expect(confirmed).toMatchObject({
      toHandOverCents: 11000,
      countedCents: 10900,
      differenceCents: -100,
      owedCents: 2100,
      driver: { id: s.driverAId },
    });
    // Settled orders leave the next preview; a second confirmation has nothing to settle.
    const again = expectStatus(await s.admin.get(`/delivery/settlement/preview?${q}`), 200);
    expect(again.lines).toHaveLength(0);
    expect((await s.admin.post('/delivery/settlements', body)).statusCode).toBe(422);
    const history = expectStatus(await s.admin.get('/delivery/settlements'), 200);
    expect(history.map((h: { id: number }) => h.id)).toEqual([confirmed.id]);
    expect(expectStatus(await s.admin.get(`/delivery/settlements/${confirmed.id}`), 200).lines).toHaveLength(
      4,
    );
    // A settled order cannot be reopened.
    expect((await post(s.driverA, one.id, 'reopen')).statusCode).toBe(422);
  });
});

describe('one promise, one minimum, the working hours (issue 30 item 17)', () => {
  it('promises the freight rule time, refuses below its minimum, and phone orders only while open', async () => {
    const s = await deliveryShop();
    // The rule set: 50 min and a R$ 45,00 minimum (the PDV quote shows the same).
    expectStatus(
      await s.admin.post('/shipping-settings', {
        name: 'Entrega 50 min',
        feeMode: 'fixed',
        fixedPriceCents: 0,
        deliveryTimeMinutes: 50,
        minOrderCents: 4500,
        driverFeeMode: 'fixed',
        driverFixedCents: 700,
        isDefault: true,
      }),
      201,
    );
    const small = await s.admin.post('/sale', {
      items: [{ productId: s.product.id, quantity: 1 }],
      typeOfSale: 'delivery',
      customerId: s.customer.id,
      deliveryAddressId: s.customer.addresses[0].id,
      payments: [{ method: 'pix', amountCents: 4200 }],
    });
    expect(small.statusCode).toBe(422);
    expect(small.json().message).toBe('Pedido mínimo para entrega: R$ 45,00');
    const phone = (extra: Record<string, unknown> = {}) =>
      s.admin.post('/delivery/orders', {
        items: [{ productId: s.product.id, quantity: 2 }],
        customerId: s.customer.id,
        deliveryAddressId: s.customer.addresses[0].id,
        payments: [{ method: 'pix', amountCents: 8400 }],
        ...extra,
      });
    expectStatus(await phone(), 201);
    const [order] = expectStatus(await s.admin.get('/delivery/panel'), 200).orders;
    expect(Date.parse(order.promisedAt) - Date.parse(order.createdAt)).toBe(50 * 60_000);

    // Working hours on, none saved: closed now. A phone order is refused...
    await t.database.db.update(clients).set({ checkIsOpen: true }).where(eq(clients.id, s.shop.client.id));
    const closed = await phone();
    expect(closed.statusCode).toBe(422);
    expect(closed.json().message).toBe(
      'A loja está fechada agora: pedidos de entrega só no horário de funcionamento',
    );
    // ...unless the shop takes them with a warning.
    expectStatus(
      await s.admin.put('/delivery/settings', { notifyCustomer: false, acceptOutsideHours: true }),
      200,
    );
    expectStatus(await phone(), 201);
    expect(expectStatus(await s.admin.get('/delivery/panel'), 200)).toMatchObject({
      acceptOutsideHours: true,
    });
  });
});

describe('canceling an order cancels its sale (issue 30 item 5)', () => {
  it('an Atendente cancels with a manager approval; without it, the sale and the order stay', async () => {
    const shop = await makeShop(t, [8, 1]);
    const [attendant] = shop.apis;
    const adminAuth = bearer(shop.users[1].token);
    const product = await makeProduct(t, adminAuth, { name: 'Pizza média', salePriceCents: 3500, stock: 10 });
    const customer = await makeCustomer(t, adminAuth, {
      name: 'Caio Cancela',
      phone: '11987650000',
      addresses: [SE_ADDRESS],
    });
    const sale = expectStatus(
      await attendant.post('/delivery/orders', {
        items: [{ productId: product.id, quantity: 1 }],
        customerId: customer.id,
        deliveryAddressId: customer.addresses[0].id,
        payments: [{ method: 'pix', amountCents: 3500 }],
      }),
      201,
    );
    const [order] = expectStatus(await attendant.get('/delivery/panel'), 200).orders;
    const denied = await post(attendant, order.id, 'cancel', { reason: 'Cliente desistiu' });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBe(
      'Cancelar uma venda precisa da aprovação de um gerente: informe o email e a senha de um Administrador ou Gerente',
    );
    expect(expectStatus(await attendant.get(`/sale/${sale.id}`), 200).status).toBe('finished');
    const canceled = expectStatus(
      await post(attendant, order.id, 'cancel', {
        reason: 'Cliente desistiu',
        approval: { email: shop.users[1].email, password: TEST_PASSWORD },
      }),
      200,
    );
    expect(canceled).toMatchObject({ status: 'canceled', cancelReason: 'Cliente desistiu' });
    expect(expectStatus(await attendant.get(`/sale/${sale.id}`), 200)).toMatchObject({
      status: 'canceled',
      cancelReason: 'Cliente desistiu',
    });
  });
});

type Movement = { type: string; amountCents: number; reason: string };
type RegisterSummary = {
  id: number;
  movements: Movement[];
  methods: { method: string; salesCents: number; expectedCents: number }[];
  money: { expectedCents: number };
};

describe('delivery money in the registers (issue 30 item 5)', () => {
  it('floats, failed orders sent again or canceled, acertos into an open register and what is still to collect', async () => {
    const s = await deliveryShop();
    const register = async (): Promise<RegisterSummary> =>
      expectStatus(await s.admin.get('/cash-register/current'), 200).cashRegister;
    const opening = (await register()).money.expectedCents;
    const [one, two, three, four] = [
      (await sellDelivery(s)).order,
      (await sellDelivery(s, { delivery: { onDeliveryMethod: 'money', changeForCents: 6000 } })).order,
      (await sellDelivery(s, { delivery: { onDeliveryMethod: 'money', changeForCents: 6000 } })).order,
      (await sellDelivery(s, { delivery: { onDeliveryMethod: 'money', changeForCents: 5500 } })).order,
    ];
    // Each float left the sale's register as a sangria with the order.
    expect((await register()).movements.filter((m) => m.type === 'withdrawal')).toEqual([
      expect.objectContaining({ amountCents: 5000, reason: `Troco para a entrega nº ${one.saleNumber}` }),
      expect.objectContaining({ amountCents: 1000, reason: `Troco para a entrega nº ${two.saleNumber}` }),
      expect.objectContaining({ amountCents: 1000, reason: `Troco para a entrega nº ${three.saleNumber}` }),
      expect.objectContaining({ amountCents: 500, reason: `Troco para a entrega nº ${four.saleNumber}` }),
    ]);
    for (const o of [one, two, three]) {
      expectStatus(await post(s.admin, o.id, 'assign', { driverId: s.driverAId }), 200);
      expectStatus(await post(s.driverA, o.id, 'pickup'), 200);
    }
    expectStatus(await post(s.driverA, one.id, 'deliver', { code: '1234' }), 200);
    expectStatus(await post(s.driverA, two.id, 'fail', { reason: 'Cliente ausente' }), 200);
    expectStatus(await post(s.driverA, three.id, 'fail', { reason: 'Endereço não encontrado' }), 200);

    // A failed order goes out again with another driver...
    const again = expectStatus(await post(s.admin, two.id, 'assign', { driverId: s.driverBId }), 200);
    expect(again).toMatchObject({ status: 'accepted', driver: { id: s.driverBId }, failureReason: null });
    expectStatus(await post(s.driverB, two.id, 'pickup'), 200);
    expectStatus(await post(s.driverB, two.id, 'deliver', { code: '1234' }), 200);
    // ...or is canceled with its sale: a manager's approval, the stock back.
    const refused = await post(s.marketing, three.id, 'cancel', { reason: 'Cliente desistiu' });
    expect(refused.statusCode).toBe(403);
    const stockBefore = expectStatus(await s.admin.get(`/product/${s.product.id}`), 200).stock;
    const canceled = expectStatus(
      await post(s.admin, three.id, 'cancel', { reason: 'Cliente desistiu' }),
      200,
    );
    expect(canceled).toMatchObject({ status: 'canceled' });
    const sale3 = expectStatus(await s.admin.get(`/sale/${canceled.saleId}`), 200);
    expect(sale3).toMatchObject({ status: 'canceled', cancelReason: 'Cliente desistiu' });
    expect(expectStatus(await s.admin.get(`/product/${s.product.id}`), 200).stock).toBe(stockBefore + 1);
    // An order canceled before it left gives its float back to the register.
    expectStatus(await post(s.admin, four.id, 'cancel', { reason: 'Pedido duplicado' }), 200);
    expect((await register()).movements.filter((m) => m.type === 'deposit')).toEqual([
      expect.objectContaining({
        amountCents: 500,
        reason: `Troco da entrega nº ${four.saleNumber} cancelada`,
      }),
    ]);

    // Still to collect: A holds one's change and cash and three's change; B two's change and cash.
    expect(expectStatus(await s.admin.get('/home'), 200).drivers).toEqual({
      toCollectCents: 5000 + 5000 + 1000 + (1000 + 5000),
      orders: 3,
    });
    const onDelivery = (r: RegisterSummary) => r.methods.find((m) => m.method === 'paymentOnDelivery');
    expect(onDelivery(await register())?.expectedCents).toBe(10000);

    const today = dateIn(DEFAULT_TIME_ZONE);
    const settle = async (driverId: number, api: Api, countedCents: number, cashRegisterId: number) => {
      const q = `driverId=${driverId}&from=${today}&to=${today}`;
      const preview = expectStatus(await api.get(`/delivery/settlement/preview?${q}`), 200);
      return api.post('/delivery/settlements', {
        driverId,
        from: today,
        to: today,
        countedCents,
        cashRegisterId,
        orderIds: preview.lines.map((l: { orderId: number }) => l.orderId),
      });
    };
    const mine = (await register()).id;
    // Only an open register of the shop takes an acerto.
    const closed = await settle(s.driverAId, s.admin, 11000, mine + 1000);
    expect(closed.statusCode).toBe(422);
    expect(closed.json().message).toBe('Escolha um caixa aberto para receber o acerto');

    const a = expectStatus(await settle(s.driverAId, s.admin, 11000, mine), 201);
    expect(a).toMatchObject({ toHandOverCents: 11000, feesCents: 700, cashRegisterId: mine });
    const afterA = await register();
    expect(afterA.movements.slice(-2)).toEqual([
      expect.objectContaining({
        type: 'deposit',
        amountCents: 11000,
        reason: `Acerto de ${a.driver.name}: dinheiro recebido`,
      }),
      expect.objectContaining({
        type: 'withdrawal',
        amountCents: 700,
        reason: `Acerto de ${a.driver.name}: taxas de entrega pagas`,
      }),
    ]);
    expect(onDelivery(afterA)?.expectedCents).toBe(5000);
    expectStatus(await settle(s.driverBId, s.admin, 6000, mine), 201);
    const afterB = await register();
    expect(onDelivery(afterB)).toBeUndefined();
    // Floats out (5000 + 1000 + 1000 + 500), one back (500), acertos in (11000 + 6000), fees out (700 x 2).
    expect(afterB.money.expectedCents).toBe(opening - 7500 + 500 + 17000 - 1400);
    expect(expectStatus(await s.admin.get('/home'), 200).drivers).toEqual({ toCollectCents: 0, orders: 0 });
    // A failed order an acerto took cannot go out again.
    expect((await post(s.admin, one.id, 'status', { status: 'available' })).statusCode).toBe(409);
  });
});

describe('customer notice', () => {
  it('sends "saiu para entrega" and "entregue" when switched on and connected; a failed send never blocks', async () => {
    const s = await deliveryShop();
    // Switched off by default: nothing is sent even when connected.
    expectStatus(await s.admin.post('/whatsapp/instance'), 201, 'create instance');
    await evolution.scan(`balcao-${s.shop.client.id}`);
    const instance = `balcao-${s.shop.client.id}`;
    const sentTo = () => evolution.sent.filter((m) => m.instance === instance);
    const quiet = (await sellDelivery(s)).order;
    evolution.registered.push(
      quiet.customerPhone.replace(/\D/g, ''),
      `55${quiet.customerPhone.replace(/\D/g, '')}`,
    );
    expectStatus(await post(s.admin, quiet.id, 'assign', { driverId: s.driverAId }), 200);
    expectStatus(await post(s.driverA, quiet.id, 'pickup'), 200);
    await new Promise((r) => setTimeout(r, 300));
    expect(sentTo()).toHaveLength(0);

    // Only the settings roles switch it on.
    expect((await s.marketing.put('/delivery/settings', { notifyCustomer: true })).statusCode).toBe(403);
    expectStatus(await s.admin.put('/delivery/settings', { notifyCustomer: true }), 200);
    expect(expectStatus(await s.admin.get('/delivery/panel'), 200).notifyCustomer).toBe(true);
    const { order, sale } = await sellDelivery(s);
    expectStatus(await post(s.admin, order.id, 'assign', { driverId: s.driverAId }), 200);
    expectStatus(await post(s.driverA, order.id, 'pickup'), 200);
    await expect
      .poll(() => sentTo().map((m) => m.text))
      .toEqual([
        `Seu pedido nº ${sale.number} saiu para entrega. Valor a pagar na entrega: R$ 50,00. Informe ao entregador o código de entrega: os 4 últimos dígitos do seu telefone.`,
      ]);
    // Evolution fails: the delivery is recorded all the same.
    evolution.failNext = 1;
    expectStatus(await post(s.driverA, order.id, 'deliver', { code: '1234' }), 200);
    const second = (await sellDelivery(s)).order;
    expectStatus(await post(s.admin, second.id, 'assign', { driverId: s.driverAId }), 200);
    expectStatus(await post(s.driverA, second.id, 'pickup'), 200);
    expectStatus(await post(s.driverA, second.id, 'deliver', { code: '1234' }), 200);
    await expect.poll(() => sentTo().filter((m) => m.text.includes('foi entregue')).length).toBe(1);
  });
});
