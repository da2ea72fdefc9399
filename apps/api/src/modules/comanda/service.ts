import {
  COMANDA_MESSAGES,
  type ComandaLine,
  type ComandaLineData,
  type ComandaOpenData,
  type comandaCancelInputSchema,
  type comandaLineCancelInputSchema,
  type comandaMergeInputSchema,
  type comandaServiceFeeInputSchema,
  type comandaTransferInputSchema,
  type comandaUpdateInputSchema,
} from '@balcao/core/comanda';
import { formatCents } from '@balcao/core/money';
import { ACTION, can } from '@balcao/core/routes';
import { percentText } from '@balcao/core/settings';
import { UserType } from '@balcao/core/userTypes';
import type { z } from '@balcao/core/zod';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import { AppError, conflict, duplicate, notFound, unprocessable } from '../../errors.ts';
import { isSameVersion, violatedUnique } from '../../lib/pg.ts';
import { assertNotStale, versionOf } from '../../lib/version.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { resolveApproval } from '../auth/approval.ts';
import { findCustomerRef } from '../customer/refs.ts';
import { priceItems } from '../product/pricing.ts';
import { findSystemSettings } from '../settings/system.ts';
import { appendLine } from './append.ts';
import { nightStartSql } from './night.ts';
import { printCancelTicket } from './production.ts';
import { lockOpenComanda, lockTwo, logEvent, paidQuantities, readLinesAndPayments, toLine } from './read.ts';
import { comandaLines, comandaPayments, comandaSends, comandas } from './schema.ts';

/** Comandas (issue 16): opening, lines appended one by one, cancel, transfer, merge, table, fee. */

function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

const fail = (message: string, path: string) => new AppError(422, message, [{ path, message }]);

async function checkPeople(
  db: Executor,
  clientId: number,
  input: { waiterId: number | null; customerId: number | null },
) {
  if (input.waiterId !== null) {
    const [w] = await db
      .select({ id: users.id })
      .from(users)
      .where(
        and(
          eq(users.id, input.waiterId),
          eq(users.clientId, clientId),
          eq(users.active, true),
          inArray(users.userTypeId, [...ACTION.takeTabs]),
        ),
      );
    if (!w) throw fail('Garçom não encontrado', 'waiterId');
  }
  if (input.customerId !== null && !(await findCustomerRef(db, clientId, input.customerId))) {
    throw fail('Cliente não encontrado', 'customerId');
  }
}

/** The advisory lock class of tab numbering (with the client id as the second key). */
const NUMBER_LOCK = 16016;

/**
 * The lowest number no tab of the client has tonight: not an open one, nor one opened since the
 * service night began (closed, canceled or merged), so a ticket "COMANDA 4" names one table a night.
 */
const nextFreeNumberSql = (clientId: number) => sql`(select min(s.n) from generate_series(1,
  (select count(*)::int + 1 from comandas where client_id = ${clientId}
    and (status = 'active' or created_at >= ${nightStartSql(clientId)}))) as s(n)
  where not exists (select 1 from comandas c where c.client_id = ${clientId} and c.number = s.n
    and (c.status = 'active' or c.created_at >= ${nightStartSql(clientId)})))`;

/** A typed number a tab of tonight already had (closed or canceled): refused, the number is spent. */
async function assertNumberUnusedTonight(tx: Executor, clientId: number, n: number) {
  const [used] = rowsOf<{ id: number }>(
    await tx.execute(sql`select id from comandas where client_id = ${clientId} and number = ${n}
      and status <> 'active' and created_at >= ${nightStartSql(clientId)} limit 1`),
  );
  if (used) {
    const message = COMANDA_MESSAGES.numberUsedTonight(n);
    throw duplicate(message, [{ path: 'number', message }]);
  }
}

/**
 * Opens a tab: a typed number (409 when an open tab has it or a tab had it tonight) or the next free one. Openings of one
 * client take a transaction lock first, so two "next free" never pick the same number; the unique
 * index stays the guarantee (a clash left by anything else retries). The system's service fee and couvert are copied.
 */
export async function openComanda(ctx: AppContext, session: SessionUser, input: ComandaOpenData) {
  const { db } = ctx;
  const { clientId } = session;
  await checkPeople(db, clientId, input);
  const settings = await findSystemSettings(db, session);
  const waiterId = input.waiterId ?? (can(session.userTypeId, ACTION.serveTables) ? session.userId : null);
  for (let attempt = 0; ; attempt++) {
    try {
      const id = await db.transaction(async (tx) => {
        // The client's openings queue here (a transaction lock per client): "next free" never races.
        await tx.execute(sql`select pg_advisory_xact_lock(${NUMBER_LOCK}, ${clientId})`);
        if (input.number !== null) await assertNumberUnusedTonight(tx, clientId, input.number);
        const [row] = rowsOf<{ id: number; number: number }>(
          await tx.execute(sql`insert into comandas (client_id, number, table_label, customer_id, customer_name,
              customer_phone, people, waiter_id, service_fee_percent, couvert_per_person_cents, opened_by)
            values (${clientId}, ${input.number ?? nextFreeNumberSql(clientId)}, ${input.tableLabel},
              ${input.customerId}, ${input.customerName}, ${input.customerPhone}, ${input.people}, ${waiterId},
              ${settings.serviceFeePercent}, ${settings.couvertCents}, ${session.userId})
            returning id, number`),
        );
        await logEvent(
          tx,
          session,
          row.id,
          'opened',
          `Abriu a comanda ${row.number}${input.tableLabel ? ` na mesa ${input.tableLabel}` : ''}`,
        );
        return Number(row.id);
      });
      ctx.changed(clientId, 'comanda', id);
      return id;
    } catch (error) {
      if (violatedUnique(error) === 'comandas_open_number_uq') {
        if (input.number !== null) {
          const message = COMANDA_MESSAGES.numberTaken(input.number);
          throw duplicate(message, [{ path: 'number', message }]);
        }
        if (attempt < 8) continue;
      }
      throw error;
    }
  }
}

/** PUT: table, customer, people, waiter (version-checked); a table move is logged. */
export async function updateComanda(
  ctx: AppContext,
  session: SessionUser,
  id: number,
  input: z.output<typeof comandaUpdateInputSchema>,
) {
  const { clientId } = session;
  const version = versionOf(input.updatedAt);
  await checkPeople(ctx.db, clientId, input);
  await ctx.db.transaction(async (tx) => {
    const before = await lockOpenComanda(tx, clientId, id);
    const updated = await tx
      .update(comandas)
      .set({
        tableLabel: input.tableLabel,
        customerId: input.customerId,
        customerName: input.customerName,
        customerPhone: input.customerPhone,
        people: input.people,
        waiterId: input.waiterId,
        updatedAt: new Date(),
      })
      .where(and(eq(comandas.id, id), isSameVersion(comandas.updatedAt, version)))
      .returning({ id: comandas.id });
    assertNotStale(updated);
    if ((before.tableLabel ?? '') !== (input.tableLabel ?? '')) {
      await logEvent(
        tx,
        session,
        id,
        'table',
        `Mudou a mesa de ${before.tableLabel ?? '(sem mesa)'} para ${input.tableLabel ?? '(sem mesa)'}`,
      );
    }
  });
  ctx.changed(clientId, 'comanda', id);
}

/**
 * Appends ONE line (never the tab saved whole: two waiters adding at once both keep theirs). The
 * price comes from the catalog; the Idempotency-Key makes a retried add answer its first line.
 * One statement after pricing (append.ts, shared by the adds of the same moment): touches the open
 * tab (its row lock orders the adds of one tab and keeps a close from missing one) and inserts the line.
 */
export async function addLine(
  ctx: AppContext,
  session: SessionUser,
  id: number,
  input: ComandaLineData,
  idempotencyKey: string | null,
): Promise<{ line: ComandaLine; replayed: boolean }> {
  const { db } = ctx;
  const { clientId } = session;
  const answer = (row: typeof comandaLines.$inferSelect, replayed: boolean) => ({
    line: toLine(row, new Map(), new Map()),
    replayed,
  });
  const replay = async () => {
    if (!idempotencyKey) return null;
    const [row] = await db
      .select()
      .from(comandaLines)
      .where(and(eq(comandaLines.clientId, clientId), eq(comandaLines.idempotencyKey, idempotencyKey)));
    if (row && row.comandaId !== id) throw unprocessable(COMANDA_MESSAGES.keyReused);
    return row ? answer(row, true) : null;
  };
  // No transaction: the catalog reads need none and the insert is one statement (the retry of a
  // lost answer finds its line through the key; a key seen before is answered before any 422 of a
  // catalog that changed since).
  let priced: Awaited<ReturnType<typeof priceItems>>[number];
  try {
    [priced] = await priceItems(db, clientId, [input]);
  } catch (error) {
    const seen = await replay();
    if (seen) return seen;
    throw error;
  }
  const row = await appendLine(db, {
    clientId,
    comandaId: id,
    priced,
    quantity: input.quantity,
    notes: input.notes,
    addedBy: session.userId,
    idempotencyKey,
  });
  if (row.line === null) {
    // The key was there (a retry): its line. Otherwise the tab is closed or unknown.
    const seen = await replay();
    if (seen) return seen;
    if (row.tab !== null) throw conflict('Este item ainda está sendo adicionado: tente novamente');
    const [exists] = await db
      .select({ status: comandas.status })
      .from(comandas)
      .where(and(eq(comandas.id, id), eq(comandas.clientId, clientId)));
    throw exists
      ? new AppError(409, COMANDA_MESSAGES.notActive, undefined, 'tab_closed')
      : notFound(COMANDA_MESSAGES.notFound);
  }
  ctx.changed(clientId, 'comanda', id);
  const line: typeof comandaLines.$inferSelect = {
    ...priced,
    id: Number(row.line),
    clientId,
    comandaId: id,
    categoryId: null,
    quantity: input.quantity,
    notes: input.notes,
    status: 'active',
    sendId: null,
    sentAt: null,
    transferredFrom: null,
    addedBy: session.userId,
    addedAt: new Date(row.addedAt ?? Date.now()),
    idempotencyKey,
    cancelReason: null,
    canceledBy: null,
    cancelApprovedBy: null,
    canceledAt: null,
  };
  return answer(line, false);
}

/**
 * Cancels a line. Not sent yet: simply removed from the tab. Sent: needs a reason, and a manager's
 * approval for users without ACTION.approve (the food is already being made: docs/decisions.md),
 * and prints a cancel ticket on its sector. A line with paid quantity is refused.
 */
export async function cancelLine(
  ctx: AppContext,
  session: SessionUser,
  id: number,
  lineId: number,
  input: z.output<typeof comandaLineCancelInputSchema>,
) {
  const { db } = ctx;
  const { clientId } = session;
  const [peek] = await db
    .select()
    .from(comandaLines)
    .where(
      and(eq(comandaLines.id, lineId), eq(comandaLines.comandaId, id), eq(comandaLines.clientId, clientId)),
    );
  if (!peek) throw notFound(COMANDA_MESSAGES.lineNotFound);
  if (peek.status === 'canceled') throw conflict(COMANDA_MESSAGES.lineAlreadyCanceled);
  const sent = peek.sendId !== null;
  if (sent && !input.reason) throw fail(COMANDA_MESSAGES.sentNeedsReason, 'reason');
  const approvedBy = sent
    ? await resolveApproval(
        db,
        session,
        input.approval,
        COMANDA_MESSAGES.cancelNeedsApproval,
        COMANDA_MESSAGES.cancelApprovalRefused,
      )
    : null;
  const { comanda, line } = await db.transaction(async (tx) => {
    const comanda = await lockOpenComanda(tx, clientId, id);
    const { lines, payments } = await readLinesAndPayments(tx, id);
    const line = lines.find((l) => l.id === lineId);
    if (!line) throw notFound(COMANDA_MESSAGES.lineNotFound);
    if (line.status === 'canceled') throw conflict(COMANDA_MESSAGES.lineAlreadyCanceled);
    if ((paidQuantities(payments).get(lineId) ?? 0) > 0) throw unprocessable(COMANDA_MESSAGES.linePaid);
    await tx
      .update(comandaLines)
      .set({
        status: 'canceled',
        cancelReason: input.reason,
        canceledBy: session.userId,
        cancelApprovedBy: approvedBy,
        canceledAt: new Date(),
      })
      .where(eq(comandaLines.id, lineId));
    await tx.update(comandas).set({ updatedAt: new Date() }).where(eq(comandas.id, id));
    await logEvent(
      tx,
      session,
      id,
      'line_canceled',
      `Cancelou ${line.quantity} x ${line.description}${input.reason ? ` (motivo: ${input.reason})` : ''}`,
    );
    return { comanda, line };
  });
  if (line.sendId !== null) await printCancelTicket(ctx, session, comanda, line, input.reason ?? '');
  ctx.changed(clientId, 'comanda', id);
}

/**
 * Cancels a tab opened by mistake (issue 30, docs/decisions.md "Canceling a comanda"). Refused with
 * payments. With lines sent to production: a reason and a manager's approval, and a cancel ticket
 * per sent line on its sector. Its lines are canceled with it; its number stays spent for the night.
 */
export async function cancelComanda(
  ctx: AppContext,
  session: SessionUser,
  id: number,
  input: z.output<typeof comandaCancelInputSchema>,
) {
  const { db } = ctx;
  const { clientId } = session;
  const peek = await db.transaction(async (tx) => {
    await lockOpenComanda(tx, clientId, id);
    return readLinesAndPayments(tx, id);
  });
  const anySent = peek.lines.some((l) => l.status === 'active' && l.sendId !== null);
  if (peek.payments.length > 0) throw unprocessable(COMANDA_MESSAGES.cancelHasPayments);
  if (anySent && !input.reason) throw fail(COMANDA_MESSAGES.cancelSentNeedsReason, 'reason');
  const approvedBy = anySent
    ? await resolveApproval(
        db,
        session,
        input.approval,
        COMANDA_MESSAGES.cancelSentNeedsApproval,
        COMANDA_MESSAGES.cancelApprovalRefused,
      )
    : null;
  const { comanda, sent } = await db.transaction(async (tx) => {
    const comanda = await lockOpenComanda(tx, clientId, id);
    const { lines, payments } = await readLinesAndPayments(tx, id);
    if (payments.length > 0) throw unprocessable(COMANDA_MESSAGES.cancelHasPayments);
    const active = lines.filter((l) => l.status === 'active');
    if (active.some((l) => l.sendId !== null) && !anySent) {
      // Sent meanwhile: the rules of a sent tab apply; ask again.
      throw fail(COMANDA_MESSAGES.cancelSentNeedsReason, 'reason');
    }
    const now = new Date();
    if (active.length > 0) {
      await tx
        .update(comandaLines)
        .set({
          status: 'canceled',
          cancelReason: input.reason,
          canceledBy: session.userId,
          cancelApprovedBy: approvedBy,
          canceledAt: now,
        })
        .where(and(eq(comandaLines.comandaId, id), eq(comandaLines.status, 'active')));
    }
    await tx
      .update(comandas)
      .set({ status: 'canceled', closedAt: now, updatedAt: now })
      .where(eq(comandas.id, id));
    await logEvent(
      tx,
      session,
      id,
      'canceled',
      `Cancelou a comanda${input.reason ? ` (motivo: ${input.reason})` : ''}`,
    );
    return { comanda, sent: active.filter((l) => l.sendId !== null) };
  });
  for (const line of sent) await printCancelTicket(ctx, session, comanda, line, input.reason ?? '');
  ctx.changed(clientId, 'comanda', id);
}

const round3 = (v: number) => Math.round(v * 1000) / 1000;

/**
 * Moves a line, whole or part of its quantity, to another open tab. A part splits the line: the
 * new line keeps the price and the sent state (nothing is printed again). Logged on both tabs.
 */
export async function transferLine(
  ctx: AppContext,
  session: SessionUser,
  id: number,
  input: z.output<typeof comandaTransferInputSchema>,
) {
  const { clientId } = session;
  if (input.toComandaId === id) throw fail(COMANDA_MESSAGES.transferSame, 'toComandaId');
  await ctx.db.transaction(async (tx) => {
    const [from, to] = await lockTwo(tx, clientId, id, input.toComandaId);
    const { lines, payments } = await readLinesAndPayments(tx, id);
    const line = lines.find((l) => l.id === input.lineId && l.status === 'active');
    if (!line) throw notFound(COMANDA_MESSAGES.lineNotFound);
    if ((paidQuantities(payments).get(line.id) ?? 0) > 0) throw unprocessable(COMANDA_MESSAGES.linePaid);
    if (input.quantity > line.quantity) throw fail(COMANDA_MESSAGES.transferQuantity, 'quantity');
    const now = new Date();
    if (input.quantity === line.quantity) {
      await tx.update(comandaLines).set({ comandaId: to.id }).where(eq(comandaLines.id, line.id));
    } else {
      await tx
        .update(comandaLines)
        .set({ quantity: round3(line.quantity - input.quantity) })
        .where(eq(comandaLines.id, line.id));
      const { id: _id, idempotencyKey: _key, ...copy } = line;
      await tx
        .insert(comandaLines)
        .values({ ...copy, comandaId: to.id, quantity: input.quantity, transferredFrom: line.id });
    }
    await tx.update(comandas).set({ updatedAt: now, lastItemAt: now }).where(eq(comandas.id, to.id));
    await tx.update(comandas).set({ updatedAt: now }).where(eq(comandas.id, from.id));
    const what = `${input.quantity} x ${line.description}`;
    await logEvent(tx, session, from.id, 'transfer_out', `Transferiu ${what} para a comanda ${to.number}`);
    await logEvent(tx, session, to.id, 'transfer_in', `Recebeu ${what} da comanda ${from.number}`);
  });
  ctx.changed(clientId, 'comanda', id);
  ctx.changed(clientId, 'comanda', input.toComandaId);
}

/** Brings every line of another open tab into this one; the other is canceled ("unida"). */
export async function mergeComanda(
  ctx: AppContext,
  session: SessionUser,
  id: number,
  input: z.output<typeof comandaMergeInputSchema>,
) {
  const { clientId } = session;
  if (input.fromComandaId === id) throw fail(COMANDA_MESSAGES.mergeSame, 'fromComandaId');
  await ctx.db.transaction(async (tx) => {
    const [into, from] = await lockTwo(tx, clientId, id, input.fromComandaId);
    const [paid] = await tx
      .select({ id: comandaPayments.id })
      .from(comandaPayments)
      .where(eq(comandaPayments.comandaId, from.id))
      .limit(1);
    if (paid) throw unprocessable(COMANDA_MESSAGES.mergeHasPayments);
    const now = new Date();
    await tx.update(comandaLines).set({ comandaId: into.id }).where(eq(comandaLines.comandaId, from.id));
    // Its sends follow its lines: the target shows the earlier tickets, their print state, retry and
    // reprint (a replay of such a send's key on the merged tab answers it here: production.ts).
    await tx.update(comandaSends).set({ comandaId: into.id }).where(eq(comandaSends.comandaId, from.id));
    await tx
      .update(comandas)
      .set({ updatedAt: now, lastItemAt: sql`greatest(${comandas.lastItemAt}, ${from.lastItemAt})` })
      .where(eq(comandas.id, into.id));
    await tx
      .update(comandas)
      .set({ status: 'canceled', mergedIntoId: into.id, closedAt: now, updatedAt: now })
      .where(eq(comandas.id, from.id));
    await logEvent(tx, session, into.id, 'merged', `Uniu a comanda ${from.number} a esta`);
    await logEvent(tx, session, from.id, 'merged_into', `Unida à comanda ${into.number}`);
  });
  ctx.changed(clientId, 'comanda', id);
  ctx.changed(clientId, 'comanda', input.fromComandaId);
}

/** The tab's service fee: the system default, or another (0 = removed) with a reason. */
export async function setServiceFee(
  ctx: AppContext,
  session: SessionUser,
  id: number,
  input: z.output<typeof comandaServiceFeeInputSchema>,
) {
  const { clientId } = session;
  const settings = await findSystemSettings(ctx.db, session);
  const isDefault = input.serviceFeePercent === settings.serviceFeePercent;
  if (!isDefault && !input.reason) throw fail(COMANDA_MESSAGES.feeReason, 'reason');
  await ctx.db.transaction(async (tx) => {
    const before = await lockOpenComanda(tx, clientId, id);
    const [paid] = await tx
      .select({ id: comandaPayments.id })
      .from(comandaPayments)
      .where(eq(comandaPayments.comandaId, id))
      .limit(1);
    if (paid) throw unprocessable('A taxa de serviço não pode mudar depois do primeiro pagamento');
    const couvert = input.couvertPerPersonCents ?? before.couvertPerPersonCents;
    await tx
      .update(comandas)
      .set({
        serviceFeePercent: input.serviceFeePercent,
        serviceFeeReason: isDefault ? null : input.reason,
        couvertPerPersonCents: couvert,
        updatedAt: new Date(),
      })
      .where(eq(comandas.id, id));
    if (couvert !== before.couvertPerPersonCents) {
      await logEvent(
        tx,
        session,
        id,
        'service_fee',
        `Couvert de ${formatCents(before.couvertPerPersonCents)} para ${formatCents(couvert)} por pessoa`,
      );
    }
    if (before.serviceFeePercent === input.serviceFeePercent && input.reason === before.serviceFeeReason)
      return;
    await logEvent(
      tx,
      session,
      id,
      'service_fee',
      `Taxa de serviço de ${percentText(before.serviceFeePercent)} para ${percentText(input.serviceFeePercent)}${
        input.reason ? ` (motivo: ${input.reason})` : ''
      }`,
    );
  });
  ctx.changed(clientId, 'comanda', id);
}

/**
 * The shop's couvert changed on the system page (issue 30, docs/decisions.md): every open tab with
 * no payment yet takes it (tonight's live music starts at 21:00 for the tables already seated); a tab
 * under payment keeps its own, its split was made on it. Handed to the settings module at wiring.
 */
export async function applyCouvertToOpenTabs(tx: Executor, clientId: number, couvertCents: number) {
  await tx.execute(sql`update comandas c set couvert_per_person_cents = ${couvertCents}, updated_at = now()
    where c.client_id = ${clientId} and c.status = 'active' and c.couvert_per_person_cents <> ${couvertCents}
      and not exists (select 1 from comanda_payments p where p.comanda_id = c.id)`);
}

/** The waiter asks for the bill: the board shows the tab in the "Conta pedida" colour. */
export async function requestBill(ctx: AppContext, session: SessionUser, id: number) {
  const { clientId } = session;
  await ctx.db.transaction(async (tx) => {
    const c = await lockOpenComanda(tx, clientId, id);
    if (c.billRequestedAt) return;
    await tx
      .update(comandas)
      .set({ billRequestedAt: new Date(), updatedAt: new Date() })
      .where(eq(comandas.id, id));
    await logEvent(tx, session, id, 'bill_requested', 'Pediu a conta');
  });
  ctx.changed(clientId, 'comanda', id);
}

/**
 * The shop's active users who may serve a tab (NOT_MKT profiles), Garçons first then by name: the
 * open form's waiter picker.
 */
export async function listWaiters(
  db: Executor,
  session: SessionUser,
): Promise<{ items: { id: number; name: string }[] }> {
  const rows = await db
    .select({ id: users.id, name: users.name })
    .from(users)
    .where(
      and(
        eq(users.clientId, session.clientId),
        eq(users.active, true),
        inArray(users.userTypeId, [...ACTION.takeTabs]),
      ),
    )
    .orderBy(sql`${users.userTypeId} <> ${UserType.WAITER}`, users.name);
  return { items: rows };
}
