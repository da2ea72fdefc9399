import type { ListQuery } from '@balcao/core/list';
import { formatCents } from '@balcao/core/money';
import {
  addMonths,
  DEFAULT_PAYABLE_CATEGORIES,
  type DreGroup,
  dueDateFollowing,
  type EditScope,
  membersReached,
  monthOf,
  PAYABLE_MESSAGES,
  type Payable,
  type PayableAttachment,
  type PayableCategoryInput,
  type PayableCategoryItem,
  type PayableCategoryUpdate,
  type PayableInput,
  type PayableList,
  type PayableListQuery,
  type PayablePayment,
  type PayableUpdate,
  type PayInput,
  type PayMethod,
  type PaySource,
  payableStatusOf,
  paymentTotal,
  type SeriesKind,
  type Supplier,
  type SupplierInput,
  splitInstallments,
} from '@balcao/core/payable';
import type { Deleted } from '@balcao/core/responses';
import { and, asc, eq, gte, inArray, lt, lte, type SQL, sql } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import { AppError, notFound, unprocessable } from '../../errors.ts';
import type { Actor } from '../../lib/actor.ts';
import { listResult, orderByOf, pageWindow, searchAny } from '../../lib/list.ts';
import { isSameVersion, mapUnique, num } from '../../lib/pg.ts';
import { shopTodaySql } from '../../lib/shopToday.ts';
import { assertNotStale } from '../../lib/version.ts';
import type { RegisterSales } from '../cash-register/service.ts';
import { undoPayableWithdrawal, withdrawForPayable } from '../cash-register/service.ts';
import type { Storage } from '../storage/storage.ts';
import { assertPayingAccount } from './bankAccounts.ts';
import {
  bankAccounts,
  payableAttachments,
  payableCategories,
  payablePayments,
  payableSeries,
  payables,
  suppliers,
} from './schema.ts';

const M = PAYABLE_MESSAGES;

// ---------------------------------------------------------------------------------------------------
// Categories

type CategoryRow = typeof payableCategories.$inferSelect;
const toCategoryItem = (r: CategoryRow): PayableCategoryItem => ({
  id: r.id,
  name: r.name,
  group: r.dreGroup as DreGroup,
  archived: r.archivedAt !== null,
});

/**
 * The shop's categories, archived ones too (flagged: the pickers offer only the active ones); a shop
 * without any gets the defaults first (one statement when it has some).
 */
export async function listCategories(db: Executor, actor: Actor): Promise<PayableCategoryItem[]> {
  const read = () =>
    db
      .select()
      .from(payableCategories)
      .where(eq(payableCategories.clientId, actor.clientId))
      .orderBy(asc(payableCategories.dreGroup), asc(payableCategories.name));
  let rows = await read();
  if (rows.length === 0) {
    await db
      .insert(payableCategories)
      .values(
        DEFAULT_PAYABLE_CATEGORIES.map((c) => ({
          clientId: actor.clientId,
          name: c.name,
          dreGroup: c.group,
        })),
      )
      .onConflictDoNothing();
    rows = await read();
  }
  return rows.map(toCategoryItem);
}

const CATEGORY_UNIQUE = { payable_categories_client_name_uq: M.categoryTaken };

export async function createCategory(
  db: Executor,
  actor: Actor,
  input: PayableCategoryInput,
): Promise<PayableCategoryItem> {
  // The defaults first: a shop's first category never makes it skip them.
  await listCategories(db, actor);
  const [row] = await mapUnique(
    () =>
      db
        .insert(payableCategories)
        .values({ clientId: actor.clientId, name: input.name, dreGroup: input.group })
        .returning(),
    CATEGORY_UNIQUE,
  );
  return toCategoryItem(row);
}

/**
 * Renames a category, moves it to another DRE group (its bills' months read the new group) or archives
 * it (not offered for new bills; its bills keep it), or brings it back.
 */
export async function updateCategory(
  db: Executor,
  actor: Actor,
  id: number,
  input: PayableCategoryUpdate,
): Promise<PayableCategoryItem> {
  const [current] = await db
    .select()
    .from(payableCategories)
    .where(and(eq(payableCategories.id, id), eq(payableCategories.clientId, actor.clientId)));
  if (!current) throw notFound(M.categoryNotFound);
  const archivedAt = input.archived ? (current.archivedAt ?? new Date()) : null;
  const [row] = await mapUnique(
    () =>
      db
        .update(payableCategories)
        .set({ name: input.name, dreGroup: input.group, archivedAt })
        .where(and(eq(payableCategories.id, id), eq(payableCategories.clientId, actor.clientId)))
        .returning(),
    CATEGORY_UNIQUE,
  );
  return toCategoryItem(row);
}

// ---------------------------------------------------------------------------------------------------
// Payables

type PayableRow = typeof payables.$inferSelect;

const payableColumns = {
  row: payables,
  supplierName: suppliers.name,
  categoryName: payableCategories.name,
  categoryGroup: payableCategories.dreGroup,
  seriesKind: payableSeries.kind,
  seriesCount: payableSeries.count,
  overdue: sql<boolean>`(${payables.paidCents} < ${payables.amountCents} and ${payables.dueDate} < ${shopTodaySql(sql`${payables.clientId}`)})`,
  /** Where its live payments left from, by name: "Caixa", the bank accounts, "Conta bancária" (not named). */
  paidFrom: sql<string | null>`(select string_agg(distinct case when pp.source = 'register' then 'Caixa'
      else coalesce(ba.name, 'Conta bancária') end, ', ')
    from ${payablePayments} pp left join ${bankAccounts} ba on ba.id = pp.bank_account_id
    where pp.payable_id = ${payables.id} and pp.reversed_at is null)`,
};

function selectPayables(db: Executor) {
  return db
    .select(payableColumns)
    .from(payables)
    .innerJoin(payableCategories, eq(payableCategories.id, payables.categoryId))
    .leftJoin(suppliers, eq(suppliers.id, payables.supplierId))
    .leftJoin(payableSeries, eq(payableSeries.id, payables.seriesId));
}

type SelectedPayable = {
  row: PayableRow;
  supplierName: string | null;
  categoryName: string;
  categoryGroup: string;
  seriesKind: string | null;
  seriesCount: number | null;
  overdue: boolean;
  paidFrom: string | null;
};

/** The payments and attachments of some payables, by payable (two statements, none without ids). */
async function detailsOf(db: Executor, ids: number[]): Promise<Details> {
  const [payments, attachments] = await Promise.all([paymentsOf(db, ids), attachmentsOf(db, ids)]);
  return { payments, attachments };
}

type Details = { payments: Map<number, PayablePayment[]>; attachments: Map<number, PayableAttachment[]> };

const detailOf = (details: Details, id: number) =>
  [details.payments.get(id) ?? [], details.attachments.get(id) ?? []] as const;

function toAttachment(a: typeof payableAttachments.$inferSelect): PayableAttachment {
  return {
    id: a.id,
    name: a.fileName,
    contentType: a.contentType,
    sizeBytes: a.sizeBytes,
    createdAt: a.createdAt.toISOString(),
  };
}

async function attachmentsOf(db: Executor, ids: number[]): Promise<Map<number, PayableAttachment[]>> {
  const byPayable = new Map<number, PayableAttachment[]>();
  if (ids.length === 0) return byPayable;
  const rows = await db
    .select()
    .from(payableAttachments)
    .where(inArray(payableAttachments.payableId, ids))
    .orderBy(asc(payableAttachments.id));
  for (const a of rows) byPayable.set(a.payableId, [...(byPayable.get(a.payableId) ?? []), toAttachment(a)]);
  return byPayable;
}

async function paymentsOf(db: Executor, ids: number[]): Promise<Map<number, PayablePayment[]>> {
  const byPayable = new Map<number, PayablePayment[]>();
  if (ids.length === 0) return byPayable;
  const rows = await db
    .select({ p: payablePayments, userName: users.name, accountName: bankAccounts.name })
    .from(payablePayments)
    .innerJoin(users, eq(users.id, payablePayments.userId))
    .leftJoin(bankAccounts, eq(bankAccounts.id, payablePayments.bankAccountId))
    .where(inArray(payablePayments.payableId, ids))
    .orderBy(asc(payablePayments.id));
  for (const { p, userName, accountName } of rows) {
    const list = byPayable.get(p.payableId) ?? [];
    list.push({
      id: p.id,
      paidOn: p.paidOn,
      amountCents: p.amountCents,
      discountCents: p.discountCents,
      interestCents: p.interestCents,
      fineCents: p.fineCents,
      totalCents: paymentTotal(p),
      method: p.method as PayMethod,
      source: p.source as PaySource,
      cashRegisterId: p.cashRegisterId,
      bankAccount:
        p.bankAccountId !== null && accountName !== null ? { id: p.bankAccountId, name: accountName } : null,
      reversedAt: p.reversedAt ? p.reversedAt.toISOString() : null,
      user: { id: p.userId, name: userName },
      createdAt: p.createdAt.toISOString(),
    });
    byPayable.set(p.payableId, list);
  }
  return byPayable;
}

function toPayable(
  s: SelectedPayable,
  payments: PayablePayment[],
  attachments: readonly PayableAttachment[],
): Payable {
  const r = s.row;
  return {
    id: r.id,
    supplier: r.supplierId && s.supplierName !== null ? { id: r.supplierId, name: s.supplierName } : null,
    category: { id: r.categoryId, name: s.categoryName, group: s.categoryGroup as DreGroup },
    description: r.description,
    amountCents: r.amountCents,
    paidCents: r.paidCents,
    openCents: Math.max(0, r.amountCents - r.paidCents),
    dueDate: r.dueDate,
    competenceMonth: r.competenceMonth.slice(0, 7),
    documentNumber: r.documentNumber,
    notes: r.notes,
    boletoLine: r.boletoLine,
    attachments: [...attachments],
    status: payableStatusOf(r.amountCents, r.paidCents),
    overdue: Boolean(s.overdue),
    lastPaidOn: r.lastPaidOn,
    paidFrom: s.paidFrom,
    series:
      r.seriesId && s.seriesKind && s.seriesCount
        ? {
            id: r.seriesId,
            kind: s.seriesKind as SeriesKind,
            index: r.seriesIndex ?? 1,
            count: s.seriesCount,
          }
        : null,
    payments,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

export async function findPayable(db: Executor, actor: Actor, id: number): Promise<Payable> {
  const [selected] = await selectPayables(db).where(
    and(eq(payables.id, id), eq(payables.clientId, actor.clientId)),
  );
  if (!selected) throw notFound(M.payableNotFound);
  return toPayable(selected, ...detailOf(await detailsOf(db, [id]), id));
}

/** The category and the supplier are the shop's (404 each otherwise). */
export async function assertPayableRefs(
  db: Executor,
  actor: Actor,
  input: { categoryId: number; supplierId: number | null },
  /** The bill's category before an edit: it may stay on it after it was archived. */
  keptCategoryId?: number,
) {
  const [category] = await db
    .select({ id: payableCategories.id, archivedAt: payableCategories.archivedAt })
    .from(payableCategories)
    .where(and(eq(payableCategories.id, input.categoryId), eq(payableCategories.clientId, actor.clientId)));
  if (!category)
    throw new AppError(404, M.categoryNotFound, [{ path: 'categoryId', message: M.categoryNotFound }]);
  if (category.archivedAt && category.id !== keptCategoryId)
    throw unprocessable(M.categoryArchived, [{ path: 'categoryId', message: M.categoryArchived }]);
  if (input.supplierId) {
    const [supplier] = await db
      .select({ id: suppliers.id })
      .from(suppliers)
      .where(and(eq(suppliers.id, input.supplierId), eq(suppliers.clientId, actor.clientId)));
    if (!supplier)
      throw new AppError(404, M.supplierNotFound, [{ path: 'supplierId', message: M.supplierNotFound }]);
  }
}

function monthStart(month: string): string {
  return `${month}-01`;
}

/** One payable, N instalments of a purchase, or a monthly recurrence: one transaction. */
export async function createPayables(
  db: Db,
  actor: Actor,
  input: PayableInput,
): Promise<{ items: Payable[] }> {
  const ids = await db.transaction((tx) => insertPayables(tx, actor, input));
  const items = await listByIds(db, actor, ids);
  return { items };
}

/** The rows of `createPayables` inside the caller's transaction (a purchase's entry shares it); their ids. */
export async function insertPayables(tx: Executor, actor: Actor, input: PayableInput): Promise<number[]> {
  await assertPayableRefs(tx, actor, input);
  const kind: SeriesKind | null =
    input.installments > 1 ? 'installments' : input.recurrence === 'monthly' ? 'recurrence' : null;
  const count = kind === 'installments' ? input.installments : kind === 'recurrence' ? input.occurrences : 1;
  const amounts =
    kind === 'installments'
      ? splitInstallments(input.amountCents, count)
      : Array(count).fill(input.amountCents);
  const competence = input.competenceMonth ?? monthOf(input.dueDate);
  let seriesId: number | null = null;
  if (kind) {
    const [series] = await tx
      .insert(payableSeries)
      .values({ clientId: actor.clientId, kind, count })
      .returning({ id: payableSeries.id });
    seriesId = series.id;
  }
  const rows = amounts.map((amountCents: number, i: number) => ({
    clientId: actor.clientId,
    supplierId: input.supplierId,
    categoryId: input.categoryId,
    description: input.description,
    amountCents,
    dueDate: addMonths(input.dueDate, i),
    competenceMonth: monthStart(kind === 'recurrence' ? monthOf(`${competence}-01`, i) : competence),
    documentNumber: input.documentNumber,
    notes: input.notes,
    boletoLine: i === 0 ? input.boletoLine : null,
    seriesId,
    seriesIndex: kind ? i + 1 : null,
  }));
  const inserted = await tx.insert(payables).values(rows).returning({ id: payables.id });
  return inserted.map((r) => r.id);
}

export async function listByIds(db: Executor, actor: Actor, ids: number[]): Promise<Payable[]> {
  if (ids.length === 0) return [];
  const rows = await selectPayables(db)
    .where(and(eq(payables.clientId, actor.clientId), inArray(payables.id, ids)))
    .orderBy(asc(payables.dueDate), asc(payables.id));
  const details = await detailsOf(db, ids);
  return rows.map((r) => toPayable(r, ...detailOf(details, r.row.id)));
}

async function lockPayable(tx: Executor, actor: Actor, id: number): Promise<PayableRow> {
  const [row] = await tx
    .select()
    .from(payables)
    .where(and(eq(payables.id, id), eq(payables.clientId, actor.clientId)))
    .for('update');
  if (!row) throw notFound(M.payableNotFound);
  return row;
}

function monthsBetween(from: string, to: string): number {
  const [fy, fm] = from.split('-').map(Number);
  const [ty, tm] = to.split('-').map(Number);
  return ty * 12 + tm - (fy * 12 + fm);
}

/**
 * Edits a payable and, by `scope`, the following or all members of its series that have no payment:
 * the shared fields, the due day (each keeps its own month) and the competence moved by the same months.
 * The boleto line is the edited one's alone.
 */
export async function updatePayable(
  db: Db,
  actor: Actor,
  id: number,
  input: PayableUpdate,
): Promise<Payable> {
  await db.transaction(async (tx) => {
    const row = await lockPayable(tx, actor, id);
    if (row.paidCents >= row.amountCents) throw unprocessable(M.paidLocked);
    await assertPayableRefs(tx, actor, input, row.categoryId);
    const competence = input.competenceMonth ?? monthOf(input.dueDate);
    const updated = await tx
      .update(payables)
      .set({
        supplierId: input.supplierId,
        categoryId: input.categoryId,
        description: input.description,
        amountCents: input.amountCents,
        dueDate: input.dueDate,
        competenceMonth: monthStart(competence),
        documentNumber: input.documentNumber,
        notes: input.notes,
        boletoLine: input.boletoLine,
        updatedAt: new Date(),
      })
      .where(and(eq(payables.id, id), isSameVersion(payables.updatedAt, input.updatedAt)))
      .returning({ id: payables.id });
    assertNotStale(updated);
    if (input.scope === 'this' || !row.seriesId) return;
    const members = await tx
      .select()
      .from(payables)
      .where(and(eq(payables.seriesId, row.seriesId), eq(payables.clientId, actor.clientId)))
      .orderBy(asc(payables.seriesIndex))
      .for('update');
    const reached = membersReached(
      members.map((m) => ({
        id: m.id,
        index: m.seriesIndex ?? 0,
        dueDate: m.dueDate,
        paid: m.paidCents > 0,
      })),
      { id: row.id, index: row.seriesIndex ?? 0, dueDate: row.dueDate, paid: false },
      input.scope,
    ).filter((m) => m.id !== id);
    const dueMoved = input.dueDate !== row.dueDate;
    const competenceShift = monthsBetween(row.competenceMonth.slice(0, 7), competence);
    for (const member of reached) {
      const current = members.find((m) => m.id === member.id);
      if (!current) continue;
      await tx
        .update(payables)
        .set({
          supplierId: input.supplierId,
          categoryId: input.categoryId,
          description: input.description,
          amountCents: input.amountCents,
          documentNumber: input.documentNumber,
          notes: input.notes,
          dueDate: dueMoved ? dueDateFollowing(current.dueDate, input.dueDate) : current.dueDate,
          competenceMonth: monthStart(monthOf(current.competenceMonth, competenceShift)),
          updatedAt: new Date(),
        })
        .where(eq(payables.id, member.id));
    }
  });
  return findPayable(db, actor, id);
}

/** Deletes an unpaid payable and, by `scope`, the following or all unpaid members of its series. */
export async function deletePayable(
  db: Db,
  actor: Actor,
  id: number,
  scope: EditScope,
  storage?: Storage,
): Promise<Deleted> {
  const files = await db.transaction(async (tx) => {
    const row = await lockPayable(tx, actor, id);
    if (row.paidCents > 0) throw unprocessable(M.paidLocked);
    let ids = [id];
    if (scope !== 'this' && row.seriesId) {
      const members = await tx
        .select()
        .from(payables)
        .where(and(eq(payables.seriesId, row.seriesId), eq(payables.clientId, actor.clientId)))
        .for('update');
      ids = membersReached(
        members.map((m) => ({
          id: m.id,
          index: m.seriesIndex ?? 0,
          dueDate: m.dueDate,
          paid: m.paidCents > 0,
        })),
        { id, index: row.seriesIndex ?? 0, dueDate: row.dueDate, paid: false },
        scope,
      ).map((m) => m.id);
    }
    const kept = await tx
      .select({ key: payableAttachments.storageKey })
      .from(payableAttachments)
      .where(inArray(payableAttachments.payableId, ids));
    // Reversed payments and the attachments' rows of a deleted payable go with it.
    await tx.delete(payables).where(and(eq(payables.clientId, actor.clientId), inArray(payables.id, ids)));
    return kept.map((k) => k.key);
  });
  // The files after the commit (a failed delete keeps them with their rows).
  if (storage) await Promise.all(files.map((key) => storage.remove(key).catch(() => undefined)));
  return { id };
}

/** The payable's paid sum and last payment date, from its live payments (in the payment's transaction). */
async function refreshPaid(tx: Executor, id: number) {
  await tx.execute(sql`update ${payables} set
      paid_cents = coalesce((select sum(${payablePayments.amountCents}) from ${payablePayments}
        where ${payablePayments.payableId} = ${id} and ${payablePayments.reversedAt} is null), 0),
      last_paid_on = (select max(${payablePayments.paidOn}) from ${payablePayments}
        where ${payablePayments.payableId} = ${id} and ${payablePayments.reversedAt} is null),
      updated_at = now()
    where ${payables.id} = ${id}`);
}

/**
 * Pays a payable in full or in part. From the register: a withdrawal of what left the drawer on the
 * user's open register, in the same transaction. A retry with the same Idempotency-Key pays once.
 */
export async function payPayable(
  db: Db,
  sales: RegisterSales,
  actor: Actor,
  id: number,
  input: PayInput,
  idempotencyKey?: string,
): Promise<{ payable: Payable; registerId: number | null }> {
  const registerId = await db.transaction(async (tx) => {
    const row = await lockPayable(tx, actor, id);
    if (idempotencyKey) {
      const [seen] = await tx
        .select({ id: payablePayments.id, registerId: payablePayments.cashRegisterId })
        .from(payablePayments)
        .where(
          and(
            eq(payablePayments.clientId, actor.clientId),
            eq(payablePayments.idempotencyKey, idempotencyKey),
          ),
        );
      if (seen) return seen.registerId;
    }
    const open = row.amountCents - row.paidCents;
    if (open <= 0) throw unprocessable(M.alreadyPaid);
    if (input.amountCents > open) {
      const message = M.payMoreThanOpen(formatCents(open));
      throw unprocessable(message, [{ path: 'amountCents', message }]);
    }
    if (input.bankAccountId !== null) await assertPayingAccount(tx, actor, input.bankAccountId);
    const total = paymentTotal(input);
    let register: { registerId: number; movementId: number } | null = null;
    if (input.source === 'register' && total > 0) {
      register = await withdrawForPayable(tx, sales, actor, {
        amountCents: total,
        reason: `Conta a pagar: ${row.description}`.slice(0, 200),
        closedMessage: M.registerClosed,
      });
    }
    await tx.insert(payablePayments).values({
      clientId: actor.clientId,
      payableId: id,
      userId: actor.userId,
      paidOn: input.paidOn,
      amountCents: input.amountCents,
      discountCents: input.discountCents,
      interestCents: input.interestCents,
      fineCents: input.fineCents,
      method: input.method,
      source: input.source,
      cashRegisterId: register?.registerId ?? null,
      bankAccountId: input.bankAccountId,
      movementId: register?.movementId ?? null,
      idempotencyKey: idempotencyKey ?? null,
    });
    await refreshPaid(tx, id);
    return register?.registerId ?? null;
  });
  return { payable: await findPayable(db, actor, id), registerId };
}

/** Reverses a payment: it stops counting; a register withdrawal is taken back while that register is open. */
export async function reversePayment(
  db: Db,
  actor: Actor,
  id: number,
  paymentId: number,
): Promise<{ payable: Payable; registerId: number | null }> {
  const registerId = await db.transaction(async (tx) => {
    await lockPayable(tx, actor, id);
    const [payment] = await tx
      .select()
      .from(payablePayments)
      .where(
        and(
          eq(payablePayments.id, paymentId),
          eq(payablePayments.payableId, id),
          eq(payablePayments.clientId, actor.clientId),
        ),
      );
    if (!payment) throw notFound(M.paymentNotFound);
    if (payment.reversedAt) throw unprocessable(M.alreadyReversed);
    const registerId = payment.movementId
      ? await undoPayableWithdrawal(tx, actor.clientId, payment.movementId, M.registerClosedReverse)
      : null;
    await tx.update(payablePayments).set({ reversedAt: new Date() }).where(eq(payablePayments.id, paymentId));
    await refreshPaid(tx, id);
    return registerId;
  });
  return { payable: await findPayable(db, actor, id), registerId };
}

// ---------------------------------------------------------------------------------------------------
// The list, its totals and its CSV

/**
 * "Period by paid date": a bill with ANY payment (not reversed) dated in the period, so a bill paid in
 * parts shows in every period one of its parts was paid in, not only the last one's (docs/decisions.md).
 */
function paidInPeriod(from: string | undefined, to: string | undefined): SQL | undefined {
  if (!from && !to) return undefined;
  return sql`exists (select 1 from ${payablePayments} where ${and(
    eq(payablePayments.payableId, payables.id),
    sql`${payablePayments.reversedAt} is null`,
    from ? gte(payablePayments.paidOn, from) : undefined,
    to ? lte(payablePayments.paidOn, to) : undefined,
  )})`;
}

function listWhere(actor: Actor, query: PayableListQuery): SQL | undefined {
  const today = shopTodaySql(actor.clientId);
  const notPaid = sql`${payables.paidCents} < ${payables.amountCents}`;
  return and(
    eq(payables.clientId, actor.clientId),
    query.status === 'open' ? notPaid : undefined,
    query.status === 'overdue' ? and(notPaid, lt(payables.dueDate, today)) : undefined,
    query.status === 'paid' ? sql`${payables.paidCents} >= ${payables.amountCents}` : undefined,
    query.dateField === 'paid' ? paidInPeriod(query.from, query.to) : undefined,
    query.dateField !== 'paid' && query.from ? gte(payables.dueDate, query.from) : undefined,
    query.dateField !== 'paid' && query.to ? lte(payables.dueDate, query.to) : undefined,
    query.supplierId ? eq(payables.supplierId, query.supplierId) : undefined,
    query.categoryId ? eq(payables.categoryId, query.categoryId) : undefined,
    searchAny(query.q, [payables.description, payables.documentNumber, suppliers.name]),
  );
}

const SORTS = {
  dueDate: payables.dueDate,
  amountCents: payables.amountCents,
  description: payables.description,
  lastPaidOn: payables.lastPaidOn,
};

export async function listPayables(
  db: Executor,
  actor: Actor,
  query: PayableListQuery,
): Promise<PayableList> {
  const where = listWhere(actor, query);
  const order = orderByOf(query.sort, SORTS, { field: 'dueDate', direction: 'asc' }, payables.id);
  const { limit, offset } = pageWindow(query);
  const rows = await selectPayables(db)
    .where(where)
    .orderBy(...order)
    .limit(limit)
    .offset(offset);
  const [totals] = await db
    .select({
      total: sql<number>`count(*)::int`,
      amountCents: sql<number>`coalesce(sum(${payables.amountCents}), 0)::bigint`,
      paidCents: sql<number>`coalesce(sum(${payables.paidCents}), 0)::bigint`,
      overdueCents: sql<number>`coalesce(sum(${payables.amountCents} - ${payables.paidCents}) filter (where ${payables.paidCents} < ${payables.amountCents} and ${payables.dueDate} < ${shopTodaySql(actor.clientId)}), 0)::bigint`,
    })
    .from(payables)
    .leftJoin(suppliers, eq(suppliers.id, payables.supplierId))
    .where(where);
  const details = await detailsOf(
    db,
    rows.map((r) => r.row.id),
  );
  const amount = num(totals.amountCents);
  const paid = num(totals.paidCents);
  return {
    ...listResult(
      rows.map((r) => toPayable(r, ...detailOf(details, r.row.id))),
      totals.total,
      query,
    ),
    totals: {
      amountCents: amount,
      paidCents: paid,
      openCents: amount - paid,
      overdueCents: num(totals.overdueCents),
    },
  };
}

/** Every payable the filters match, 500 rows a query (keyset on the sort's due date and id). */
export async function* eachPayable(
  db: Executor,
  actor: Actor,
  query: PayableListQuery,
): AsyncGenerator<Payable> {
  // The list's sort is checked (the same 400); the file is always by due date.
  orderByOf(query.sort, SORTS, { field: 'dueDate', direction: 'asc' }, payables.id);
  const where = listWhere(actor, query);
  let after: { dueDate: string; id: number } | null = null;
  for (;;) {
    const cursor: SQL | undefined = after
      ? sql`(${payables.dueDate}, ${payables.id}) > (${after.dueDate}, ${after.id})`
      : undefined;
    const rows: SelectedPayable[] = await selectPayables(db)
      .where(and(where, cursor))
      .orderBy(asc(payables.dueDate), asc(payables.id))
      .limit(500);
    for (const r of rows) yield toPayable(r, [], []);
    if (rows.length < 500) return;
    const last: PayableRow = rows[rows.length - 1].row;
    after = { dueDate: last.dueDate, id: last.id };
  }
}

// ---------------------------------------------------------------------------------------------------
// Suppliers

type SupplierRow = typeof suppliers.$inferSelect;
function toSupplier(r: SupplierRow): Supplier {
  return {
    id: r.id,
    name: r.name,
    document: r.document,
    contactName: r.contactName,
    phone: r.phone,
    email: r.email,
    pixKey: r.pixKey,
    notes: r.notes,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

const SUPPLIER_UNIQUE = { suppliers_client_document_uq: M.documentTaken };

function supplierColumns(input: SupplierInput) {
  return {
    name: input.name,
    document: input.document,
    contactName: input.contactName,
    phone: input.phone,
    email: input.email,
    pixKey: input.pixKey,
    notes: input.notes,
  };
}

export async function listSuppliers(db: Executor, actor: Actor, query: ListQuery) {
  const where = and(
    eq(suppliers.clientId, actor.clientId),
    searchAny(query.q, [suppliers.name, suppliers.document]),
  );
  const { limit, offset } = pageWindow(query);
  const order = orderByOf(
    query.sort,
    { name: suppliers.name, createdAt: suppliers.createdAt },
    { field: 'name', direction: 'asc' },
    suppliers.id,
  );
  const [rows, [{ total }]] = [
    await db
      .select()
      .from(suppliers)
      .where(where)
      .orderBy(...order)
      .limit(limit)
      .offset(offset),
    await db.select({ total: sql<number>`count(*)::int` }).from(suppliers).where(where),
  ];
  return listResult(rows.map(toSupplier), total, query);
}

async function supplierRow(db: Executor, actor: Actor, id: number): Promise<SupplierRow> {
  const [row] = await db
    .select()
    .from(suppliers)
    .where(and(eq(suppliers.id, id), eq(suppliers.clientId, actor.clientId)));
  if (!row) throw notFound(M.supplierNotFound);
  return row;
}

export async function findSupplier(db: Executor, actor: Actor, id: number): Promise<Supplier> {
  return toSupplier(await supplierRow(db, actor, id));
}

export async function createSupplier(db: Executor, actor: Actor, input: SupplierInput): Promise<Supplier> {
  const [row] = await mapUnique(
    () =>
      db
        .insert(suppliers)
        .values({ ...supplierColumns(input), clientId: actor.clientId })
        .returning(),
    SUPPLIER_UNIQUE,
  );
  return toSupplier(row);
}

export async function updateSupplier(
  db: Executor,
  actor: Actor,
  id: number,
  input: SupplierInput,
): Promise<Supplier> {
  await supplierRow(db, actor, id);
  const updated = await mapUnique(
    () =>
      db
        .update(suppliers)
        .set({ ...supplierColumns(input), updatedAt: new Date() })
        .where(
          and(
            eq(suppliers.id, id),
            input.updatedAt ? isSameVersion(suppliers.updatedAt, input.updatedAt) : undefined,
          ),
        )
        .returning(),
    SUPPLIER_UNIQUE,
  );
  assertNotStale(updated);
  return toSupplier(updated[0]);
}

export async function deleteSupplier(db: Db, actor: Actor, id: number): Promise<Deleted> {
  await supplierRow(db, actor, id);
  const [used] = await db
    .select({ id: payables.id })
    .from(payables)
    .where(eq(payables.supplierId, id))
    .limit(1);
  if (used) throw unprocessable(M.supplierInUse);
  await db.delete(suppliers).where(and(eq(suppliers.id, id), eq(suppliers.clientId, actor.clientId)));
  return { id };
}
