import { CAMPAIGN_MESSAGES } from '@balcao/core/campaign';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { FakeEvolution } from '../../../test/fakes/evolution.ts';
import { createClientWithUsers, type TestApp } from '../../../test/helper.ts';
import { api, expectStatus, useTestApp } from '../../../test/kit.ts';
import { whatsappInstances } from '../../db/schema.ts';
import { customers } from '../customer/schema.ts';
import { campaignRecipients, campaigns } from './schema.ts';
import { claimNext, deliver, recordSend } from './worker.ts';

/** Issue 30 item 18: what a shop saw of its campaigns' schedule, pace and greeting. */
let t: TestApp;
let evolution: FakeEvolution;
useTestApp({ evolution: true }, (app) => ({ t, evolution } = app));

async function connectedShop() {
  const shop = await createClientWithUsers(t, [1]);
  const a = api(t, shop.auth);
  expectStatus(await a.post('/whatsapp/instance'), 201);
  await evolution.scan(`balcao-${shop.client.id}`);
  await t.database.db
    .update(whatsappInstances)
    .set({ warmupStartedAt: new Date(Date.now() - 60 * 86_400_000) })
    .where(eq(whatsappInstances.clientId, shop.client.id));
  return { ...shop, a, instance: `balcao-${shop.client.id}` };
}

describe('campaign schedule and pace (issue 30 item 18)', () => {
  it('"Cadastrar" with a date schedules the campaign; without one it is a draft; a past date is refused', async () => {
    const shop = await connectedShop();
    const at = new Date(Date.now() + 86_400_000).toISOString();
    const scheduled = expectStatus(
      await shop.a.post('/campaign', { name: 'Agendada', message: 'Oi', scheduledAt: at }),
      201,
    );
    expect(scheduled).toMatchObject({ status: 'scheduled', scheduledAt: at });
    const draft = expectStatus(await shop.a.post('/campaign', { name: 'Rascunho', message: 'Oi' }), 201);
    expect(draft.status).toBe('draft');
    // Clearing the date of a scheduled one makes it a draft again; a date makes a draft scheduled.
    const cleared = expectStatus(
      await shop.a.put(`/campaign/${scheduled.id}`, {
        name: 'Agendada',
        message: 'Oi',
        scheduledAt: null,
        updatedAt: scheduled.updatedAt,
      }),
      200,
    );
    expect(cleared.status).toBe('draft');
    const past = await shop.a.post('/campaign', {
      name: 'Passada',
      message: 'Oi',
      scheduledAt: new Date(Date.now() - 3_600_000).toISOString(),
    });
    expect(expectStatus(past, 422).message).toBe(CAMPAIGN_MESSAGES.scheduleFuture);
  });

  it('waits the minimum gap after a slow send ends, not from its claim', async () => {
    const shop = await connectedShop();
    const phones = ['5511987660001', '5511987660002'];
    await t.database.db
      .insert(customers)
      .values(
        phones.map((phone, i) => ({ clientId: shop.client.id, name: `C ${i}`, phone, whatsappValid: true })),
      );
    evolution.registered.push(...phones);
    // Only this campaign runs.
    await t.database.db.update(campaigns).set({ status: 'canceled' }).where(eq(campaigns.status, 'running'));
    const campaign = expectStatus(await shop.a.post('/campaign', { name: 'Ritmo', message: 'Oi' }), 201);
    expectStatus(await shop.a.post(`/campaign/${campaign.id}/start`), 200);
    let now = Date.UTC(2026, 11, 2, 13, 0, 0); // 10:00 in São Paulo, inside the window
    const clock = { now: () => new Date(now) };
    const first = await claimNext(t.app.ctx, { clock, random: () => 0 });
    if ('kind' in first) throw new Error(`no claim: ${first.kind}`);
    // The first send takes 1.2 s (its image, a cold connection).
    const sent = await deliver(t.app.ctx, first);
    now += 1200;
    await recordSend(t.app.ctx, first.claim, sent, { clock });
    // 7 s after the claim is only 5.8 s after the send: too early.
    now = Date.UTC(2026, 11, 2, 13, 0, 7);
    const early = await claimNext(t.app.ctx, { clock, random: () => 0 });
    expect(early).toMatchObject({ kind: 'idle' });
    expect('kind' in early && early.kind === 'idle' && early.nextAt?.getTime()).toBe(
      Date.UTC(2026, 11, 2, 13, 0, 8, 200),
    );
    now = Date.UTC(2026, 11, 2, 13, 0, 8, 200);
    const second = await claimNext(t.app.ctx, { clock, random: () => 0 });
    expect('claim' in second).toBe(true);
  });

  it('greets a company by its name without the legal form ({primeiro_nome})', async () => {
    const shop = await connectedShop();
    await t.database.db.insert(customers).values([
      {
        clientId: shop.client.id,
        name: 'Construtora Alfa Ltda',
        personType: 'company',
        phone: '5511987660011',
        whatsappValid: true,
      },
      { clientId: shop.client.id, name: 'Maria da Silva', phone: '5511987660012', whatsappValid: true },
    ]);
    const campaign = expectStatus(
      await shop.a.post('/campaign', { name: 'Olá', message: 'Olá {primeiro_nome}!' }),
      201,
    );
    expectStatus(await shop.a.post(`/campaign/${campaign.id}/start`), 200);
    const rows = await t.database.db
      .select()
      .from(campaignRecipients)
      .where(eq(campaignRecipients.campaignId, campaign.id))
      .orderBy(campaignRecipients.phone);
    expect(rows.map((r) => r.text.split('\n')[0])).toEqual(['Olá Construtora Alfa!', 'Olá Maria!']);
  });
});
