import {
  minutesOf,
  OPT_OUT_LINE,
  PACING_DEFAULTS,
  PAUSE_REASONS,
  WARMUP_DAILY_CAPS,
} from '@balcao/core/campaign';
import { isoToShopLocal } from '@balcao/core/time';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { FakeEvolution } from '../../../test/fakes/evolution.ts';
import { createClientWithUsers, type TestApp } from '../../../test/helper.ts';
import { api, expectStatus, useTestApp } from '../../../test/kit.ts';
import { type App, buildApp } from '../../app.ts';
import { clients, whatsappInstances } from '../../db/schema.ts';
import { customers } from '../customer/schema.ts';
import { settledConnectionChecks } from '../whatsapp/instance.ts';
import { campaignRecipients } from './schema.ts';
import { estimateEnd } from './service.ts';
import {
  claimNext,
  deliver,
  recoverInterrupted,
  sendNext,
  startDueCampaigns,
  type TickResult,
} from './worker.ts';

let t: TestApp;
let evolution: FakeEvolution;
useTestApp({ evolution: true }, (app) => ({ t, evolution } = app));

/** A controllable clock for the worker. */
function fakeClock(start = Date.UTC(2026, 10, 23, 12, 0, 0)) {
  let now = start;
  return {
    now: () => new Date(now),
    set: (d: Date) => {
      now = Math.max(now, d.getTime());
    },
    advance: (ms: number) => {
      now += ms;
    },
  };
}
type FakeClock = ReturnType<typeof fakeClock>;

/** Runs the engine until nothing is left to send (or `until` says stop), jumping the clock over waits. */
async function drain(
  app: { ctx: App['ctx'] },
  clock: FakeClock,
  until: (last: TickResult) => boolean = () => false,
  maxSteps = 5000,
) {
  for (let i = 0; i < maxSteps; i++) {
    const result = await sendNext(app.ctx, { clock, random: () => 0.5 });
    if (until(result)) return result;
    if (result.kind === 'idle') {
      if (!result.nextAt) return result;
      clock.set(result.nextAt);
    }
  }
  throw new Error('drain did not end');
}

let phoneSeq = 1000;
/** Customers with WhatsApp numbers (registered in the fake unless told). */
async function addCustomers(
  clientId: number,
  n: number,
  extra: Partial<typeof customers.$inferInsert> = {},
  registered = true,
) {
  const rows = Array.from({ length: n }, (_, i) => {
    const phone = `55119${String(++phoneSeq).padStart(8, '0')}`;
    return { clientId, name: `Cliente ${i + 1} Teste`, whatsappValid: true, ...extra, phone };
  });
  await t.database.db.insert(customers).values(rows);
  if (registered) for (const r of rows) evolution.registered.push(r.phone);
  return rows.map((r) => r.phone);
}

/**
 * A shop whose instance was created and connected through the API and the fake's webhook. `warm`:
 * its number connected weeks ago (the warm-up is over), written as a past date, not slept.
 */
async function connectedShop(types = [1, 9], { warm = true } = {}) {
  const shop = await createClientWithUsers(t, types);
  const a = api(t, shop.auth);
  expectStatus(await a.post('/whatsapp/instance'), 201, 'create instance');
  await evolution.scan(`balcao-${shop.client.id}`);
  // The connection checks the shop's unchecked numbers in the background: let it end before a test adds
  // customers, or it may check some of them first.
  await settledConnectionChecks();
  if (warm)
    await t.database.db
      .update(whatsappInstances)
      .set({ warmupStartedAt: new Date(Date.now() - 60 * 86_400_000) })
      .where(eq(whatsappInstances.clientId, shop.client.id));
  return { ...shop, a, instance: `balcao-${shop.client.id}` };
}

/** Minutes since midnight of an instant in the shop's zone (São Paulo, the test shops' default). */
const shopMinutes = (at: Date | number) =>
  minutesOf(isoToShopLocal(new Date(at).toISOString(), 'America/Sao_Paulo').slice(11, 16));

async function makeCampaign(a: ReturnType<typeof api>, body: Record<string, unknown> = {}) {
  return expectStatus(
    await a.post('/campaign', {
      name: 'Promoção de novembro',
      message: 'Olá {primeiro_nome}, novidades na {loja}!',
      ...body,
    }),
    201,
    'campaign',
  );
}

/** Pacing fast enough for a test: 3 s between messages, a pause every 50, caps far off. */
const FAST_PACING = {
  minDelaySeconds: 3,
  maxDelaySeconds: 3,
  pauseEvery: 50,
  pauseSeconds: 10,
  hourlyCap: 60,
  dailyCap: 500,
};

/** A campaign to the whole audience with `pacing`, started. */
async function startCampaign(a: ReturnType<typeof api>, pacing: Record<string, unknown> = FAST_PACING) {
  const campaign = await makeCampaign(a, { pacing });
  expectStatus(await a.post(`/campaign/${campaign.id}/start`), 200);
  return campaign;
}

const sentTo = (instance: string) =>
  evolution.sent.filter((m) => m.instance === instance).map((m) => m.number);

describe('whatsapp instance', () => {
  it('creates the instance (QR), opens by the webhook, keeps the key out of every answer', async () => {
    const shop = await createClientWithUsers(t, [1]);
    const a = api(t, shop.auth);
    const before = expectStatus(await a.get('/whatsapp/instance'), 200);
    expect(before).toMatchObject({ created: false, state: 'close' });

    const created = expectStatus(await a.post('/whatsapp/instance'), 201);
    expect(created.instance).toMatchObject({ created: true, state: 'connecting' });
    expect(created.qr.base64).toMatch(/^data:image\/png;base64,/);
    const name = `balcao-${shop.client.id}`;
    const token = evolution.instances.get(name)?.token as string;
    // The key is stored sealed, never in clear, never answered.
    const [row] = await t.database.db
      .select()
      .from(whatsappInstances)
      .where(eq(whatsappInstances.instanceName, name));
    expect(row.instanceKey).toBeTruthy();
    expect(row.instanceKey).not.toContain(token);
    expect(JSON.stringify(created)).not.toContain(token);

    expect(expectStatus(await a.post('/whatsapp/instance'), 409).message).toBe(
      'A instância do WhatsApp já foi criada.',
    );

    const refreshed = expectStatus(await a.post('/whatsapp/instance/connect', {}), 200);
    expect(refreshed.qr.count).toBe(2);
    const pairing = expectStatus(
      await a.post('/whatsapp/instance/connect', { number: '(11) 98765-4321' }),
      200,
    );
    expect(pairing.qr.pairingCode).toMatch(/^[0-9A-F]{8}$/);

    await evolution.scan(name);
    const open = expectStatus(await a.get('/whatsapp/instance'), 200);
    expect(open).toMatchObject({ state: 'open', phone: '5511987654321', profileName: 'Loja Demo' });
    await expect
      .poll(async () => (await a.get('/whatsapp/instance')).json().profilePictureUrl)
      .toContain('fake-profile');

    const session = expectStatus(await a.get('/user/me'), 200);
    expect(session.whatsappInstance).toMatchObject({ state: 'open', phone: '5511987654321' });
    expect(JSON.stringify(session)).not.toContain(token);

    const connectedNow = expectStatus(await a.post('/whatsapp/instance/connect', {}), 200);
    expect(connectedNow.qr).toBeNull();

    evolution.registered.push('5511911112222');
    expect(
      expectStatus(await a.post('/whatsapp/instance/test', { number: '11 91111-2222', text: 'Teste' }), 200)
        .id,
    ).toBeTruthy();
    expect(evolution.sent.at(-1)).toMatchObject({ number: '5511911112222', text: 'Teste' });
    const notOn = await a.post('/whatsapp/instance/test', { number: '11 93333-4444', text: 'Teste' });
    expect(expectStatus(notOn, 422).message).toBe('Este número não tem WhatsApp.');

    expect(expectStatus(await a.post('/whatsapp/instance/logout'), 200)).toMatchObject({
      state: 'close',
      phone: '',
    });
    expect(expectStatus(await a.delete('/whatsapp/instance'), 200)).toMatchObject({ created: false });
    expect(evolution.instances.has(name)).toBe(false);
  });

  it('goes to refused after too many QR codes', async () => {
    const shop = await createClientWithUsers(t, [1]);
    const a = api(t, shop.auth);
    expectStatus(await a.post('/whatsapp/instance'), 201);
    const instance = evolution.instances.get(`balcao-${shop.client.id}`);
    if (instance) instance.qrCount = 30;
    const refused = await a.post('/whatsapp/instance/connect', {});
    expect(expectStatus(refused, 422).message).toBe(
      'Muitos códigos foram gerados sem leitura. Gere um novo código para tentar de novo.',
    );
    expect(expectStatus(await a.get('/whatsapp/instance'), 200).state).toBe('refused');
    // "Gerar novo código": a new round starts.
    const again = expectStatus(await a.post('/whatsapp/instance/connect', {}), 200);
    expect(again).toMatchObject({ instance: { state: 'connecting' }, qr: { count: 1 } });
  });

  it('refuses a webhook with a wrong or missing token (401) and changes nothing', async () => {
    const shop = await connectedShop([1]);
    const url = `/v1/whatsapp/webhook/${shop.instance}`;
    const payload = { event: 'connection.update', instance: shop.instance, data: { state: 'close' } };
    const wrong = await t.app.inject({
      method: 'POST',
      url,
      headers: { 'x-balcao-webhook-token': 'nope' },
      payload,
    });
    expect(wrong.statusCode).toBe(401);
    const missing = await t.app.inject({ method: 'POST', url, payload });
    expect(missing.statusCode).toBe(401);
    // Another shop's token does not open this shop's webhook.
    const other = await connectedShop([1]);
    const otherToken = evolution.instances.get(other.instance)?.webhook?.headers['x-balcao-webhook-token'];
    const crossed = await t.app.inject({
      method: 'POST',
      url,
      headers: { 'x-balcao-webhook-token': otherToken ?? '' },
      payload,
    });
    expect(crossed.statusCode).toBe(401);
    expect(expectStatus(await shop.a.get('/whatsapp/instance'), 200).state).toBe('open');
  });

  it('lets only Administrador and Gerente change the instance', async () => {
    const shop = await createClientWithUsers(t, [9, 3, 5]);
    const [marketing, seller, waiter] = shop.users.map((u) => api(t, { authorization: `Bearer ${u.token}` }));
    expect((await marketing.post('/whatsapp/instance')).statusCode).toBe(403);
    expect((await seller.get('/whatsapp/instance')).statusCode).toBe(200);
    expect((await waiter.get('/whatsapp/instance')).statusCode).toBe(403);
  });
});

describe('campaign sending', () => {
  it('paces 200 messages with a controlled clock: gaps, long pauses, hourly and daily caps', async () => {
    const shop = await connectedShop();
    const phones = await addCustomers(shop.client.id, 200);
    const campaign = await makeCampaign(shop.a, {
      pacing: {
        minDelaySeconds: 7,
        maxDelaySeconds: 8,
        pauseEvery: 10,
        pauseSeconds: 15,
        hourlyCap: 30,
        dailyCap: 150,
      },
    });
    const clock = fakeClock();
    expectStatus(await shop.a.post(`/campaign/${campaign.id}/start`), 200);
    // Hand the start time to the clock: the queue was written "now".
    clock.set(new Date());
    const start = clock.now().getTime();
    await drain(t.app, clock);

    const rows = await t.database.db
      .select()
      .from(campaignRecipients)
      .where(eq(campaignRecipients.campaignId, campaign.id));
    expect(rows).toHaveLength(200);
    expect(rows.every((r) => r.status === 'success')).toBe(true);
    expect(sentTo(shop.instance).sort()).toEqual([...phones].sort());
    const times = rows.map((r) => (r.claimedAt as Date).getTime()).sort((x, y) => x - y);
    for (let i = 1; i < times.length; i++) {
      const gap = times[i] - times[i - 1];
      expect(gap).toBeGreaterThanOrEqual(7000);
      // Every 10th message waits the long pause too.
      if (i % 10 === 0) expect(gap).toBeGreaterThanOrEqual(7000 + 15_000);
    }
    for (const at of times) {
      expect(times.filter((x) => x >= at && x < at + 3_600_000).length).toBeLessThanOrEqual(30);
      expect(times.filter((x) => x >= at && x < at + 86_400_000).length).toBeLessThanOrEqual(150);
    }
    // The daily cap held the last 50 for the next day.
    expect(times[150] - times[0]).toBeGreaterThanOrEqual(86_400_000);
    expect(times[0]).toBeGreaterThanOrEqual(start);
    const done = expectStatus(await shop.a.get(`/campaign/${campaign.id}`), 200);
    expect(done).toMatchObject({ status: 'finished', progress: { total: 200, success: 200, waiting: 0 } });
    // Every message carries the opt-out line and its variables.
    const first = evolution.sent.find((m) => m.number === phones[0]);
    expect(first?.text).toBe(`Olá Cliente, novidades na ${shop.client.name}!\n\n${OPT_OUT_LINE}`);
  }, 180_000);

  it('sends each message once with two workers on the same queue', async () => {
    const shop = await connectedShop();
    const phones = await addCustomers(shop.client.id, 40);
    await startCampaign(shop.a);
    const clock = fakeClock(Date.now());
    const worker = () => drain(t.app, clock);
    await Promise.all([worker(), worker()]);
    const sent = sentTo(shop.instance);
    expect(sent).toHaveLength(40);
    expect(new Set(sent).size).toBe(40);
    expect(sent.sort()).toEqual([...phones].sort());
  }, 180_000);

  it('survives a kill after 50 sends: settled against Evolution, no number twice, none skipped', async () => {
    const shop = await connectedShop();
    const phones = await addCustomers(shop.client.id, 120);
    const campaign = await startCampaign(shop.a, { ...FAST_PACING, maxDelaySeconds: 4, pauseEvery: 10 });
    const clock = fakeClock(Date.now());
    evolution.now = () => clock.now().getTime();
    try {
      await drain(t.app, clock, () => sentTo(shop.instance).length >= 50);
      expect(sentTo(shop.instance)).toHaveLength(50);

      // The server is killed twice in the middle of a send. First between Evolution's accept and our
      // commit: the claim is committed and the message went, the result was never written.
      let claimed: Awaited<ReturnType<typeof claimNext>>;
      do {
        claimed = await claimNext(t.app.ctx, { clock, random: () => 0.5 });
        if ('kind' in claimed && claimed.kind === 'idle' && claimed.nextAt) clock.set(claimed.nextAt);
      } while ('kind' in claimed);
      const accepted = await deliver(t.app.ctx, claimed);
      expect(accepted.ok).toBe(true);
      expect(sentTo(shop.instance)).toHaveLength(51);
      const acceptedPhone = claimed.claim.phone;

      // The next one died between its claim and the request: committed as sending, never sent.
      const [next] = await t.database.db
        .select()
        .from(campaignRecipients)
        .where(eq(campaignRecipients.status, 'waiting'))
        .orderBy(campaignRecipients.id)
        .limit(1);
      await t.database.db
        .update(campaignRecipients)
        .set({ status: 'sending', claimedAt: clock.now() })
        .where(eq(campaignRecipients.id, next.id));

      // A new server on the same database. While Evolution cannot answer, nothing is settled and
      // the shop's number sends nothing (a row of it is still sending).
      const restarted = await buildApp({ db: t.database.db, config: t.app.ctx.config });
      try {
        expect(await recoverInterrupted(restarted.ctx, clock.now())).toEqual({
          sent: 0,
          requeued: 0,
          unknown: 0,
          unconfirmed: 0,
        });
        clock.advance(5 * 60_000);
        evolution.findFails = true;
        expect(await recoverInterrupted(restarted.ctx, clock.now())).toMatchObject({ unknown: 2 });
        expect((await sendNext(restarted.ctx, { clock, random: () => 0.5 })).kind).toBe('idle');
        expect(sentTo(shop.instance)).toHaveLength(51);
        evolution.findFails = false;
        expect(await recoverInterrupted(restarted.ctx, clock.now())).toEqual({
          sent: 1,
          requeued: 1,
          unknown: 0,
          unconfirmed: 0,
        });
        await drain(restarted, clock);
      } finally {
        await restarted.close();
      }
      const sent = sentTo(shop.instance);
      expect(new Set(sent).size).toBe(sent.length);
      expect(sent).toHaveLength(120);
      expect([...sent].sort()).toEqual([...phones].sort());
      const rows = await t.database.db
        .select()
        .from(campaignRecipients)
        .where(eq(campaignRecipients.campaignId, campaign.id));
      const byPhone = new Map(rows.map((r) => [r.phone, r]));
      // The accepted one is a success with Evolution's message id, the unsent one went in its turn.
      const acceptedRow = byPhone.get(acceptedPhone);
      expect(acceptedRow?.status).toBe('success');
      expect(acceptedRow?.messageId).toBe(
        evolution.stored.get(shop.instance)?.find((r) => r.key.remoteJid.startsWith(acceptedPhone))?.key.id,
      );
      expect(byPhone.get(next.phone)?.status).toBe('success');
      expect(expectStatus(await shop.a.get(`/campaign/${campaign.id}`), 200)).toMatchObject({
        status: 'finished',
        progress: { success: 120, failed: 0, waiting: 0, sending: 0, skipped: 0 },
      });
    } finally {
      evolution.now = () => Date.now();
    }
  }, 180_000);

  it('leaves a send that got no answer to the reconciliation, never to a blind resend', async () => {
    const shop = await connectedShop();
    const phones = await addCustomers(shop.client.id, 3);
    await startCampaign(shop.a, {
      ...PACING_DEFAULTS,
      minDelaySeconds: 3,
      maxDelaySeconds: 3,
    });
    const clock = fakeClock(Date.now());
    evolution.now = () => clock.now().getTime();
    try {
      let claimed: Awaited<ReturnType<typeof claimNext>>;
      do {
        claimed = await claimNext(t.app.ctx, { clock, random: () => 0.5 });
        if ('kind' in claimed && claimed.kind === 'idle' && claimed.nextAt) clock.set(claimed.nextAt);
      } while ('kind' in claimed);
      // Evolution took the message but the answer was lost (a timeout on our side).
      expect((await deliver(t.app.ctx, claimed)).ok).toBe(true);
      const { recordSend } = await import('./worker.ts');
      await recordSend(
        t.app.ctx,
        claimed.claim,
        { ok: false, kind: 'unknown', reason: 'Sem resposta' },
        { clock },
      );
      const [row] = await t.database.db
        .select()
        .from(campaignRecipients)
        .where(eq(campaignRecipients.id, claimed.claim.recipientId));
      expect(row.status).toBe('sending');
      await drain(t.app, clock, (r) => r.kind === 'idle' && r.nextAt === null);
      clock.advance(3 * 60_000);
      expect(await recoverInterrupted(t.app.ctx, clock.now())).toMatchObject({ sent: 1, requeued: 0 });
      await drain(t.app, clock);
      const sent = sentTo(shop.instance);
      expect([...sent].sort()).toEqual([...phones].sort());
    } finally {
      evolution.now = () => Date.now();
    }
  });

  it('drops a row found unsent after its campaign was canceled, instead of queueing it again', async () => {
    const shop = await connectedShop();
    await addCustomers(shop.client.id, 2);
    const campaign = await makeCampaign(shop.a);
    expectStatus(await shop.a.post(`/campaign/${campaign.id}/start`), 200);
    const clock = fakeClock(Date.UTC(2026, 11, 2, 13, 0, 0));
    let claimed: Awaited<ReturnType<typeof claimNext>>;
    do {
      claimed = await claimNext(t.app.ctx, { clock, random: () => 0.5 });
      if ('kind' in claimed && claimed.kind === 'idle' && claimed.nextAt) clock.set(claimed.nextAt);
    } while ('kind' in claimed);
    // The server dies before sending; meanwhile someone cancels the campaign.
    expect(expectStatus(await shop.a.post(`/campaign/${campaign.id}/cancel`), 200).progress).toMatchObject({
      sending: 1,
      skipped: 1,
    });
    clock.advance(3 * 60_000);
    expect(await recoverInterrupted(t.app.ctx, clock.now())).toMatchObject({ requeued: 1 });
    const [row] = await t.database.db
      .select()
      .from(campaignRecipients)
      .where(eq(campaignRecipients.id, claimed.claim.recipientId));
    expect(row).toMatchObject({ status: 'skipped', reason: 'Campanha cancelada' });
    expect(sentTo(shop.instance)).toHaveLength(0);
  });

  it('pauses when the number disconnects at 80, resumes where it stopped', async () => {
    const shop = await connectedShop();
    const phones = await addCustomers(shop.client.id, 100);
    const campaign = await startCampaign(shop.a);
    evolution.disconnectAfter = evolution.sent.length + 80;
    const clock = fakeClock(Date.now());
    await drain(t.app, clock, (r) => r.kind === 'paused');
    const paused = expectStatus(await shop.a.get(`/campaign/${campaign.id}`), 200);
    expect(paused).toMatchObject({
      status: 'paused',
      pauseReason: PAUSE_REASONS.disconnected,
      progress: { success: 80, waiting: 20 },
    });
    expect(expectStatus(await shop.a.get('/whatsapp/instance'), 200).state).toBe('close');
    // Nothing goes while paused.
    await drain(t.app, clock);
    expect(sentTo(shop.instance)).toHaveLength(80);

    await evolution.scan(shop.instance);
    expectStatus(await shop.a.post(`/campaign/${campaign.id}/resume`), 200);
    await drain(t.app, clock);
    const sent = sentTo(shop.instance);
    expect(sent.sort()).toEqual([...phones].sort());
    expect(expectStatus(await shop.a.get(`/campaign/${campaign.id}`), 200).status).toBe('finished');
  }, 180_000);

  it('pauses after send errors in a row', async () => {
    const shop = await connectedShop();
    await addCustomers(shop.client.id, 10);
    const campaign = await startCampaign(shop.a);
    evolution.failNext = 3;
    await drain(t.app, fakeClock(Date.now()), (r) => r.kind === 'paused');
    expect(expectStatus(await shop.a.get(`/campaign/${campaign.id}`), 200)).toMatchObject({
      status: 'paused',
      pauseReason: PAUSE_REASONS.errors,
      progress: { failed: 3, waiting: 7 },
    });
    const cancel = expectStatus(await shop.a.post(`/campaign/${campaign.id}/cancel`), 200);
    expect(cancel).toMatchObject({ status: 'canceled', progress: { skipped: 7 } });
  });

  it('honours opt-out: a SAIR reply or staff marking, before and during a campaign', async () => {
    const shop = await connectedShop();
    const phones = await addCustomers(shop.client.id, 6);
    await evolution.reply(shop.instance, phones[0], 'sair');
    expectStatus(await shop.a.post('/whatsapp/opt-out', { number: phones[1] }), 200);
    const counts = expectStatus(await shop.a.post('/campaign/audience-count', {}), 200);
    expect(counts).toMatchObject({ total: 6, optedOut: 2, validWhatsapp: 6 });
    const campaign = await startCampaign(shop.a);
    const clock = fakeClock(Date.now());
    await drain(t.app, clock, () => sentTo(shop.instance).length >= 1);
    // Someone answers PARAR while the campaign runs.
    await evolution.reply(shop.instance, phones[5], 'PARAR');
    await drain(t.app, clock);
    expect(sentTo(shop.instance).sort()).toEqual(phones.slice(2, 5).sort());
    const list = expectStatus(await shop.a.get(`/campaign/${campaign.id}/recipients?status=skipped`), 200);
    expect(list.total).toBe(3);
    expect(list.items[0].reason).toBe('Pediu para não receber mensagens');
  });

  it('skips numbers without WhatsApp (checked with whatsappNumbers first) and filters the audience', async () => {
    const shop = await connectedShop();
    const [valid] = await addCustomers(shop.client.id, 1, { whatsappValid: null, birthDate: '1990-03-10' });
    const [invalid] = await addCustomers(
      shop.client.id,
      1,
      { whatsappValid: null, birthDate: '1991-03-20' },
      false,
    );
    await addCustomers(shop.client.id, 2, { birthDate: '1990-07-01' });
    const march = { birthMonth: 3 };
    const counts = expectStatus(await shop.a.post('/campaign/audience-count', march), 200);
    expect(counts).toMatchObject({ total: 2, uncheckedWhatsapp: 2, delinquent: 0, notDelinquent: 2 });
    const campaign = await makeCampaign(shop.a, { audience: march });
    const started = expectStatus(await shop.a.post(`/campaign/${campaign.id}/start`), 200);
    expect(started.progress).toMatchObject({ total: 2, waiting: 1, skipped: 1 });
    expect(evolution.checks.some((c) => c.numbers.includes(invalid))).toBe(true);
    await drain(t.app, fakeClock(Date.now()));
    expect(sentTo(shop.instance)).toEqual([valid]);
    const csv = await shop.a.get(`/campaign/${campaign.id}/recipients/csv`);
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain('Número sem WhatsApp');
    expect(csv.body).toContain('Enviada');
  });

  it('starts a scheduled campaign when its time comes, not before', async () => {
    const shop = await connectedShop();
    const phones = await addCustomers(shop.client.id, 2);
    const at = new Date(Date.now() + 3_600_000);
    const campaign = await makeCampaign(shop.a, { scheduledAt: at.toISOString() });
    expect(expectStatus(await shop.a.post(`/campaign/${campaign.id}/start`), 200)).toMatchObject({
      status: 'scheduled',
      progress: { total: 0 },
    });
    await startDueCampaigns(t.app.ctx, new Date(at.getTime() - 60_000));
    expect(expectStatus(await shop.a.get(`/campaign/${campaign.id}`), 200).status).toBe('scheduled');
    await startDueCampaigns(t.app.ctx, at);
    expect(expectStatus(await shop.a.get(`/campaign/${campaign.id}`), 200)).toMatchObject({
      status: 'running',
      progress: { total: 2, waiting: 2 },
    });
    await drain(t.app, fakeClock(at.getTime()));
    expect(sentTo(shop.instance).sort()).toEqual([...phones].sort());
  });

  it('pauses by itself when the instance is not connected', async () => {
    const shop = await createClientWithUsers(t, [1]);
    await addCustomers(shop.client.id, 2);
    const a = api(t, shop.auth);
    const campaign = await makeCampaign(a);
    expectStatus(await a.post(`/campaign/${campaign.id}/start`), 200);
    await drain(t.app, fakeClock(Date.now()), (r) => r.kind === 'paused');
    expect(expectStatus(await a.get(`/campaign/${campaign.id}`), 200)).toMatchObject({
      status: 'paused',
      pauseReason: PAUSE_REASONS.disconnected,
    });
  });
});

describe('quiet hours, warm-up, tags and image', { timeout: 90_000 }, () => {
  it('sends nothing outside the sending window (shop time zone) and waits for it to open', async () => {
    const shop = await connectedShop();
    const phones = await addCustomers(shop.client.id, 80);
    const pacing = {
      ...PACING_DEFAULTS,
      minDelaySeconds: 60,
      maxDelaySeconds: 60,
      hourlyCap: 60,
      dailyCap: 500,
      windowStart: '09:00',
      windowEnd: '10:00',
    };
    const campaign = await makeCampaign(shop.a, { pacing });
    expectStatus(await shop.a.post(`/campaign/${campaign.id}/start`), 200);
    // 21:00 in São Paulo (00:00 UTC): after the window closed.
    const clock = fakeClock(Date.UTC(2026, 11, 2, 0, 0, 0));
    const first = await sendNext(t.app.ctx, { clock, random: () => 0.5 });
    expect(first.kind).toBe('idle');
    // The next opening is 09:00 local (12:00 UTC) of the next shop day.
    expect(first.kind === 'idle' && first.nextAt?.toISOString()).toBe('2026-12-02T12:00:00.000Z');
    expect(sentTo(shop.instance)).toHaveLength(0);
    await drain(t.app, clock);
    expect([...sentTo(shop.instance)].sort()).toEqual([...phones].sort());
    const rows = await t.database.db
      .select()
      .from(campaignRecipients)
      .where(eq(campaignRecipients.campaignId, campaign.id));
    for (const row of rows) {
      const minutes = shopMinutes(row.claimedAt as Date);
      expect(minutes).toBeGreaterThanOrEqual(9 * 60);
      expect(minutes).toBeLessThan(10 * 60);
    }
    // About a message a minute in a 1-hour window: under 60 on the first day, the rest the next morning.
    const days = new Set(rows.map((r) => (r.claimedAt as Date).toISOString().slice(0, 10)));
    expect([...days].sort()).toEqual(['2026-12-02', '2026-12-03']);
  });

  it('tells the page when the window opens again while a running campaign waits for it', async () => {
    const shop = await connectedShop();
    await addCustomers(shop.client.id, 2);
    // A zone where it is 03:00 now: outside any window the shop may choose.
    const offset = ((3 - new Date().getUTCHours() + 36) % 24) - 12;
    const zone = offset === 0 ? 'Etc/UTC' : `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`;
    await t.database.db.update(clients).set({ timeZone: zone }).where(eq(clients.id, shop.client.id));
    const campaign = await makeCampaign(shop.a);
    const started = expectStatus(await shop.a.post(`/campaign/${campaign.id}/start`), 200);
    expect(started.status).toBe('running');
    expect(isoToShopLocal(started.windowOpensAt, zone).slice(11)).toBe('08:00');
    expect(new Date(started.windowOpensAt).getTime()).toBeGreaterThan(Date.now());
    // The estimated end is at or after that opening.
    expect(new Date(started.estimatedEndAt).getTime()).toBeGreaterThanOrEqual(
      new Date(started.windowOpensAt).getTime(),
    );
    const paused = expectStatus(await shop.a.post(`/campaign/${campaign.id}/pause`), 200);
    expect(paused.windowOpensAt).toBeNull();
  });

  it('estimates the end inside the window, across days when the window or cap is short', () => {
    const pacing = {
      ...PACING_DEFAULTS,
      minDelaySeconds: 60,
      maxDelaySeconds: 60,
      pauseEvery: 50,
      pauseSeconds: 10,
      hourlyCap: 60,
      dailyCap: 500,
      windowStart: '09:00',
      windowEnd: '10:00',
    };
    const zone = 'America/Sao_Paulo';
    // 08:00 local: the first message at 09:00, one a minute (plus a 10 s pause every 50).
    const start = Date.UTC(2026, 11, 2, 11, 0, 0);
    const end10 = estimateEnd({ start, left: 10, pacing, timeZone: zone, warmupStartedAt: null });
    expect(new Date(end10).toISOString()).toBe('2026-12-02T12:09:01.800Z');
    // 130 left: 59 fit each 1-hour window, so the last goes on the third day.
    const end130 = estimateEnd({ start, left: 130, pacing, timeZone: zone, warmupStartedAt: null });
    expect(isoToShopLocal(new Date(end130).toISOString(), zone).slice(0, 10)).toBe('2026-12-04');
    expect(shopMinutes(end130)).toBeGreaterThanOrEqual(9 * 60);
    expect(shopMinutes(end130)).toBeLessThan(10 * 60);
    // A number in its first warm-up day sends 20, then 30, then 40...: 100 take 4 days.
    const warm = { ...pacing, windowEnd: '20:00' };
    const endWarm = estimateEnd({
      start,
      left: 100,
      pacing: warm,
      timeZone: zone,
      warmupStartedAt: new Date(start),
    });
    expect(isoToShopLocal(new Date(endWarm).toISOString(), zone).slice(0, 10)).toBe('2026-12-05');
  });

  it('refuses a window outside 06:00-22:00 or shorter than an hour', async () => {
    const shop = await createClientWithUsers(t, [1]);
    const a = api(t, shop.auth);
    for (const [windowStart, windowEnd] of [
      ['05:00', '20:00'],
      ['08:00', '23:00'],
      ['10:00', '10:30'],
      ['12:00', '09:00'],
    ]) {
      const refused = await a.post('/campaign', {
        name: 'X',
        message: 'Oi',
        pacing: { ...PACING_DEFAULTS, windowStart, windowEnd },
      });
      expect(expectStatus(refused, 400).issues).toEqual([
        {
          path: 'pacing.windowEnd',
          message: 'A janela de envio deve ter ao menos 1 hora, entre 06:00 e 22:00.',
        },
      ]);
    }
    const bad = await a.post('/campaign', {
      name: 'X',
      message: 'Oi',
      pacing: { ...PACING_DEFAULTS, windowStart: '8h' },
    });
    expect(expectStatus(bad, 400).issues[0]).toEqual({
      path: 'pacing.windowStart',
      message: 'Informe a hora como HH:MM',
    });
    const defaults = await makeCampaign(a);
    expect(defaults.pacing).toMatchObject({ windowStart: '08:00', windowEnd: '20:00' });
  });

  it("ramps a new number's daily cap up over its first days, shown on the campaign", async () => {
    const shop = await connectedShop([1], { warm: false });
    const [instance] = await t.database.db
      .select()
      .from(whatsappInstances)
      .where(eq(whatsappInstances.clientId, shop.client.id));
    const startedAt = instance.warmupStartedAt as Date;
    expect(startedAt).toBeInstanceOf(Date);
    await addCustomers(shop.client.id, 100);
    const campaign = await makeCampaign(shop.a, {
      pacing: {
        ...PACING_DEFAULTS,
        minDelaySeconds: 3,
        maxDelaySeconds: 3,
        hourlyCap: 60,
        dailyCap: 500,
        windowStart: '06:00',
        windowEnd: '22:00',
      },
    });
    const started = expectStatus(await shop.a.post(`/campaign/${campaign.id}/start`), 200);
    expect(started.warmup).toEqual({ day: 1, days: WARMUP_DAILY_CAPS.length, dailyCap: 20 });
    const clock = fakeClock(startedAt.getTime());
    await drain(t.app, clock);
    const rows = await t.database.db
      .select()
      .from(campaignRecipients)
      .where(eq(campaignRecipients.campaignId, campaign.id));
    expect(rows.every((r) => r.status === 'success')).toBe(true);
    const times = rows.map((r) => (r.claimedAt as Date).getTime()).sort((x, y) => x - y);
    // Never more in 24 hours than the warm-up day's cap allows.
    for (const at of times) {
      const day = Math.floor((at - startedAt.getTime()) / 86_400_000) + 1;
      const inLastDay = times.filter((x) => x > at - 86_400_000 && x <= at).length;
      expect(inLastDay).toBeLessThanOrEqual(WARMUP_DAILY_CAPS[day - 1] ?? 500);
    }
    expect(times.filter((x) => x < startedAt.getTime() + 86_400_000)).toHaveLength(20);
    // Reconnecting the same number keeps its warm-up; a new number starts again.
    await evolution.disconnect(shop.instance);
    await evolution.scan(shop.instance);
    const [again] = await t.database.db
      .select()
      .from(whatsappInstances)
      .where(eq(whatsappInstances.clientId, shop.client.id));
    expect(again.warmupStartedAt?.getTime()).toBe(startedAt.getTime());
  });

  it('tags customers, filters the list and the audience by tag, with the counts before sending', async () => {
    const shop = await connectedShop();
    const a = shop.a;
    // Registered before the customers exist: their background number check finds them.
    evolution.registered.push('5511977770001', '5511977770002', '5511977770003');
    const vip = expectStatus(
      await a.post('/customer', {
        name: 'Ana VIP',
        phone: '11 97777-0001',
        tags: [' VIP ', 'atacado', 'vip'],
      }),
      201,
    );
    expect(vip.tags).toEqual(['VIP', 'atacado']);
    const other = expectStatus(await a.post('/customer', { name: 'Bruno', phone: '11 97777-0002' }), 201);
    expect(other.tags).toEqual([]);
    expectStatus(
      await a.post('/customer', { name: 'Carla', phone: '11 97777-0003', tags: ['Atacado'] }),
      201,
    );
    const tooLong = await a.post('/customer', { name: 'Xavier', tags: ['x'.repeat(31)] });
    expect(expectStatus(tooLong, 400).issues[0].message).toBe('Use no máximo 30 caracteres por etiqueta');

    const tags = expectStatus(await a.get(`/customer/tags/client/${shop.client.id}`), 200);
    expect(tags).toEqual([
      { tag: 'Atacado', count: 2 },
      { tag: 'VIP', count: 1 },
    ]);
    const listed = expectStatus(await a.get(`/customer/client/${shop.client.id}?tag=vip`), 200);
    expect(listed.items.map((c: { name: string }) => c.name)).toEqual(['Ana VIP']);

    // An edit without tags keeps them; with tags, replaces them.
    const kept = expectStatus(
      await a.put(`/customer/${vip.id}`, {
        name: 'Ana VIP',
        phone: '11 97777-0001',
        updatedAt: vip.updatedAt,
      }),
      200,
    );
    expect(kept.tags).toEqual(['VIP', 'atacado']);

    const counts = expectStatus(await a.post('/campaign/audience-count', { tags: ['ATACADO'] }), 200);
    expect(counts).toMatchObject({ total: 2 });
    const campaign = await makeCampaign(a, { audience: { tags: ['vip'] } });
    expect(campaign.audience.tags).toEqual(['vip']);
    expectStatus(await a.post(`/campaign/${campaign.id}/start`), 200);
    await drain(t.app, fakeClock(Date.UTC(2026, 11, 2, 13, 0, 0)));
    expect(sentTo(shop.instance)).toEqual(['5511977770001']);
    // Another shop's tags are not this shop's.
    const stranger = await createClientWithUsers(t, [1]);
    expect((await api(t, stranger.auth).get(`/customer/tags/client/${shop.client.id}`)).statusCode).toBe(404);
  });

  it('uploads the image through storage, previews it and sends it as base64 media', async () => {
    const shop = await connectedShop();
    const [phone] = await addCustomers(shop.client.id, 1);
    const campaign = await makeCampaign(shop.a);
    const png = await sharp({
      create: { width: 2400, height: 1200, channels: 3, background: { r: 200, g: 30, b: 30 } },
    })
      .png()
      .toBuffer();
    const upload = (data: Buffer, filename: string, type: string) => {
      const boundary = '----balcao';
      const body = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
        ),
        data,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      return t.app.inject({
        method: 'POST',
        url: `/v1/campaign/${campaign.id}/image`,
        headers: { ...shop.auth, 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload: body,
      });
    };
    const notImage = await upload(Buffer.from('not an image'), 'x.txt', 'text/plain');
    expect(expectStatus(notImage, 415).message).toBe('Envie uma imagem JPEG, PNG ou WebP');
    const saved = expectStatus(await upload(png, 'promo.png', 'image/png'), 200);
    expect(saved.imageUrl).toMatch(/^\/v1\/campaign-image\/\d+\/[0-9a-f]{32}\.jpg$/);
    const served = await t.app.inject({ method: 'GET', url: saved.imageUrl });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/jpeg');
    const meta = await sharp(served.rawPayload).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 1600, height: 800 });

    expectStatus(await shop.a.post(`/campaign/${campaign.id}/start`), 200);
    await drain(t.app, fakeClock(Date.UTC(2026, 11, 2, 13, 0, 0)));
    const message = evolution.sent.find((m) => m.number === phone);
    expect(message?.mimetype).toBe('image/jpeg');
    expect(message?.media).toBe(served.rawPayload.toString('base64'));
    expect(message?.text).toContain(OPT_OUT_LINE);
    // A campaign that started keeps its image.
    expect(expectStatus(await shop.a.delete(`/campaign/${campaign.id}/image`), 409).message).toBe(
      'Só é possível editar uma campanha que ainda não começou.',
    );

    // Removing the image of a draft removes the file.
    const draft = await makeCampaign(shop.a);
    const boundary = '----b2';
    const withImage = expectStatus(
      await t.app.inject({
        method: 'POST',
        url: `/v1/campaign/${draft.id}/image`,
        headers: { ...shop.auth, 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload: Buffer.concat([
          Buffer.from(
            `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
          ),
          png,
          Buffer.from(`\r\n--${boundary}--\r\n`),
        ]),
      }),
      200,
    );
    const removed = expectStatus(await shop.a.delete(`/campaign/${draft.id}/image`), 200);
    expect(removed.imageUrl).toBeNull();
    expect((await t.app.inject({ method: 'GET', url: withImage.imageUrl })).statusCode).toBe(404);
  });
});

describe('campaign records', () => {
  it('edits only before start, refuses {cupom} without a coupon, validates pacing bounds', async () => {
    const shop = await createClientWithUsers(t, [2]);
    const a = api(t, shop.auth);
    const noCoupon = await a.post('/campaign', { name: 'X', message: 'Use {cupom}' });
    expect(expectStatus(noCoupon, 400).issues).toEqual([
      { path: 'message', message: 'Anexe um cupom para usar {cupom} na mensagem.' },
    ]);
    const tooFast = await a.post('/campaign', {
      name: 'X',
      message: 'Oi',
      pacing: {
        minDelaySeconds: 1,
        maxDelaySeconds: 2,
        pauseEvery: 10,
        pauseSeconds: 15,
        hourlyCap: 30,
        dailyCap: 200,
      },
    });
    expect(tooFast.statusCode).toBe(400);
    const category = expectStatus(await a.post('/campaign-category', { name: 'Datas comemorativas' }), 201);
    const campaign = await makeCampaign(a, { categoryId: category.id });
    expect(campaign.category).toEqual({ id: category.id, name: 'Datas comemorativas' });
    expect(campaign.pacing).toMatchObject({ minDelaySeconds: 7, maxDelaySeconds: 8, hourlyCap: 30 });
    const edited = expectStatus(
      await a.put(`/campaign/${campaign.id}`, {
        name: 'Natal',
        message: 'Oi {nome}',
        categoryId: category.id,
        updatedAt: campaign.updatedAt,
      }),
      200,
    );
    expect(edited.name).toBe('Natal');
    const stale = await a.put(`/campaign/${campaign.id}`, {
      name: 'Outro',
      message: 'Oi',
      updatedAt: campaign.updatedAt,
    });
    expect(stale.statusCode).toBe(409);
    const inUse = await a.delete(`/campaign-category/${category.id}`);
    expect(expectStatus(inUse, 409).message).toBe('Não é possível excluir: 1 campanha usa esta categoria');
    const list = expectStatus(await a.get(`/campaign/client/${shop.client.id}`), 200);
    expect(list).toMatchObject({
      total: 1,
      items: [{ name: 'Natal', status: 'draft', category: { name: 'Datas comemorativas' } }],
    });
    const future = new Date(Date.now() + 3_600_000).toISOString();
    const scheduled = await makeCampaign(a, { scheduledAt: future });
    await addCustomers(shop.client.id, 1);
    expect(expectStatus(await a.post(`/campaign/${scheduled.id}/start`), 200).status).toBe('scheduled');
    expect(expectStatus(await a.delete(`/campaign/${campaign.id}`), 200)).toEqual({ id: campaign.id });
  });

  it('keeps tenancy and roles: campaigns for Administrador, Gerente, Marketing', async () => {
    const shop = await createClientWithUsers(t, [9, 6, 5]);
    const other = await createClientWithUsers(t, [1]);
    const [marketing, stock, waiter] = shop.users.map((u) => api(t, { authorization: `Bearer ${u.token}` }));
    const mine = await makeCampaign(marketing);
    expect((await stock.post('/campaign', { name: 'X', message: 'Oi' })).statusCode).toBe(403);
    expect((await stock.get(`/campaign/${mine.id}`)).statusCode).toBe(200);
    expect((await stock.post(`/campaign/${mine.id}/start`)).statusCode).toBe(403);
    expect((await waiter.get(`/campaign/client/${shop.client.id}`)).statusCode).toBe(403);
    expect((await stock.post('/campaign-category', { name: 'X' })).statusCode).toBe(403);
    const o = api(t, other.auth);
    expect((await o.get(`/campaign/${mine.id}`)).statusCode).toBe(404);
    expect((await o.post(`/campaign/${mine.id}/start`)).statusCode).toBe(404);
    expect((await o.get(`/campaign/client/${shop.client.id}`)).statusCode).toBe(404);
    expect((await o.get(`/campaign/${mine.id}/recipients`)).statusCode).toBe(404);
    const otherCategory = expectStatus(await o.post('/campaign-category', { name: 'Deles' }), 201);
    const refused = await marketing.post('/campaign', {
      name: 'X',
      message: 'Oi',
      categoryId: otherCategory.id,
    });
    expect(refused.statusCode).toBe(422);
  });
});
