import type { Comanda } from '@balcao/core/comanda';
import { KDS_MESSAGES, type KdsBoard } from '@balcao/core/kds';
import { PRINT_JOB_EVENT, PRINT_STATION_EVENT, type PrintJob } from '@balcao/core/printing';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/helper.ts';
import {
  type Api,
  asUser,
  expectStatus,
  joinChannel,
  makeProduct,
  nextChange,
  type SocketClients,
  useTestApp,
} from '../../../test/kit.ts';
import { kdsScreens, printJobs } from './schema.ts';
import { deliverStalePrintJobs } from './stations.ts';

const API_KEY = 'chave-de-teste';
let t: TestApp;
let sockets: SocketClients;
useTestApp({ config: { apiKey: API_KEY }, sockets: true }, (app) => ({ t, sockets } = app));

const RESTAURANT = { clientTypeId: 6 };
let seq = 0;
const key = (prefix = 'k') => ({ 'idempotency-key': `${prefix}-${process.pid}-${Date.now()}-${++seq}` });

const profile = (k: string) => ({
  key: k,
  name: k,
  paperWidth: 80,
  columns: 48,
  codePage: 'PC860',
  copies: 1,
  cut: true,
});

/** A restaurant with a Cozinha (Lanches) and a Bar (Bebidas), each with its printer. */
async function restaurant(types: number[] = [1]) {
  const shop = await asUser(t, types, RESTAURANT);
  const { api } = shop;
  const lanches = expectStatus(await api.post('/product-category', { name: 'Lanches' }), 201);
  const bebidas = expectStatus(await api.post('/product-category', { name: 'Bebidas' }), 201);
  const saved = expectStatus(
    await api.put('/printing/settings', {
      profiles: [profile('cozinha'), profile('bar')],
      sectors: [
        { key: 'cozinha', name: 'Cozinha', profileKey: 'cozinha', categoryIds: [lanches.id] },
        { key: 'bar', name: 'Bar', profileKey: 'bar', categoryIds: [bebidas.id] },
      ],
      receipt: { autoPrint: false, profileKey: null },
    }),
    200,
  );
  const burger = await makeProduct(t, shop.auth, { name: 'X-Burger', categoryId: lanches.id, stock: 50 });
  const beer = await makeProduct(t, shop.auth, { name: 'Cerveja', categoryId: bebidas.id, stock: 50 });
  const sector = (name: string) => saved.sectors.find((s: { name: string }) => s.name === name).id as number;
  const profileId = (k: string) => saved.profiles.find((p: { key: string }) => p.key === k).id as number;
  return { ...shop, burger, beer, kitchen: sector('Cozinha'), bar: sector('Bar'), profileId };
}

const open = async (api: Api): Promise<Comanda> =>
  expectStatus(await api.post('/comanda', { people: 2, tableLabel: '5' }), 201);
const add = (api: Api, id: number, productId: number, extra: Record<string, unknown> = {}) =>
  api.post(`/comanda/${id}/line`, { productId, quantity: 1, ...extra }, key('add'));
const board = async (api: Api, sectorId: number): Promise<KdsBoard> =>
  expectStatus(await api.get(`/kds/station/${sectorId}`), 200, 'kds board');

describe('the kitchen display', () => {
  it('shows one card per production send whatever the retries, doubled taps, merges and reloads', async () => {
    const shop = await restaurant();
    const { api } = shop;
    const tab = await open(api);
    expectStatus(await add(api, tab.id, shop.burger.id, { notes: 'sem cebola' }), 201);
    expectStatus(await add(api, tab.id, shop.beer.id), 201);
    const sendKey = key('send');
    // The first send, a retry and three doubled taps with the same key, at once.
    const sends = await Promise.all(
      Array.from({ length: 5 }, () => api.post(`/comanda/${tab.id}/send`, {}, sendKey)),
    );
    for (const s of sends) expect(s.statusCode).toBeLessThan(300);

    // A second tab merged into the first after its own send: its card stays one card.
    const other = await open(api);
    expectStatus(await add(api, other.id, shop.burger.id), 201);
    const otherKey = key('send');
    expectStatus(await api.post(`/comanda/${other.id}/send`, {}, otherKey), 201);
    expectStatus(await api.post(`/comanda/${tab.id}/merge`, { fromComandaId: other.id }), 200);
    // The merged tab's waiter retries its send after the merge (the phone was offline).
    expect((await api.post(`/comanda/${other.id}/send`, {}, otherKey)).statusCode).toBeLessThan(300);

    // Two screens, or one reloaded mid-rush: the same cards.
    const first = await board(api, shop.kitchen);
    const reloaded = await board(api, shop.kitchen);
    expect(reloaded.tickets).toEqual(first.tickets);
    expect(first.tickets).toHaveLength(2);
    expect(first.tickets[0]).toMatchObject({
      title: `Cozinha - Comanda ${tab.number} · Mesa 5`,
      items: [{ quantity: 1, description: 'X-Burger', notes: 'sem cebola', ready: false }],
      readyAt: null,
    });
    expect(first.tickets[1].title).toBe(`Cozinha - Comanda ${other.number} · Mesa 5`);
    expect(first.tickets[0].id).toBeLessThan(first.tickets[1].id);
    const bar = await board(api, shop.bar);
    expect(bar.tickets.map((c) => c.items.map((i) => i.description))).toEqual([['Cerveja']]);
    expect(first.settings).toEqual({ warnMinutes: 10, lateMinutes: 20, silenceSeconds: 60 });
  });

  it("a send's lines, the send and its tickets commit together: a failed ticket write leaves the lines unsent, the retry prints once", async () => {
    const shop = await restaurant();
    const { api } = shop;
    const tab = await open(api);
    expectStatus(await add(api, tab.id, shop.burger.id, { notes: 'ao ponto' }), 201);
    expectStatus(await add(api, tab.id, shop.beer.id), 201);
    // The database refuses this shop's tickets (a full disk, a lost connection mid-send).
    await t.database.db.execute(
      sql.raw(`create or replace function kds_test_refuse() returns trigger language plpgsql as $$
        begin if new.client_id = ${shop.client.id} then raise exception 'disco cheio'; end if; return new; end $$`),
    );
    await t.database.db.execute(
      sql.raw(
        'create trigger kds_test_refuse before insert on print_jobs for each row execute function kds_test_refuse()',
      ),
    );
    const sendKey = key('send');
    try {
      const failed = await api.post(`/comanda/${tab.id}/send`, {}, sendKey);
      expect(failed.statusCode).toBeGreaterThanOrEqual(500);
    } finally {
      await t.database.db.execute(sql.raw('drop trigger kds_test_refuse on print_jobs'));
    }
    // Nothing of the send stayed: its lines are still to send, no send on the tab, no card.
    const after = expectStatus<Comanda>(await api.get(`/comanda/${tab.id}`), 200);
    expect(after.lines.map((l) => l.sentAt)).toEqual([null, null]);
    expect(after.sends).toEqual([]);
    expect((await board(api, shop.kitchen)).tickets).toEqual([]);

    // The phone retries (the same key), then taps again: one send, one card per sector.
    const sent = expectStatus(await api.post(`/comanda/${tab.id}/send`, {}, sendKey), 201);
    const again = await api.post(`/comanda/${tab.id}/send`, {}, sendKey);
    expect(again.statusCode).toBeLessThan(300);
    expect(again.json().send.id).toBe(sent.send.id);
    expect(sent.send.jobs.map((j: { title: string }) => j.title).sort()).toEqual([
      `Bar - Comanda ${tab.number} · Mesa 5`,
      `Cozinha - Comanda ${tab.number} · Mesa 5`,
    ]);
    const kitchen = await board(api, shop.kitchen);
    expect(kitchen.tickets.map((c) => c.items.map((i) => `${i.description} ${i.notes}`))).toEqual([
      ['X-Burger ao ponto'],
    ]);
    expect((await board(api, shop.bar)).tickets).toHaveLength(1);
    const sentTab = expectStatus<Comanda>(await api.get(`/comanda/${tab.id}`), 200);
    expect(sentTab.lines.every((l) => l.sentAt !== null)).toBe(true);
    expect(sentTab.events.filter((e) => e.kind === 'sent').map((e) => e.text)).toEqual([
      'Enviou 2 itens para a produção',
    ]);
  });

  it('shows every open ticket of a busy night: the 250th order too, the oldest first (issue 35 bench)', async () => {
    const shop = await restaurant();
    const tab = await open(shop.api);
    expectStatus(await add(shop.api, tab.id, shop.burger.id), 201);
    expectStatus(await shop.api.post(`/comanda/${tab.id}/send`, {}, key('send')), 201);
    const [first] = await t.database.db.select().from(printJobs).where(eq(printJobs.sectorId, shop.kitchen));
    // 249 more open tickets of the station (as many sends): 250 in all.
    await t.database.db.insert(printJobs).values(
      Array.from({ length: 249 }, (_, i) => ({
        ...first,
        id: undefined,
        idempotencyKey: `bench-${shop.client.id}-${i}`,
        payload: { title: `Pedido ${i + 2}`, lines: [`Pedido ${i + 2}`] },
      })),
    );
    const shown = (await board(shop.api, shop.kitchen)).tickets;
    expect(shown).toHaveLength(250);
    expect(shown[0].id).toBe(first.id);
    expect(shown.at(-1)?.title).toBe('Pedido 250');
  });

  it('bumps a line, then the ticket; the comanda sees "pronto" live; a double tap changes nothing; recall brings it back', async () => {
    const shop = await restaurant();
    const { api } = shop;
    const tab = await open(api);
    expectStatus(await add(api, tab.id, shop.burger.id), 201);
    expectStatus(await add(api, tab.id, shop.burger.id, { notes: 'bem passado' }), 201);
    expectStatus(await api.post(`/comanda/${tab.id}/send`, {}, key('send')), 201);
    const [card] = (await board(api, shop.kitchen)).tickets;
    expect(card.items).toHaveLength(2);

    const watcher = await sockets.connected({ key: API_KEY, token: shop.token });
    expect(await joinChannel(watcher, `notifications_${shop.client.id}`)).toMatchObject({ ok: true });
    const lineChange = nextChange(watcher, 'comanda', 3000);
    const line = expectStatus(await api.post(`/kds/ticket/${card.id}/ready`, { line: 1 }), 200);
    expect(await lineChange).toMatchObject({ resource: 'comanda' });
    expect(line.items.map((i: { ready: boolean }) => i.ready)).toEqual([false, true]);
    expect(line.readyAt).toBeNull();

    const missing = await api.post(`/kds/ticket/${card.id}/ready`, { line: 7 });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe(KDS_MESSAGES.lineNotFound);

    // The whole ticket, tapped twice at once: ready once, the card leaves the screen.
    const whole = await Promise.all([
      api.post(`/kds/ticket/${card.id}/ready`, {}),
      api.post(`/kds/ticket/${card.id}/ready`, {}),
    ]);
    const [a, b] = whole.map((r) => expectStatus(r, 200));
    expect(a.readyAt).not.toBeNull();
    expect(b.readyAt).toBe(a.readyAt);
    const after = await board(api, shop.kitchen);
    expect(after.tickets).toEqual([]);
    expect(after.lastReady?.id).toBe(card.id);
    // The waiter's tab shows the sector's ticket ready.
    const read: Comanda = expectStatus(await api.get(`/comanda/${tab.id}`), 200);
    expect(read.sends[0].jobs.find((j) => j.id === card.id)?.readyAt).toBe(a.readyAt);

    const recalled = expectStatus(await api.post(`/kds/station/${shop.kitchen}/recall`, {}), 200);
    expect(recalled).toMatchObject({ id: card.id, readyAt: null });
    expect(recalled.items.every((i: { ready: boolean }) => !i.ready)).toBe(true);
    expect((await board(api, shop.kitchen)).tickets.map((c) => c.id)).toEqual([card.id]);
    const nothing = await api.post(`/kds/station/${shop.bar}/recall`, {});
    expect(nothing.statusCode).toBe(404);
    expect(nothing.json().message).toBe(KDS_MESSAGES.nothingToRecall);
  });

  it('keeps tickets off the printer while its screen is alive, and prints them when it falls silent', async () => {
    const shop = await restaurant();
    const { api } = shop;
    const printer = await sockets.connected({ key: API_KEY, token: shop.token });
    const received: PrintJob[] = [];
    printer.on(PRINT_JOB_EVENT, (job: PrintJob) => received.push(job));
    const joined = await printer
      .timeout(5000)
      .emitWithAck(PRINT_STATION_EVENT, { name: 'Cozinha', profileIds: [shop.profileId('cozinha')] });
    expect(joined.ok).toBe(true);

    expectStatus(await api.post(`/kds/station/${shop.kitchen}/heartbeat`, {}), 200);
    const tab = await open(api);
    expectStatus(await add(api, tab.id, shop.burger.id), 201);
    expectStatus(await api.post(`/comanda/${tab.id}/send`, {}, key('send')), 201);
    const [card] = (await board(api, shop.kitchen)).tickets;
    expect(card.printed).toBe(false);
    await deliverStalePrintJobs(t.app.ctx);
    await new Promise((done) => setTimeout(done, 200));
    expect(received).toEqual([]);

    // The screen goes silent for longer than the shop's limit (60 s): the sweep prints its tickets.
    await t.database.db
      .update(kdsScreens)
      .set({ lastSeenAt: new Date(Date.now() - 61_000) })
      .where(eq(kdsScreens.sectorId, shop.kitchen));
    await t.database.db
      .update(printJobs)
      .set({ createdAt: new Date(Date.now() - 10_000) })
      .where(eq(printJobs.id, card.id));
    await deliverStalePrintJobs(t.app.ctx);
    const end = Date.now() + 3000;
    while (received.length === 0 && Date.now() < end) await new Promise((done) => setTimeout(done, 20));
    expect(received.map((j) => j.id)).toEqual([card.id]);
    // And the screen says so when it comes back.
    const back = await board(api, shop.kitchen);
    expect(back.station.printing).toBe(true);
    expect(back.tickets).toMatchObject([{ id: card.id, printed: true }]);
    const { stations } = expectStatus(await api.get('/kds/stations'), 200);
    expect(stations.find((s: { id: number }) => s.id === shop.kitchen).printing).toBe(true);

    // A ticket bumped on the screen never goes to the printer.
    expectStatus(await api.post(`/kds/station/${shop.kitchen}/heartbeat`, {}), 200);
    const second = await open(api);
    expectStatus(await add(api, second.id, shop.burger.id), 201);
    expectStatus(await api.post(`/comanda/${second.id}/send`, {}, key('send')), 201);
    const fresh = (await board(api, shop.kitchen)).tickets.find((c) => c.id !== card.id);
    expectStatus(await api.post(`/kds/ticket/${fresh?.id}/ready`, {}), 200);
    await t.database.db
      .update(kdsScreens)
      .set({ lastSeenAt: new Date(Date.now() - 61_000) })
      .where(eq(kdsScreens.sectorId, shop.kitchen));
    await t.database.db
      .update(printJobs)
      .set({ createdAt: new Date(Date.now() - 10_000) })
      .where(eq(printJobs.id, fresh?.id ?? 0));
    await deliverStalePrintJobs(t.app.ctx);
    await new Promise((done) => setTimeout(done, 200));
    expect(received.map((j) => j.id)).toEqual([card.id]);
  });

  it("keeps a shop's screens to itself and to the staff who work the floor; validates the targets", async () => {
    const shop = await restaurant([1, 9, 5]);
    const other = await restaurant();
    const tab = await open(shop.api);
    expectStatus(await add(shop.api, tab.id, shop.burger.id), 201);
    expectStatus(await shop.api.post(`/comanda/${tab.id}/send`, {}, key('send')), 201);
    const [card] = (await board(shop.api, shop.kitchen)).tickets;

    const foreign = await other.api.get(`/kds/station/${shop.kitchen}`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe(KDS_MESSAGES.stationNotFound);
    const bump = await other.api.post(`/kds/ticket/${card.id}/ready`, {});
    expect(bump.statusCode).toBe(404);
    expect(bump.json().message).toBe(KDS_MESSAGES.ticketNotFound);
    expect((await other.api.post(`/kds/station/${shop.kitchen}/heartbeat`, {})).statusCode).toBe(404);
    expect((await board(other.api, other.kitchen)).tickets).toEqual([]);
    // Marketing does not work the kitchen.
    expect((await shop.apis[1].get(`/kds/station/${shop.kitchen}`)).statusCode).toBe(403);
    // Nor the garçom: he sees "Pronto" on his tabs (issue 30 keeps his menu to the waiter PDV and tabs).
    expect((await shop.apis[2].post(`/kds/ticket/${card.id}/ready`, {})).statusCode).toBe(403);

    const wrong = await shop.api.put('/kds/settings', {
      warnMinutes: 15,
      lateMinutes: 10,
      silenceSeconds: 60,
    });
    expect(wrong.statusCode).toBe(400);
    expect(JSON.stringify(wrong.json())).toContain(KDS_MESSAGES.targets);
    const saved = expectStatus(
      await shop.api.put('/kds/settings', { warnMinutes: 5, lateMinutes: 12, silenceSeconds: 30 }),
      200,
    );
    expect(saved).toEqual({ warnMinutes: 5, lateMinutes: 12, silenceSeconds: 30 });
    expect((await board(shop.api, shop.kitchen)).settings).toEqual(saved);
    expect((await board(other.api, other.kitchen)).settings.warnMinutes).toBe(10);
  });
});
