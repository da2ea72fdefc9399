import { randomBytes } from 'node:crypto';
import {
  type Audience,
  type AudienceCounts,
  CAMPAIGN_MESSAGES,
  type Campaign,
  type CampaignListItem,
  type CampaignProgress,
  type CampaignRecipient,
  type CampaignStatus,
  type campaignInputSchema,
  type campaignListQuerySchema,
  type campaignUpdateSchema,
  nextInWindow,
  PAUSE_REASONS,
  type Pacing,
  type recipientListQuerySchema,
  renderCampaignMessage,
  WARMUP_DAILY_CAPS,
  warmupCap,
  windowCloses,
} from '@balcao/core/campaign';
import type { ListResult } from '@balcao/core/list';
import { DEFAULT_TIME_ZONE } from '@balcao/core/time';
import { canonicalWhatsapp } from '@balcao/core/whatsapp';
import { and, asc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import sharp from 'sharp';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { Db, Executor } from '../../db/client.ts';
import { clients } from '../../db/schema.ts';
import { conflict, notFound, unprocessable } from '../../errors.ts';
import type { Actor } from '../../lib/actor.ts';
import { countRows, listResult, orderByOf, pageWindow, searchAny } from '../../lib/list.ts';
import { isSameVersion } from '../../lib/pg.ts';
import { assertNotStale } from '../../lib/version.ts';
import { campaignCategoryService } from '../campaign-category/service.ts';
import { findCoupon } from '../coupon/service.ts';
import type { Storage } from '../storage/storage.ts';
import { numberWarmupStart } from '../whatsapp/instance.ts';
import { WHATSAPP_BATCH, WhatsAppUnavailableError, whatsappChecker } from '../whatsapp/service.ts';
import { audienceOf, countsOf } from './audience.ts';
import { effectiveDailyCap, pacingOf } from './pacing.ts';
import { campaignRecipients, campaignSenders, campaigns } from './schema.ts';

type CampaignRow = typeof campaigns.$inferSelect;
type Input = z.output<typeof campaignInputSchema>;
type UpdateInput = z.output<typeof campaignUpdateSchema>;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

const EMPTY_PROGRESS: CampaignProgress = {
  total: 0,
  waiting: 0,
  sending: 0,
  success: 0,
  failed: 0,
  skipped: 0,
};

/** Recipients per status of the given campaigns (one statement). */
async function progressOf(db: Executor, ids: number[]): Promise<Map<number, CampaignProgress>> {
  const result = new Map<number, CampaignProgress>();
  if (ids.length === 0) return result;
  const rows = await db
    .select({
      campaignId: campaignRecipients.campaignId,
      status: campaignRecipients.status,
      n: sql<number>`count(*)::int`,
    })
    .from(campaignRecipients)
    .where(inArray(campaignRecipients.campaignId, ids))
    .groupBy(campaignRecipients.campaignId, campaignRecipients.status);
  for (const row of rows) {
    const p = result.get(row.campaignId) ?? { ...EMPTY_PROGRESS };
    p[row.status as keyof CampaignProgress] = row.n;
    p.total += row.n;
    result.set(row.campaignId, p);
  }
  return result;
}

/** Seconds per message at the pacing (the gap, a share of the long pause, the hourly cap). */
function secondsPerMessage(p: Pacing): number {
  const paced = (p.minDelaySeconds + p.maxDelaySeconds) / 2 + p.pauseSeconds / p.pauseEvery;
  return Math.max(paced, 3600 / p.hourlyCap);
}

/**
 * When the last waiting message should go: one message every `secondsPerMessage`, only inside the
 * sending window (shop's time zone), at most the day's cap per window (lowered while the number
 * warms up). A day-by-day walk, so a campaign over weeks costs a few hundred steps.
 */
export function estimateEnd(input: {
  start: number;
  left: number;
  pacing: Pacing;
  timeZone: string;
  warmupStartedAt: Date | null;
}): number {
  const pacing = pacingOf(input.pacing);
  const step = secondsPerMessage(pacing) * 1000;
  let left = input.left;
  let at = input.start;
  for (let days = 0; days < 5000; days++) {
    at = nextInWindow(at, pacing, input.timeZone);
    const closes = windowCloses(at, pacing, input.timeZone);
    const fits = Math.max(1, Math.floor((closes - at) / step));
    const cap = effectiveDailyCap(pacing, input.warmupStartedAt, new Date(at));
    const n = Math.min(left, fits, cap);
    if (n >= left) return at + (left - 1) * step;
    left -= n;
    at = closes;
  }
  return at;
}

/**
 * What the page shows of the time ahead: when the last waiting message should go, and, while the
 * campaign is sending and the shop is outside its sending window, when the window opens again.
 */
async function timeAhead(
  db: Executor,
  row: CampaignRow,
  progress: CampaignProgress,
  nextSendAt: Date | null,
  warmupStartedAt: Date | null,
): Promise<{ estimatedEndAt: string | null; windowOpensAt: string | null }> {
  const left = progress.waiting + progress.sending;
  if (left === 0 || (row.status !== 'running' && row.status !== 'paused'))
    return { estimatedEndAt: null, windowOpensAt: null };
  const [client] = await db
    .select({ timeZone: clients.timeZone })
    .from(clients)
    .where(eq(clients.id, row.clientId));
  const timeZone = client?.timeZone ?? DEFAULT_TIME_ZONE;
  const now = Date.now();
  const end = estimateEnd({
    start: Math.max(now, nextSendAt?.getTime() ?? 0),
    left,
    pacing: row.pacing,
    timeZone,
    warmupStartedAt,
  });
  const opens = nextInWindow(now, pacingOf(row.pacing), timeZone);
  return {
    estimatedEndAt: new Date(end).toISOString(),
    windowOpensAt: row.status === 'running' && opens > now ? new Date(opens).toISOString() : null,
  };
}

/** The number's warm-up as the campaign page shows it; null once over (or never connected). */
function warmupView(startedAt: Date | null, pacing: Pacing, now = new Date()) {
  if (!startedAt) return null;
  const day = Math.floor((now.getTime() - startedAt.getTime()) / 86_400_000) + 1;
  if (warmupCap(day) === null) return null;
  return { day, days: WARMUP_DAILY_CAPS.length, dailyCap: effectiveDailyCap(pacing, startedAt, now) };
}

/** Where the API serves a campaign's image (public: an <img> sends no Bearer; the random name is the secret). */
const campaignImageUrl = (key: string | null) =>
  key ? `/v1/campaign-image/${key.replace(/^campaign\//, '')}` : null;

async function rowOf(db: Executor, clientId: number, id: number, lock = false): Promise<CampaignRow> {
  const query = db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.clientId, clientId), eq(campaigns.id, id)));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw notFound(CAMPAIGN_MESSAGES.notFound);
  return row;
}

export async function findCampaign(db: Executor, actor: Actor, id: number): Promise<Campaign> {
  const row = await rowOf(db, actor.clientId, id);
  const [progress, category, coupon, sender, warmupStartedAt] = await Promise.all([
    progressOf(db, [id]),
    row.categoryId ? campaignCategoryService.find(db, actor, row.categoryId, () => sql<number>`0`) : null,
    row.couponId ? findCoupon(db, actor, row.couponId).catch(() => null) : null,
    db.select().from(campaignSenders).where(eq(campaignSenders.clientId, actor.clientId)),
    numberWarmupStart(db, actor.clientId),
  ]);
  const p = progress.get(id) ?? { ...EMPTY_PROGRESS };
  const pacing = pacingOf(row.pacing);
  const ahead = await timeAhead(db, row, p, sender[0]?.nextSendAt ?? null, warmupStartedAt);
  return {
    id: row.id,
    name: row.name,
    category: category ? { id: category.id, name: category.name } : null,
    message: row.message,
    imageUrl: campaignImageUrl(row.imageKey),
    coupon: coupon ? { id: coupon.id, code: coupon.code } : null,
    audience: { ...row.audience, tags: row.audience.tags ?? [] },
    pacing,
    scheduledAt: iso(row.scheduledAt),
    status: row.status as CampaignStatus,
    pauseReason: row.pauseReason,
    startedAt: iso(row.startedAt),
    finishedAt: iso(row.finishedAt),
    progress: p,
    ...ahead,
    warmup: warmupView(warmupStartedAt, pacing),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function listCampaigns(
  db: Db,
  actor: Actor,
  query: z.output<typeof campaignListQuerySchema>,
): Promise<ListResult<CampaignListItem>> {
  const where = and(
    eq(campaigns.clientId, actor.clientId),
    searchAny(query.q, [campaigns.name]),
    query.status ? eq(campaigns.status, query.status) : undefined,
    query.categoryId ? eq(campaigns.categoryId, query.categoryId) : undefined,
  );
  const order = orderByOf(
    query.sort,
    { name: sql`lower(${campaigns.name})`, createdAt: campaigns.createdAt, status: campaigns.status },
    { field: 'createdAt', direction: 'desc' },
    campaigns.id,
  );
  const { limit, offset } = pageWindow(query);
  const [rows, total] = await Promise.all([
    db
      .select({
        id: campaigns.id,
        name: campaigns.name,
        categoryId: campaigns.categoryId,
        categoryName: campaignCategoryService.nameOf(campaigns.categoryId),
        status: campaigns.status,
        scheduledAt: campaigns.scheduledAt,
        createdAt: campaigns.createdAt,
        updatedAt: campaigns.updatedAt,
      })
      .from(campaigns)
      .where(where)
      .orderBy(...order)
      .limit(limit)
      .offset(offset),
    countRows(db, campaigns, where),
  ]);
  const progress = await progressOf(
    db,
    rows.map((r) => r.id),
  );
  return listResult(
    rows.map((r) => ({
      id: r.id,
      name: r.name,
      category: r.categoryId && r.categoryName ? { id: r.categoryId, name: r.categoryName } : null,
      status: r.status as CampaignStatus,
      scheduledAt: iso(r.scheduledAt),
      progress: progress.get(r.id) ?? { ...EMPTY_PROGRESS },
      createdAt: r.createdAt.toISOString(),
      updatedAt: r.updatedAt.toISOString(),
    })),
    total,
    query,
  );
}

/** The category and coupon must be the client's (404 otherwise: tenancy). */
async function checkRefs(db: Executor, actor: Actor, input: Input) {
  if (input.categoryId && !(await campaignCategoryService.exists(db, actor, input.categoryId)))
    throw unprocessable(CAMPAIGN_MESSAGES.categoryNotFound, [
      { path: 'categoryId', message: CAMPAIGN_MESSAGES.categoryNotFound },
    ]);
  if (input.couponId) {
    const coupon = await findCoupon(db, actor, input.couponId).catch(() => null);
    if (!coupon || coupon.status === 'deleted')
      throw unprocessable(CAMPAIGN_MESSAGES.couponNotFound, [
        { path: 'couponId', message: CAMPAIGN_MESSAGES.couponNotFound },
      ]);
  }
}

const columnsOf = (input: Input) => ({
  name: input.name,
  categoryId: input.categoryId,
  couponId: input.couponId,
  message: input.message,
  audience: input.audience,
  pacing: input.pacing,
  scheduledAt: input.scheduledAt ? new Date(input.scheduledAt) : null,
});

/** Slack for a date typed a moment ago (the clocks of the browser and the server). */
const SCHEDULE_SKEW_MS = 60_000;

/**
 * A campaign saved with a date is scheduled (the worker starts it then), without one it is a draft:
 * "Cadastrar" with a date schedules, as the form says. A new date in the past is refused.
 */
function statusFor(input: Input, previous: Date | null = null, now = Date.now()): 'draft' | 'scheduled' {
  if (!input.scheduledAt) return 'draft';
  const at = Date.parse(input.scheduledAt);
  if (at < now - SCHEDULE_SKEW_MS && at !== previous?.getTime())
    throw unprocessable(CAMPAIGN_MESSAGES.scheduleFuture, [
      { path: 'scheduledAt', message: CAMPAIGN_MESSAGES.scheduleFuture },
    ]);
  return 'scheduled';
}

export async function createCampaign(ctx: AppContext, actor: Actor, input: Input): Promise<Campaign> {
  await checkRefs(ctx.db, actor, input);
  const status = statusFor(input);
  const [row] = await ctx.db
    .insert(campaigns)
    .values({ ...columnsOf(input), status, clientId: actor.clientId, createdByUserId: actor.userId })
    .returning({ id: campaigns.id });
  ctx.changed(actor.clientId, 'campaign', row.id);
  return findCampaign(ctx.db, actor, row.id);
}

/** Only a campaign that has not started (draft or scheduled) is edited. */
export async function updateCampaign(
  ctx: AppContext,
  actor: Actor,
  id: number,
  input: UpdateInput,
): Promise<Campaign> {
  const row = await rowOf(ctx.db, actor.clientId, id);
  if (row.status !== 'draft' && row.status !== 'scheduled') throw conflict(CAMPAIGN_MESSAGES.notEditable);
  await checkRefs(ctx.db, actor, input);
  const status = statusFor(input, row.scheduledAt);
  const rows = await ctx.db
    .update(campaigns)
    .set({ ...columnsOf(input), status, updatedAt: new Date() })
    .where(
      and(
        eq(campaigns.clientId, actor.clientId),
        eq(campaigns.id, id),
        inArray(campaigns.status, ['draft', 'scheduled']),
        isSameVersion(campaigns.updatedAt, input.updatedAt),
      ),
    )
    .returning({ id: campaigns.id });
  assertNotStale(rows);
  ctx.changed(actor.clientId, 'campaign', id);
  return findCampaign(ctx.db, actor, id);
}

export async function deleteCampaign(
  ctx: AppContext,
  storage: Storage,
  actor: Actor,
  id: number,
): Promise<{ id: number }> {
  const row = await rowOf(ctx.db, actor.clientId, id);
  if (row.status === 'running' || row.status === 'paused') throw conflict(CAMPAIGN_MESSAGES.deleteStarted);
  await ctx.db.delete(campaigns).where(and(eq(campaigns.clientId, actor.clientId), eq(campaigns.id, id)));
  if (row.imageKey) await storage.remove(row.imageKey);
  ctx.changed(actor.clientId, 'campaign', id);
  return { id };
}

/** Any image in, one JPEG out (at most 1600 px): what WhatsApp shows, small enough to go as base64. */
async function toCampaignJpeg(data: Buffer): Promise<Buffer> {
  try {
    return await sharp(data, { limitInputPixels: 40_000_000, failOn: 'error' })
      .rotate()
      .resize({ width: 1600, height: 1600, fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 82, mozjpeg: true })
      .toBuffer();
  } catch {
    throw unprocessable('Não foi possível ler a imagem: o arquivo parece corrompido');
  }
}

/**
 * Sets (data) or removes (null) the image of a campaign that has not started: stored under a new
 * random name through the storage interface, the old file removed after the swap.
 */
export async function setCampaignImage(
  ctx: AppContext,
  storage: Storage,
  actor: Actor,
  id: number,
  data: Buffer | null,
): Promise<Campaign> {
  const current = await rowOf(ctx.db, actor.clientId, id);
  if (current.status !== 'draft' && current.status !== 'scheduled')
    throw conflict(CAMPAIGN_MESSAGES.notEditable);
  let key: string | null = null;
  if (data) {
    key = `campaign/${actor.clientId}/${randomBytes(16).toString('hex')}.jpg`;
    await storage.put(key, await toCampaignJpeg(data));
  }
  const old = await ctx.db.transaction(async (tx) => {
    const row = await rowOf(tx, actor.clientId, id, true);
    if (row.status !== 'draft' && row.status !== 'scheduled') return undefined;
    await tx.update(campaigns).set({ imageKey: key, updatedAt: new Date() }).where(eq(campaigns.id, id));
    return row.imageKey;
  });
  if (old === undefined) {
    if (key) await storage.remove(key);
    throw conflict(CAMPAIGN_MESSAGES.notEditable);
  }
  if (old) await storage.remove(old);
  ctx.changed(actor.clientId, 'campaign', id);
  return findCampaign(ctx.db, actor, id);
}

export async function countAudience(db: Executor, actor: Actor, audience: Audience): Promise<AudienceCounts> {
  return countsOf(await audienceOf(db, actor.clientId, audience));
}

/**
 * Start now, or schedule when the campaign's date is in the future. Starting writes the queue:
 * one row per distinct number of the audience; opted-out numbers and numbers without WhatsApp are
 * written as skipped with the reason (numbers never checked are asked of whatsappNumbers first, in
 * batches, and the answers are not kept beyond the queue).
 */
export async function startCampaign(
  ctx: AppContext,
  actor: Actor,
  id: number,
  now = new Date(),
): Promise<Campaign> {
  const row = await rowOf(ctx.db, actor.clientId, id);
  if (row.status !== 'draft' && row.status !== 'scheduled') throw conflict(CAMPAIGN_MESSAGES.notStartable);
  if (row.scheduledAt && row.scheduledAt > now) {
    await ctx.db
      .update(campaigns)
      .set({ status: 'scheduled', updatedAt: new Date() })
      .where(and(eq(campaigns.id, id), eq(campaigns.status, row.status)));
  } else {
    await enqueue(ctx, row, now);
  }
  ctx.changed(actor.clientId, 'campaign', id);
  return findCampaign(ctx.db, actor, id);
}

/** Writes the queue of a campaign and sets it running (used by start and by the worker for scheduled ones). */
export async function enqueue(ctx: AppContext, row: CampaignRow, now: Date): Promise<void> {
  const people = await audienceOf(ctx.db, row.clientId, row.audience);
  const [client] = await ctx.db
    .select({ name: clients.name })
    .from(clients)
    .where(eq(clients.id, row.clientId));
  const coupon = row.couponId
    ? await findCoupon(ctx.db, { clientId: row.clientId, userId: 0 }, row.couponId).catch(() => null)
    : null;
  // Numbers never checked: ask whatsappNumbers first (slowly, in batches); an unanswered check sends anyway.
  const unchecked = people.filter((p) => p.whatsappValid === null && !p.optedOut);
  const exists = new Map<string, boolean>();
  const check = unchecked.length > 0 ? await whatsappChecker(ctx, row.clientId) : null;
  if (check) {
    for (let i = 0; i < unchecked.length; i += WHATSAPP_BATCH) {
      const chunk = unchecked.slice(i, i + WHATSAPP_BATCH).map((p) => p.phone);
      try {
        const answers = await check(chunk);
        chunk.forEach((phone, index) => {
          if (answers[index] !== undefined) exists.set(phone, answers[index] as boolean);
        });
      } catch (error) {
        if (!(error instanceof WhatsAppUnavailableError)) throw error;
      }
    }
  }
  const seen = new Set<string>();
  const recipients: (typeof campaignRecipients.$inferInsert)[] = [];
  for (const person of people) {
    // One recipient per WhatsApp number: a mobile with and without the ninth digit is one person.
    const phone = canonicalWhatsapp(person.phone) ?? person.phone.replace(/\D/g, '');
    if (!phone || seen.has(phone)) continue;
    seen.add(phone);
    const valid = person.whatsappValid ?? exists.get(person.phone) ?? true;
    const reason = person.optedOut
      ? 'Pediu para não receber mensagens'
      : valid
        ? null
        : 'Número sem WhatsApp';
    recipients.push({
      clientId: row.clientId,
      campaignId: row.id,
      customerId: person.id,
      name: person.name,
      phone,
      text: renderCampaignMessage(row.message, {
        name: person.name,
        personType: person.personType,
        shop: client?.name ?? '',
        coupon: coupon?.code,
      }),
      status: reason ? 'skipped' : 'waiting',
      reason,
    });
  }
  if (!recipients.some((r) => r.status === 'waiting')) throw unprocessable(CAMPAIGN_MESSAGES.emptyAudience);
  await ctx.db.transaction(async (tx) => {
    const [locked] = await tx
      .select({ status: campaigns.status })
      .from(campaigns)
      .where(eq(campaigns.id, row.id))
      .for('update');
    if (locked?.status !== 'draft' && locked?.status !== 'scheduled')
      throw conflict(CAMPAIGN_MESSAGES.notStartable);
    for (let i = 0; i < recipients.length; i += 500)
      await tx
        .insert(campaignRecipients)
        .values(recipients.slice(i, i + 500))
        .onConflictDoNothing();
    await tx
      .update(campaigns)
      .set({ status: 'running', startedAt: now, pauseReason: null, failuresInRow: 0, updatedAt: new Date() })
      .where(eq(campaigns.id, row.id));
    await tx
      .insert(campaignSenders)
      .values({ clientId: row.clientId, nextSendAt: now })
      .onConflictDoNothing();
  });
}

async function setStatus(
  ctx: AppContext,
  actor: Actor,
  id: number,
  from: CampaignStatus[],
  to: CampaignStatus,
  refusal: string,
  extra: Partial<CampaignRow> = {},
): Promise<Campaign> {
  await ctx.db.transaction(async (tx) => {
    const row = await rowOf(tx, actor.clientId, id, true);
    if (!from.includes(row.status as CampaignStatus)) throw conflict(refusal);
    await tx
      .update(campaigns)
      .set({ status: to, updatedAt: new Date(), ...extra })
      .where(eq(campaigns.id, id));
    if (to === 'canceled')
      await tx
        .update(campaignRecipients)
        .set({ status: 'skipped', reason: 'Campanha cancelada' })
        .where(and(eq(campaignRecipients.campaignId, id), eq(campaignRecipients.status, 'waiting')));
  });
  ctx.changed(actor.clientId, 'campaign', id);
  return findCampaign(ctx.db, actor, id);
}

export const pauseCampaign = (ctx: AppContext, actor: Actor, id: number) =>
  setStatus(ctx, actor, id, ['running'], 'paused', CAMPAIGN_MESSAGES.notPausable, {
    pauseReason: PAUSE_REASONS.manual,
  });

/** Resumes where it stopped: the waiting rows stay in the queue. */
export const resumeCampaign = (ctx: AppContext, actor: Actor, id: number) =>
  setStatus(ctx, actor, id, ['paused'], 'running', CAMPAIGN_MESSAGES.notResumable, {
    pauseReason: null,
    failuresInRow: 0,
  });

export const cancelCampaign = (ctx: AppContext, actor: Actor, id: number) =>
  setStatus(
    ctx,
    actor,
    id,
    ['draft', 'scheduled', 'running', 'paused'],
    'canceled',
    CAMPAIGN_MESSAGES.notCancelable,
    {
      finishedAt: new Date(),
    },
  );

const recipientColumns = {
  id: campaignRecipients.id,
  customerId: campaignRecipients.customerId,
  name: campaignRecipients.name,
  phone: campaignRecipients.phone,
  status: campaignRecipients.status,
  reason: campaignRecipients.reason,
  sentAt: campaignRecipients.sentAt,
};
const toRecipient = (
  r: { sentAt: Date | null; status: string } & Omit<CampaignRecipient, 'sentAt' | 'status'>,
) => ({
  ...r,
  status: r.status as CampaignRecipient['status'],
  sentAt: iso(r.sentAt),
});

export async function listRecipients(
  db: Db,
  actor: Actor,
  id: number,
  query: z.output<typeof recipientListQuerySchema>,
): Promise<ListResult<CampaignRecipient>> {
  await rowOf(db, actor.clientId, id);
  const where = and(
    eq(campaignRecipients.campaignId, id),
    searchAny(query.q, [campaignRecipients.name, campaignRecipients.phone]),
    query.status ? eq(campaignRecipients.status, query.status) : undefined,
  );
  const { limit, offset } = pageWindow(query);
  const [rows, total] = await Promise.all([
    db
      .select(recipientColumns)
      .from(campaignRecipients)
      .where(where)
      .orderBy(asc(campaignRecipients.id))
      .limit(limit)
      .offset(offset),
    countRows(db, campaignRecipients, where),
  ]);
  return listResult(rows.map(toRecipient), total, query);
}

/**
 * Every recipient of a campaign for the CSV, in queue order. The campaign is checked first (404
 * before the download starts); the rows are then read 500 at a time.
 */
export async function recipientsForCsv(
  db: Db,
  actor: Actor,
  id: number,
): Promise<AsyncIterable<CampaignRecipient>> {
  await rowOf(db, actor.clientId, id);
  return recipientPages(db, id);
}

async function* recipientPages(db: Db, id: number): AsyncIterable<CampaignRecipient> {
  let after = 0;
  for (;;) {
    const rows = await db
      .select(recipientColumns)
      .from(campaignRecipients)
      .where(and(eq(campaignRecipients.campaignId, id), sql`${campaignRecipients.id} > ${after}`))
      .orderBy(asc(campaignRecipients.id))
      .limit(500);
    for (const row of rows) yield toRecipient(row);
    if (rows.length < 500) return;
    after = rows[rows.length - 1].id;
  }
}

/** How many campaigns use a category (handed to campaign-category at wiring). */
export const campaignsInCategory = (recordId: SQL, clientId: SQL) =>
  sql<number>`(select count(*)::int from campaigns c where c.category_id = ${recordId} and c.client_id = ${clientId})`;
