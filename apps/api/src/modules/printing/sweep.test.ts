import { PRINT_JOB_EVENT, PRINT_STATION_EVENT, type PrintJob } from '@balcao/core/printing';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/helper.ts';
import {
  asUser,
  expectStatus,
  ONE_PRINTER_SETTINGS,
  type SocketClients,
  useTestApp,
} from '../../../test/kit.ts';
import { printJobs } from './schema.ts';
import { deliverStalePrintJobs } from './stations.ts';

const API_KEY = 'chave-de-teste';
let t: TestApp;
let sockets: SocketClients;
useTestApp({ config: { apiKey: API_KEY }, sockets: true }, (app) => ({ t, sockets } = app));

const wait = (ms: number) => new Promise((done) => setTimeout(done, ms));

describe('print delivery sweep (a background job, issue 22)', () => {
  it('hands a job left pending (its instance died before handing it out) to a connected station, once', async () => {
    const shop = await asUser(t, [1]);
    const saved = expectStatus(await shop.api.put('/printing/settings', ONE_PRINTER_SETTINGS), 200);
    const profileId = saved.profiles[0].id as number;
    const socket = await sockets.connected({ key: API_KEY, token: shop.token });
    const received: PrintJob[] = [];
    socket.on(PRINT_JOB_EVENT, (job: PrintJob) => received.push(job));
    expect(
      await socket.timeout(5000).emitWithAck(PRINT_STATION_EVENT, { name: 'Caixa', profileIds: [profileId] }),
    ).toMatchObject({
      ok: true,
    });

    // Queued by an instance that died before handing it out: a pending row nobody was told about.
    const row = (values: { key: string; ageMs: number }) => ({
      clientId: shop.client.id,
      profileId,
      kind: 'document',
      payload: { title: values.key, lines: ['1 Café'] },
      idempotencyKey: values.key,
      createdBy: shop.users[0].user.id,
      createdAt: new Date(Date.now() - values.ageMs),
    });
    const [stale] = await t.database.db
      .insert(printJobs)
      .values(row({ key: 'parado', ageMs: 30_000 }))
      .returning();
    // Just queued (kept out of the way as printed until the end of the test).
    const [fresh] = await t.database.db
      .insert(printJobs)
      .values(row({ key: 'agora', ageMs: 0 }))
      .returning();
    await t.database.db.update(printJobs).set({ status: 'printed' }).where(eq(printJobs.id, fresh.id));

    expect(await deliverStalePrintJobs(t.app.ctx)).toEqual({ shops: 1 });
    await wait(300);
    expect(received.map((job) => job.payload.title)).toEqual(['parado']);
    expect(expectStatus(await shop.api.get(`/printing/job/${stale.id}`), 200)).toMatchObject({
      status: 'sent',
      stationName: 'Caixa',
    });
    // Run again (another instance, or after a crash): nothing is printed twice.
    expect(await deliverStalePrintJobs(t.app.ctx)).toEqual({ shops: 0 });
    await wait(300);
    expect(received.map((job) => job.payload.title)).toEqual(['parado']);

    // Only fresh jobs pending: not this sweep's business.
    await t.database.db.update(printJobs).set({ status: 'pending' }).where(eq(printJobs.id, fresh.id));
    expect(await deliverStalePrintJobs(t.app.ctx)).toEqual({ shops: 0 });
  });
});
