import { PRINT_JOB_EVENT, PRINT_STATION_EVENT, type PrintJob } from '@balcao/core/printing';
import { formatInZone } from '@balcao/core/time';
import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import type { TestApp } from '../../../test/helper.ts';
import {
  asUser,
  expectStatus,
  makeProduct,
  makeSale,
  makeShop,
  type SocketClients,
  useTestApp,
} from '../../../test/kit.ts';
import { clients } from '../../db/schema.ts';
import { printJobs } from './schema.ts';
import { deliverWaitingJobs } from './stations.ts';

const API_KEY = 'chave-de-teste';

let t: TestApp;
let sockets: SocketClients;
useTestApp({ config: { apiKey: API_KEY }, sockets: true }, (app) => ({ t, sockets } = app));

const profile = (key: string, overrides: Record<string, unknown> = {}) => ({
  key,
  name: `Impressora ${key}`,
  paperWidth: 80,
  columns: 48,
  codePage: 'PC860',
  copies: 1,
  cut: true,
  ...overrides,
});

function settingsBody(overrides: Record<string, unknown> = {}) {
  return {
    profiles: [profile('caixa'), profile('cozinha', { name: 'Cozinha', paperWidth: 58, columns: 32 })],
    sectors: [{ key: 'cozinha', name: 'Cozinha', profileKey: 'cozinha', categoryIds: [] }],
    receipt: { autoPrint: false, profileKey: null },
    ...overrides,
  };
}

/** A shop with the two profiles saved: its api and the profiles' ids by key. */
async function shopWithProfiles(types = [1]) {
  const shop = await asUser(t, types);
  const saved = expectStatus(await shop.api.put('/printing/settings', settingsBody()), 200, 'save settings');
  const ids = Object.fromEntries(saved.profiles.map((p: { key: string; id: number }) => [p.key, p.id]));
  return { shop, saved, ids: ids as Record<string, number> };
}

/** A station socket of the user printing `profileIds`: every job it receives is collected. */
async function station(token: string, name: string, profileIds: number[]) {
  const socket = await sockets.connected({ key: API_KEY, token });
  const received: PrintJob[] = [];
  socket.on(PRINT_JOB_EVENT, (job: PrintJob) => received.push(job));
  const answer = await socket.timeout(5000).emitWithAck(PRINT_STATION_EVENT, { name, profileIds });
  return { socket, received, answer: answer as { ok: boolean; message?: string } };
}

const wait = (ms: number) => new Promise((done) => setTimeout(done, ms));
async function until(check: () => boolean, ms = 3000) {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await wait(20);
}

const jobBody = (profileId: number, key: string) => ({
  profileId,
  kind: 'document',
  payload: { title: 'Teste', lines: ['Linha 1', 'Linha 2'] },
  idempotencyKey: key,
});

describe('printer settings', () => {
  it('saves profiles, sectors with categories and receipt options, with who saved them', async () => {
    const shop = await asUser(t, [1]);
    const category = expectStatus(await shop.api.post('/product-category', { name: 'Lanches' }), 201);
    const empty = expectStatus(await shop.api.get('/printing/settings'), 200);
    expect(empty).toEqual({
      profiles: [],
      sectors: [],
      receipt: { autoPrint: false, profileKey: null },
      updatedAt: null,
      updatedBy: null,
    });
    const body = settingsBody({
      sectors: [{ key: 'cozinha', name: 'Cozinha', profileKey: 'cozinha', categoryIds: [category.id] }],
      receipt: { autoPrint: true, profileKey: 'caixa' },
    });
    const saved = expectStatus(await shop.api.put('/printing/settings', body), 200);
    expect(saved.profiles.map((p: { name: string }) => p.name)).toEqual(['Impressora caixa', 'Cozinha']);
    expect(saved.sectors).toEqual([
      {
        id: expect.any(Number),
        key: 'cozinha',
        name: 'Cozinha',
        profileKey: 'cozinha',
        categoryIds: [category.id],
      },
    ]);
    expect(saved.receipt).toEqual({ autoPrint: true, profileKey: 'caixa' });
    expect(saved.updatedBy).toEqual({ id: shop.users[0].user.id, name: 'Usuário 1' });

    // Without the version it was read at, a second save is refused; with a stale one, 409.
    expect((await shop.api.put('/printing/settings', body)).statusCode).toBe(400);
    const next = expectStatus(
      await shop.api.put('/printing/settings', {
        ...body,
        profiles: [profile('caixa')],
        sectors: [],
        receipt: { autoPrint: false, profileKey: null },
        updatedAt: saved.updatedAt,
      }),
      200,
    );
    expect(next.profiles.map((p: { key: string }) => p.key)).toEqual(['caixa']);
    expect(next.profiles[0].id).toBe(saved.profiles[0].id);
    const stale = await shop.api.put('/printing/settings', { ...body, updatedAt: saved.updatedAt });
    expect(stale.statusCode).toBe(409);
  });

  it('answers each invalid setting with its Portuguese message on its field', async () => {
    const shop = await asUser(t, [2]);
    const res = await shop.api.put(
      '/printing/settings',
      settingsBody({
        profiles: [
          profile('a', { paperWidth: 58, columns: 48 }),
          profile('b', { name: 'Impressora A', copies: 9 }),
        ],
        sectors: [
          { key: 's1', name: 'Bar', profileKey: 'x', categoryIds: [1] },
          { key: 's2', name: 'bar', profileKey: null, categoryIds: [1] },
        ],
        receipt: { autoPrint: true, profileKey: null },
      }),
    );
    expect(res.statusCode).toBe(400);
    const issues = res.json().issues as { path: string; message: string }[];
    expect(issues).toEqual(
      expect.arrayContaining([
        { path: 'profiles.0.columns', message: 'Papel de 58 mm imprime no máximo 42 colunas' },
        { path: 'profiles.1.copies', message: 'Imprima no máximo 5 cópias' },
        { path: 'sectors.0.profileKey', message: 'Perfil de impressora não encontrado' },
        { path: 'sectors.1.name', message: 'Já existe um setor com este nome' },
        { path: 'sectors.1.categoryIds', message: 'Uma categoria só pode estar em um setor' },
        {
          path: 'receipt.profileKey',
          message: 'Escolha a impressora do cupom para imprimir automaticamente',
        },
      ]),
    );
  });

  it("refuses another shop's category, and keeps writes to Administrador and Gerente", async () => {
    const shop = await asUser(t, [1, 3, 5]);
    const other = await asUser(t, [1]);
    const foreign = expectStatus(await other.api.post('/product-category', { name: 'Bebidas' }), 201);
    const res = await shop.api.put(
      '/printing/settings',
      settingsBody({ sectors: [{ key: 'bar', name: 'Bar', profileKey: null, categoryIds: [foreign.id] }] }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Categoria não encontrada');

    const [, seller, waiter] = shop.apis;
    expect((await seller.get('/printing/settings')).statusCode).toBe(200);
    expect((await seller.put('/printing/settings', settingsBody())).statusCode).toBe(403);
    expect((await waiter.get('/printing/settings')).statusCode).toBe(403);
  });
});

describe('print jobs and stations', () => {
  it('delivers a job to exactly one of two stations, once, and a retried send does not print again', async () => {
    const { shop, ids } = await shopWithProfiles([1, 4]);
    const a = await station(shop.users[0].token, 'Caixa 1', [ids.caixa]);
    const b = await station(shop.users[1].token, 'Caixa 2', [ids.caixa]);
    expect(a.answer.ok).toBe(true);
    expect(b.answer.ok).toBe(true);
    const stations = expectStatus(await shop.api.get('/printing/stations'), 200);
    expect(stations.map((s: { name: string }) => s.name).sort()).toEqual(['Caixa 1', 'Caixa 2']);

    const first = await shop.api.post('/printing/job', jobBody(ids.caixa, 'envio-unico-1'));
    expect(first.statusCode).toBe(201);
    const job = first.json() as PrintJob;
    await until(() => a.received.length + b.received.length > 0);
    // The same send again (a retried request): the same job, nothing new printed.
    const again = await shop.api.post('/printing/job', jobBody(ids.caixa, 'envio-unico-1'));
    expect(again.statusCode).toBe(200);
    expect(again.json().id).toBe(job.id);
    await wait(300);
    const all = [...a.received, ...b.received];
    expect(all.map((j) => j.id)).toEqual([job.id]);
    expect(all[0].payload.lines).toEqual(['Linha 1', 'Linha 2']);
    expect(all[0].profile).toMatchObject({ id: ids.caixa, paperWidth: 80, columns: 48 });

    const printer = a.received.length ? shop.apis[0] : shop.apis[1];
    const printed = expectStatus(await printer.post(`/printing/job/${job.id}/printed`), 200);
    expect(printed).toMatchObject({ status: 'printed', attempts: 1 });
    expect(printed.stationName).toBe(a.received.length ? 'Caixa 1' : 'Caixa 2');
    // Confirming twice is harmless; retrying a printed job is refused (a copy is a reprint).
    expect(expectStatus(await printer.post(`/printing/job/${job.id}/printed`), 200).status).toBe('printed');
    const retry = await shop.api.post(`/printing/job/${job.id}/retry`);
    expect(retry.statusCode).toBe(409);
    expect(retry.json().message).toBe('Esta impressão já foi feita: use Reimprimir para outra cópia');
  });

  it('a job that finds no station waits and prints when a station of its profile connects', async () => {
    const { shop, ids } = await shopWithProfiles([1]);
    // A station of another profile does not take it.
    const bar = await station(shop.token, 'Bar', [ids.cozinha]);
    const queued = expectStatus(await shop.api.post('/printing/job', jobBody(ids.caixa, 'espera-1')), 201);
    expect(queued.status).toBe('pending');
    await wait(200);
    expect(bar.received).toEqual([]);

    const caixa = await station(shop.token, 'Caixa', [ids.caixa]);
    await until(() => caixa.received.length > 0);
    expect(caixa.received.map((j) => j.id)).toEqual([queued.id]);
    expect(expectStatus(await shop.api.get(`/printing/job/${queued.id}`), 200)).toMatchObject({
      status: 'sent',
      stationName: 'Caixa',
    });
    expect(bar.received).toEqual([]);
  });

  it('routes a sector job to its profile, shows a failure to the sender and sends it again on retry', async () => {
    const { shop, saved, ids } = await shopWithProfiles([1]);
    const sectorId = saved.sectors[0].id as number;
    const kitchen = await station(shop.token, 'Cozinha', [ids.cozinha]);
    const job = expectStatus(
      await shop.api.post('/printing/job', {
        sectorId,
        kind: 'ticket',
        payload: { title: 'Comanda 12', lines: ['1 X-Burger'] },
        idempotencyKey: 'comanda-12-cozinha',
      }),
      201,
    );
    await until(() => kitchen.received.length > 0);
    expect(kitchen.received[0]).toMatchObject({ id: job.id, sectorId, profile: { id: ids.cozinha } });
    const failed = expectStatus(
      await shop.api.post(`/printing/job/${job.id}/failed`, { error: 'Sem papel' }),
      200,
    );
    expect(failed).toMatchObject({ status: 'failed', error: 'Sem papel' });
    const mine = expectStatus(await shop.api.get('/printing/jobs?mine=true'), 200);
    expect(mine.find((j: PrintJob) => j.id === job.id)).toMatchObject({ status: 'failed' });

    const retried = expectStatus(await shop.api.post(`/printing/job/${job.id}/retry`), 200);
    await until(() => kitchen.received.length > 1);
    expect(kitchen.received.map((j) => j.id)).toEqual([job.id, job.id]);
    expect(retried).toMatchObject({ status: 'sent', attempts: 2, error: null });
  });

  it('prints a test page per profile and marks an explicit reprint REIMPRESSÃO', async () => {
    const { shop, ids } = await shopWithProfiles([1]);
    const caixa = await station(shop.token, 'Caixa', [ids.caixa, ids.cozinha]);
    const test = expectStatus(
      await shop.api.post(`/printing/profile/${ids.cozinha}/test`, { idempotencyKey: 'teste-cozinha-1' }),
      201,
    );
    expect(test.kind).toBe('test');
    expect(test.payload.lines[0].trim()).toBe('PÁGINA DE TESTE');
    expect(test.payload.lines).toContain('Colunas: 32');
    expect(test.payload.lines.every((l: string) => l.length <= 32)).toBe(true);
    // A double click (same key) is one page.
    expect(
      (
        await shop.api.post(`/printing/profile/${ids.cozinha}/test`, { idempotencyKey: 'teste-cozinha-1' })
      ).json().id,
    ).toBe(test.id);

    const reprint = expectStatus(
      await shop.api.post(`/printing/job/${test.id}/reprint`, { idempotencyKey: 'reimpressao-1' }),
      201,
    );
    expect(reprint.id).not.toBe(test.id);
    expect(reprint.reprintOf).toBe(test.id);
    expect(reprint.payload.title).toBe('REIMPRESSÃO: Página de teste: Cozinha');
    expect(reprint.payload.lines[0].trim()).toBe('*** REIMPRESSÃO ***');
    expect(reprint.payload.lines.slice(1)).toEqual(test.payload.lines);
    await until(() => caixa.received.length >= 2);
    expect(caixa.received.map((j) => j.id)).toEqual([test.id, reprint.id]);
  });

  it('keeps stations and jobs inside their shop', async () => {
    const { shop, ids } = await shopWithProfiles([1]);
    const other = await asUser(t, [1]);
    const intruder = await station(other.token, 'Intrusa', [ids.caixa]);
    expect(intruder.answer).toEqual({ ok: false, message: 'Perfil de impressora não encontrado' });
    const job = expectStatus(await shop.api.post('/printing/job', jobBody(ids.caixa, 'loja-envio-1')), 201);
    expect((await other.api.get(`/printing/job/${job.id}`)).statusCode).toBe(404);
    expect((await other.api.post(`/printing/job/${job.id}/printed`)).statusCode).toBe(404);
    expect((await other.api.post('/printing/job', jobBody(ids.caixa, 'loja-envio-2'))).statusCode).toBe(404);
    expect(await other.api.get('/printing/stations').then((r) => r.json())).toEqual([]);
  });

  it('prints the sale receipt automatically when the option is on, once per sale, on the shop clock', async () => {
    const shop = await makeShop(t, [1]);
    // A shop in Manaus: the receipt shows its clock, not São Paulo's.
    await t.database.db
      .update(clients)
      .set({ timeZone: 'America/Manaus' })
      .where(eq(clients.id, shop.client.id));
    const saved = expectStatus(
      await shop.api.put(
        '/printing/settings',
        settingsBody({ receipt: { autoPrint: true, profileKey: 'cozinha' } }),
      ),
      200,
    );
    const profileId = saved.profiles.find((p: { key: string }) => p.key === 'cozinha').id as number;
    const counter = await station(shop.token, 'Balcão', [profileId]);
    const product = await makeProduct(t, shop.auth, { name: 'Café coado', salePriceCents: 700, stock: 10 });
    const sale = await makeSale(t, shop.auth, {
      items: [{ productId: product.id, quantity: 2 }],
      payments: [{ method: 'pix', amountCents: 1400 }],
    });
    await until(() => counter.received.length > 0);
    expect(counter.received).toHaveLength(1);
    const receipt = counter.received[0];
    expect(receipt.kind).toBe('receipt');
    expect(receipt.payload.title).toBe(`Venda nº ${sale.number}`);
    expect(receipt.payload.lines.some((l) => l.includes('CUPOM NÃO FISCAL'))).toBe(true);
    expect(receipt.payload.lines.some((l) => l.includes('Café coado'))).toBe(true);
    expect(receipt.payload.lines.every((l) => l.length <= 32)).toBe(true);
    const soldAt = receipt.payload.lines.find((l) => l.startsWith(`Venda nº ${sale.number}`));
    expect(soldAt?.endsWith(formatInZone(sale.createdAt, 'America/Manaus'))).toBe(true);

    // With the option off, a sale prints nothing.
    expectStatus(
      await shop.api.put('/printing/settings', {
        ...settingsBody({ receipt: { autoPrint: false, profileKey: null } }),
        updatedAt: saved.updatedAt,
      }),
      200,
    );
    await makeSale(t, shop.auth, {
      items: [{ productId: product.id, quantity: 1 }],
      payments: [{ method: 'pix', amountCents: 700 }],
    });
    await wait(300);
    expect(counter.received).toHaveLength(1);
  });
});

describe('20 hand-outs asked at once (issue 36: 20 waiters tapping Enviar, bench/kitchen-print.ts)', () => {
  it('each job goes to the station once, claimed in one UPDATE for the station: the passes do not race over the same jobs', async () => {
    const { shop, ids } = await shopWithProfiles();
    const kitchen = await station(shop.users[0].token, 'Cozinha', [ids.cozinha]);
    expect(kitchen.answer.ok).toBe(true);
    // 20 tickets waiting, as 20 sends leave them an instant before each asks for its hand-out.
    const queued = await t.database.db
      .insert(printJobs)
      .values(
        Array.from({ length: 20 }, (_, i) => ({
          clientId: shop.client.id,
          profileId: ids.cozinha,
          kind: 'ticket',
          payload: { title: `Comanda ${i + 1}`, lines: ['1 x X-Burger'] },
          idempotencyKey: `envio-lote-${i}`,
          createdBy: shop.users[0].user.id,
        })),
      )
      .returning({ id: printJobs.id });
    const update = vi.spyOn(t.database.db, 'update');
    try {
      await Promise.all(queued.map(() => deliverWaitingJobs(t.app.ctx, shop.client.id)));
      // Every call returned after the jobs were handed out.
      const rows = await t.database.db
        .select({ status: printJobs.status })
        .from(printJobs)
        .where(
          inArray(
            printJobs.id,
            queued.map((q) => q.id),
          ),
        );
      expect(rows.map((r) => r.status)).toEqual(Array(20).fill('sent'));
      await until(() => kitchen.received.length >= 20);
      expect(kitchen.received.map((j) => j.id).sort((a, b) => a - b)).toEqual(queued.map((q) => q.id));
      // One claiming UPDATE for the station's 20 jobs and one read of them (it was an UPDATE and a read
      // per job, 40 round trips in a row; 20 passes at once each tried all 20: up to 400).
      expect(update.mock.calls.length).toBe(1);
    } finally {
      update.mockRestore();
      kitchen.socket.close();
    }
  });
});
