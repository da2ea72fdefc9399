import { UNCONFIRMED_REASON } from '@balcao/core/campaign';
import { USER_TYPE_IDS } from '@balcao/core/userTypes';
import { WHATSAPP_MESSAGES } from '@balcao/core/whatsapp';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { FakeEvolution } from '../../../test/fakes/evolution.ts';
import { createClientWithUsers, type TestApp } from '../../../test/helper.ts';
import { api, expectStatus, useTestApp } from '../../../test/kit.ts';
import { testConfig } from '../../config.ts';
import { whatsappInstances } from '../../db/schema.ts';
import { campaignRecipients, campaigns } from '../campaign/schema.ts';
import { claimNext, recoverInterrupted } from '../campaign/worker.ts';
import { customers } from '../customer/schema.ts';
import { whatsappOptOuts } from './schema.ts';

/**
 * The WhatsApp integration against the fake Evolution API as Evolution 2.3.6's source behaves
 * (issue 31 items 6, 8-12): instance.controller.ts, createJid.ts, chat.schema.ts, env.config.ts.
 */
let t: TestApp;
let evolution: FakeEvolution;
useTestApp({ evolution: true }, (app) => ({ t, evolution } = app));

async function connectedShop(types = [1]) {
  const shop = await createClientWithUsers(t, types);
  const a = api(t, shop.auth);
  expectStatus(await a.post('/whatsapp/instance'), 201, 'create instance');
  const instance = `balcao-${shop.client.id}`;
  await evolution.scan(instance);
  await t.database.db
    .update(whatsappInstances)
    .set({ warmupStartedAt: new Date(Date.now() - 60 * 86_400_000) })
    .where(eq(whatsappInstances.clientId, shop.client.id));
  return { ...shop, a, instance };
}

describe('the webhook Evolution calls (issue 31 item 2)', () => {
  it("is the server's PUBLIC_URL, whatever Host, Origin or X-Forwarded-Host the request came with", async () => {
    const shop = await createClientWithUsers(t, [1]);
    const forged = {
      ...shop.auth,
      Host: 'evil.example',
      Origin: 'https://evil.example',
      Referer: 'https://evil.example/x',
      'X-Forwarded-Host': 'evil.example',
      'X-Forwarded-Proto': 'http',
    };
    expectStatus(await api(t, forged).post('/whatsapp/instance'), 201);
    const name = `balcao-${shop.client.id}`;
    expect(evolution.instances.get(name)?.webhook?.url).toBe(
      `${testConfig().publicUrl}/v1/whatsapp/webhook/${name}`,
    );
  });
});

describe("the shell's instance read (item 6)", () => {
  it('answers every user type 200 with state, number and photo, never the key or webhook token', async () => {
    const shop = await createClientWithUsers(t, USER_TYPE_IDS);
    const admin = api(t, shop.auth);
    expectStatus(await admin.post('/whatsapp/instance'), 201);
    const name = `balcao-${shop.client.id}`;
    await evolution.scan(name);
    await expect
      .poll(async () => (await admin.get('/whatsapp/instance')).json().profilePictureUrl)
      .toContain('fake-profile');
    const token = evolution.instances.get(name)?.token as string;
    const webhookToken = evolution.instances.get(name)?.webhook?.headers['x-balcao-webhook-token'] as string;
    for (const user of shop.users) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/v1/whatsapp-instance/client/${shop.client.id}`,
        headers: { authorization: `Bearer ${user.token}` },
      });
      expect(res.statusCode, `user type ${user.user.userTypeId}`).toBe(200);
      expect(res.json()).toMatchObject({
        clientId: shop.client.id,
        state: 'open',
        connected: true,
        phone: '5511987654321',
        profilePictureUrl: 'https://pps.whatsapp.net/v/fake-profile.jpg',
      });
      expect(res.body).not.toContain(token);
      expect(res.body).not.toContain(webhookToken);
      expect(Object.keys(res.json())).not.toContain('instanceKey');
      expect(Object.keys(res.json())).not.toContain('webhookTokenHash');
    }
  });
});

describe('numbers with and without the ninth digit, @lid senders (item 8)', () => {
  it('records the opt-out of a 12-digit jid and of an @lid sender, and the campaign skips both', async () => {
    const shop = await connectedShop();
    const bh = '5531987650001'; // DDD 31: Evolution keys it as 553187650001@s.whatsapp.net
    const lidOnly = '5531987650002';
    const lidWithPn = '5521987650003';
    await t.database.db.insert(customers).values(
      [bh, lidOnly, lidWithPn, '5531987650004'].map((phone, i) => ({
        clientId: shop.client.id,
        name: `Cliente ${i}`,
        phone,
        whatsappValid: true,
      })),
    );
    evolution.registered.push(bh, lidOnly, lidWithPn, '5531987650004');

    await evolution.reply(shop.instance, '553187650001', 'SAIR');
    // An @lid sender whose number travels in key.senderPn.
    await evolution.reply(shop.instance, lidWithPn, 'Parar', { lid: '210987654321098' });
    // An @lid sender with no number in the event: kept under its lid, matched once an event tells it.
    await evolution.reply(shop.instance, lidOnly, 'SAIR', { lid: '123456789012345', pn: null });
    const stored = (
      await t.database.db
        .select({ phone: whatsappOptOuts.phone })
        .from(whatsappOptOuts)
        .where(eq(whatsappOptOuts.clientId, shop.client.id))
    ).map((r) => r.phone);
    expect(stored.sort()).toEqual(['123456789012345@lid', '210987654321098@lid', bh, lidWithPn].sort());
    await evolution.reply(shop.instance, '553187650002', 'Oi, tudo bem?', {
      lid: '123456789012345',
      pn: '553187650002@s.whatsapp.net',
    });

    const counts = expectStatus(await shop.a.post('/campaign/audience-count', {}), 200);
    expect(counts).toMatchObject({ total: 4, optedOut: 3 });
    const campaign = expectStatus(
      await shop.a.post('/campaign', { name: 'Teste', message: 'Olá {primeiro_nome}' }),
      201,
    );
    expectStatus(await shop.a.post(`/campaign/${campaign.id}/start`), 200);
    const rows = await t.database.db
      .select()
      .from(campaignRecipients)
      .where(eq(campaignRecipients.campaignId, campaign.id));
    expect(rows.filter((r) => r.status === 'waiting').map((r) => r.phone)).toEqual(['5531987650004']);
    expect(rows.filter((r) => r.status === 'skipped')).toHaveLength(3);
  });

  it('writes one recipient for a customer stored with 12 digits and another with 13', async () => {
    const shop = await connectedShop();
    await t.database.db.insert(customers).values([
      { clientId: shop.client.id, name: 'Ana Souza', phone: '553187650011', whatsappValid: true },
      { clientId: shop.client.id, name: 'Ana S.', phone: '5531987650011', whatsappValid: true },
    ]);
    const campaign = expectStatus(await shop.a.post('/campaign', { name: 'Dup', message: 'Oi' }), 201);
    expectStatus(await shop.a.post(`/campaign/${campaign.id}/start`), 200);
    const rows = await t.database.db
      .select()
      .from(campaignRecipients)
      .where(eq(campaignRecipients.campaignId, campaign.id));
    expect(rows.map((r) => r.phone)).toEqual(['5531987650011']);
  });

  it('asks whatsappNumbers each number once (uniqueItems) and reads the 12-digit jid answered', async () => {
    const shop = await createClientWithUsers(t, [1]);
    const a = api(t, shop.auth);
    expectStatus(await a.post('/whatsapp/instance'), 201);
    await evolution.scan(`balcao-${shop.client.id}`);
    evolution.registered.push('5531987650021');
    // Counted from here: the check may run at the campaign's start or, on a loaded machine, already in
    // the job that checks what was saved while the number was not connected (the scan above).
    const before = evolution.checks.length;
    // Two customers with the same number, saved before any check.
    await t.database.db.insert(customers).values([
      { clientId: shop.client.id, name: 'A', phone: '5531987650021' },
      { clientId: shop.client.id, name: 'B', phone: '5531987650021' },
    ]);
    const campaign = expectStatus(await a.post('/campaign', { name: 'X', message: 'Oi' }), 201);
    expectStatus(await a.post(`/campaign/${campaign.id}/start`), 200);
    const calls = evolution.checks.slice(before).filter((c) => c.instance === `balcao-${shop.client.id}`);
    expect(calls.length).toBeGreaterThan(0);
    for (const call of calls) expect(call.numbers).toEqual(['5531987650021']);
    const rows = await t.database.db
      .select()
      .from(campaignRecipients)
      .where(eq(campaignRecipients.campaignId, campaign.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'waiting', reason: null });
  });

  it('checks the customers saved while the number was not connected once it connects', async () => {
    const shop = await createClientWithUsers(t, [1]);
    const a = api(t, shop.auth);
    await t.database.db.insert(customers).values([
      { clientId: shop.client.id, name: 'Com', phone: '5511987650031' },
      { clientId: shop.client.id, name: 'Sem', phone: '5511987650032' },
    ]);
    evolution.registered.push('5511987650031');
    expectStatus(await a.post('/whatsapp/instance'), 201);
    await evolution.scan(`balcao-${shop.client.id}`);
    await expect
      .poll(async () =>
        (
          await t.database.db
            .select({ phone: customers.phone, valid: customers.whatsappValid })
            .from(customers)
            .where(eq(customers.clientId, shop.client.id))
            .orderBy(customers.phone)
        ).map((r) => r.valid),
      )
      .toEqual([true, false]);
  });
});

describe('reconciliation after a crash (item 9)', () => {
  async function crashedSend(_shop: Awaited<ReturnType<typeof connectedShop>>, clock: { now(): Date }) {
    let claimed: Awaited<ReturnType<typeof claimNext>>;
    do {
      claimed = await claimNext(t.app.ctx, { clock, random: () => 0.5 });
      if ('kind' in claimed && claimed.kind === 'idle') throw new Error('nothing to claim');
    } while ('kind' in claimed);
    return claimed;
  }

  /** Inside the shop's sending window (10:00 in São Paulo), after the queue was written. */
  const daytime = () => new Date(Date.UTC(2026, 11, 2, 13, 0, 0));

  it('finds a message Evolution stored under the 12-digit jid: success, not sent again', async () => {
    const shop = await connectedShop();
    await t.database.db
      .insert(customers)
      .values({ clientId: shop.client.id, name: 'Bia Lima', phone: '5531987650041', whatsappValid: true });
    evolution.registered.push('5531987650041');
    // Only this test's campaign runs (earlier tests leave theirs started, never drained).
    await t.database.db.update(campaigns).set({ status: 'canceled' }).where(eq(campaigns.status, 'running'));
    const campaign = expectStatus(await shop.a.post('/campaign', { name: 'BH', message: 'Oi' }), 201);
    expectStatus(await shop.a.post(`/campaign/${campaign.id}/start`), 200);
    const now = daytime();
    evolution.now = () => now.getTime();
    const claimed = await crashedSend(shop, { now: () => now });
    // Evolution accepted it (stored as 553187650041@s.whatsapp.net), the server died before writing.
    const sent = await claimed.sender.send?.({ number: claimed.claim.phone, text: claimed.claim.text });
    expect(sent?.ok).toBe(true);
    expect(evolution.stored.get(shop.instance)?.at(-1)?.key.remoteJid).toBe('553187650041@s.whatsapp.net');
    const result = await recoverInterrupted(t.app.ctx, new Date(now.getTime() + 3 * 60_000));
    expect(result).toMatchObject({ sent: 1, requeued: 0 });
    const [row] = await t.database.db
      .select()
      .from(campaignRecipients)
      .where(eq(campaignRecipients.id, claimed.claim.recipientId));
    expect(row.status).toBe('success');
    evolution.now = () => Date.now();
  });

  it('never sends again when Evolution stores no messages: the row is left for a person', async () => {
    const shop = await connectedShop();
    await t.database.db.insert(customers).values(
      ['5511987650051', '5511987650052'].map((phone, i) => ({
        clientId: shop.client.id,
        name: `Cliente ${i}`,
        phone,
        whatsappValid: true,
      })),
    );
    evolution.registered.push('5511987650051', '5511987650052');
    evolution.saveMessages = false;
    try {
      await t.database.db
        .update(campaigns)
        .set({ status: 'canceled' })
        .where(eq(campaigns.status, 'running'));
      const campaign = expectStatus(await shop.a.post('/campaign', { name: 'S', message: 'Oi' }), 201);
      expectStatus(await shop.a.post(`/campaign/${campaign.id}/start`), 200);
      const now = daytime();
      evolution.now = () => now.getTime();
      const claimed = await crashedSend(shop, { now: () => now });
      const sent = await claimed.sender.send?.({ number: claimed.claim.phone, text: claimed.claim.text });
      expect(sent?.ok).toBe(true);
      const before = evolution.sent.length;
      const result = await recoverInterrupted(t.app.ctx, new Date(now.getTime() + 3 * 60_000));
      expect(result).toMatchObject({ sent: 0, requeued: 0, unconfirmed: 1 });
      const [row] = await t.database.db
        .select()
        .from(campaignRecipients)
        .where(eq(campaignRecipients.id, claimed.claim.recipientId));
      expect(row).toMatchObject({ status: 'failed', reason: UNCONFIRMED_REASON });
      expect(evolution.sent.length).toBe(before);
    } finally {
      evolution.saveMessages = true;
      evolution.now = () => Date.now();
    }
  });

  it("tells the settings page whether Evolution stores messages (the test message's answer)", async () => {
    const shop = await connectedShop();
    evolution.registered.push('5511987650061');
    const stored = await shop.a.post('/whatsapp/instance/test', { number: '11987650061', text: 'Teste' });
    expect(expectStatus(stored, 200).stored).toBe(true);
    evolution.saveMessages = false;
    try {
      const lost = await shop.a.post('/whatsapp/instance/test', { number: '11987650061', text: 'Teste' });
      expect(expectStatus(lost, 200).stored).toBe(false);
    } finally {
      evolution.saveMessages = true;
    }
  });
});

describe('pairing, create, logout as Evolution 2.3 does them (items 10-12)', () => {
  it('gives a pairing code in the real order: the fake ignores `number` while connecting', async () => {
    const shop = await createClientWithUsers(t, [1]);
    const a = api(t, shop.auth);
    expectStatus(await a.post('/whatsapp/instance'), 201);
    const name = `balcao-${shop.client.id}`;
    // Evolution itself: a connect with a number right after create answers no pairing code.
    const direct = await fetch(`${evolution.url}/instance/connect/${name}?number=5511987654321`, {
      headers: { apikey: evolution.apiKey },
    });
    expect(((await direct.json()) as { pairingCode: unknown }).pairingCode).toBeNull();
    const pairing = expectStatus(
      await a.post('/whatsapp/instance/connect', { number: '(11) 98765-4321' }),
      200,
    );
    expect(pairing.qr.pairingCode).toMatch(/^[0-9A-F]{8}$/);
    expect(evolution.instances.get(name)?.pairingNumber).toBe('5511987654321');
  });

  it('recovers an instance whose create answered too late, with the token it sent', async () => {
    const shop = await createClientWithUsers(t, [1]);
    const a = api(t, shop.auth);
    const name = `balcao-${shop.client.id}`;
    evolution.createDelayMs = 2500; // past the test app's 2 s timeout
    let recovered: Awaited<ReturnType<typeof a.post>>;
    try {
      // Evolution made the instance and has not answered yet: our token opens it, no 403 later.
      recovered = await a.post('/whatsapp/instance');
    } finally {
      evolution.createDelayMs = 20;
    }
    const created = expectStatus(recovered, 201);
    expect(created.instance).toMatchObject({ created: true, state: 'connecting' });
    expect(created.qr.base64).toMatch(/^data:image\/png;base64,/);
    expect(evolution.instances.has(name)).toBe(true);
    // The webhook set at the first attempt is the one checked now.
    await evolution.scan(name);
    expect(expectStatus(await a.get('/whatsapp/instance'), 200).state).toBe('open');
    expectStatus(await a.delete('/whatsapp/instance'), 200);
    expect(evolution.instances.has(name)).toBe(false);
  });

  it('logs out an instance Evolution already closed (400 there) instead of "WhatsApp indisponível"', async () => {
    const shop = await connectedShop();
    const instance = evolution.instances.get(shop.instance);
    if (instance) instance.state = 'close'; // closed on the phone; no webhook reached us
    const res = await shop.a.post('/whatsapp/instance/logout');
    expect(res.json().message).not.toBe(WHATSAPP_MESSAGES.unavailable);
    expect(expectStatus(res, 200)).toMatchObject({ state: 'close', phone: '' });
  });

  it('the fake answers like Evolution: 401 with a string message, 400 on duplicate numbers', async () => {
    const bad = await fetch(`${evolution.url}/instance/create`, {
      method: 'POST',
      headers: { apikey: 'wrong', 'content-type': 'application/json' },
      body: JSON.stringify({ instanceName: 'x', integration: 'WHATSAPP-BAILEYS' }),
    });
    expect(bad.status).toBe(401);
    expect(((await bad.json()) as { response: { message: unknown } }).response.message).toBe('Unauthorized');
    const shop = await connectedShop();
    const dup = await fetch(`${evolution.url}/chat/whatsappNumbers/${shop.instance}`, {
      method: 'POST',
      headers: { apikey: evolution.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ numbers: ['5511987650071', '5511987650071'] }),
    });
    expect(dup.status).toBe(400);
  });
});
