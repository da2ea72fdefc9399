import { nextInWindow, PAUSE_REASONS, UNCONFIRMED_REASON } from '@balcao/core/campaign';
import { DEFAULT_TIME_ZONE } from '@balcao/core/time';
import { and, asc, desc, eq, gt, isNotNull, lte, min, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { clients } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { storageFor } from '../storage/storage.ts';
import { campaignSender, isOptedOut, type SendResult } from '../whatsapp/instance.ts';
import { effectiveDailyCap, pacingOf } from './pacing.ts';
import { campaignRecipients, campaignSenders, campaigns } from './schema.ts';
import { enqueue } from './service.ts';

/**
 * The campaign sending engine (issue 19). The queue is the campaign_recipients table: a worker claims
 * one row at a time (waiting -> sending) in a transaction that locks the shop's sender row FOR UPDATE
 * SKIP LOCKED, so any number of workers, on one server or several, send each row once and one shop's
 * number never sends two messages at once. The pacing state (next allowed moment, messages since the
 * long pause) lives in campaign_senders and the caps are counted from the rows' claim times, so a
 * restart resumes where it stopped with the same pace.
 */

type Clock = { now(): Date };
const systemClock: Clock = { now: () => new Date() };

type WorkerOptions = {
  clock?: Clock;
  /** 0..1, for the jittered gaps (tests pass a fixed one). */
  random?: () => number;
};

export type TickResult =
  | { kind: 'sent' | 'failed' | 'skipped' | 'paused' | 'finished'; campaignId: number }
  | { kind: 'idle'; nextAt: Date | null };

/** Send errors in a row that pause a campaign (a ban signal, INTEGRATIONS.md). */
const FAILURES_TO_PAUSE = 3;
/**
 * A row left `sending` this long (the server died mid-send, or the send got no answer) is settled
 * against Evolution's stored messages (`recoverInterrupted`): longer than any send's timeout, so the
 * request it stands for is over.
 */
const STALE_SENDING_MS = 2 * 60_000;
/** How often a worker looks for rows to settle. */
const RECOVERY_EVERY_MS = 30_000;
/** Slack around the claim when asking Evolution for the messages sent (clocks of two machines). */
const CLOCK_SKEW_MS = 60_000;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

async function finishIfDone(tx: Executor, campaignId: number, now: Date): Promise<string | null> {
  const [left] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(campaignRecipients)
    .where(
      and(
        eq(campaignRecipients.campaignId, campaignId),
        sql`${campaignRecipients.status} in ('waiting', 'sending')`,
      ),
    );
  if ((left?.n ?? 0) > 0) return null;
  const [done] = await tx
    .update(campaigns)
    .set({ status: 'finished', finishedAt: now, updatedAt: new Date() })
    .where(and(eq(campaigns.id, campaignId), eq(campaigns.status, 'running')))
    .returning({ name: campaigns.name });
  return done?.name ?? null;
}

async function announceEnd(ctx: AppContext, clientId: number, campaignId: number, name: string) {
  const [counts] = await ctx.db
    .select({
      success: sql<number>`count(*) filter (where ${campaignRecipients.status} = 'success')::int`,
      failed: sql<number>`count(*) filter (where ${campaignRecipients.status} = 'failed')::int`,
    })
    .from(campaignRecipients)
    .where(eq(campaignRecipients.campaignId, campaignId));
  ctx.notify(clientId, {
    message: `Campanha "${name}" concluída: ${counts?.success ?? 0} enviadas, ${counts?.failed ?? 0} com falha`,
    alertColor: 'success',
  });
}

/**
 * Whether "not found in Evolution" can be believed for a shop: Evolution stores messages only with
 * DATABASE_SAVE_DATA_NEW_MESSAGE=true (off when unset), so a message of the shop known sent (its id)
 * must be found. false when it is not, or when the shop has no such message (the check is
 * impossible); 'unknown' when Evolution did not answer.
 */
async function lookupIsReliable(
  ctx: AppContext,
  clientId: number,
  sender: Awaited<ReturnType<typeof campaignSender>>,
): Promise<boolean | 'unknown'> {
  if (!sender.storesMessages) return 'unknown';
  const [known] = await ctx.db
    .select({ id: campaignRecipients.messageId })
    .from(campaignRecipients)
    .where(
      and(
        eq(campaignRecipients.clientId, clientId),
        eq(campaignRecipients.status, 'success'),
        isNotNull(campaignRecipients.messageId),
        sql`${campaignRecipients.messageId} <> ''`,
      ),
    )
    .orderBy(desc(campaignRecipients.sentAt))
    .limit(1);
  if (!known?.id) return false;
  return sender.storesMessages(known.id);
}

/**
 * Settles rows left `sending` by a worker that died (or whose send got no answer), against what
 * Evolution holds (under both jids of the number): a message to that number with exactly the row's
 * text since the claim means it went (success, with its id); none means it did not (back to
 * `waiting`, sent again in its turn) - only when Evolution is known to store messages (a message of
 * the shop known sent is found). When it stores none, or there is nothing to check that against, the
 * row is never sent again: it fails with UNCONFIRMED_REASON for a person to look at. When Evolution
 * cannot answer, the row stays `sending` (its shop sends nothing meanwhile) and is asked again on
 * the next pass. Answers how many rows were settled each way.
 */
export async function recoverInterrupted(
  ctx: AppContext,
  now: Date,
): Promise<{ sent: number; requeued: number; unknown: number; unconfirmed: number }> {
  const stale = await ctx.db
    .select()
    .from(campaignRecipients)
    .where(
      and(
        eq(campaignRecipients.status, 'sending'),
        lte(campaignRecipients.claimedAt, new Date(now.getTime() - STALE_SENDING_MS)),
      ),
    )
    .orderBy(asc(campaignRecipients.id))
    .limit(100);
  const result = { sent: 0, requeued: 0, unknown: 0, unconfirmed: 0 };
  const senders = new Map<number, Awaited<ReturnType<typeof campaignSender>>>();
  const reliable = new Map<number, boolean | 'unknown'>();
  for (const row of stale) {
    let sender = senders.get(row.clientId);
    if (!sender) {
      sender = await campaignSender(ctx, row.clientId);
      senders.set(row.clientId, sender);
    }
    const claimedAt = row.claimedAt as Date;
    const found = sender.findSent
      ? await sender.findSent(
          row.phone,
          row.text,
          new Date(claimedAt.getTime() - CLOCK_SKEW_MS),
          new Date(now.getTime() + CLOCK_SKEW_MS),
        )
      : 'unknown';
    if (found === 'unknown') {
      result.unknown += 1;
      continue;
    }
    if (found === null) {
      let trust = reliable.get(row.clientId);
      if (trust === undefined) {
        trust = await lookupIsReliable(ctx, row.clientId, sender);
        reliable.set(row.clientId, trust);
      }
      if (trust === 'unknown') {
        result.unknown += 1;
        continue;
      }
      const [campaign] = await ctx.db
        .select({ status: campaigns.status })
        .from(campaigns)
        .where(eq(campaigns.id, row.campaignId));
      // A canceled campaign sends nothing again either way: the row is dropped below as before.
      if (!trust && campaign?.status !== 'canceled') {
        const marked = await ctx.db
          .update(campaignRecipients)
          .set({ status: 'failed', reason: UNCONFIRMED_REASON, sentAt: now })
          .where(
            and(
              eq(campaignRecipients.id, row.id),
              eq(campaignRecipients.status, 'sending'),
              eq(campaignRecipients.claimedAt, claimedAt),
            ),
          )
          .returning({ id: campaignRecipients.id });
        if (marked.length === 0) continue;
        result.unconfirmed += 1;
        ctx.notify(row.clientId, {
          message:
            'Uma mensagem de campanha ficou sem confirmação de envio: veja os destinatários com falha antes de reenviar.',
          alertColor: 'warning',
        });
        const name = await ctx.db.transaction((tx) => finishIfDone(tx, row.campaignId, now));
        if (name) await announceEnd(ctx, row.clientId, row.campaignId, name);
        ctx.changed(row.clientId, 'campaign', row.campaignId);
        continue;
      }
    }
    // Guarded by the claim it settles: a row claimed again meanwhile is left alone.
    const settled = await ctx.db
      .update(campaignRecipients)
      .set(
        found
          ? { status: 'success', messageId: found.id, sentAt: found.at, reason: null }
          : {
              // Not sent: back in the queue, or dropped when the campaign was canceled meanwhile.
              status: sql`case when exists (select 1 from campaigns c where c.id = ${row.campaignId} and c.status = 'canceled') then 'skipped' else 'waiting' end`,
              claimedAt: null,
              reason: sql`case when exists (select 1 from campaigns c where c.id = ${row.campaignId} and c.status = 'canceled') then 'Campanha cancelada' else null end`,
            },
      )
      .where(
        and(
          eq(campaignRecipients.id, row.id),
          eq(campaignRecipients.status, 'sending'),
          eq(campaignRecipients.claimedAt, claimedAt),
        ),
      )
      .returning({ id: campaignRecipients.id });
    if (settled.length === 0) continue;
    if (found) result.sent += 1;
    else result.requeued += 1;
    if (found) {
      const name = await ctx.db.transaction((tx) => finishIfDone(tx, row.campaignId, now));
      if (name) await announceEnd(ctx, row.clientId, row.campaignId, name);
    }
    ctx.changed(row.clientId, 'campaign', row.campaignId);
  }
  return result;
}

/** Scheduled campaigns whose time came: their queue is written and they run. */
export async function startDueCampaigns(ctx: AppContext, now: Date): Promise<void> {
  const due = await ctx.db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.status, 'scheduled'), lte(campaigns.scheduledAt, now)))
    .orderBy(asc(campaigns.scheduledAt))
    .limit(10);
  for (const row of due) {
    try {
      await enqueue(ctx, row, now);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      // Another worker started it (409), or nobody matches the audience any more (422).
      if (error.statusCode === 422)
        await ctx.db
          .update(campaigns)
          .set({ status: 'canceled', pauseReason: error.message, finishedAt: now, updatedAt: new Date() })
          .where(and(eq(campaigns.id, row.id), eq(campaigns.status, 'scheduled')));
    }
    ctx.changed(row.clientId, 'campaign', row.id);
  }
}

type Claim = {
  clientId: number;
  campaignId: number;
  recipientId: number;
  phone: string;
  text: string;
  imageKey: string | null;
  /** The gap drawn for this message: the next one waits this long after the send ENDS. */
  gapMs: number;
};

async function pause(tx: Executor, campaignId: number, reason: string) {
  await tx
    .update(campaigns)
    .set({ status: 'paused', pauseReason: reason, updatedAt: new Date() })
    .where(and(eq(campaigns.id, campaignId), eq(campaigns.status, 'running')));
}

/**
 * One step of the engine: claims the next message of a shop whose pace allows it, sends it, records
 * the result. Answers what happened, or `idle` with the next moment something may be due.
 */
export async function sendNext(ctx: AppContext, options: WorkerOptions = {}): Promise<TickResult> {
  const claimed = await claimNext(ctx, options);
  if ('kind' in claimed) return claimed;
  return recordSend(ctx, claimed.claim, await deliver(ctx, claimed), options);
}

type Claimed = { claim: Claim; sender: Awaited<ReturnType<typeof campaignSender>> };

/**
 * The claim, committed: the next waiting row of a shop whose pace, caps, sending window and warm-up
 * allow a message now becomes `sending` (or what happened instead: skipped, paused, finished, idle).
 */
export async function claimNext(ctx: AppContext, options: WorkerOptions = {}): Promise<Claimed | TickResult> {
  const clock = options.clock ?? systemClock;
  const random = options.random ?? Math.random;
  const now = clock.now();

  // Which shop may send now (read outside the transaction; the claim below re-checks under the lock).
  const [candidate] = await ctx.db
    .select({ clientId: campaignSenders.clientId })
    .from(campaignSenders)
    .where(
      and(
        lte(campaignSenders.nextSendAt, now),
        sql`exists (select 1 from campaigns c where c.client_id = ${campaignSenders.clientId} and c.status = 'running')`,
      ),
    )
    .orderBy(asc(campaignSenders.nextSendAt))
    .limit(1);
  if (!candidate) {
    const [next] = await ctx.db
      .select({ at: min(campaignSenders.nextSendAt) })
      .from(campaignSenders)
      .where(
        sql`exists (select 1 from campaigns c where c.client_id = ${campaignSenders.clientId} and c.status = 'running')`,
      );
    return { kind: 'idle', nextAt: next?.at ? new Date(next.at) : null };
  }
  const sender = await campaignSender(ctx, candidate.clientId);

  let finishedName: string | null = null;
  const outcome = await ctx.db.transaction(async (tx): Promise<Claim | TickResult> => {
    const [locked] = await tx
      .select()
      .from(campaignSenders)
      .where(and(eq(campaignSenders.clientId, candidate.clientId), lte(campaignSenders.nextSendAt, now)))
      .for('update', { skipLocked: true });
    if (!locked) return { kind: 'idle', nextAt: null };
    const [inFlight] = await tx
      .select({ id: campaignRecipients.id })
      .from(campaignRecipients)
      .where(and(eq(campaignRecipients.clientId, locked.clientId), eq(campaignRecipients.status, 'sending')))
      .limit(1);
    if (inFlight) return { kind: 'idle', nextAt: null };
    const [campaign] = await tx
      .select()
      .from(campaigns)
      .where(and(eq(campaigns.clientId, locked.clientId), eq(campaigns.status, 'running')))
      .orderBy(asc(campaigns.startedAt), asc(campaigns.id))
      .limit(1)
      .for('update', { skipLocked: true });
    if (!campaign) return { kind: 'idle', nextAt: null };
    const pacing = pacingOf(campaign.pacing);

    // Quiet hours: outside the sending window (shop's time zone) the number waits for its opening.
    const [client] = await tx
      .select({ timeZone: clients.timeZone })
      .from(clients)
      .where(eq(clients.id, locked.clientId));
    const opens = nextInWindow(now.getTime(), pacing, client?.timeZone ?? DEFAULT_TIME_ZONE);
    if (opens > now.getTime()) {
      const nextAt = new Date(opens);
      await tx
        .update(campaignSenders)
        .set({ nextSendAt: nextAt })
        .where(eq(campaignSenders.clientId, locked.clientId));
      return { kind: 'idle', nextAt };
    }

    // The caps of the shop's number, counted from the attempts of the last hour and day.
    const attempts = async (windowMs: number) => {
      const [row] = await tx
        .select({ n: sql<number>`count(*)::int`, oldest: min(campaignRecipients.claimedAt) })
        .from(campaignRecipients)
        .where(
          and(
            eq(campaignRecipients.clientId, locked.clientId),
            gt(campaignRecipients.claimedAt, new Date(now.getTime() - windowMs)),
          ),
        );
      return { n: row?.n ?? 0, oldest: row?.oldest ?? now };
    };
    for (const [windowMs, cap] of [
      [HOUR, pacing.hourlyCap],
      [DAY, effectiveDailyCap(pacing, sender.warmupStartedAt, now)],
    ] as const) {
      const used = await attempts(windowMs);
      if (used.n >= cap) {
        const nextAt = new Date(new Date(used.oldest).getTime() + windowMs + 1000);
        await tx
          .update(campaignSenders)
          .set({ nextSendAt: nextAt })
          .where(eq(campaignSenders.clientId, locked.clientId));
        return { kind: 'idle', nextAt };
      }
    }

    const [recipient] = await tx
      .select()
      .from(campaignRecipients)
      .where(and(eq(campaignRecipients.campaignId, campaign.id), eq(campaignRecipients.status, 'waiting')))
      .orderBy(asc(campaignRecipients.id))
      .limit(1)
      .for('update', { skipLocked: true });
    if (!recipient) {
      finishedName = await finishIfDone(tx, campaign.id, now);
      return { kind: 'finished', campaignId: campaign.id };
    }
    if (await isOptedOut(tx, locked.clientId, recipient.phone)) {
      await tx
        .update(campaignRecipients)
        .set({ status: 'skipped', reason: 'Pediu para não receber mensagens' })
        .where(eq(campaignRecipients.id, recipient.id));
      finishedName = await finishIfDone(tx, campaign.id, now);
      return { kind: 'skipped', campaignId: campaign.id };
    }
    if (sender.state !== 'open' || !sender.send) {
      await pause(tx, campaign.id, PAUSE_REASONS.disconnected);
      return { kind: 'paused', campaignId: campaign.id };
    }
    await tx
      .update(campaignRecipients)
      .set({ status: 'sending', claimedAt: now })
      .where(eq(campaignRecipients.id, recipient.id));
    const p = pacing;
    const sinceBreak = locked.sinceBreak + 1;
    const longPause = sinceBreak >= p.pauseEvery;
    const gapMs =
      Math.round((p.minDelaySeconds + random() * (p.maxDelaySeconds - p.minDelaySeconds)) * 1000) +
      (longPause ? p.pauseSeconds * 1000 : 0);
    await tx
      .update(campaignSenders)
      .set({ nextSendAt: new Date(now.getTime() + gapMs), sinceBreak: longPause ? 0 : sinceBreak })
      .where(eq(campaignSenders.clientId, locked.clientId));
    return {
      clientId: locked.clientId,
      campaignId: campaign.id,
      recipientId: recipient.id,
      phone: recipient.phone,
      text: recipient.text,
      imageKey: campaign.imageKey,
      gapMs,
    };
  });

  if ('kind' in outcome) {
    if (outcome.kind !== 'idle') ctx.changed(candidate.clientId, 'campaign', outcome.campaignId);
    if (finishedName && outcome.kind !== 'idle')
      await announceEnd(ctx, candidate.clientId, outcome.campaignId, finishedName);
    return outcome;
  }
  ctx.changed(outcome.clientId, 'campaign', outcome.campaignId);
  return { claim: outcome, sender };
}

/** The campaign's image as base64 for sendMedia (read from storage at each send); null without one. */
async function imageOf(ctx: AppContext, key: string | null) {
  if (!key) return null;
  const stored = await storageFor(ctx.config).get(key);
  if (!stored) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of stored.stream) chunks.push(chunk as Buffer);
  return { base64: Buffer.concat(chunks).toString('base64'), mimetype: 'image/jpeg' };
}

/** Sends a claimed message through the shop's instance (outside any transaction). */
export async function deliver(ctx: AppContext, { claim, sender }: Claimed): Promise<SendResult> {
  return (sender.send as NonNullable<typeof sender.send>)({
    number: claim.phone,
    text: claim.text,
    image: await imageOf(ctx, claim.imageKey),
  });
}

/** Records a send's outcome on its row (and the campaign: errors in a row, pause, end). */
export async function recordSend(
  ctx: AppContext,
  claim: Claim,
  sent: SendResult,
  options: WorkerOptions = {},
): Promise<TickResult> {
  const clock = options.clock ?? systemClock;
  let finishedName: string | null = null;
  const doneAt = clock.now();
  const result: TickResult = await ctx.db.transaction(async (tx) => {
    // The gap counts from the end of this send (the claim set it from the claim; a slow send, e.g.
    // the first with its image, would leave the next one less than the minimum after it).
    await tx
      .update(campaignSenders)
      .set({
        nextSendAt: sql`greatest(${campaignSenders.nextSendAt}, ${new Date(doneAt.getTime() + claim.gapMs)})`,
      })
      .where(eq(campaignSenders.clientId, claim.clientId));
    if (sent.ok) {
      await tx
        .update(campaignRecipients)
        .set({ status: 'success', messageId: sent.id, sentAt: doneAt, reason: null })
        .where(eq(campaignRecipients.id, claim.recipientId));
      await tx.update(campaigns).set({ failuresInRow: 0 }).where(eq(campaigns.id, claim.campaignId));
    } else if (sent.kind === 'disconnected') {
      // Not sent: the row goes back to the queue and the campaign waits for the number.
      await tx
        .update(campaignRecipients)
        .set({ status: 'waiting', claimedAt: null })
        .where(eq(campaignRecipients.id, claim.recipientId));
      await pause(tx, claim.campaignId, PAUSE_REASONS.disconnected);
      return { kind: 'paused', campaignId: claim.campaignId } as const;
    } else if (sent.kind === 'unknown') {
      // No answer: Evolution may have accepted it. The row stays `sending` until it is settled
      // against Evolution's stored messages (recoverInterrupted); the silence counts as an error.
      const [row] = await tx
        .update(campaigns)
        .set({ failuresInRow: sql`${campaigns.failuresInRow} + 1` })
        .where(eq(campaigns.id, claim.campaignId))
        .returning({ failuresInRow: campaigns.failuresInRow });
      if ((row?.failuresInRow ?? 0) >= FAILURES_TO_PAUSE) {
        await pause(tx, claim.campaignId, PAUSE_REASONS.errors);
        return { kind: 'paused', campaignId: claim.campaignId } as const;
      }
      return { kind: 'failed', campaignId: claim.campaignId } as const;
    } else {
      await tx
        .update(campaignRecipients)
        .set({ status: 'failed', reason: sent.reason, sentAt: doneAt })
        .where(eq(campaignRecipients.id, claim.recipientId));
      if (sent.kind === 'error') {
        const [row] = await tx
          .update(campaigns)
          .set({ failuresInRow: sql`${campaigns.failuresInRow} + 1` })
          .where(eq(campaigns.id, claim.campaignId))
          .returning({ failuresInRow: campaigns.failuresInRow });
        if ((row?.failuresInRow ?? 0) >= FAILURES_TO_PAUSE) {
          await pause(tx, claim.campaignId, PAUSE_REASONS.errors);
          return { kind: 'paused', campaignId: claim.campaignId } as const;
        }
      }
    }
    finishedName = await finishIfDone(tx, claim.campaignId, doneAt);
    return { kind: sent.ok ? 'sent' : 'failed', campaignId: claim.campaignId } as const;
  });
  ctx.changed(claim.clientId, 'campaign', claim.campaignId);
  if (finishedName) await announceEnd(ctx, claim.clientId, claim.campaignId, finishedName);
  return result;
}

/**
 * The worker loop of a server: recovers interrupted rows, starts scheduled campaigns and sends as the
 * pace allows, polling every `pollMs` when idle. `stop` waits for the step under way.
 */
export function startCampaignWorker(
  ctx: AppContext,
  options: WorkerOptions & { pollMs?: number; onError?: (error: unknown) => void } = {},
) {
  const clock = options.clock ?? systemClock;
  const pollMs = options.pollMs ?? 1000;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  let lastRecovery = Number.NEGATIVE_INFINITY;
  const step = async () => {
    let delay = pollMs;
    try {
      const now = clock.now();
      // Settling asks Evolution: every 30 s at most, not at every poll.
      if (now.getTime() - lastRecovery >= RECOVERY_EVERY_MS) {
        lastRecovery = now.getTime();
        await recoverInterrupted(ctx, now);
      }
      await startDueCampaigns(ctx, now);
      const result = await sendNext(ctx, options);
      if (result.kind !== 'idle') delay = 0;
      else if (result.nextAt)
        delay = Math.max(0, Math.min(pollMs, result.nextAt.getTime() - clock.now().getTime()));
    } catch (error) {
      options.onError?.(error);
    }
    if (!stopped) timer = setTimeout(() => (running = step()), delay);
  };
  timer = setTimeout(() => (running = step()), 0);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
