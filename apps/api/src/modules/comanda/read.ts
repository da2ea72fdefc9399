import {
  COMANDA_MESSAGES,
  type Comanda,
  type ComandaBoard,
  type ComandaCard,
  type ComandaEventKind,
  type ComandaLine,
  type ComandaPayment,
  type ComandaPaymentKind,
  type ComandaStage,
  type ComandaStatus,
  comandaTotals,
} from '@balcao/core/comanda';
import { lineTotals } from '@balcao/core/sale';
import type { PaymentMethod } from '@balcao/core/status';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import { AppError, notFound } from '../../errors.ts';
import type { Actor } from '../../lib/actor.ts';
import { lineSnapshotOf } from '../../lib/lineSnapshot.ts';
import { findPrintJob, readyTimesOf } from '../printing/service.ts';
import { findSystemSettings } from '../settings/system.ts';
import { comandaEvents, comandaLines, comandaPayments, comandaSends, comandas } from './schema.ts';

export type ComandaRow = typeof comandas.$inferSelect;
export type LineRow = typeof comandaLines.$inferSelect;
export type PaymentRow = typeof comandaPayments.$inferSelect;

/** The tab's row locked for the rest of the transaction (FOR UPDATE): 404, or 409 when not open. */
export async function lockOpenComanda(tx: Executor, clientId: number, id: number): Promise<ComandaRow> {
  const [row] = await tx
    .select()
    .from(comandas)
    .where(and(eq(comandas.id, id), eq(comandas.clientId, clientId)))
    .for('update');
  if (!row) throw notFound(COMANDA_MESSAGES.notFound);
  if (row.status !== 'active') throw new AppError(409, COMANDA_MESSAGES.notActive, undefined, 'tab_closed');
  return row;
}

/** Two tabs locked in id order (transfers and merges never deadlock against each other). */
export async function lockTwo(tx: Executor, clientId: number, a: number, b: number) {
  const [first, second] = a < b ? [a, b] : [b, a];
  const x = await lockOpenComanda(tx, clientId, first);
  const y = await lockOpenComanda(tx, clientId, second);
  return a < b ? [x, y] : [y, x];
}

export async function logEvent(
  tx: Executor,
  actor: Actor,
  comandaId: number,
  kind: ComandaEventKind,
  text: string,
): Promise<void> {
  await tx
    .insert(comandaEvents)
    .values({ clientId: actor.clientId, comandaId, userId: actor.userId, kind, text });
}

/** Quantity of each line already paid by item payments. */
export function paidQuantities(payments: readonly PaymentRow[]): Map<number, number> {
  const paid = new Map<number, number>();
  for (const p of payments) {
    for (const item of p.items) {
      paid.set(item.lineId, Math.round(((paid.get(item.lineId) ?? 0) + item.quantity) * 1000) / 1000);
    }
  }
  return paid;
}

function stageOf(row: Pick<ComandaRow, 'billRequestedAt'>, paidCents: number): ComandaStage {
  if (paidCents > 0) return 'payment';
  return row.billRequestedAt ? 'bill' : 'open';
}

export function totalsOf(row: ComandaRow, lines: readonly LineRow[], payments: readonly PaymentRow[]) {
  return comandaTotals({
    lines: lines.map((l) => ({ ...l, status: l.status as 'active' | 'canceled' })),
    serviceFeePercent: row.serviceFeePercent,
    couvertPerPersonCents: row.couvertPerPersonCents,
    people: row.people,
    paidCents: payments.reduce((s, p) => s + p.amountCents, 0),
  });
}

export async function readLinesAndPayments(tx: Executor, comandaId: number) {
  const lines = await tx
    .select()
    .from(comandaLines)
    .where(eq(comandaLines.comandaId, comandaId))
    .orderBy(asc(comandaLines.id));
  const payments = await tx
    .select()
    .from(comandaPayments)
    .where(eq(comandaPayments.comandaId, comandaId))
    .orderBy(asc(comandaPayments.id));
  return { lines, payments };
}

async function namesOf(db: Executor, ids: number[]): Promise<Map<number, string>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await db
    .select({ id: users.id, name: users.name })
    .from(users)
    .where(inArray(users.id, unique));
  return new Map(rows.map((r) => [r.id, r.name]));
}

const ref = (names: Map<number, string>, id: number) => ({ id, name: names.get(id) ?? '' });

export function toLine(l: LineRow, names: Map<number, string>, paid: Map<number, number>): ComandaLine {
  // A tab's line answers its snapshot without the codes (kept for the sale it closes into).
  const { sku: _sku, barcode: _barcode, ...snapshot } = lineSnapshotOf(l);
  return {
    id: l.id,
    ...snapshot,
    notes: l.notes,
    totalCents: lineTotals(l).totalCents,
    paidQuantity: paid.get(l.id) ?? 0,
    status: l.status as ComandaLine['status'],
    sentAt: l.sentAt ? l.sentAt.toISOString() : null,
    sendId: l.sendId,
    addedBy: ref(names, l.addedBy),
    addedAt: l.addedAt.toISOString(),
    cancelReason: l.cancelReason,
  };
}

function toPayment(p: PaymentRow, names: Map<number, string>): ComandaPayment {
  return {
    id: p.id,
    kind: p.kind as ComandaPaymentKind,
    method: p.method as PaymentMethod,
    amountCents: p.amountCents,
    changeCents: p.changeCents,
    label: p.label,
    items: p.items,
    receivedBy: ref(names, p.receivedBy),
    cashRegisterId: p.cashRegisterId,
    createdAt: p.createdAt.toISOString(),
  };
}

/** A send with its print jobs' current state (the waiter sees what no station printed). */
export async function readSends(
  db: Executor,
  actor: Actor,
  comandaId: number,
  names?: Map<number, string>,
  /** Only this send (a send's answer). */
  sendId?: number,
) {
  const sends = await db
    .select()
    .from(comandaSends)
    .where(
      and(
        eq(comandaSends.comandaId, comandaId),
        sendId === undefined ? undefined : eq(comandaSends.id, sendId),
      ),
    )
    .orderBy(asc(comandaSends.id));
  const who =
    names ??
    (await namesOf(
      db,
      sends.map((s) => s.createdBy),
    ));
  const out = [];
  for (const s of sends) {
    const jobs = [];
    for (const jobId of s.jobIds) {
      const job = await findPrintJob(db, actor, jobId).catch(() => null);
      if (job) {
        jobs.push({
          id: job.id,
          status: job.status,
          title: job.payload.title,
          reprintOf: job.reprintOf,
          readyAt: job.readyAt,
        });
      }
    }
    out.push({
      id: s.id,
      createdAt: s.createdAt.toISOString(),
      createdBy: ref(who, s.createdBy),
      jobs,
      unrouted: s.unrouted,
    });
  }
  return out;
}

/** A tab as answered: head, lines, payments, sends with their jobs, the event log and the totals. */
export async function findComanda(db: Executor, actor: Actor, id: number): Promise<Comanda> {
  const [row] = await db
    .select({
      comanda: comandas,
      customerName: sql<string | null>`(select c.name from customers c where c.id = ${comandas.customerId})`,
    })
    .from(comandas)
    .where(and(eq(comandas.id, id), eq(comandas.clientId, actor.clientId)));
  if (!row) throw notFound(COMANDA_MESSAGES.notFound);
  const c = row.comanda;
  const { lines, payments } = await readLinesAndPayments(db, id);
  const events = await db
    .select()
    .from(comandaEvents)
    .where(eq(comandaEvents.comandaId, id))
    .orderBy(asc(comandaEvents.id));
  const sendRows = await db
    .select({ by: comandaSends.createdBy })
    .from(comandaSends)
    .where(eq(comandaSends.comandaId, id));
  const names = await namesOf(db, [
    ...(c.waiterId ? [c.waiterId] : []),
    ...lines.map((l) => l.addedBy),
    ...payments.map((p) => p.receivedBy),
    ...events.map((e) => e.userId),
    ...sendRows.map((s) => s.by),
  ]);
  const paid = paidQuantities(payments);
  const totals = totalsOf(c, lines, payments);
  return {
    ...head(c, names, row.customerName),
    stage: stageOf(c, totals.paidCents),
    serviceFeeReason: c.serviceFeeReason,
    couvertPerPersonCents: c.couvertPerPersonCents,
    saleId: c.saleId,
    lines: lines.map((l) => toLine(l, names, paid)),
    payments: payments.map((p) => toPayment(p, names)),
    sends: await readSends(db, actor, id, names),
    events: events.map((e) => ({
      id: e.id,
      kind: e.kind as ComandaEventKind,
      text: e.text,
      user: ref(names, e.userId),
      createdAt: e.createdAt.toISOString(),
    })),
    totals,
  };
}

function head(c: ComandaRow, names: Map<number, string>, customerName: string | null) {
  return {
    id: c.id,
    number: c.number,
    status: c.status as ComandaStatus,
    tableLabel: c.tableLabel,
    customer: c.customerId ? { id: c.customerId, name: customerName ?? '' } : null,
    customerName: c.customerName,
    customerPhone: c.customerPhone,
    people: c.people,
    waiter: c.waiterId ? ref(names, c.waiterId) : null,
    openedAt: c.createdAt.toISOString(),
    lastItemAt: c.lastItemAt ? c.lastItemAt.toISOString() : null,
    updatedAt: c.updatedAt.toISOString(),
  };
}

/**
 * The board: every open tab of the client (optionally one waiter's), by number, with its totals
 * and counts; three queries whatever the number of tabs.
 */
export async function listBoard(db: Executor, actor: Actor, waiterId: number | null): Promise<ComandaBoard> {
  const rows = await db
    .select({
      comanda: comandas,
      customerName: sql<string | null>`(select c.name from customers c where c.id = ${comandas.customerId})`,
      waiterName: users.name,
    })
    .from(comandas)
    .leftJoin(users, eq(users.id, comandas.waiterId))
    .where(
      and(
        eq(comandas.clientId, actor.clientId),
        eq(comandas.status, 'active'),
        waiterId === null ? undefined : eq(comandas.waiterId, waiterId),
      ),
    )
    .orderBy(asc(comandas.number));
  const ids = rows.map((r) => r.comanda.id);
  // A tab's identical lines as one row with their count (a bar's tab repeats its beers): the rows
  // read stay few however long the tabs get, and core's rule totals each kind once.
  const lines = ids.length
    ? await db
        .select({
          comandaId: comandaLines.comandaId,
          quantity: comandaLines.quantity,
          unitPriceCents: comandaLines.unitPriceCents,
          additionals: comandaLines.additionals,
          unsent: sql<boolean>`${comandaLines.sendId} is null`,
          count: sql<number>`count(*)::int`,
        })
        .from(comandaLines)
        .where(and(inArray(comandaLines.comandaId, ids), eq(comandaLines.status, 'active')))
        .groupBy(
          comandaLines.comandaId,
          comandaLines.quantity,
          comandaLines.unitPriceCents,
          comandaLines.additionals,
          sql`${comandaLines.sendId} is null`,
        )
    : [];
  const paidRows = ids.length
    ? await db
        .select({
          comandaId: comandaPayments.comandaId,
          paid: sql<number>`sum(${comandaPayments.amountCents})::int`,
        })
        .from(comandaPayments)
        .where(inArray(comandaPayments.comandaId, ids))
        .groupBy(comandaPayments.comandaId)
    : [];
  const sends = ids.length
    ? await db
        .select({ comandaId: comandaSends.comandaId, jobIds: comandaSends.jobIds })
        .from(comandaSends)
        .where(inArray(comandaSends.comandaId, ids))
    : [];
  const readyAt = await readyTimesOf(
    db,
    actor,
    sends.flatMap((s) => s.jobIds),
  );
  const lastReadyOf = new Map<number, Date>();
  for (const s of sends) {
    for (const jobId of s.jobIds) {
      const at = readyAt.get(jobId);
      const current = lastReadyOf.get(s.comandaId);
      if (at && (!current || at > current)) lastReadyOf.set(s.comandaId, at);
    }
  }
  const settings = await findSystemSettings(db, actor);
  const linesOf = new Map<number, typeof lines>();
  for (const l of lines) {
    const own = linesOf.get(l.comandaId);
    if (own) own.push(l);
    else linesOf.set(l.comandaId, [l]);
  }
  const paidOf = new Map(paidRows.map((p) => [p.comandaId, Number(p.paid)]));
  const tabs: ComandaCard[] = rows.map(({ comanda: c, customerName, waiterName }) => {
    const own = linesOf.get(c.id) ?? [];
    const totals = comandaTotals({
      lines: own.map((l) => ({ ...l, count: Number(l.count), status: 'active' as const })),
      serviceFeePercent: c.serviceFeePercent,
      couvertPerPersonCents: c.couvertPerPersonCents,
      people: c.people,
      paidCents: paidOf.get(c.id) ?? 0,
    });
    const names = new Map(c.waiterId && waiterName ? [[c.waiterId, waiterName]] : []);
    return {
      ...head(c, names, customerName),
      stage: stageOf(c, totals.paidCents),
      itemsCount: own.reduce((n, l) => n + Number(l.count), 0),
      unsentCount: own.reduce((n, l) => n + (l.unsent ? Number(l.count) : 0), 0),
      lastReadyAt: lastReadyOf.get(c.id)?.toISOString() ?? null,
      totalCents: totals.totalCents,
      paidCents: totals.paidCents,
    };
  });
  return { tabs, idleMinutes: settings.tabIdleMinutes, now: new Date().toISOString() };
}
