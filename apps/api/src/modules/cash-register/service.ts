import {
  CASH_REGISTER_MESSAGES,
  type CashMethodSummary,
  type CashMovement,
  type CashMovementInput,
  type CashMovementType,
  type CashRegister,
  type CashRegisterCloseInput,
  type CashRegisterSummary,
  COUNTED_METHODS,
  type DrawerOpeningReason,
} from '@balcao/core/cashRegister';
import { formatCents } from '@balcao/core/money';
import { ACTION, can } from '@balcao/core/routes';
import { PAYMENT_METHODS_IN_PDV } from '@balcao/core/sale';
import type { PaymentMethod } from '@balcao/core/status';
import { and, asc, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { AppContext } from '../../context.ts';
import type { Db, Executor } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import { AppError, conflict, notFound, unprocessable } from '../../errors.ts';
import { inOrder } from '../../lib/inOrder.ts';
import { countRows, listResult, pageWindow } from '../../lib/list.ts';
import { violatedUnique } from '../../lib/pg.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { resolveApproval } from '../auth/approval.ts';
import { countsBlind } from '../settings/system.ts';
import { kickAndLog, NO_DRAWER } from './drawer.ts';
import { cashDrawerOpenings, cashRegisterCounts, cashRegisterMovements, cashRegisters } from './schema.ts';

type RegisterRow = typeof cashRegisters.$inferSelect;

/** What a register's sales took (canceled sales left out of the amounts, counted apart). */
export type RegisterSaleFigures = {
  /** Payments per method (money: the amount applied, without the change). */
  byMethod: Map<PaymentMethod, number>;
  count: number;
  canceledCount: number;
  amountCents: number;
  discountCents: number;
  changeCents: number;
};

/**
 * Reads a register's sale figures. Sales are recorded above this module (a sale locks the open
 * register), so the sale module hands this reader over when the modules are wired (modules/index.ts).
 */
export type RegisterSales = (db: Executor, registerId: number) => Promise<RegisterSaleFigures>;

/** Administrador, Gerente and Financeiro read every register's report (PRODUCT.md: "cash register reports"). */
function canSeeAllRegisters(session: SessionUser): boolean {
  return can(session.userTypeId, ACTION.registerReports);
}

/**
 * The user's open register. `lock: 'share'` (an installment received) keeps it from being closed
 * until that commits; `lock: 'update'` (close, movements) waits for the sales and receipts in flight.
 */
async function findOpenRegister(
  db: Executor,
  session: Pick<SessionUser, 'clientId' | 'userId'>,
  lock?: 'share' | 'update',
): Promise<RegisterRow | null> {
  const query = db
    .select()
    .from(cashRegisters)
    .where(
      and(
        eq(cashRegisters.clientId, session.clientId),
        eq(cashRegisters.userId, session.userId),
        eq(cashRegisters.status, 'open'),
      ),
    )
    .limit(1);
  const [row] =
    lock === 'share' ? await query.for('share') : lock === 'update' ? await query.for('update') : await query;
  return row ?? null;
}

/** Whether the user has an open register (a marketplace polling's automatic sales need one, issue 35). */
export async function hasOpenRegister(
  db: Executor,
  session: Pick<SessionUser, 'clientId' | 'userId'>,
): Promise<boolean> {
  return (await findOpenRegister(db, session)) !== null;
}

/**
 * The sale's first statement reads the user's open register through this subquery (one row: `id`),
 * FOR SHARE: closing the register waits until the sale commits.
 */
export function openRegisterForSaleSql(session: Pick<SessionUser, 'clientId' | 'userId'>): SQL {
  return sql`select r.id from cash_registers r
    where r.client_id = ${session.clientId} and r.user_id = ${session.userId} and r.status = 'open'
    limit 1 for share`;
}

async function userNames(db: Executor, ids: number[]): Promise<Map<number, string>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await db
    .select({ id: users.id, name: users.name })
    .from(users)
    .where(inArray(users.id, unique));
  return new Map(rows.map((r) => [r.id, r.name]));
}

function toRegister(row: RegisterRow, userName: string): CashRegister {
  return {
    id: row.id,
    status: row.status as CashRegister['status'],
    user: { id: row.userId, name: userName },
    openingAmountCents: row.openingAmountCents,
    openedAt: row.openedAt.toISOString(),
    closedAt: row.closedAt ? row.closedAt.toISOString() : null,
    closingNotes: row.closingNotes,
  };
}

export async function openRegister(
  ctx: AppContext,
  sales: RegisterSales,
  session: SessionUser,
  openingAmountCents: number,
) {
  try {
    const [row] = await ctx.db
      .insert(cashRegisters)
      .values({ clientId: session.clientId, userId: session.userId, openingAmountCents })
      .returning();
    ctx.changed(session.clientId, 'cash-register', row.id);
    return summarize(ctx.db, sales, row);
  } catch (error) {
    if (violatedUnique(error) === 'cash_registers_user_open_uq')
      throw conflict(CASH_REGISTER_MESSAGES.alreadyOpen);
    throw error;
  }
}

/** Expected amounts per method, movements and sale figures of a register (open or closed). */
async function summarize(
  db: Executor,
  sales: RegisterSales,
  register: RegisterRow,
): Promise<CashRegisterSummary> {
  // In order: `db` may be a transaction (one connection).
  const stats = await sales(db, register.id);
  const [movementRows, countRows, drawerRows] = await inOrder([
    db
      .select()
      .from(cashRegisterMovements)
      .where(eq(cashRegisterMovements.cashRegisterId, register.id))
      .orderBy(asc(cashRegisterMovements.createdAt), asc(cashRegisterMovements.id)),
    db.select().from(cashRegisterCounts).where(eq(cashRegisterCounts.cashRegisterId, register.id)),
    db
      .select({
        id: cashDrawerOpenings.id,
        reason: cashDrawerOpenings.reason,
        userId: cashDrawerOpenings.userId,
        createdAt: cashDrawerOpenings.createdAt,
      })
      .from(cashDrawerOpenings)
      .where(eq(cashDrawerOpenings.cashRegisterId, register.id))
      .orderBy(asc(cashDrawerOpenings.createdAt), asc(cashDrawerOpenings.id)),
  ]);
  const names = await userNames(db, [
    register.userId,
    ...movementRows.map((m) => m.userId),
    ...drawerRows.map((d) => d.userId),
    ...movementRows.flatMap((m) => (m.approvedByUserId ? [m.approvedByUserId] : [])),
  ]);
  const salesBy = stats.byMethod;
  const receiptsBy = new Map<PaymentMethod, number>();
  const refundsBy = new Map<PaymentMethod, number>();
  let deposits = 0;
  let withdrawals = 0;
  for (const m of movementRows) {
    if (m.type === 'deposit') deposits += m.amountCents;
    else if (m.type === 'withdrawal') withdrawals += m.amountCents;
    else if (m.type === 'refund') {
      const method = m.paymentMethod as PaymentMethod;
      refundsBy.set(method, (refundsBy.get(method) ?? 0) + m.amountCents);
    } else {
      const method = m.paymentMethod as PaymentMethod;
      receiptsBy.set(method, (receiptsBy.get(method) ?? 0) + m.amountCents);
    }
  }
  const countedBy = new Map(countRows.map((c) => [c.paymentMethod as PaymentMethod, c]));
  const closed = register.status === 'closed';
  const moneyExpected =
    register.openingAmountCents +
    (salesBy.get('money') ?? 0) +
    (receiptsBy.get('money') ?? 0) +
    deposits -
    withdrawals -
    (refundsBy.get('money') ?? 0);
  const methods: CashMethodSummary[] = [];
  for (const method of PAYMENT_METHODS_IN_PDV) {
    const salesCents = salesBy.get(method) ?? 0;
    const receiptsCents = receiptsBy.get(method) ?? 0;
    const refundsCents = refundsBy.get(method) ?? 0;
    const count = countedBy.get(method);
    const countable = COUNTED_METHODS.includes(method);
    // A closed register keeps the expected amounts computed at its close.
    const expectedCents = count
      ? count.expectedCents
      : method === 'money'
        ? moneyExpected
        : salesCents + receiptsCents - refundsCents;
    if (method !== 'money' && !count && salesCents === 0 && receiptsCents === 0 && refundsCents === 0)
      continue;
    const countedCents = count ? count.countedCents : closed && countable ? 0 : null;
    methods.push({
      method,
      salesCents,
      receiptsCents,
      refundsCents,
      expectedCents,
      countedCents,
      differenceCents: countedCents === null ? null : countedCents - expectedCents,
      countable,
    });
  }
  const countableMethods = methods.filter((m) => m.countable);
  const expectedTotal = countableMethods.reduce((s, m) => s + m.expectedCents, 0);
  const countedTotal = closed ? countableMethods.reduce((s, m) => s + (m.countedCents ?? 0), 0) : null;
  return {
    ...toRegister(register, names.get(register.userId) ?? ''),
    movements: movementRows.map(
      (m): CashMovement => ({
        id: m.id,
        type: m.type as CashMovementType,
        paymentMethod: m.paymentMethod as PaymentMethod,
        amountCents: m.amountCents,
        reason: m.reason,
        user: { id: m.userId, name: names.get(m.userId) ?? '' },
        approvedBy: m.approvedByUserId
          ? { id: m.approvedByUserId, name: names.get(m.approvedByUserId) ?? '' }
          : null,
        createdAt: m.createdAt.toISOString(),
      }),
    ),
    methods,
    drawerOpenings: drawerRows.map((d) => ({
      id: d.id,
      reason: d.reason as DrawerOpeningReason,
      user: { id: d.userId, name: names.get(d.userId) ?? '' },
      createdAt: d.createdAt.toISOString(),
    })),
    money: {
      openingCents: register.openingAmountCents,
      salesCents: salesBy.get('money') ?? 0,
      receiptsCents: receiptsBy.get('money') ?? 0,
      depositsCents: deposits,
      withdrawalsCents: withdrawals,
      refundsCents: refundsBy.get('money') ?? 0,
      expectedCents: countedBy.get('money')?.expectedCents ?? moneyExpected,
    },
    sales: {
      count: stats.count,
      canceledCount: stats.canceledCount,
      amountCents: stats.amountCents,
      discountCents: stats.discountCents,
      changeCents: stats.changeCents,
    },
    totals: {
      expectedCents: expectedTotal,
      countedCents: countedTotal,
      differenceCents: countedTotal === null ? null : countedTotal - expectedTotal,
    },
    blindCount: false,
  };
}

/** The caller's open register with its figures, or null (the PDV then shows the opening modal). */
export async function currentRegister(
  db: Db,
  sales: RegisterSales,
  session: SessionUser,
): Promise<CashRegisterSummary | null> {
  const row = await findOpenRegister(db, session);
  if (!row) return null;
  const summary = await summarize(db, sales, row);
  return { ...summary, blindCount: await countsBlind(db, session.clientId, session.userTypeId) };
}

/**
 * `work` on the caller's open register, locked (none open: 422), in one transaction; answers the
 * summary of the register row `work` returns and signals the change once committed.
 */
async function changeOpenRegister(
  ctx: AppContext,
  sales: RegisterSales,
  session: SessionUser,
  work: (tx: Executor, register: RegisterRow) => Promise<RegisterRow>,
): Promise<CashRegisterSummary> {
  const summary = await ctx.db.transaction(async (tx) => {
    const register = await findOpenRegister(tx, session, 'update');
    if (!register) throw unprocessable(CASH_REGISTER_MESSAGES.notOpen);
    return summarize(tx, sales, await work(tx, register));
  });
  ctx.changed(session.clientId, 'cash-register', summary.id);
  return summary;
}

const OFFLINE_MOVEMENT_TIME = 'A hora do movimento é inválida: confira o relógio do aparelho';

/** Suprimento (anyone at the register) or sangria (Administrador/Gerente, or with their approval). */
export async function addMovement(
  ctx: AppContext,
  sales: RegisterSales,
  session: SessionUser,
  input: CashMovementInput,
) {
  const approvedBy =
    input.type === 'withdrawal'
      ? await resolveApproval(
          ctx.db,
          session,
          input.approval,
          CASH_REGISTER_MESSAGES.withdrawalNeedsApproval,
          CASH_REGISTER_MESSAGES.approvalInvalid,
        )
      : null;
  const madeAt = input.madeAt ? new Date(input.madeAt) : null;
  if (
    madeAt &&
    (madeAt.getTime() > Date.now() + 5 * 60_000 || madeAt.getTime() < Date.now() - 7 * 86_400_000)
  )
    throw new AppError(422, OFFLINE_MOVEMENT_TIME, [{ path: 'madeAt', message: OFFLINE_MOVEMENT_TIME }]);
  let movementId: number | null = null;
  const summary = await changeOpenRegister(ctx, sales, session, async (tx, register) => {
    // Offline, sent again (a cut sync, a second tab): recorded once, answered with the register.
    if (input.clientMovementId) {
      const [seen] = await tx
        .select({ id: cashRegisterMovements.id })
        .from(cashRegisterMovements)
        .where(
          and(
            eq(cashRegisterMovements.clientId, session.clientId),
            eq(cashRegisterMovements.clientMovementId, input.clientMovementId),
          ),
        );
      if (seen) return register;
    }
    if (input.type === 'withdrawal') {
      const { money } = await summarize(tx, sales, register);
      if (input.amountCents > money.expectedCents) {
        throw new AppError(422, CASH_REGISTER_MESSAGES.withdrawalTooHigh(formatCents(money.expectedCents)), [
          {
            path: 'amountCents',
            message: CASH_REGISTER_MESSAGES.withdrawalTooHigh(formatCents(money.expectedCents)),
          },
        ]);
      }
    }
    const [movement] = await tx
      .insert(cashRegisterMovements)
      .values({
        clientId: session.clientId,
        cashRegisterId: register.id,
        userId: session.userId,
        type: input.type,
        paymentMethod: 'money',
        amountCents: input.amountCents,
        reason: input.reason,
        approvedByUserId: approvedBy,
        clientMovementId: input.clientMovementId ?? null,
        ...(madeAt ? { createdAt: madeAt } : {}),
      })
      .returning({ id: cashRegisterMovements.id });
    movementId = movement.id;
    await tx.update(cashRegisters).set({ updatedAt: new Date() }).where(eq(cashRegisters.id, register.id));
    return register;
  });
  // A sangria takes money out: the drawer opens (issue 36), after the commit, not waited for. An
  // offline one was taken when it was made.
  if (input.type === 'withdrawal' && movementId !== null && !madeAt)
    void kickAndLog(ctx, session, summary.id, 'withdrawal', `withdrawal-${movementId}`).catch(
      () => undefined,
    );
  return summary;
}

/**
 * "Abrir gaveta" (ACTION.openDrawer, checked by the route): the drawer of the user's open register,
 * logged on it. 422 without an open register, 409 without an agent to open it.
 */
export async function openDrawerByHand(ctx: AppContext, session: SessionUser, key: string) {
  const register = await findOpenRegister(ctx.db, session);
  if (!register) throw unprocessable(CASH_REGISTER_MESSAGES.notOpen);
  if (!(await kickAndLog(ctx, session, register.id, 'manual', `manual-${key}`))) throw conflict(NO_DRAWER);
  return { opened: true };
}

/** After a sale paid (partly) in cash: the drawer of the register it was made on opens. */
export async function openDrawerForSale(
  ctx: AppContext,
  session: SessionUser,
  registerId: number,
  saleId: number,
) {
  return kickAndLog(ctx, session, registerId, 'sale', `sale-${saleId}`);
}

/**
 * Pays back a returned item's value at the user's open register (issue 30): a `refund` movement of the
 * sale's method, taken from what the register expects. Null when no register is open (the caller
 * decides: cash needs one).
 */
export async function recordRefund(
  tx: Executor,
  session: Pick<SessionUser, 'clientId' | 'userId'>,
  refund: { method: PaymentMethod; amountCents: number; reason: string },
): Promise<number | null> {
  const register = await findOpenRegister(tx, session, 'share');
  if (!register) return null;
  await tx.insert(cashRegisterMovements).values({
    clientId: session.clientId,
    cashRegisterId: register.id,
    userId: session.userId,
    type: 'refund',
    paymentMethod: refund.method,
    amountCents: refund.amountCents,
    reason: refund.reason,
  });
  return register.id;
}

/** Records an installment received at the user's open register (no register open: nothing recorded). */
export async function recordReceipt(
  tx: Executor,
  session: SessionUser,
  receipt: { receivableId: number; method: PaymentMethod; amountCents: number; reason: string },
): Promise<number | null> {
  const register = await findOpenRegister(tx, session, 'share');
  if (!register) return null;
  await tx.insert(cashRegisterMovements).values({
    clientId: session.clientId,
    cashRegisterId: register.id,
    userId: session.userId,
    type: 'receipt',
    paymentMethod: receipt.method,
    amountCents: receipt.amountCents,
    reason: receipt.reason,
    receivableId: receipt.receivableId,
  });
  return register.id;
}

/**
 * Closes the caller's open register: the expected amounts are computed under the register's lock
 * (sales in flight finish first) and stored with the counted ones; methods not sent count as 0.
 */
export async function closeRegister(
  ctx: AppContext,
  sales: RegisterSales,
  session: SessionUser,
  input: CashRegisterCloseInput,
) {
  return changeOpenRegister(ctx, sales, session, async (tx, register) => {
    const summary = await summarize(tx, sales, register);
    const counted = new Map((input.counted ?? []).map((c) => [c.method, c.amountCents]));
    const methods = new Set<PaymentMethod>([
      ...summary.methods.filter((m) => m.countable).map((m) => m.method),
      ...[...counted.keys()].filter((m) => COUNTED_METHODS.includes(m)),
    ]);
    const rows = [...methods].map((method) => ({
      cashRegisterId: register.id,
      clientId: session.clientId,
      paymentMethod: method,
      expectedCents: summary.methods.find((m) => m.method === method)?.expectedCents ?? 0,
      countedCents: counted.get(method) ?? 0,
    }));
    // Deferred methods are listed with what was sold (nothing to count).
    for (const m of summary.methods.filter((x) => !x.countable)) {
      rows.push({
        cashRegisterId: register.id,
        clientId: session.clientId,
        paymentMethod: m.method,
        expectedCents: m.expectedCents,
        countedCents: m.expectedCents,
      });
    }
    if (rows.length > 0) await tx.insert(cashRegisterCounts).values(rows);
    const [closed] = await tx
      .update(cashRegisters)
      .set({
        status: 'closed',
        closedAt: new Date(),
        closingNotes: input.notes ?? null,
        updatedAt: new Date(),
      })
      .where(eq(cashRegisters.id, register.id))
      .returning();
    return closed;
  });
}

/** One register's report: the caller's own, or any of the client's for Administrador/Gerente/Financeiro. */
export async function findRegister(
  db: Db,
  sales: RegisterSales,
  session: SessionUser,
  id: number,
): Promise<CashRegisterSummary> {
  const [row] = await db
    .select()
    .from(cashRegisters)
    .where(and(eq(cashRegisters.id, id), eq(cashRegisters.clientId, session.clientId)));
  if (!row || (row.userId !== session.userId && !canSeeAllRegisters(session))) {
    throw notFound(CASH_REGISTER_MESSAGES.notFound);
  }
  return summarize(db, sales, row);
}

/** Registers of the client, newest first (only the caller's own unless they read reports). */
export async function listRegisters(
  db: Db,
  session: SessionUser,
  query: { page: number; pageSize: number; status?: 'open' | 'closed'; userId?: number },
) {
  const owner = alias(users, 'owner');
  const where = and(
    eq(cashRegisters.clientId, session.clientId),
    canSeeAllRegisters(session)
      ? query.userId
        ? eq(cashRegisters.userId, query.userId)
        : undefined
      : eq(cashRegisters.userId, session.userId),
    query.status ? eq(cashRegisters.status, query.status) : undefined,
  );
  const { limit, offset } = pageWindow(query);
  const rows = await db
    .select({ register: cashRegisters, userName: owner.name })
    .from(cashRegisters)
    .innerJoin(owner, eq(owner.id, cashRegisters.userId))
    .where(where)
    .orderBy(desc(cashRegisters.openedAt), desc(cashRegisters.id))
    .limit(limit)
    .offset(offset);
  const total = await countRows(db, cashRegisters, where);
  return listResult(
    rows.map((r) => toRegister(r.register, r.userName)),
    total,
    query,
  );
}

/**
 * A bill paid in cash at the till (issue 34, the payable module): a withdrawal on the user's open
 * register, in the transaction of the payment, so it shows in the register's movements and close. 422
 * `register_closed` without an open register; the cash the drawer holds caps it like a sangria.
 */
export async function withdrawForPayable(
  tx: Executor,
  sales: RegisterSales,
  session: Pick<SessionUser, 'clientId' | 'userId'>,
  withdrawal: { amountCents: number; reason: string; closedMessage: string },
): Promise<{ registerId: number; movementId: number }> {
  const register = await findOpenRegister(tx, session, 'update');
  if (!register) throw new AppError(422, withdrawal.closedMessage, undefined, 'register_closed');
  const { money } = await summarize(tx, sales, register);
  if (withdrawal.amountCents > money.expectedCents) {
    const message = CASH_REGISTER_MESSAGES.withdrawalTooHigh(formatCents(money.expectedCents));
    throw new AppError(422, message, [{ path: 'amountCents', message }]);
  }
  const [movement] = await tx
    .insert(cashRegisterMovements)
    .values({
      clientId: session.clientId,
      cashRegisterId: register.id,
      userId: session.userId,
      type: 'withdrawal',
      paymentMethod: 'money',
      amountCents: withdrawal.amountCents,
      reason: withdrawal.reason,
    })
    .returning({ id: cashRegisterMovements.id });
  await tx.update(cashRegisters).set({ updatedAt: new Date() }).where(eq(cashRegisters.id, register.id));
  return { registerId: register.id, movementId: movement.id };
}

/**
 * Takes back a payable's withdrawal when its payment is reversed: removed while its register is still
 * open; a closed register's count is final, so the reversal is refused there (422 with `closedMessage`).
 */
export async function undoPayableWithdrawal(
  tx: Executor,
  clientId: number,
  movementId: number,
  closedMessage: string,
): Promise<number> {
  const [row] = await tx
    .select({ registerId: cashRegisters.id, status: cashRegisters.status })
    .from(cashRegisterMovements)
    .innerJoin(cashRegisters, eq(cashRegisters.id, cashRegisterMovements.cashRegisterId))
    .where(and(eq(cashRegisterMovements.id, movementId), eq(cashRegisterMovements.clientId, clientId)))
    .for('update', { of: cashRegisters });
  if (!row) return 0;
  if (row.status !== 'open') throw unprocessable(closedMessage);
  await tx.delete(cashRegisterMovements).where(eq(cashRegisterMovements.id, movementId));
  await tx.update(cashRegisters).set({ updatedAt: new Date() }).where(eq(cashRegisters.id, row.registerId));
  return row.registerId;
}
