import { randomInt } from 'node:crypto';
import {
  type AgentScaleReading,
  PAIRING_CODE_ALPHABET,
  PAIRING_CODE_LENGTH,
  PAIRING_CODE_MINUTES,
  PRINT_AGENT_RESULT_EVENT,
  PRINT_AGENT_SCALE_EVENT,
  PRINT_AGENT_STATE_EVENT,
  PRINTER_STATE_LABELS,
  type PrintAgent,
  type PrintAgentInput,
  type PrintAgentPairAnswer,
  type PrinterState,
  printAgentInstallCommand,
  printAgentResultSchema,
  printAgentScaleSchema,
  printAgentStateSchema,
  SCALE_READING_EVENT,
} from '@balcao/core/printAgent';
import { and, desc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { invalid, notFound } from '../../errors.ts';
import type { Actor } from '../../lib/actor.ts';
import { hashToken, newToken } from '../../lib/secrets.ts';
import { shopChannel } from '../../plugins/socket.ts';
import { TOO_MANY_ATTEMPTS, takeAttempt } from '../auth/limiter.ts';
import { printAgents, printerProfiles, printJobs } from './schema.ts';
import { agentStationId, connectedStations, deliverWaitingJobs, type StationData } from './stations.ts';

const AGENT_NOT_FOUND = 'Agente de impressão não encontrado';
const BAD_CODE = 'Código de pareamento inválido ou vencido: gere outro em Configurações > Impressoras';
const PROFILE_NOT_FOUND = 'Perfil de impressora não encontrado';

type AgentRow = typeof printAgents.$inferSelect;

/** Pairings per address and window (a shop pairs a handful of PCs). */
const PAIR_LIMIT = { max: 30, windowMs: 10 * 60 * 1000 };

function toAgent(row: AgentRow, connected: Set<number>): PrintAgent {
  return {
    id: row.id,
    name: row.name,
    profileIds: row.profileIds,
    status: row.revokedAt ? 'revoked' : row.tokenHash ? 'paired' : 'pairing',
    connected: connected.has(row.id),
    printerState: row.printerState as PrinterState,
    printerMessage: row.printerMessage,
    heldJobs: row.heldJobs,
    createdAt: row.createdAt.toISOString(),
    pairedAt: row.pairedAt?.toISOString() ?? null,
    lastSeenAt: row.lastSeenAt?.toISOString() ?? null,
  };
}

async function connectedAgentIds(ctx: AppContext, clientId: number): Promise<Set<number>> {
  const stations = await connectedStations(ctx, clientId);
  return new Set(stations.flatMap((s) => (s.station.agentId ? [s.station.agentId] : [])));
}

/** GET /v1/printing/agents: the agents not revoked, newest first. */
export async function listAgents(ctx: AppContext, clientId: number): Promise<PrintAgent[]> {
  const [rows, connected] = await Promise.all([
    ctx.db
      .select()
      .from(printAgents)
      .where(and(eq(printAgents.clientId, clientId), isNull(printAgents.revokedAt)))
      .orderBy(desc(printAgents.id)),
    connectedAgentIds(ctx, clientId),
  ]);
  return rows.map((r) => toAgent(r, connected));
}

function newPairingCode(): string {
  let code = '';
  for (let i = 0; i < PAIRING_CODE_LENGTH; i++)
    code += PAIRING_CODE_ALPHABET[randomInt(PAIRING_CODE_ALPHABET.length)];
  return code;
}

/** POST /v1/printing/agent: a new agent waiting for its code (shown once; only its hash is kept). */
export async function createAgent(ctx: AppContext, actor: Actor, input: PrintAgentInput) {
  const unique = [...new Set(input.profileIds)];
  const own = await ctx.db
    .select({ id: printerProfiles.id })
    .from(printerProfiles)
    .where(
      and(
        eq(printerProfiles.clientId, actor.clientId),
        inArray(printerProfiles.id, unique),
        isNull(printerProfiles.deletedAt),
      ),
    );
  if (own.length !== unique.length)
    throw invalid(PROFILE_NOT_FOUND, [{ path: 'profileIds', message: PROFILE_NOT_FOUND }]);
  const code = newPairingCode();
  const expiresAt = new Date(Date.now() + PAIRING_CODE_MINUTES * 60_000);
  const [row] = await ctx.db
    .insert(printAgents)
    .values({
      clientId: actor.clientId,
      name: input.name,
      profileIds: unique,
      pairingCodeHash: hashToken(code),
      pairingExpiresAt: expiresAt,
      createdBy: actor.userId,
    })
    .returning();
  ctx.changed(actor.clientId, 'print-station', row.id);
  return {
    agent: toAgent(row, new Set()),
    code,
    expiresAt: expiresAt.toISOString(),
    installCommand: printAgentInstallCommand(ctx.config.publicUrl, code),
  };
}

/**
 * POST /v1/printing/agent/pair (public: the agent has no session): the code, once and before it
 * expires, becomes the agent's own token. One UPDATE claims the code, so two agents never share it.
 */
export async function pairAgent(
  ctx: AppContext,
  rawCode: string,
  address: string,
): Promise<PrintAgentPairAnswer> {
  // Guessing a code is hopeless (31^8 codes, 15 minutes, once); each address is limited anyway.
  await takeAttempt(ctx.db, [{ key: `print-agent-pair:${address}`, ...PAIR_LIMIT }], TOO_MANY_ATTEMPTS);
  const code = rawCode.replace(/[\s-]/g, '').toUpperCase();
  const { token, hash } = newToken();
  const [row] = await ctx.db
    .update(printAgents)
    .set({ tokenHash: hash, pairingCodeHash: null, pairingExpiresAt: null, pairedAt: new Date() })
    .where(
      and(
        eq(printAgents.pairingCodeHash, hashToken(code)),
        sql`${printAgents.pairingExpiresAt} > now()`,
        isNull(printAgents.revokedAt),
      ),
    )
    .returning();
  if (!row) throw notFound(BAD_CODE);
  ctx.changed(row.clientId, 'print-station', row.id);
  return {
    agentId: row.id,
    name: row.name,
    profileIds: row.profileIds,
    token,
    socketKey: ctx.config.apiKey,
  };
}

/**
 * DELETE /v1/printing/agent/{id}: the token stops working, its socket closes, and the jobs it held
 * unprinted go back to waiting for another station (or the browser's).
 */
export async function revokeAgent(ctx: AppContext, actor: Actor, id: number): Promise<PrintAgent> {
  const [row] = await ctx.db
    .update(printAgents)
    .set({ revokedAt: new Date(), tokenHash: null, pairingCodeHash: null, pairingExpiresAt: null })
    .where(
      and(eq(printAgents.clientId, actor.clientId), eq(printAgents.id, id), isNull(printAgents.revokedAt)),
    )
    .returning();
  if (!row) throw notFound(AGENT_NOT_FOUND);
  for (const { socket, station } of await connectedStations(ctx, actor.clientId))
    if (station.agentId === id) socket.disconnect(true);
  await requeueAgentJobs(ctx, actor.clientId, id);
  await deliverWaitingJobs(ctx, actor.clientId);
  ctx.changed(actor.clientId, 'print-station', id);
  return toAgent(row, new Set());
}

/** The agent's jobs handed out and not printed go back to pending (its journal drops repeats). */
async function requeueAgentJobs(ctx: AppContext, clientId: number, agentId: number) {
  await ctx.db
    .update(printJobs)
    .set({ status: 'pending', stationId: null, stationName: null, sentAt: null })
    .where(
      and(
        eq(printJobs.clientId, clientId),
        eq(printJobs.stationId, agentStationId(agentId)),
        eq(printJobs.status, 'sent'),
      ),
    );
}

type Ack = (answer: { ok: boolean; message?: string }) => void;
const replyOf = (ack: unknown): Ack => (typeof ack === 'function' ? (ack as Ack) : () => {});

/**
 * The agents' sockets: a middleware that accepts a live agent's token (the socket plugin lets a socket
 * with `auth.agentToken` through to it), then each agent is a station of its profiles. On connect
 * its jobs handed out and not printed are handed to it again (its journal knows which it printed:
 * those it only acknowledges), then the waiting ones.
 */
export function attachPrintAgents(ctx: AppContext): void {
  ctx.io.use(async (socket, next) => {
    const token = socket.data.agentToken as string | undefined;
    if (token === undefined) return next();
    const [row] = await ctx.db
      .select()
      .from(printAgents)
      .where(and(eq(printAgents.tokenHash, hashToken(token)), isNull(printAgents.revokedAt)))
      .catch(() => []);
    if (!row) return next(new Error('Agente de impressão inválido ou revogado'));
    socket.data.clientId = row.clientId;
    socket.data.agentId = row.id;
    socket.data.station = {
      name: row.name,
      profileIds: row.profileIds,
      since: Date.now(),
      agentId: row.id,
    } satisfies StationData;
    next();
  });

  ctx.io.on('connection', (socket) => {
    const agentId = socket.data.agentId as number | undefined;
    if (!agentId) return;
    const clientId = socket.data.clientId as number;
    void (async () => {
      await socket.join(`printStations_${clientId}`);
      await ctx.db.update(printAgents).set({ lastSeenAt: new Date() }).where(eq(printAgents.id, agentId));
      await requeueAgentJobs(ctx, clientId, agentId);
      ctx.changed(clientId, 'print-station', agentId);
      await deliverWaitingJobs(ctx, clientId);
    })().catch(() => socket.disconnect(true));

    socket.on(PRINT_AGENT_RESULT_EVENT, async (payload: unknown, ack?: unknown) => {
      const reply = replyOf(ack);
      const parsed = printAgentResultSchema.safeParse(payload);
      if (!parsed.success) return reply({ ok: false, message: 'Resultado inválido' });
      try {
        await recordResult(ctx, clientId, agentId, parsed.data);
        reply({ ok: true });
      } catch {
        reply({ ok: false, message: 'Não foi possível registrar o resultado' });
      }
    });

    socket.on(PRINT_AGENT_STATE_EVENT, async (payload: unknown, ack?: unknown) => {
      const reply = replyOf(ack);
      const parsed = printAgentStateSchema.safeParse(payload);
      if (!parsed.success) return reply({ ok: false, message: 'Estado inválido' });
      await recordState(ctx, clientId, agentId, parsed.data).catch(() => {});
      reply({ ok: true });
    });

    // The scale on the agent's PC: relayed to the shop's open screens (the PDV shows it live).
    socket.on(PRINT_AGENT_SCALE_EVENT, (payload: unknown) => {
      const parsed = printAgentScaleSchema.safeParse(payload);
      if (!parsed.success) return;
      const station = socket.data.station as StationData;
      const relayed: AgentScaleReading = { ...parsed.data, agentId, agentName: station.name };
      ctx.io.to(shopChannel(clientId)).emit(SCALE_READING_EVENT, relayed);
    });

    socket.on('disconnect', () => {
      void ctx.db
        .update(printAgents)
        .set({ lastSeenAt: new Date() })
        .where(eq(printAgents.id, agentId))
        .catch(() => {});
      ctx.changed(clientId, 'print-station', agentId);
    });
  });
}

type Result = ReturnType<typeof printAgentResultSchema.parse>;

/** A job's outcome at the agent: printed (confirmed), held (kept queued, its reason shown) or failed. */
async function recordResult(ctx: AppContext, clientId: number, agentId: number, result: Result) {
  // Only a job handed to this agent (or put back to waiting while it was away) is its to answer.
  const mine = and(
    eq(printJobs.clientId, clientId),
    eq(printJobs.id, result.jobId),
    or(eq(printJobs.stationId, agentStationId(agentId)), isNull(printJobs.stationId)),
  );
  if (result.outcome === 'printed') {
    // Printed is printed whichever state the API had (a retry may have put it back to pending).
    await ctx.db
      .update(printJobs)
      .set({ status: 'printed', printedAt: new Date(), error: null })
      .where(and(mine, sql`${printJobs.status} <> 'printed'`));
  } else if (result.outcome === 'held') {
    const reason = result.message || PRINTER_STATE_LABELS[result.state];
    await ctx.db
      .update(printJobs)
      .set({ error: `Aguardando a impressora: ${reason}` })
      .where(and(mine, eq(printJobs.status, 'sent')));
  } else {
    await ctx.db
      .update(printJobs)
      .set({ status: 'failed', error: result.message || 'O agente não conseguiu imprimir' })
      .where(and(mine, inArray(printJobs.status, ['sent', 'pending'])));
  }
  ctx.changed(clientId, 'print-job', result.jobId);
  if (result.outcome !== 'failed')
    await recordState(ctx, clientId, agentId, {
      state: result.outcome === 'printed' ? 'ok' : result.state,
      message: result.outcome === 'printed' ? '' : result.message,
      heldJobs: undefined,
    });
}

/**
 * The printer's state on the agent's card; a change to a state that stops printing, and back, is
 * told in the bell of everyone in the shop.
 */
async function recordState(
  ctx: AppContext,
  clientId: number,
  agentId: number,
  report: { state: PrinterState; message: string; heldJobs: number | undefined },
) {
  const [before] = await ctx.db
    .select({ state: printAgents.printerState, name: printAgents.name, held: printAgents.heldJobs })
    .from(printAgents)
    .where(eq(printAgents.id, agentId));
  if (!before) return;
  const heldJobs = report.heldJobs ?? (report.state === 'ok' ? 0 : Math.max(before.held, 1));
  await ctx.db
    .update(printAgents)
    .set({
      printerState: report.state,
      printerMessage: report.message || null,
      heldJobs,
      lastSeenAt: new Date(),
    })
    .where(eq(printAgents.id, agentId));
  const stops = (s: string) => s !== 'ok' && s !== 'unknown';
  if (before.state !== report.state || before.held !== heldJobs)
    ctx.changed(clientId, 'print-station', agentId);
  if (stops(report.state) && before.state !== report.state) {
    const held = heldJobs === 1 ? '1 impressão aguardando' : `${heldJobs} impressões aguardando`;
    ctx.notify(clientId, {
      message: `Impressora da estação ${before.name}: ${PRINTER_STATE_LABELS[report.state]}. ${held}.`,
      alertColor: 'warning',
    });
  } else if (report.state === 'ok' && stops(before.state)) {
    ctx.notify(clientId, {
      message: `Impressora da estação ${before.name} voltou a imprimir`,
      alertColor: 'success',
    });
  }
}

/**
 * Whether a paired, not revoked agent prints this profile (issue 36): jobs only an agent prints (a
 * drawer kick, a label's raw commands) wait for nothing without one.
 */
export async function agentPrintsProfile(db: Executor, clientId: number, profileId: number) {
  const [row] = await db
    .select({ id: printAgents.id })
    .from(printAgents)
    .where(
      and(
        eq(printAgents.clientId, clientId),
        isNull(printAgents.revokedAt),
        sql`${printAgents.tokenHash} is not null`,
        sql`${printAgents.profileIds} @> to_jsonb(${profileId}::int)`,
      ),
    )
    .limit(1);
  return row !== undefined;
}
