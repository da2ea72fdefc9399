import { COMANDA_MESSAGES, type Comanda, equalShares } from '@balcao/core/comanda';
import type { PrintJob } from '@balcao/core/printing';
import { receiptLines, receiptRow } from '@balcao/core/receipt';
import type { Sale } from '@balcao/core/sale';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_PASSWORD, type TestApp } from '../../../test/helper.ts';
import { type Api, api, asUser, expectStatus, makeProduct, openRegister } from '../../../test/kit.ts';
import { appendLine } from './append.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const RESTAURANT = { clientTypeId: 6 };
let keySeq = 0;
const key = (prefix = 'k') => ({ 'idempotency-key': `${prefix}-${process.pid}-${Date.now()}-${++keySeq}` });

/** A restaurant (saleCommand on) with the given users, a Cozinha and a Bar sector, one product in each. */
async function restaurant(types: number[] = [1]) {
  const shop = await asUser(t, types, RESTAURANT);
  const { api } = shop;
  const comidas = expectStatus(await api.post('/product-category', { name: 'Lanches' }), 201);
  const bebidas = expectStatus(await api.post('/product-category', { name: 'Bebidas' }), 201);
  const profile = (k: string, name: string) => ({
    key: k,
    name,
    paperWidth: 80,
    columns: 48,
    codePage: 'PC860',
    copies: 1,
    cut: true,
  });
  expectStatus(
    await api.put('/printing/settings', {
      profiles: [profile('cozinha', 'Cozinha'), profile('bar', 'Bar'), profile('caixa', 'Caixa')],
      sectors: [
        { key: 'cozinha', name: 'Cozinha', profileKey: 'cozinha', categoryIds: [comidas.id] },
        { key: 'bar', name: 'Bar', profileKey: 'bar', categoryIds: [bebidas.id] },
      ],
      receipt: { autoPrint: false, profileKey: 'caixa' },
    }),
    200,
    'printing settings',
  );
  const burger = await makeProduct(t, shop.auth, {
    name: 'X-Burger',
    salePriceCents: 1000,
    categoryId: comidas.id,
    stock: 100,
  });
  const beer = await makeProduct(t, shop.auth, {
    name: 'Cerveja',
    salePriceCents: 733,
    categoryId: bebidas.id,
    stock: 100,
  });
  return { ...shop, burger, beer, comidas };
}

async function open(api: Api, body: Record<string, unknown> = {}): Promise<Comanda> {
  return expectStatus(await api.post('/comanda', { people: 2, ...body }), 201, 'open comanda');
}
const add = (
  api: Api,
  id: number,
  productId: number,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = key('add'),
) => api.post(`/comanda/${id}/line`, { productId, quantity: 1, ...extra }, headers);
const read = async (api: Api, id: number): Promise<Comanda> =>
  expectStatus(await api.get(`/comanda/${id}`), 200);
const jobsOf = async (api: Api): Promise<PrintJob[]> => expectStatus(await api.get('/printing/jobs'), 200);
const stockOf = async (api: Api, productId: number): Promise<number> =>
  (await api.get(`/product/${productId}`)).json().stock;

describe('opening tabs', () => {
  it('numbers the next free tab, refuses a typed number an open tab has, and stays unique under races', async () => {
    const { api } = await restaurant();
    const first = await open(api, { tableLabel: '4' });
    const second = await open(api);
    expect([first.number, second.number]).toEqual([1, 2]);
    expect(first).toMatchObject({ status: 'active', stage: 'open', tableLabel: '4', people: 2 });

    const taken = await api.post('/comanda', { number: 2 });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe(COMANDA_MESSAGES.numberTaken(2));

    // 12 "next free" at once: 12 distinct numbers.
    const opened = await Promise.all(Array.from({ length: 12 }, () => api.post('/comanda', {})));
    const numbers = opened.map((r) => expectStatus(r, 201).number as number);
    expect(new Set(numbers).size).toBe(12);
    expect(Math.min(...numbers)).toBe(3);

    // 6 asking for the same typed number at once: exactly one opens it.
    const same = await Promise.all(Array.from({ length: 6 }, () => api.post('/comanda', { number: 77 })));
    expect(same.filter((r) => r.statusCode === 201)).toHaveLength(1);
    expect(same.filter((r) => r.statusCode === 409)).toHaveLength(5);
  });
});

describe('the waiter picker', () => {
  it("lists the Garçons first, then who covers the floor; never the counter, Marketing or another shop's (issue 30)", async () => {
    const shop = await restaurant([1, 9, 5, 4, 6]);
    const other = await restaurant([1, 5]);
    const [admin, marketing, garcom, cashier, stockist] = shop.users;
    const { items } = expectStatus(await shop.api.get('/comanda/waiters'), 200);
    expect(items.map((w: { id: number }) => w.id)).toEqual([garcom.user.id, admin.user.id]);
    const notWaiter = await shop.api.post('/comanda', { waiterId: cashier.user.id });
    expect(notWaiter.statusCode).toBe(422);
    expect(notWaiter.json().message).toBe('Garçom não encontrado');
    expect(items.map((w: { id: number }) => w.id)).not.toContain(stockist.user.id);
    expect(items.map((w: { id: number }) => w.id)).not.toContain(marketing.user.id);
    expect(items.map((w: { id: number }) => w.id)).not.toContain(other.users[1].user.id);
    // The picked waiter is the tab's; a Marketing user cannot read the list.
    const tab = await open(shop.api, { waiterId: garcom.user.id });
    expect(tab.waiter).toMatchObject({ id: garcom.user.id });
    expect((await shop.apis[1].get('/comanda/waiters')).statusCode).toBe(403);
  });
});

describe('lines', () => {
  it('keeps every line when 20 waiters add to one tab at once, and a retried add counts once', async () => {
    const shop = await restaurant([1, ...Array.from({ length: 20 }, () => 5)]);
    const tab = await open(shop.api);
    const waiters = shop.apis.slice(1);
    const results = await Promise.all(
      waiters.map((w, i) => add(w, tab.id, shop.burger.id, { notes: `pedido ${i + 1}` })),
    );
    for (const r of results) expectStatus(r, 201, 'parallel add');
    const after = await read(shop.api, tab.id);
    expect(after.lines).toHaveLength(20);
    expect(new Set(after.lines.map((l) => l.notes))).toEqual(
      new Set(Array.from({ length: 20 }, (_, i) => `pedido ${i + 1}`)),
    );
    expect(new Set(after.lines.map((l) => l.addedBy.id)).size).toBe(20);
    expect(after.totals.itemsCents).toBe(20_000);

    const headers = key('retry');
    const once = expectStatus(await add(waiters[0], tab.id, shop.beer.id, {}, headers), 201);
    const again = await add(waiters[0], tab.id, shop.beer.id, {}, headers);
    expect(again.statusCode).toBe(200);
    expect(again.json().id).toBe(once.id);
    expect((await read(shop.api, tab.id)).lines).toHaveLength(21);
  });

  it("shows on the board each tab's item count, unsent count and total as the tab itself has them", async () => {
    const shop = await restaurant([1, 5]);
    const [admin, waiter] = shop.apis;
    const tab = await open(waiter, { people: 3 });
    for (let i = 0; i < 3; i++) expectStatus(await add(waiter, tab.id, shop.beer.id), 201);
    expectStatus(await add(waiter, tab.id, shop.burger.id, { quantity: 2, notes: 'sem cebola' }), 201);
    expectStatus(await waiter.post(`/comanda/${tab.id}/send`, undefined, key('send')), 201);
    for (let i = 0; i < 2; i++) expectStatus(await add(waiter, tab.id, shop.beer.id), 201);
    const canceled = expectStatus(await add(waiter, tab.id, shop.burger.id), 201);
    expectStatus(await waiter.post(`/comanda/${tab.id}/line/${canceled.id}/cancel`, {}), 200);
    const detail = await read(admin, tab.id);
    const board = expectStatus(await admin.get('/comanda'), 200);
    const card = board.tabs.find((c: { id: number }) => c.id === tab.id);
    expect(card).toMatchObject({
      itemsCount: 6,
      unsentCount: 2,
      totalCents: detail.totals.totalCents,
      paidCents: 0,
    });
    // 5 beers at 7,33 + 2 burgers at 10,00 = 56,65, plus 10% (5,67).
    expect(detail.totals.totalCents).toBe(6232);
  });

  it('answers every add of the same moment on its own, though they share their statements', async () => {
    const shop = await restaurant([1, 5, 5]);
    const other = await restaurant([1]);
    const [admin, waiter, waiter2] = shop.apis;
    const tab = await open(admin);
    const merged = await open(admin);
    expectStatus(await add(admin, merged.id, shop.beer.id), 201);
    expectStatus(await admin.post(`/comanda/${tab.id}/merge`, { fromComandaId: merged.id }), 200);
    const theirs = await open(other.api);
    const doubleTap = key('tap');
    const stranger = api(t, { authorization: 'Bearer no-such-token' });
    // One moment: a double tap, two adds without a key, a merged tab, another shop's tab and
    // product, an unknown token, and the other shop's own add.
    const [first, second, keyless1, keyless2, toMerged, toTheirs, theirProduct, unknown, theirsOwn] =
      await Promise.all([
        add(waiter, tab.id, shop.burger.id, { notes: 'sem cebola' }, doubleTap),
        add(waiter, tab.id, shop.burger.id, { notes: 'sem cebola' }, doubleTap),
        add(waiter2, tab.id, shop.beer.id, {}, {}),
        add(waiter2, tab.id, shop.beer.id, {}, {}),
        add(waiter, merged.id, shop.burger.id),
        add(waiter, theirs.id, shop.burger.id),
        add(waiter2, tab.id, other.burger.id),
        add(stranger, tab.id, shop.burger.id),
        add(other.api, theirs.id, other.burger.id),
      ]);
    expect([first.statusCode, second.statusCode].sort()).toEqual([200, 201]);
    expect(first.json().id).toBe(second.json().id);
    expect(expectStatus(keyless1, 201).id).not.toBe(expectStatus(keyless2, 201).id);
    expect(toMerged.statusCode).toBe(409);
    expect(toMerged.json().message).toBe(COMANDA_MESSAGES.notActive);
    expect(toTheirs.statusCode).toBe(404);
    expect(theirProduct.statusCode).toBe(422);
    expect(theirProduct.json().message).toBe('Produto não encontrado');
    expect(unknown.statusCode).toBe(401);
    expectStatus(theirsOwn, 201);
    // The tab: the merged tab's beer, one burger for the double tap, the two beers without a key.
    const after = await read(admin, tab.id);
    expect(after.lines.map((l) => l.description).sort()).toEqual([
      'Cerveja',
      'Cerveja',
      'Cerveja',
      'X-Burger',
    ]);
    expect((await read(other.api, theirs.id)).lines.map((l) => l.description)).toEqual(['X-Burger']);
  });

  it('fails only the line a shared append statement could not take', async () => {
    const shop = await restaurant();
    const tab = await open(shop.api);
    const priced = {
      productId: shop.burger.id,
      variantId: null,
      description: 'X-Burger',
      variantName: null,
      sku: null,
      barcode: null,
      unit: 'un',
      unitPriceCents: 1000,
      additionals: [],
    };
    const line = (quantity: number, idempotencyKey: string | null) => ({
      clientId: shop.client.id,
      comandaId: tab.id,
      priced,
      quantity,
      notes: null,
      addedBy: shop.users[0].user.id,
      idempotencyKey,
    });
    // Called in the same tick: one statement, which the zero quantity breaks (a check constraint).
    const results = await Promise.allSettled([
      appendLine(t.database.db, line(1, key()['idempotency-key'])),
      appendLine(t.database.db, line(0, key()['idempotency-key'])),
      appendLine(t.database.db, line(2, null)),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((await read(shop.api, tab.id)).lines.map((l) => l.quantity).sort()).toEqual([1, 2]);
  });

  it('prices from the catalog with add-ons and notes, and refuses adding to a closed or unknown tab', async () => {
    const shop = await restaurant();
    const tab = await open(shop.api);
    const line = expectStatus(
      await add(shop.api, tab.id, shop.burger.id, { quantity: 2, notes: 'sem cebola', unitPriceCents: 1 }),
      201,
    );
    expect(line).toMatchObject({
      unitPriceCents: 1000,
      quantity: 2,
      notes: 'sem cebola',
      totalCents: 2000,
      sentAt: null,
    });
    expect((await add(shop.api, 999_999, shop.burger.id)).statusCode).toBe(404);
    // The waiter PDV's menu: categories and the most added products.
    expectStatus(await add(shop.api, tab.id, shop.beer.id), 201);
    expectStatus(await add(shop.api, tab.id, shop.beer.id), 201);
    const menu = expectStatus(await shop.api.get('/comanda/menu'), 200);
    expect(menu.categories.map((c: { name: string }) => c.name)).toEqual(['Bebidas', 'Lanches']);
    expect(
      menu.favourites.map((f: { description: string; count: number }) => [f.description, f.count]),
    ).toEqual([
      ['Cerveja', 2],
      ['X-Burger', 1],
    ]);
  });
});

describe('production', () => {
  it('sends each line once per sector whatever the retries, prints cancel tickets and reprints', async () => {
    const shop = await restaurant([1, 5]);
    const [admin, waiter] = shop.apis;
    const tab = await open(waiter, { tableLabel: '7' });
    expectStatus(await add(waiter, tab.id, shop.burger.id, { quantity: 2, notes: 'sem cebola' }), 201);
    expectStatus(await add(waiter, tab.id, shop.beer.id), 201);

    const headers = key('send');
    // A double tap: the same key twice at once, then once more later.
    const [a, b] = await Promise.all([
      waiter.post(`/comanda/${tab.id}/send`, undefined, headers),
      waiter.post(`/comanda/${tab.id}/send`, undefined, headers),
    ]);
    const c = await waiter.post(`/comanda/${tab.id}/send`, undefined, headers);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 201]);
    expect(c.statusCode).toBe(200);
    expect(c.json().send.id).toBe(a.json().send.id);

    const jobs = await jobsOf(admin);
    const tickets = jobs.filter((j) => j.kind === 'ticket');
    expect(tickets).toHaveLength(2);
    const kitchen = tickets.find((j) => j.payload.title.startsWith('Cozinha')) as PrintJob;
    expect(kitchen.payload.lines.join('\n')).toContain('2 x X-Burger');
    expect(kitchen.payload.lines.join('\n')).toContain('OBS: sem cebola');
    expect(kitchen.payload.lines.join('\n')).toContain('MESA 7');
    expect(kitchen.payload.lines.join('\n')).not.toContain('Cerveja');
    const bar = tickets.find((j) => j.payload.title.startsWith('Bar')) as PrintJob;
    expect(bar.payload.lines.join('\n')).toContain('1 x Cerveja');

    // Nothing new: 422; a new line goes alone in the next send.
    const empty = await waiter.post(`/comanda/${tab.id}/send`, undefined, key('send'));
    expect(empty.statusCode).toBe(422);
    expect(empty.json().message).toBe(COMANDA_MESSAGES.nothingToSend);
    expectStatus(await add(waiter, tab.id, shop.burger.id, { notes: 'bem passado' }), 201);
    expectStatus(await waiter.post(`/comanda/${tab.id}/send`, undefined, key('send')), 201);
    const second = (await jobsOf(admin)).filter(
      (j) => j.kind === 'ticket' && !tickets.some((o) => o.id === j.id),
    );
    expect(second).toHaveLength(1);
    expect(second[0].payload.lines.join('\n')).toContain('1 x X-Burger');
    expect(second[0].payload.lines.join('\n')).not.toContain('2 x X-Burger');

    // Cancel a sent line: reason required, a waiter needs a manager's approval, a cancel ticket prints once.
    const sent = await read(admin, tab.id);
    const beerLine = sent.lines.find((l) => l.description === 'Cerveja') as Comanda['lines'][number];
    const noReason = await waiter.post(`/comanda/${tab.id}/line/${beerLine.id}/cancel`, {});
    expect(noReason.statusCode).toBe(422);
    expect(noReason.json().message).toBe(COMANDA_MESSAGES.sentNeedsReason);
    const noApproval = await waiter.post(`/comanda/${tab.id}/line/${beerLine.id}/cancel`, {
      reason: 'cliente desistiu',
    });
    expect(noApproval.statusCode).toBe(403);
    expect(noApproval.json().message).toBe(COMANDA_MESSAGES.cancelNeedsApproval);
    const [adminUser] = shop.users;
    const approved = expectStatus(
      await waiter.post(`/comanda/${tab.id}/line/${beerLine.id}/cancel`, {
        reason: 'cliente desistiu',
        approval: { email: adminUser.email, password: TEST_PASSWORD },
      }),
      200,
    );
    expect(approved.lines.find((l: { id: number }) => l.id === beerLine.id).status).toBe('canceled');
    expect(
      (await waiter.post(`/comanda/${tab.id}/line/${beerLine.id}/cancel`, { reason: 'x' })).statusCode,
    ).toBe(409);
    const cancelTickets = (await jobsOf(admin)).filter((j) => j.payload.title.startsWith('CANCELAMENTO'));
    expect(cancelTickets).toHaveLength(1);
    expect(cancelTickets[0].payload.lines.join('\n')).toContain('1 x Cerveja');
    expect(cancelTickets[0].payload.lines.join('\n')).toContain('Motivo: cliente desistiu');

    // An unsent line is removed without a reason.
    const fresh = expectStatus(await add(waiter, tab.id, shop.beer.id), 201);
    expectStatus(await waiter.post(`/comanda/${tab.id}/line/${fresh.id}/cancel`, {}), 200);

    // Reprint: new jobs marked REIMPRESSÃO, once per key.
    const firstSend = sent.sends[0];
    const reprintKey = key('reprint');
    expectStatus(await waiter.post(`/comanda/${tab.id}/send/${firstSend.id}/reprint`, {}, reprintKey), 200);
    expectStatus(await waiter.post(`/comanda/${tab.id}/send/${firstSend.id}/reprint`, {}, reprintKey), 200);
    const reprints = (await jobsOf(admin)).filter((j) => j.reprintOf !== null);
    // The send's two tickets and its cancel ticket, each reprinted once.
    expect(reprints).toHaveLength(3);
    expect(reprints.every((j) => j.payload.lines.join('\n').includes('REIMPRESSÃO'))).toBe(true);
    // The waiter sees every job of the send with its state (none printed: no station ran).
    const after = await read(waiter, tab.id);
    expect(after.sends[0].jobs.map((j) => j.status)).toEqual(Array(6).fill('pending'));
  });

  it('shows lines whose category has no sector as printed nowhere', async () => {
    const shop = await restaurant();
    const loose = await makeProduct(t, shop.auth, { name: 'Sem categoria', salePriceCents: 500 });
    const tab = await open(shop.api);
    expectStatus(await add(shop.api, tab.id, loose.id), 201);
    const { send } = expectStatus(
      await shop.api.post(`/comanda/${tab.id}/send`, undefined, key('send')),
      201,
    );
    expect(send.jobs).toHaveLength(0);
    expect(send.unrouted).toEqual(['1 x Sem categoria']);
  });
});

describe('printed tickets (issue 30)', () => {
  it('heads the pre-bill with the shop, lists add-ons, reprints one sector on request and names who canceled', async () => {
    const shop = await restaurant([1, 5]);
    const [admin, waiter] = shop.apis;
    const group = expectStatus(
      await admin.post('/product-additional', {
        name: 'Molhos',
        minQuantity: 0,
        maxQuantity: 2,
        items: [{ name: 'Mostarda e mel', priceCents: 150 }],
      }),
      201,
    );
    const batata = await makeProduct(t, shop.auth, {
      name: 'Batata Frita',
      salePriceCents: 1200,
      categoryId: shop.comidas.id,
      additionalGroupIds: [group.id],
      stock: 50,
    });
    const tab = await open(waiter, { tableLabel: '9' });
    expectStatus(
      await add(waiter, tab.id, batata.id, { additionals: [{ id: group.items[0].id, quantity: 1 }] }),
      201,
    );
    const beer = expectStatus(await add(waiter, tab.id, shop.beer.id), 201);
    expectStatus(await waiter.post(`/comanda/${tab.id}/send`, undefined, key('send')), 201);

    // The pre-bill: the shop's name first, the add-on with its price under its item.
    const preBill = expectStatus(
      await waiter.post(`/comanda/${tab.id}/pre-bill`, undefined, key('pre')),
      200,
    );
    const lines: string[] = preBill.document.lines;
    expect(lines[0]).toBe(shop.client.name);
    expect(lines).toContain(receiptRow('  + Mostarda e mel', 'R$ 1,50', 48));

    // Reprint the kitchen's ticket only.
    const tabNow = await read(waiter, tab.id);
    const [send] = tabNow.sends;
    const kitchen = send.jobs.find((j) => j.title.startsWith('Cozinha')) as Comanda['sends'][0]['jobs'][0];
    expectStatus(
      await waiter.post(`/comanda/${tab.id}/send/${send.id}/reprint`, { jobId: kitchen.id }, key('reprint')),
      200,
    );
    const reprints = (await jobsOf(admin)).filter((j) => j.reprintOf !== null);
    expect(reprints.map((j) => j.payload.title)).toEqual([`REIMPRESSÃO: ${kitchen.title}`]);
    const wrong = await waiter.post(
      `/comanda/${tab.id}/send/${send.id}/reprint`,
      { jobId: 999_999 },
      key('r'),
    );
    expect(wrong.statusCode).toBe(404);
    expect(wrong.json().message).toBe('Ticket não encontrado neste envio');

    // The Administrador cancels the beer on the garçom's tab: the ticket names both, each as what he is.
    expectStatus(
      await admin.post(`/comanda/${tab.id}/line/${beer.id}/cancel`, { reason: 'pedido errado' }),
      200,
    );
    const cancel = (await jobsOf(admin)).find((j) => j.payload.title.startsWith('CANCELAMENTO')) as PrintJob;
    expect(cancel.payload.lines).toContain(`Garçom: ${shop.users[1].user.name}`);
    expect(cancel.payload.lines).toContain(`Cancelado por: ${shop.users[0].user.name}`);
  });
});

describe('canceling a tab and its couvert (issue 30)', () => {
  it('cancels a tab with nothing sent at once, asks a reason and a manager once sent, never with payments', async () => {
    const shop = await restaurant([1, 5]);
    const [admin, waiter] = shop.apis;
    const [adminUser] = shop.users;
    // Opened by mistake, one item not sent: the garçom cancels it himself.
    const mistake = await open(waiter);
    expectStatus(await add(waiter, mistake.id, shop.burger.id), 201);
    const gone = expectStatus(await waiter.post(`/comanda/${mistake.id}/cancel`, {}), 200);
    expect(gone.status).toBe('canceled');
    expect(gone.lines.every((l: { status: string }) => l.status === 'canceled')).toBe(true);
    expect(gone.events.at(-1).text).toBe('Cancelou a comanda');
    expect((await read(waiter, mistake.id)).status).toBe('canceled');
    expect((await waiter.get('/comanda')).json().tabs.map((t: { id: number }) => t.id)).not.toContain(
      mistake.id,
    );

    // Sent to the kitchen: a reason, then a manager's approval; a cancel ticket prints.
    const sent = await open(waiter, { tableLabel: '3' });
    expectStatus(await add(waiter, sent.id, shop.burger.id), 201);
    expectStatus(await waiter.post(`/comanda/${sent.id}/send`, undefined, key('send')), 201);
    const noReason = await waiter.post(`/comanda/${sent.id}/cancel`, {});
    expect(noReason.statusCode).toBe(422);
    expect(noReason.json().message).toBe('Informe o motivo: itens desta comanda já foram para a produção');
    const noApproval = await waiter.post(`/comanda/${sent.id}/cancel`, { reason: 'mesa errada' });
    expect(noApproval.statusCode).toBe(403);
    expect(noApproval.json().message).toBe(
      'Cancelar uma comanda com itens já enviados precisa da aprovação de um gerente',
    );
    expectStatus(
      await waiter.post(`/comanda/${sent.id}/cancel`, {
        reason: 'mesa errada',
        approval: { email: adminUser.email, password: TEST_PASSWORD },
      }),
      200,
    );
    const tickets = (await jobsOf(admin)).filter((j) => j.payload.title.startsWith('CANCELAMENTO'));
    expect(tickets).toHaveLength(1);
    expect(tickets[0].payload.lines.join('\n')).toContain('Motivo: mesa errada');
    expect((await waiter.post(`/comanda/${sent.id}/cancel`, {})).statusCode).toBe(409);

    // With a payment: refused.
    await openRegister(t, shop.auth);
    const paying = await open(admin);
    expectStatus(await add(admin, paying.id, shop.beer.id), 201);
    expectStatus(
      await admin.post(`/comanda/${paying.id}/payment`, { kind: 'amount', method: 'pix', amountCents: 100 }),
      201,
    );
    const refused = await admin.post(`/comanda/${paying.id}/cancel`, {});
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe(
      'A comanda já tem pagamentos: receba o restante e feche, ou estorne os pagamentos antes',
    );
  });

  it('takes a couvert set later on the open tabs without payments, and sets it in the fee dialog', async () => {
    const shop = await restaurant();
    const { api } = shop;
    await openRegister(t, shop.auth);
    const seated = await open(api, { people: 2 });
    expectStatus(await add(api, seated.id, shop.burger.id), 201);
    const paying = await open(api, { people: 2 });
    expectStatus(await add(api, paying.id, shop.burger.id), 201);
    expectStatus(
      await api.post(`/comanda/${paying.id}/payment`, { kind: 'amount', method: 'pix', amountCents: 100 }),
      201,
    );
    // The live music starts: couvert R$ 15,00 from now on.
    const system = expectStatus(await api.get('/settings/system'), 200);
    expectStatus(await api.put('/settings/system', { ...system, couvertCents: 1500 }), 200);
    expect((await read(api, seated.id)).totals).toMatchObject({
      couvertCents: 3000,
      totalCents: 1000 + 100 + 3000,
    });
    expect((await read(api, paying.id)).totals.couvertCents).toBe(0);
    // The tab's own dialog: couvert per person with the fee.
    const own = expectStatus(
      await api.put(`/comanda/${seated.id}/service-fee`, {
        serviceFeePercent: 1000,
        couvertPerPersonCents: 1000,
      }),
      200,
    );
    expect(own).toMatchObject({ couvertPerPersonCents: 1000, totals: { couvertCents: 2000 } });
    expect(own.events.at(-1).text).toBe('Couvert de R$ 15,00 para R$ 10,00 por pessoa');
  });
});

describe('transfer, merge, table', () => {
  it('moves part of a line to another tab, merges tabs and logs who did it', async () => {
    const shop = await restaurant([1, 5]);
    const [, waiter] = shop.apis;
    const a = await open(waiter, { tableLabel: '1' });
    const b = await open(waiter, { tableLabel: '2' });
    const line = expectStatus(await add(waiter, a.id, shop.beer.id, { quantity: 3 }), 201);
    const moved = expectStatus(
      await waiter.post(`/comanda/${a.id}/transfer`, { lineId: line.id, quantity: 1, toComandaId: b.id }),
      200,
    );
    expect(moved.lines.map((l: { quantity: number }) => l.quantity)).toEqual([2]);
    const target = await read(waiter, b.id);
    expect(target.lines).toMatchObject([{ description: 'Cerveja', quantity: 1, unitPriceCents: 733 }]);
    expect(moved.totals.itemsCents + target.totals.itemsCents).toBe(3 * 733);
    expect(moved.events.at(-1)).toMatchObject({
      kind: 'transfer_out',
      text: `Transferiu 1 x Cerveja para a comanda ${b.number}`,
      user: { id: shop.users[1].user.id },
    });
    const tooMuch = await waiter.post(`/comanda/${a.id}/transfer`, {
      lineId: line.id,
      quantity: 5,
      toComandaId: b.id,
    });
    expect(tooMuch.statusCode).toBe(422);

    // Move the table.
    const moveTable = expectStatus(
      await waiter.put(`/comanda/${a.id}`, { tableLabel: '9', people: 2, updatedAt: moved.updatedAt }),
      200,
    );
    expect(moveTable.tableLabel).toBe('9');
    expect(moveTable.events.at(-1).text).toBe('Mudou a mesa de 1 para 9');

    // Merge b into a: its lines come over, b is canceled.
    const merged = expectStatus(await waiter.post(`/comanda/${a.id}/merge`, { fromComandaId: b.id }), 200);
    expect(merged.lines.map((l: { quantity: number }) => l.quantity).sort()).toEqual([1, 2]);
    expect((await read(waiter, b.id)).status).toBe('canceled');
    const board = expectStatus(await waiter.get('/comanda'), 200);
    expect(board.tabs.map((c: { id: number }) => c.id)).toEqual([a.id]);
  });
});

describe('merged tabs', () => {
  it("shows the merged tab's earlier sends on the target: tickets, print state, replay, reprint, cancel", async () => {
    const shop = await restaurant([1, 5]);
    const [admin, waiter] = shop.apis;
    const a = await open(waiter, { tableLabel: '3' });
    const b = await open(waiter, { tableLabel: '4' });
    const other = await open(waiter, { tableLabel: '5' });
    expectStatus(await add(waiter, a.id, shop.beer.id), 201);
    const aSend = expectStatus(await waiter.post(`/comanda/${a.id}/send`, undefined, key('send')), 201).send;
    expectStatus(await add(waiter, b.id, shop.burger.id, { notes: 'sem cebola' }), 201);
    expectStatus(await add(waiter, b.id, shop.beer.id), 201);
    const bKey = key('send');
    const bSend = expectStatus(await waiter.post(`/comanda/${b.id}/send`, undefined, bKey), 201).send;
    expect(bSend.jobs.map((j: { title: string }) => j.title).sort()).toEqual([
      `Bar - Comanda ${b.number} · Mesa 4`,
      `Cozinha - Comanda ${b.number} · Mesa 4`,
    ]);

    const merged = expectStatus(await waiter.post(`/comanda/${a.id}/merge`, { fromComandaId: b.id }), 200);
    // The target shows both sends, b's with its own tickets and their state (the retry goes by job).
    expect(merged.sends.map((s: { id: number }) => s.id)).toEqual([aSend.id, bSend.id]);
    expect(merged.sends[1]).toEqual(bSend);
    const burger = merged.lines.find((l: { description: string }) => l.description === 'X-Burger');
    expect(burger).toMatchObject({ sendId: bSend.id, notes: 'sem cebola' });
    expect(merged.lines.every((l: { sentAt: string | null }) => l.sentAt !== null)).toBe(true);
    // Nothing of b is sent again: its lines were sent.
    const nothing = await waiter.post(`/comanda/${a.id}/send`, undefined, key('send'));
    expect(nothing.statusCode).toBe(422);
    expect(nothing.json().message).toBe(COMANDA_MESSAGES.nothingToSend);
    const gone = await read(waiter, b.id);
    expect(gone.sends).toEqual([]);
    expect(gone.events.at(-1)?.text).toBe(`Unida à comanda ${a.number}`);

    // The waiter's phone retries b's send (its answer was lost): the same send, nothing printed again.
    const ticketsBefore = (await jobsOf(admin)).length;
    const replay = expectStatus(await waiter.post(`/comanda/${b.id}/send`, undefined, bKey), 200);
    expect(replay.send).toEqual(bSend);
    expect((await jobsOf(admin)).length).toBe(ticketsBefore);
    // That key on a tab b was never merged into is still refused.
    const reused = await waiter.post(`/comanda/${other.id}/send`, undefined, bKey);
    expect(reused.statusCode).toBe(422);
    expect(reused.json().message).toBe(COMANDA_MESSAGES.keyReused);

    // Reprinted from the target: REIMPRESSÃO copies of b's two tickets, on b's send.
    expectStatus(await waiter.post(`/comanda/${a.id}/send/${bSend.id}/reprint`, {}, key('reprint')), 200);
    // A sent line of b canceled on the target prints its cancel ticket, shown with b's send.
    expectStatus(
      await admin.post(`/comanda/${a.id}/line/${burger.id}/cancel`, { reason: 'cliente desistiu' }),
      200,
    );
    const after = await read(waiter, a.id);
    const jobs = after.sends[1].jobs;
    expect(jobs.filter((j) => j.reprintOf !== null).map((j) => j.reprintOf)).toEqual(
      bSend.jobs.map((j: { id: number }) => j.id),
    );
    const cancel = jobs.find((j) => j.title.startsWith('CANCELAMENTO')) as (typeof jobs)[number];
    expect(cancel.title).toBe(`CANCELAMENTO Cozinha - Comanda ${a.number} · Mesa 3`);
    expect(after.sends[0].jobs.map((j) => j.title)).toEqual([`Bar - Comanda ${a.number} · Mesa 3`]);
  });
});

describe('payments and close', () => {
  it('splits by items, amounts and equal shares to the exact total with the service fee, then closes into one sale', async () => {
    const shop = await restaurant([1, 4, 5]);
    const [admin, cashier, waiter] = shop.apis;
    await openRegister(t, shop.auth);
    await openRegister(t, { authorization: `Bearer ${shop.users[1].token}` });
    const tab = await open(waiter, { people: 3 });
    const burgers = expectStatus(await add(waiter, tab.id, shop.burger.id, { quantity: 3 }), 201);
    expectStatus(await add(waiter, tab.id, shop.beer.id, { quantity: 1 }), 201);
    expectStatus(await waiter.post(`/comanda/${tab.id}/send`, undefined, key('send')), 201);
    const before = await read(waiter, tab.id);
    // 3 x 10,00 + 7,33 = 37,33; 10% = 3,73; total 41,06.
    expect(before.totals).toMatchObject({
      itemsCents: 3733,
      serviceFeeCents: 373,
      totalCents: 4106,
      remainingCents: 4106,
    });

    // Close refused while anything remains.
    const early = await cashier.post(`/comanda/${tab.id}/close`, {});
    expect(early.statusCode).toBe(422);
    expect(early.json().message).toBe('Ainda falta receber R$ 41,06 para fechar a comanda');

    // A guest leaves early paying one burger (item + its 10%).
    const paidItem = expectStatus(
      await cashier.post(`/comanda/${tab.id}/payment`, {
        kind: 'items',
        method: 'pix',
        items: [{ lineId: burgers.id, quantity: 1 }],
      }),
      201,
    );
    expect(paidItem.payments[0].amountCents).toBe(1100);
    expect(paidItem.lines.find((l: { id: number }) => l.id === burgers.id).paidQuantity).toBe(1);
    // A typed amount at another register (the admin's), retried with its key: counted once.
    const amountKey = key('pay');
    for (let i = 0; i < 2; i++) {
      expectStatus(
        await admin.post(
          `/comanda/${tab.id}/payment`,
          { kind: 'amount', method: 'money', amountCents: 1000, receivedCents: 2000 },
          amountKey,
        ),
        201,
      );
    }
    const mid = await read(admin, tab.id);
    expect(mid.payments).toHaveLength(2);
    expect(mid.payments[1]).toMatchObject({
      amountCents: 1000,
      changeCents: 1000,
      receivedBy: { id: shop.users[0].user.id },
    });
    expect(mid.stage).toBe('payment');
    expect(mid.totals.remainingCents).toBe(4106 - 1100 - 1000);
    // Too much: refused with the remaining.
    const over = await cashier.post(`/comanda/${tab.id}/payment`, {
      kind: 'amount',
      method: 'pix',
      amountCents: 999_999,
    });
    expect(over.statusCode).toBe(422);
    // The rest in two equal shares.
    const shares = equalShares(mid.totals.remainingCents, 2);
    for (const [i, amountCents] of shares.entries()) {
      expectStatus(
        await cashier.post(`/comanda/${tab.id}/payment`, {
          kind: 'share',
          method: 'debitCard',
          amountCents,
          share: { index: i + 1, of: 2 },
        }),
        201,
      );
    }
    const paid = await read(cashier, tab.id);
    expect(paid.totals.remainingCents).toBe(0);
    expect(paid.payments.reduce((s, p) => s + p.amountCents, 0)).toBe(4106);
    expect(paid.lines.find((l) => l.id === burgers.id)?.paidQuantity).toBe(1);

    const stockBefore = await stockOf(admin, shop.burger.id);
    const closeKey = key('close');
    const [r1, r2] = await Promise.all([
      cashier.post(`/comanda/${tab.id}/close`, {}, closeKey),
      cashier.post(`/comanda/${tab.id}/close`, {}, closeKey),
    ]);
    const sale = (r1.statusCode === 201 ? r1 : r2).json() as Sale;
    expect([r1.statusCode, r2.statusCode].sort()).toEqual([200, 201]);
    expect((r1.json() as Sale).id).toBe((r2.json() as Sale).id);
    expect(sale).toMatchObject({ originSale: 'command', typeOfSale: 'command', finalAmountCents: 4106 });
    expect(sale.payments.map((p) => p.amountCents)).toEqual([1100, 1000, ...shares]);
    expect(sale.items.map((i) => i.description)).toEqual(['X-Burger', 'Cerveja', 'Taxa de serviço (10%)']);
    expect(sale.notes).toContain('Parte 1/2');
    // A second close without the key: refused, still one sale; stock moved once.
    const again = await cashier.post(`/comanda/${tab.id}/close`, {});
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(COMANDA_MESSAGES.notActive);
    expect(await stockOf(admin, shop.burger.id)).toBe(stockBefore - 3);
    const closed = await read(admin, tab.id);
    expect(closed).toMatchObject({ status: 'finished', saleId: sale.id });
    const sales = expectStatus(await admin.get(`/sale/client/${shop.client.id}`), 200);
    expect(sales.items.filter((s: { originSale: string }) => s.originSale === 'command')).toHaveLength(1);
    // Each drawer expects the cash it holds: the admin took R$ 10,00 early, the cashier closed.
    const adminRegister = expectStatus(await admin.get('/cash-register/current'), 200);
    expect(adminRegister.cashRegister.money).toMatchObject({
      receiptsCents: 1000,
      expectedCents: 10000 + 1000,
    });
    const cashierRegister = expectStatus(await cashier.get('/cash-register/current'), 200);
    expect(cashierRegister.cashRegister.money).toMatchObject({
      salesCents: 1000,
      withdrawalsCents: 1000,
      expectedCents: 10000,
    });
    // The number is spent for the night (issue 30): not typed again, not given again.
    const reused = await waiter.post('/comanda', { number: tab.number });
    expect(reused.statusCode).toBe(409);
    expect(reused.json().message).toBe(
      `A comanda ${tab.number} já foi usada hoje: use outro número (um número não se repete na mesma noite)`,
    );
    expect((await open(waiter)).number).not.toBe(tab.number);
  });

  it('records the change of money payments on the sale and its receipt (issue 30)', async () => {
    const shop = await restaurant([1]);
    const { api } = shop;
    await openRegister(t, shop.auth);
    const tab = await open(api, { people: 1 });
    expectStatus(await add(api, tab.id, shop.burger.id, { quantity: 2 }), 201);
    // 2 x 10,00 + 10% = 22,00: R$ 10,00 by Pix, then R$ 12,00 in cash from a R$ 50,00 note.
    expectStatus(
      await api.post(`/comanda/${tab.id}/payment`, { kind: 'amount', method: 'pix', amountCents: 1000 }),
      201,
    );
    expectStatus(
      await api.post(`/comanda/${tab.id}/payment`, {
        kind: 'amount',
        method: 'money',
        amountCents: 1200,
        receivedCents: 5000,
      }),
      201,
    );
    const sale = expectStatus(await api.post(`/comanda/${tab.id}/close`, {}, key('close')), 201) as Sale;
    expect(sale).toMatchObject({ finalAmountCents: 2200, cashDepositAmountCents: 5000, changeCents: 3800 });
    const lines = receiptLines(sale, { name: 'Lanchonete', timeZone: 'America/Sao_Paulo' }, 58);
    expect(lines).toContain(receiptRow('Recebido em dinheiro', '50,00', 32));
    expect(lines).toContain(receiptRow('Troco', '38,00', 32));
    // The drawer holds the money paid, not the note: R$ 100,00 float + R$ 12,00.
    const register = expectStatus(await api.get('/cash-register/current'), 200);
    expect(register.cashRegister.money.expectedCents).toBe(10000 + 1200);
  });

  it('changes the service fee only with a reason, and charges couvert per person', async () => {
    const shop = await restaurant();
    const { api } = shop;
    const system = expectStatus(await api.get('/settings/system'), 200);
    expectStatus(await api.put('/settings/system', { ...system, couvertCents: 1500 }), 200);
    const tab = await open(api, { people: 2 });
    expectStatus(await add(api, tab.id, shop.burger.id), 201);
    const noReason = await api.put(`/comanda/${tab.id}/service-fee`, { serviceFeePercent: 0 });
    expect(noReason.statusCode).toBe(422);
    expect(noReason.json().message).toBe(COMANDA_MESSAGES.feeReason);
    const removed = expectStatus(
      await api.put(`/comanda/${tab.id}/service-fee`, { serviceFeePercent: 0, reason: 'cliente pediu' }),
      200,
    );
    expect(removed.totals).toMatchObject({
      itemsCents: 1000,
      serviceFeeCents: 0,
      couvertCents: 3000,
      totalCents: 4000,
    });
    expect(removed.serviceFeeReason).toBe('cliente pediu');
    const preBill = expectStatus(await api.post(`/comanda/${tab.id}/pre-bill`, undefined, key('pre')), 200);
    expect(preBill.jobId).not.toBeNull();
    expect(preBill.document.lines.join('\n')).toContain('Couvert');
    expect((await read(api, tab.id)).stage).toBe('bill');
  });
});

describe("the garçom's access (issue 30)", () => {
  it('gives the garçom the comandas and his own figures, and 403 on the counter, sales, budgets, coupons and freight', async () => {
    const shop = await restaurant([1, 5]);
    const [admin, waiter] = shop.apis;
    const cid = shop.client.id;
    await openRegister(t, shop.auth);
    for (const [method, url] of [
      ['GET', `/sale/client/${cid}`],
      ['GET', `/sale/client/${cid}/export`],
      ['GET', '/budget'],
      ['GET', `/coupon/client/${cid}`],
      ['GET', '/cash-register/current'],
      ['POST', '/cash-register/close'],
      ['GET', '/fee-simulator/table'],
      ['GET', '/delivery/panel'],
      ['POST', '/shipping/freight-quote'],
    ] as const) {
      const res = method === 'GET' ? await waiter.get(url) : await waiter.post(url, {});
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
    expectStatus(await waiter.get('/comanda'), 200);
    const mine = await open(waiter);
    expectStatus(await add(waiter, mine.id, shop.burger.id, { quantity: 2 }), 201);
    const other = await open(admin, { waiterId: shop.users[0].user.id });
    expectStatus(await add(admin, other.id, shop.beer.id), 201);
    // The admin receives and closes the garçom's tab: it counts as his.
    expectStatus(
      await admin.post(`/comanda/${mine.id}/payment`, { kind: 'amount', method: 'pix', amountCents: 2200 }),
      201,
    );
    expectStatus(await admin.post(`/comanda/${mine.id}/close`, {}, key('close')), 201);
    const again = await open(waiter);
    expectStatus(await add(waiter, again.id, shop.beer.id), 201);
    const home = expectStatus(await waiter.get('/home'), 200);
    expect(home).toMatchObject({
      sales: null,
      register: null,
      receivables: null,
      tables: { open: { count: 1, amountCents: 806 }, closedToday: { count: 1, amountCents: 2200 } },
    });
    expect(expectStatus(await admin.get('/home'), 200).tables).toBeNull();
  });
});

describe('flag, roles and tenancy', () => {
  it('answers 403 with the message while comandas are off, 403 to Marketing, 404 across clients', async () => {
    const retail = await asUser(t, [1], { clientTypeId: 1 });
    const off = await retail.api.get('/comanda');
    expect(off.statusCode).toBe(403);
    expect(off.json().message).toBe(COMANDA_MESSAGES.disabled);
    expect((await retail.api.post('/comanda', {})).statusCode).toBe(403);

    const shop = await restaurant([1, 9, 6]);
    const [admin, marketing, stockist] = shop.apis;
    const tab = await open(admin);
    expect((await marketing.get('/comanda')).statusCode).toBe(403);
    expect(
      (await marketing.post(`/comanda/${tab.id}/line`, { productId: shop.burger.id, quantity: 1 }))
        .statusCode,
    ).toBe(403);
    // NOT_MKT sees the board; receiving money needs the PDV's write set.
    expectStatus(await stockist.get('/comanda'), 200);
    expect(
      (await stockist.post(`/comanda/${tab.id}/payment`, { kind: 'amount', method: 'pix', amountCents: 100 }))
        .statusCode,
    ).toBe(403);

    const other = await restaurant();
    expect((await other.api.get(`/comanda/${tab.id}`)).statusCode).toBe(404);
    expect(
      (await other.api.post(`/comanda/${tab.id}/line`, { productId: other.burger.id, quantity: 1 }))
        .statusCode,
    ).toBe(404);
    // Another client's product on my tab: refused by the catalog.
    expect((await add(admin, tab.id, other.burger.id)).statusCode).toBe(422);
  });
});
