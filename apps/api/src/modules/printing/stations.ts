import {
  AGENT_ONLY_KINDS,
  PRINT_JOB_EVENT,
  PRINT_STATION_EVENT,
  type PrintJobKind,
  type PrintStation,
  printStationInputSchema,
} from '@balcao/core/printing';
import { and, asc, eq, inArray, isNull, not, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { findSession } from '../../plugins/auth.ts';
import { selectJobs, toPrintJob } from './jobRows.ts';
import { heldByScreenSql } from './kdsHold.ts';
import { printerProfiles, printJobs } from './schema.ts';

/**
 * Print stations: any logged browser of the shop becomes one by sending `printStation {name,
 * profileIds}` on its socket. The station lives in the socket itself (`socket.data.station`, in the
 * room `printStations_{clientId}`): no table, gone when the socket goes. A job is handed to ONE
 * station by one UPDATE that claims it (pending -> sent), so two stations, or a connect racing an
 * enqueue, never both print it.
 */

const stationRoom = (clientId: number) => `printStations_${clientId}`;

/** A browser station, or a print agent's (`agentId`, issue 36: it also takes the drawer kicks). */
export type StationData = { name: string; profileIds: number[]; since: number; agentId?: number };

/** The station a job was handed to: an agent's is stable across its reconnections. */
export const agentStationId = (agentId: number) => `agent:${agentId}`;
const stationIdOf = (socketId: string, station: StationData) =>
  station.agentId ? agentStationId(station.agentId) : socketId;
type Ack = (answer: { ok: boolean; message?: string; station?: PrintStation }) => void;

const PROFILE_NOT_FOUND = 'Perfil de impressora não encontrado';

/** How long the other API instances have to list their stations (several instances, issue 22). */
const FETCH_STATIONS_TIMEOUT_MS = 3_000;

/**
 * The stations connected for a client, oldest first, on every API instance (the socket.io adapter
 * asks the others). An instance that died does not answer until the adapter notices (heartbeat): then
 * only this instance's stations are used; the delivery sweep (`deliverStalePrintJobs`) tries again.
 */
export async function connectedStations(ctx: AppContext, clientId: number) {
  const room = stationRoom(clientId);
  const sockets = await ctx.io
    .in(room)
    .timeout(FETCH_STATIONS_TIMEOUT_MS)
    .fetchSockets()
    .catch(() => ctx.io.local.in(room).fetchSockets());
  return sockets
    .filter((s) => s.data.clientId === clientId && s.data.station)
    .map((s) => ({ socket: s, station: s.data.station as StationData }))
    .sort((a, b) => a.station.since - b.station.since);
}

export async function listStations(ctx: AppContext, clientId: number): Promise<PrintStation[]> {
  return (await connectedStations(ctx, clientId)).map(({ socket, station }) => ({
    id: socket.id,
    name: station.name,
    profileIds: station.profileIds,
  }));
}

/** Per shop, on this instance: the hand-out pass running now, and whether another was asked meanwhile. */
const delivering = new Map<number, { again: boolean; done: Promise<void> }>();

/**
 * Hands every waiting job of the client to a connected station of its profile (see deliverOnce). One
 * pass at a time per shop on this instance: a call while a pass runs asks for one more pass after it
 * and waits for that one, so its job is handed out when the promise settles, as before. Without this,
 * 20 waiters sending at once ran 20 passes together, each trying to claim every job the others had
 * queued (20 x 20 claiming UPDATEs, on PGlite's single connection): "Enviar" to the printer took
 * seconds (bench/kitchen-print.ts). Other instances keep their own passes; the claim stays the guard.
 */
export function deliverWaitingJobs(ctx: AppContext, clientId: number): Promise<void> {
  const running = delivering.get(clientId);
  if (running) {
    running.again = true;
    return running.done;
  }
  const state = { again: false, done: Promise.resolve() };
  state.done = (async () => {
    try {
      do {
        state.again = false;
        await deliverOnce(ctx, clientId);
      } while (state.again);
    } finally {
      delivering.delete(clientId);
    }
  })();
  delivering.set(clientId, state);
  return state.done;
}

/**
 * One pass: the station with the fewest jobs handed in this pass (then the oldest) gets each waiting
 * job. The claim is one UPDATE ... WHERE status = 'pending', so a job goes to exactly one station.
 */
async function deliverOnce(ctx: AppContext, clientId: number): Promise<void> {
  const stations = await connectedStations(ctx, clientId);
  if (stations.length === 0) return;
  const profileIds = [...new Set(stations.flatMap((s) => s.station.profileIds))];
  const waiting = await ctx.db
    .select({ id: printJobs.id, profileId: printJobs.profileId, kind: printJobs.kind })
    .from(printJobs)
    .where(
      and(
        eq(printJobs.clientId, clientId),
        eq(printJobs.status, 'pending'),
        inArray(printJobs.profileId, profileIds),
        not(heldByScreenSql(clientId)),
      ),
    )
    .orderBy(asc(printJobs.id))
    .limit(200);
  // Each job's station, chosen here (the fewest jobs handed in this pass, then the oldest); then one
  // claiming UPDATE per station for all its jobs and one read of the claimed jobs, not two statements
  // per job: 20 tickets sent at once were 40 round trips in a row before the first could print.
  const handed = new Map<string, number>();
  const planned = new Map<string, { target: (typeof stations)[number]; ids: number[] }>();
  for (const job of waiting) {
    // A drawer kick or a label's commands are bytes for the printer: only an agent sends them (a
    // browser would print them as text).
    const agentOnly = AGENT_ONLY_KINDS.includes(job.kind as PrintJobKind);
    const candidates = stations.filter(
      (s) => s.station.profileIds.includes(job.profileId) && (!agentOnly || s.station.agentId),
    );
    if (candidates.length === 0) continue;
    const target = candidates.reduce((best, s) =>
      (handed.get(s.socket.id) ?? 0) < (handed.get(best.socket.id) ?? 0) ? s : best,
    );
    handed.set(target.socket.id, (handed.get(target.socket.id) ?? 0) + 1);
    const plan = planned.get(target.socket.id) ?? { target, ids: [] };
    plan.ids.push(job.id);
    planned.set(target.socket.id, plan);
  }
  const claimedBy = new Map<number, (typeof stations)[number]>();
  for (const { target, ids } of planned.values()) {
    const claimed = await ctx.db
      .update(printJobs)
      .set({
        status: 'sent',
        stationId: stationIdOf(target.socket.id, target.station),
        stationName: target.station.name,
        sentAt: new Date(),
        attempts: sql`${printJobs.attempts} + 1`,
      })
      .where(and(inArray(printJobs.id, ids), eq(printJobs.status, 'pending')))
      .returning({ id: printJobs.id });
    for (const { id } of claimed) claimedBy.set(id, target);
  }
  if (claimedBy.size === 0) return;
  const rows = await selectJobs(ctx.db)
    .where(inArray(printJobs.id, [...claimedBy.keys()]))
    .orderBy(asc(printJobs.id));
  for (const row of rows) {
    claimedBy.get(row.job.id)?.socket.emit(PRINT_JOB_EVENT, toPrintJob(row));
    ctx.changed(clientId, 'print-job', row.job.id);
  }
}

/**
 * The delivery sweep, a background job run once across instances (server jobs, lib/jobs.ts): jobs
 * still pending a few seconds after they were queued (the instance that queued them died before
 * handing them out, or could not reach another instance's stations) go to a connected station of
 * their profile. Safe to repeat: each hand-out is its own claiming UPDATE. Answers how many shops.
 */
export async function deliverStalePrintJobs(ctx: AppContext): Promise<{ shops: number }> {
  const shops = await ctx.db
    .selectDistinct({ clientId: printJobs.clientId })
    .from(printJobs)
    .where(
      and(
        eq(printJobs.status, 'pending'),
        // A ticket bumped on its kitchen display never prints (issue 35).
        isNull(printJobs.readyAt),
        sql`${printJobs.createdAt} < now() - interval '5 seconds'`,
        sql`${printJobs.createdAt} > now() - interval '1 day'`,
      ),
    );
  for (const shop of shops) await deliverWaitingJobs(ctx, shop.clientId);
  return { shops: shops.length };
}

/** Listens for `printStation` on every socket: join (with profiles) or leave (no profiles). */
export function attachPrintStations(ctx: AppContext): void {
  ctx.io.on('connection', (socket) => {
    socket.on(PRINT_STATION_EVENT, async (payload: unknown, ack?: Ack) => {
      const reply = typeof ack === 'function' ? ack : () => {};
      try {
        const session = await findSession(ctx.db, socket.data.token).catch(() => null);
        if (!session) return reply({ ok: false, message: 'Sessão inválida' });
        const parsed = printStationInputSchema.safeParse(payload);
        if (!parsed.success) return reply({ ok: false, message: 'Estação inválida' });
        const { name, profileIds } = parsed.data;
        const clientId = session.clientId;
        if (profileIds.length === 0) {
          socket.data.station = undefined;
          await socket.leave(stationRoom(clientId));
          ctx.changed(clientId, 'print-station');
          return reply({ ok: true });
        }
        const unique = [...new Set(profileIds)];
        const own = await ctx.db
          .select({ id: printerProfiles.id })
          .from(printerProfiles)
          .where(
            and(
              eq(printerProfiles.clientId, clientId),
              inArray(printerProfiles.id, unique),
              sql`${printerProfiles.deletedAt} is null`,
            ),
          );
        if (own.length !== unique.length) return reply({ ok: false, message: PROFILE_NOT_FOUND });
        const since = (socket.data.station as StationData | undefined)?.since ?? Date.now();
        socket.data.station = { name, profileIds: unique, since } satisfies StationData;
        await socket.join(stationRoom(clientId));
        reply({ ok: true, station: { id: socket.id, name, profileIds: unique } });
        ctx.changed(clientId, 'print-station');
        await deliverWaitingJobs(ctx, clientId);
      } catch {
        reply({ ok: false, message: 'Não foi possível ativar a estação' });
      }
    });
    socket.on('disconnect', () => {
      const clientId = socket.data.clientId as number | undefined;
      if (clientId && socket.data.station) ctx.changed(clientId, 'print-station');
    });
  });
}
