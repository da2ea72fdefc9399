import { COMANDA_MESSAGES, type ComandaSend, comandaTotals } from '@balcao/core/comanda';
import { formatCents } from '@balcao/core/money';
import type { PrintDocument } from '@balcao/core/printing';
import { receiptRow } from '@balcao/core/receipt';
import { lineTotals } from '@balcao/core/sale';
import { percentText } from '@balcao/core/settings';
import { formatInZone } from '@balcao/core/time';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { clients, users } from '../../db/schema.ts';
import { AppError, notFound, unprocessable } from '../../errors.ts';
import type { Actor } from '../../lib/actor.ts';
import { shopClock } from '../../lib/shopToday.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import {
  kdsItemOf,
  type SectorRoute,
  sectorRoutesJsonSql,
  ticketJobsInsertSql,
} from '../printing/sectorTickets.ts';
import { enqueuePrintJob, getPrintingSettings, reprintJob, sectorOfCategory } from '../printing/service.ts';
import { deliverWaitingJobs } from '../printing/stations.ts';
import {
  type ComandaRow,
  type LineRow,
  lockOpenComanda,
  logEvent,
  readLinesAndPayments,
  readSends,
} from './read.ts';
import { comandaEvents, comandaLines, comandaSends, comandas } from './schema.ts';

/**
 * Production (issue 16): the kitchen and bar tickets of a send, one print job per sector through
 * the printing module, each line sent exactly once whatever the retries (the send's Idempotency-Key
 * claims the lines in one transaction; its jobs carry keys derived from the send, so a replay after
 * a crash enqueues what is missing and nothing twice). Cancel tickets, reprints and the pre-bill.
 */

const DEFAULT_COLUMNS = 32;

/** Text cut into lines of the printer's columns (words kept whole when they fit). */
function wrap(text: string, columns: number, indent = ''): string[] {
  const out: string[] = [];
  let current = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const next = current ? `${current} ${word}` : word;
    if (next.length <= columns) current = next;
    else {
      if (current) out.push(current);
      current = `${indent}${word}`.slice(0, columns);
    }
  }
  if (current) out.push(current);
  return out.length ? out : [''];
}

async function clockText(db: Executor, clientId: number): Promise<string> {
  const { timeZone } = await shopClock(db, clientId);
  return formatInZone(new Date(), timeZone);
}

async function userName(db: Executor, id: number | null): Promise<string> {
  if (id === null) return '';
  const [u] = await db.select({ name: users.name }).from(users).where(eq(users.id, id));
  return u?.name ?? '';
}

/** One ticket: blank top for the clamp, sector, tab, table, waiter, time, then lines with notes. */
function ticket(input: {
  title: string;
  heading: string;
  comanda: Pick<ComandaRow, 'number' | 'tableLabel'>;
  waiter: string;
  /** Who canceled (a cancel ticket): named as such, never as the garçom (issue 30). */
  canceledBy?: string;
  when: string;
  lines: Pick<LineRow, 'quantity' | 'description' | 'variantName' | 'additionals' | 'notes'>[];
  columns: number;
}): PrintDocument {
  const { columns } = input;
  const rule = '-'.repeat(columns);
  const lines = [
    '',
    input.heading,
    `COMANDA ${input.comanda.number}${input.comanda.tableLabel ? `  MESA ${input.comanda.tableLabel}` : ''}`,
    ...(input.waiter ? wrap(`Garçom: ${input.waiter}`, columns) : []),
    ...(input.canceledBy ? wrap(`Cancelado por: ${input.canceledBy}`, columns) : []),
    input.when,
    rule,
  ];
  for (const l of input.lines) {
    const name = `${l.quantity} x ${l.description}${l.variantName ? ` (${l.variantName})` : ''}`;
    lines.push(...wrap(name, columns, '  '));
    for (const a of l.additionals)
      lines.push(...wrap(`  + ${a.quantity > 1 ? `${a.quantity} ` : ''}${a.name}`, columns, '    '));
    if (l.notes) lines.push(...wrap(`  OBS: ${l.notes}`, columns, '    '));
  }
  lines.push(rule);
  return { title: input.title.slice(0, 120), lines: lines.map((l) => l.slice(0, 200)) };
}

type SectorInfo = { id: number; name: string; columns: number };

async function sectorsOf(db: Executor, actor: Actor): Promise<Map<number, SectorInfo>> {
  const settings = await getPrintingSettings(db, actor);
  const columnsOf = new Map(settings.profiles.map((p) => [p.key, p.columns]));
  return new Map(
    settings.sectors.map((s) => [
      s.id,
      { id: s.id, name: s.name, columns: (s.profileKey && columnsOf.get(s.profileKey)) || DEFAULT_COLUMNS },
    ]),
  );
}

/** Lines grouped by the sector of their category (`sectorOfCategory`); null = no sector. */
async function bySector(db: Executor, actor: Actor, lines: LineRow[]) {
  const categoryIds = [...new Set(lines.flatMap((l) => (l.categoryId === null ? [] : [l.categoryId])))];
  const sectorOfCat = new Map<number, number | null>(
    await Promise.all(
      categoryIds.map(
        async (categoryId) => [categoryId, await sectorOfCategory(db, actor, categoryId)] as const,
      ),
    ),
  );
  const groups = new Map<number | null, LineRow[]>();
  for (const l of lines) {
    const sector = l.categoryId === null ? null : (sectorOfCat.get(l.categoryId) ?? null);
    groups.set(sector, [...(groups.get(sector) ?? []), l]);
  }
  return groups;
}

/**
 * Enqueues the tickets of a send (first time or replay: the job keys are the send's, so each
 * sector prints once) and stores the job ids and the lines no sector takes.
 */
async function printSend(ctx: AppContext, session: SessionUser, sendId: number, comandaId: number) {
  const { db } = ctx;
  // The reads the tickets need, in one round (bench/kitchen.ts: 20 phones sending at once queue every
  // statement of each send behind the others' on PGlite's one connection).
  const [lines, [comanda], sectors, when] = await Promise.all([
    db.select().from(comandaLines).where(eq(comandaLines.sendId, sendId)).orderBy(asc(comandaLines.id)),
    db.select().from(comandas).where(eq(comandas.id, comandaId)),
    sectorsOf(db, session),
    clockText(db, session.clientId),
  ]);
  const [waiter, groups] = await Promise.all([
    userName(db, comanda.waiterId ?? session.userId),
    bySector(db, session, lines),
  ]);
  const jobIds: number[] = [];
  const unrouted: string[] = [];
  for (const [sectorId, group] of groups) {
    const sector = sectorId === null ? undefined : sectors.get(sectorId);
    if (!sector) {
      unrouted.push(...group.map((l) => `${l.quantity} x ${l.description}`));
      continue;
    }
    const payload = ticket({
      title: `${sector.name} - ${tabName(comanda)}`,
      heading: sector.name.toUpperCase(),
      comanda,
      waiter,
      when,
      lines: group,
      columns: sector.columns,
    });
    try {
      const { job } = await enqueuePrintJob(ctx, session, {
        sectorId: sector.id,
        kind: 'ticket',
        payload,
        idempotencyKey: `comanda-send-${sendId}-${sector.id}`,
        items: group.map(kdsItemOf),
      });
      jobIds.push(job.id);
    } catch (error) {
      // A sector without a printer: its lines are shown to the waiter as printed nowhere.
      if (!(error instanceof AppError)) throw error;
      unrouted.push(...group.map((l) => `${l.quantity} x ${l.description}`));
    }
  }
  // A replay keeps what the send already holds (cancel tickets, reprints) and adds what was missing.
  const [current] = await db
    .select({ jobIds: comandaSends.jobIds })
    .from(comandaSends)
    .where(eq(comandaSends.id, sendId));
  const merged = [...new Set([...(current?.jobIds ?? []), ...jobIds])];
  await db.update(comandaSends).set({ jobIds: merged, unrouted }).where(eq(comandaSends.id, sendId));
}

/** Whether tab `id` was merged, directly or through other merged tabs, into tab `target`. */
async function mergedInto(db: Executor, clientId: number, id: number, target: number): Promise<boolean> {
  const result = (await db.execute(sql`
    with recursive chain(id, merged_into, depth) as (
      select ${comandas.id}, ${comandas.mergedIntoId}, 0 from ${comandas}
      where ${comandas.id} = ${id} and ${comandas.clientId} = ${clientId}
      union all
      select c.id, c.merged_into_id, chain.depth + 1 from ${comandas} c
      join chain on c.id = chain.merged_into where chain.depth < 100
    )
    select exists (select 1 from chain where merged_into = ${target}) as found`)) as unknown as {
    rows: { found: boolean }[];
  };
  return Boolean(result.rows[0]?.found);
}

type ClaimedLine = Pick<
  LineRow,
  'id' | 'categoryId' | 'quantity' | 'description' | 'variantName' | 'additionals' | 'notes'
>;

type Claim = {
  status: string;
  number: number;
  tableLabel: string | null;
  waiter: string | null;
  timeZone: string;
  sendId: number | null;
  lines: ClaimedLine[];
  routes: SectorRoute[];
};

/**
 * The claim of a send in ONE statement (issue 35: 20 phones sending at once queue each statement
 * behind the others'): the tab locked, the send inserted under its key, the tab's unsent lines marked
 * with it, and what the tickets need (the waiter's name, the shop's time zone, the sectors of the
 * lines' categories). No row: the tab is not the shop's; `sendId` null: the tab is not open, or the
 * key was claimed meanwhile.
 */
async function claimSend(
  tx: Executor,
  session: SessionUser,
  id: number,
  idempotencyKey: string,
): Promise<Claim | undefined> {
  const { clientId, userId } = session;
  const result = (await tx.execute(sql`
    with c as (
      select id, status, number, table_label, waiter_id from ${comandas}
      where id = ${id} and client_id = ${clientId}
      for update
    ),
    s as (
      insert into ${comandaSends} (client_id, comanda_id, idempotency_key, created_by)
      select ${clientId}, c.id, ${idempotencyKey}, ${userId} from c where c.status = 'active'
      on conflict do nothing
      returning id
    ),
    l as (
      update ${comandaLines} set send_id = s.id, sent_at = now() from s
      where ${comandaLines.comandaId} = ${id} and ${comandaLines.sendId} is null
        and ${comandaLines.status} = 'active'
      returning ${comandaLines.id} as id, ${comandaLines.categoryId} as category_id,
        ${comandaLines.quantity} as quantity, ${comandaLines.description} as description,
        ${comandaLines.variantName} as variant_name, ${comandaLines.additionals} as additionals,
        ${comandaLines.notes} as notes
    )
    select c.status, c.number, c.table_label as "tableLabel",
      (select u.name from ${users} u where u.id = coalesce(c.waiter_id, ${userId})) as waiter,
      (select k.time_zone from ${clients} k where k.id = ${clientId}) as "timeZone",
      (select s.id from s) as "sendId",
      (select coalesce(json_agg(json_build_object('id', l.id, 'categoryId', l.category_id,
          'quantity', l.quantity, 'description', l.description, 'variantName', l.variant_name,
          'additionals', l.additionals, 'notes', l.notes) order by l.id), '[]'::json) from l) as lines,
      ${sectorRoutesJsonSql(clientId, sql`(select l.category_id from l)`)} as routes
    from c`)) as unknown as { rows: Claim[] };
  const [row] = result.rows;
  return row && { ...row, lines: row.lines.map((l) => ({ ...l, quantity: Number(l.quantity) })) };
}

/**
 * The tickets of a claimed send (one per sector with a printer), the send's job ids and unrouted lines
 * and its log entry, in ONE statement of the claim's transaction: the lines, their send and its
 * tickets commit together (a retried send finds them all and prints nothing more).
 */
async function writeSendTickets(
  tx: Executor,
  session: SessionUser,
  comandaId: number,
  sendId: number,
  claim: Claim,
): Promise<number[]> {
  const routeOf = new Map(claim.routes.map((r) => [r.categoryId, r]));
  const groups = new Map<number, { route: SectorRoute; lines: ClaimedLine[] }>();
  const unrouted: string[] = [];
  for (const l of claim.lines) {
    const route = l.categoryId === null ? undefined : routeOf.get(l.categoryId);
    if (!route || route.profileId === null) {
      unrouted.push(`${l.quantity} x ${l.description}`);
      continue;
    }
    const group = groups.get(route.sectorId) ?? { route, lines: [] };
    group.lines.push(l);
    groups.set(route.sectorId, group);
  }
  const when = formatInZone(new Date(), claim.timeZone);
  const comanda = { number: claim.number, tableLabel: claim.tableLabel };
  const jobs = [...groups.values()].map(({ route, lines }) => ({
    clientId: session.clientId,
    profileId: route.profileId as number,
    sectorId: route.sectorId,
    payload: ticket({
      title: `${route.name} - ${tabName(comanda)}`,
      heading: route.name.toUpperCase(),
      comanda,
      waiter: claim.waiter ?? '',
      when,
      lines,
      columns: route.columns ?? DEFAULT_COLUMNS,
    }),
    idempotencyKey: `comanda-send-${sendId}-${route.sectorId}`,
    items: lines.map(kdsItemOf),
    createdBy: session.userId,
  }));
  const count = claim.lines.length;
  const text = `Enviou ${count} ${count === 1 ? 'item' : 'itens'} para a produção`;
  const result = (await tx.execute(sql`
    with ${jobs.length > 0 ? sql`j as (${ticketJobsInsertSql(jobs)}),` : sql`j as (select null::int as id where false),`}
    e as (
      insert into ${comandaEvents} (client_id, comanda_id, user_id, kind, text)
      values (${session.clientId}, ${comandaId}, ${session.userId}, 'sent', ${text})
    ),
    u as (
      update ${comandaSends}
      set job_ids = coalesce((select jsonb_agg(j.id order by j.id) from j), '[]'::jsonb),
        unrouted = ${JSON.stringify(unrouted)}::jsonb
      where id = ${sendId}
    )
    select id from j`)) as unknown as { rows: { id: number }[] };
  return result.rows.map((r) => Number(r.id));
}

/**
 * POST /v1/comanda/:id/send: the open tab's lines not sent yet go to production. The key claims
 * the send; a retried or doubled request with the same key answers the same send (re-enqueueing
 * with the same job keys: printed once). No new line: 422. The claim, the tickets and the log are one
 * transaction of three statements; the kitchen displays are signaled right after its commit, before
 * the hand-out to the printers and the answer's reads (issue 35: the card on the KDS < 500 ms p95).
 */
export async function sendToProduction(
  ctx: AppContext,
  session: SessionUser,
  id: number,
  idempotencyKey: string,
): Promise<{ send: ComandaSend; replayed: boolean }> {
  const { db } = ctx;
  const { clientId } = session;
  const claimed = await db.transaction(async (tx) => {
    const [existing] = await tx
      .select()
      .from(comandaSends)
      .where(and(eq(comandaSends.clientId, clientId), eq(comandaSends.idempotencyKey, idempotencyKey)));
    if (existing) {
      // The send is on this tab, or on the tab this one was merged into (its sends went along).
      if (existing.comandaId !== id && !(await mergedInto(tx, clientId, id, existing.comandaId)))
        throw unprocessable(COMANDA_MESSAGES.keyReused);
      return { sendId: existing.id, comandaId: existing.comandaId, replayed: true, jobIds: [] };
    }
    const claim = await claimSend(tx, session, id, idempotencyKey);
    if (!claim) throw notFound(COMANDA_MESSAGES.notFound);
    if (claim.status !== 'active')
      throw new AppError(409, COMANDA_MESSAGES.notActive, undefined, 'tab_closed');
    if (claim.sendId === null) return null;
    if (claim.lines.length === 0) throw unprocessable(COMANDA_MESSAGES.nothingToSend);
    const jobIds = await writeSendTickets(tx, session, id, claim.sendId, claim);
    return { sendId: claim.sendId, comandaId: id, replayed: false, jobIds };
  });
  if (!claimed) {
    // The same key raced in another request, which holds the claim: answer its send.
    return sendToProduction(ctx, session, id, idempotencyKey);
  }
  if (claimed.replayed) {
    // A send from before its tickets were written with it: what is missing is enqueued (printed once).
    await printSend(ctx, session, claimed.sendId, claimed.comandaId);
  } else {
    for (const jobId of claimed.jobIds) ctx.changed(clientId, 'print-job', jobId);
    ctx.changed(clientId, 'comanda', id);
    await deliverWaitingJobs(ctx, clientId);
  }
  const [send] = await readSends(db, session, claimed.comandaId, undefined, claimed.sendId);
  return { send: send as ComandaSend, replayed: claimed.replayed };
}

/**
 * Reprints a send's tickets: one sector's (`jobId`, issue 30: the screen asks which) or every
 * sector's, as new jobs marked REIMPRESSÃO by the printing module.
 */
export async function reprintSend(
  ctx: AppContext,
  session: SessionUser,
  id: number,
  sendId: number,
  idempotencyKey: string,
  jobId: number | null = null,
) {
  const { db } = ctx;
  const [send] = await db
    .select()
    .from(comandaSends)
    .where(
      and(
        eq(comandaSends.id, sendId),
        eq(comandaSends.comandaId, id),
        eq(comandaSends.clientId, session.clientId),
      ),
    );
  if (!send) throw new AppError(404, 'Envio não encontrado');
  const originals = ((await readSends(db, session, id)).find((s) => s.id === sendId)?.jobs ?? []).filter(
    (j) => j.reprintOf === null && (jobId === null || j.id === jobId),
  );
  if (originals.length === 0 && jobId !== null) throw new AppError(404, COMANDA_MESSAGES.ticketNotInSend);
  const reprints: number[] = [];
  for (const job of originals) {
    const { job: copy } = await reprintJob(ctx, session, job.id, `${idempotencyKey}-${job.id}`);
    reprints.push(copy.id);
  }
  // The reprints belong to the send too (the waiter follows them); the keys keep this idempotent.
  const fresh = reprints.filter((jobId) => !send.jobIds.includes(jobId));
  if (fresh.length > 0) {
    await db
      .update(comandaSends)
      .set({ jobIds: sql`${comandaSends.jobIds} || ${JSON.stringify(fresh)}::jsonb` })
      .where(eq(comandaSends.id, sendId));
  }
  await db.transaction(async (tx) => {
    await logEvent(
      tx,
      session,
      id,
      'reprinted',
      jobId !== null && originals[0]
        ? `Reimprimiu o ticket ${originals[0].title}`
        : `Reimprimiu ${reprints.length} ${reprints.length === 1 ? 'ticket' : 'tickets'} de produção`,
    );
  });
  ctx.changed(session.clientId, 'comanda', id);
}

/**
 * A ticket's tab as its title names it: the number and the table. The title is what the kitchen
 * display's card heads with and what the waiter's "Pronto" names (the walk of issue 35: a card said
 * "Comanda 3" where the paper said "COMANDA 3  MESA 7").
 */
export const tabName = (c: Pick<ComandaRow, 'number' | 'tableLabel'>) =>
  `Comanda ${c.number}${c.tableLabel ? ` · Mesa ${c.tableLabel}` : ''}`;

/** A cancelled sent line: a cancel ticket on its sector (once per line). */
export async function printCancelTicket(
  ctx: AppContext,
  session: SessionUser,
  comanda: ComandaRow,
  line: LineRow,
  reason: string,
) {
  const { db } = ctx;
  const groups = await bySector(db, session, [line]);
  const [sectorId] = [...groups.keys()];
  const sector = sectorId === null ? undefined : (await sectorsOf(db, session)).get(sectorId);
  if (!sector) return;
  const payload = ticket({
    title: `CANCELAMENTO ${sector.name} - ${tabName(comanda)}`,
    heading: `*** CANCELAMENTO *** ${sector.name.toUpperCase()}`,
    comanda,
    waiter: await userName(db, comanda.waiterId),
    canceledBy: await userName(db, session.userId),
    when: await clockText(db, session.clientId),
    lines: [{ ...line, notes: reason ? `Motivo: ${reason}` : null, additionals: line.additionals }],
    columns: sector.columns,
  });
  const { job } = await enqueuePrintJob(ctx, session, {
    sectorId: sector.id,
    kind: 'ticket',
    payload,
    idempotencyKey: `comanda-cancel-${line.id}`,
  }).catch(() => ({ job: null }));
  if (job && line.sendId !== null) {
    await db
      .update(comandaSends)
      .set({ jobIds: sql`${comandaSends.jobIds} || ${JSON.stringify([job.id])}::jsonb` })
      .where(eq(comandaSends.id, line.sendId));
  }
}

/**
 * The pre-bill ("conferência"): items, service fee, couvert, total, paid and remaining, printed on
 * the receipt printer when one is set (the document is answered so the screen can show it too).
 * Marks the tab "Conta pedida" on the board.
 */
export async function preBill(ctx: AppContext, session: SessionUser, id: number, idempotencyKey: string) {
  const { db } = ctx;
  const { clientId } = session;
  const settings = await getPrintingSettings(db, session);
  const profile =
    settings.profiles.find((p) => p.key === settings.receipt.profileKey) ?? settings.profiles[0] ?? null;
  const columns = profile?.columns ?? 42;
  const document = await db.transaction(async (tx) => {
    const c = await lockOpenComanda(tx, clientId, id);
    const { lines, payments } = await readLinesAndPayments(tx, id);
    const active = lines.filter((l) => l.status === 'active');
    const totals = comandaTotals({
      lines: active.map((l) => ({ ...l, status: 'active' as const })),
      serviceFeePercent: c.serviceFeePercent,
      couvertPerPersonCents: c.couvertPerPersonCents,
      people: c.people,
      paidCents: payments.reduce((s, p) => s + p.amountCents, 0),
    });
    const rule = '-'.repeat(columns);
    const [shop] = await tx.select({ name: clients.name }).from(clients).where(eq(clients.id, clientId));
    const out = [
      // Issue 30: the shop's name heads the pre-bill the customer takes.
      ...wrap(shop?.name ?? '', columns),
      'CONFERÊNCIA - NÃO É DOCUMENTO FISCAL',
      `COMANDA ${c.number}${c.tableLabel ? `  MESA ${c.tableLabel}` : ''}`,
      `${c.people} ${c.people === 1 ? 'pessoa' : 'pessoas'}`,
      await clockText(tx, clientId),
      rule,
    ];
    for (const l of active) {
      out.push(
        ...wrap(`${l.quantity} x ${l.description}${l.variantName ? ` (${l.variantName})` : ''}`, columns),
      );
      // The add-ons the customer pays for, each with its price (issue 30).
      for (const a of l.additionals) {
        out.push(
          receiptRow(
            `  + ${a.quantity > 1 ? `${a.quantity}x ` : ''}${a.name}`,
            formatCents(a.priceCents * a.quantity),
            columns,
          ),
        );
      }
      out.push(receiptRow('', formatCents(lineTotals(l).totalCents), columns));
    }
    out.push(rule, receiptRow('Itens', formatCents(totals.itemsCents), columns));
    if (totals.serviceFeeCents > 0) {
      out.push(
        receiptRow(
          `Taxa de serviço (${percentText(totals.serviceFeePercent)})`,
          formatCents(totals.serviceFeeCents),
          columns,
        ),
      );
    }
    if (totals.couvertCents > 0) out.push(receiptRow('Couvert', formatCents(totals.couvertCents), columns));
    out.push(receiptRow('TOTAL', formatCents(totals.totalCents), columns));
    if (totals.paidCents > 0) {
      out.push(receiptRow('Pago', formatCents(totals.paidCents), columns));
      out.push(receiptRow('Falta', formatCents(totals.remainingCents), columns));
    }
    if (c.people > 1) {
      out.push(
        receiptRow(
          `Por pessoa (${c.people})`,
          formatCents(Math.ceil(totals.remainingCents / c.people)),
          columns,
        ),
      );
    }
    if (!c.billRequestedAt) {
      await tx
        .update(comandas)
        .set({ billRequestedAt: new Date(), updatedAt: new Date() })
        .where(eq(comandas.id, id));
    }
    await logEvent(tx, session, id, 'pre_bill', `Imprimiu a conferência (${formatCents(totals.totalCents)})`);
    return { title: `Conferência - Comanda ${c.number}`, lines: out.map((l) => l.slice(0, 200)) };
  });
  const job = profile
    ? (
        await enqueuePrintJob(ctx, session, {
          profileId: profile.id,
          kind: 'document',
          payload: document,
          idempotencyKey: `comanda-prebill-${idempotencyKey}`,
        })
      ).job
    : null;
  ctx.changed(clientId, 'comanda', id);
  return { document, jobId: job?.id ?? null };
}
