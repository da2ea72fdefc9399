import {
  KDS_DEFAULTS,
  KDS_MESSAGES,
  type KdsBoard,
  type KdsSettings,
  type KdsStation,
  type KdsTicket,
} from '@balcao/core/kds';
import { and, asc, desc, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { notFound } from '../../errors.ts';
import type { Actor } from '../../lib/actor.ts';
import { kdsScreens, kdsSettings, printJobs, printSectors } from './schema.ts';
import { CANCEL_TICKET_PREFIX } from './sectorTickets.ts';
import { deliverWaitingJobs } from './stations.ts';

/**
 * The kitchen display (issue 35). A station is a production sector with a printer; its cards are the
 * sector's production tickets (print jobs of kind 'ticket', not reprints) of the last day that are not
 * bumped. The card is the job: its key (`comanda-send-{send}-{sector}`, `{order}-{sector}`) is the one
 * the printed ticket has, so whatever repeats upstream, the screen shows one card per send and sector.
 * The screen keeps its tickets off the printer while it says it is alive (`kdsHold.ts`).
 */

/** How far back a screen looks for open tickets. */
const OPEN_WINDOW = sql`now() - interval '1 day'`;
/**
 * The open tickets a board answers, oldest first: every one a busy night has (bench/kitchen.ts: 300 open
 * tickets read in ~0.1 s); a cap only against a runaway. It was 200: the 201st order never showed.
 */
const KDS_OPEN_TICKETS_MAX = 1000;

export async function getKdsSettings(db: Executor, clientId: number): Promise<KdsSettings> {
  const [row] = await db.select().from(kdsSettings).where(eq(kdsSettings.clientId, clientId));
  return row
    ? { warnMinutes: row.warnMinutes, lateMinutes: row.lateMinutes, silenceSeconds: row.silenceSeconds }
    : { ...KDS_DEFAULTS };
}

export async function saveKdsSettings(
  ctx: AppContext,
  actor: Actor,
  input: KdsSettings,
): Promise<KdsSettings> {
  const values = { ...input, updatedBy: actor.userId, updatedAt: new Date() };
  await ctx.db
    .insert(kdsSettings)
    .values({ clientId: actor.clientId, ...values })
    .onConflictDoUpdate({ target: kdsSettings.clientId, set: values });
  ctx.changed(actor.clientId, 'printing');
  // A shorter silence may free tickets a quiet screen was holding.
  await deliverWaitingJobs(ctx, actor.clientId).catch(() => undefined);
  return getKdsSettings(ctx.db, actor.clientId);
}

type StationRow = { id: number; name: string; lastSeenAt: Date | null };

function toStation(row: StationRow, settings: KdsSettings, now: number): KdsStation {
  return {
    id: row.id,
    name: row.name,
    screenSeenAt: row.lastSeenAt?.toISOString() ?? null,
    printing: row.lastSeenAt === null || now - row.lastSeenAt.getTime() > settings.silenceSeconds * 1000,
  };
}

function stationRows(db: Executor, clientId: number) {
  return db
    .select({ id: printSectors.id, name: printSectors.name, lastSeenAt: kdsScreens.lastSeenAt })
    .from(printSectors)
    .leftJoin(
      kdsScreens,
      and(eq(kdsScreens.clientId, printSectors.clientId), eq(kdsScreens.sectorId, printSectors.id)),
    )
    .where(
      and(
        eq(printSectors.clientId, clientId),
        isNull(printSectors.deletedAt),
        isNotNull(printSectors.profileId),
      ),
    )
    .orderBy(asc(printSectors.position), asc(printSectors.id));
}

export async function listKdsStations(db: Executor, actor: Actor) {
  const [rows, settings] = await Promise.all([
    stationRows(db, actor.clientId),
    getKdsSettings(db, actor.clientId),
  ]);
  const now = Date.now();
  return { stations: rows.map((r) => toStation(r, settings, now)), settings };
}

async function stationOf(db: Executor, clientId: number, sectorId: number): Promise<StationRow> {
  const rows = await stationRows(db, clientId);
  const row = rows.find((r) => r.id === sectorId);
  if (!row) throw notFound(KDS_MESSAGES.stationNotFound);
  return row;
}

type JobRow = typeof printJobs.$inferSelect;

function toTicket(job: JobRow): KdsTicket {
  const ready = new Set(job.readyLines);
  return {
    id: job.id,
    title: job.payload.title,
    lines: job.payload.lines,
    items: (job.items ?? []).map((item, index) => ({ ...item, ready: ready.has(index) })),
    cancel:
      job.idempotencyKey.startsWith('comanda-cancel-') || job.idempotencyKey.startsWith(CANCEL_TICKET_PREFIX),
    createdAt: job.createdAt.toISOString(),
    printed: job.status !== 'pending',
    readyAt: job.readyAt?.toISOString() ?? null,
  };
}

const stationTickets = (clientId: number, sectorId: number) =>
  and(
    eq(printJobs.clientId, clientId),
    eq(printJobs.sectorId, sectorId),
    eq(printJobs.kind, 'ticket'),
    isNull(printJobs.reprintOf),
    sql`${printJobs.createdAt} > ${OPEN_WINDOW}`,
  );

/** GET /v1/kds/station/:id: the open tickets, oldest first, and the last one bumped. */
export async function kdsBoard(db: Executor, actor: Actor, sectorId: number): Promise<KdsBoard> {
  const [station, settings] = await Promise.all([
    stationOf(db, actor.clientId, sectorId),
    getKdsSettings(db, actor.clientId),
  ]);
  const [open, [last]] = await Promise.all([
    db
      .select()
      .from(printJobs)
      .where(and(stationTickets(actor.clientId, sectorId), isNull(printJobs.readyAt)))
      .orderBy(asc(printJobs.id))
      .limit(KDS_OPEN_TICKETS_MAX),
    db
      .select()
      .from(printJobs)
      .where(and(stationTickets(actor.clientId, sectorId), isNotNull(printJobs.readyAt)))
      .orderBy(desc(printJobs.readyAt), desc(printJobs.id))
      .limit(1),
  ]);
  const now = new Date();
  return {
    station: toStation(station, settings, now.getTime()),
    settings,
    tickets: open.map(toTicket),
    lastReady: last ? toTicket(last) : null,
    now: now.toISOString(),
  };
}

/**
 * POST /v1/kds/station/:id/heartbeat: the screen is alive. A screen coming back after a silence
 * signals the stations list (its banner goes away on the other screens).
 */
export async function kdsHeartbeat(ctx: AppContext, actor: Actor, sectorId: number) {
  const station = await stationOf(ctx.db, actor.clientId, sectorId);
  await ctx.db
    .insert(kdsScreens)
    .values({ clientId: actor.clientId, sectorId, lastSeenAt: new Date() })
    .onConflictDoUpdate({
      target: [kdsScreens.clientId, kdsScreens.sectorId],
      set: { lastSeenAt: new Date() },
    });
  const settings = await getKdsSettings(ctx.db, actor.clientId);
  if (toStation(station, settings, Date.now()).printing) ctx.changed(actor.clientId, 'print-job');
  return { ok: true };
}

/**
 * POST /v1/kds/ticket/:id/ready: one line (`line`, its index) or the whole ticket "pronto". Again is no
 * change (a double tap, a retry). The last line bumped makes the ticket ready.
 */
export async function kdsBump(
  ctx: AppContext,
  actor: Actor,
  jobId: number,
  line: number | undefined,
): Promise<KdsTicket> {
  const ticket = await ctx.db.transaction(async (tx) => {
    const [job] = await tx
      .select()
      .from(printJobs)
      .where(
        and(eq(printJobs.clientId, actor.clientId), eq(printJobs.id, jobId), eq(printJobs.kind, 'ticket')),
      )
      .for('update');
    if (!job) throw notFound(KDS_MESSAGES.ticketNotFound);
    if (job.readyAt) return { job, changed: false };
    const items = job.items ?? [];
    let readyLines = job.readyLines;
    if (line !== undefined) {
      if (line >= items.length) throw notFound(KDS_MESSAGES.lineNotFound);
      if (readyLines.includes(line)) return { job, changed: false };
      readyLines = [...readyLines, line].sort((a, b) => a - b);
    } else {
      readyLines = items.map((_, index) => index);
    }
    const whole = line === undefined || readyLines.length >= items.length;
    const [updated] = await tx
      .update(printJobs)
      .set({
        readyLines,
        ...(whole ? { readyAt: new Date(), readyBy: actor.userId } : {}),
      })
      .where(eq(printJobs.id, job.id))
      .returning();
    return { job: updated, changed: true };
  });
  if (ticket.changed) signal(ctx, actor.clientId, jobId);
  return toTicket(ticket.job);
}

/** POST /v1/kds/station/:id/recall: the last ticket bumped comes back, its lines open again. */
export async function kdsRecall(ctx: AppContext, actor: Actor, sectorId: number): Promise<KdsTicket> {
  await stationOf(ctx.db, actor.clientId, sectorId);
  const [last] = await ctx.db
    .select({ id: printJobs.id })
    .from(printJobs)
    .where(and(stationTickets(actor.clientId, sectorId), isNotNull(printJobs.readyAt)))
    .orderBy(desc(printJobs.readyAt), desc(printJobs.id))
    .limit(1);
  if (!last) throw notFound(KDS_MESSAGES.nothingToRecall);
  const [job] = await ctx.db
    .update(printJobs)
    .set({ readyAt: null, readyBy: null, readyLines: [] })
    .where(eq(printJobs.id, last.id))
    .returning();
  signal(ctx, actor.clientId, last.id);
  return toTicket(job);
}

/** The screens, the waiter's phone and the comanda board see the change live. */
function signal(ctx: AppContext, clientId: number, jobId: number) {
  ctx.changed(clientId, 'print-job', jobId);
  ctx.changed(clientId, 'comanda');
}
