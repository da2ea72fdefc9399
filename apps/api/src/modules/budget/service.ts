import {
  BUDGET_MESSAGES,
  type Budget,
  type BudgetData,
  type BudgetItem,
  type BudgetPixPayment,
  type BudgetStatus,
  budgetExpired,
} from '@balcao/core/budget';
import { addDays } from '@balcao/core/date';
import { budgetPixAttemptKey } from '@balcao/core/pixCharge';
import {
  computeSaleTotals,
  type DeliveryAddress,
  type DiscountKind,
  saleTotalsIssues,
} from '@balcao/core/sale';
import { discountsOverLimit, percentText } from '@balcao/core/settings';
import type { UserTypeId } from '@balcao/core/userTypes';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import { AppError, conflict, notFound, unprocessable } from '../../errors.ts';
import type { Actor } from '../../lib/actor.ts';
import { pricedLineOf, pricedLineValues } from '../../lib/lineSnapshot.ts';
import { shopDayStartSql, shopTodaySql } from '../../lib/shopToday.ts';
import { customerRefSql, findCustomerRef, findDeliveryAddress, readRef } from '../customer/refs.ts';
import {
  type PixChargePaidHook,
  pixChargesOfAttempt,
  pixRefundOfUnsold,
  pixRefundsOfAttempt,
} from '../pix/service.ts';
import { type PricedItem, priceItems } from '../product/pricing.ts';
import { findDiscountLimit } from '../settings/discountLimits.ts';
import { findSystemSettings } from '../settings/system.ts';
import { releaseReservation, reserveStock } from '../stock/reservation.ts';
import { findStockSettings } from '../stock/service.ts';
import { budgetItems, budgets } from './schema.ts';

/** The acting user with the type (discount limits). */
type BudgetActor = Actor & { userTypeId: UserTypeId };

type BudgetRow = typeof budgets.$inferSelect;
type ItemRow = typeof budgetItems.$inferSelect;

const fail = (message: string, path: string) => new AppError(422, message, [{ path, message }]);

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

export const holderOf = (id: number) => ({ kind: 'budget' as const, id });

/** The instant a budget valid until `validUntil` (shop date) stops: the next shop day's start. */
const expiryInstantSql = (clientId: number, validUntil: string) => shopDayStartSql(clientId, validUntil, 1);

/** The shop's today (one query). */
async function shopTodayOf(db: Executor, clientId: number): Promise<string> {
  const [row] = rowsOf<{ today: string }>(
    await db.execute(sql`select ${shopTodaySql(clientId)}::text as today`),
  );
  return row.today;
}

// ---------------------------------------------------------------------------------------------------
// Reading

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

type Names = { userName: string; sellerName: string | null; customer: unknown };

const namesSql = {
  userName: sql<string>`(select u.name from users u where u.id = "budgets"."user_id")`,
  sellerName: sql<string | null>`(select u.name from users u where u.id = "budgets"."seller_id")`,
  customer: customerRefSql(sql`"budgets"."customer_id"`),
};

export function toBudget(
  row: BudgetRow,
  names: Names,
  items: ItemRow[],
  today: string,
  currentPrices: Map<number, number | null> = new Map(),
): Budget {
  const status = row.status as BudgetStatus;
  const expired = budgetExpired(status, row.validUntil, today);
  const customer = readRef(names.customer);
  return {
    id: row.id,
    number: row.number,
    status,
    viewStatus: expired ? 'expired' : status,
    expired,
    customer: customer && row.customerId !== null ? { id: row.customerId, ...customer } : null,
    user: { id: row.userId, name: names.userName },
    seller: row.sellerId !== null ? { id: row.sellerId, name: names.sellerName ?? '' } : null,
    typeOfSale: row.typeOfSale as 'store' | 'delivery',
    deliveryAddress: (row.deliveryAddress as DeliveryAddress | null) ?? null,
    items: items.map((i) => toItem(i, currentPrices.get(i.id) ?? null)),
    totalItems: row.totalItems,
    totalQuantity: Number(row.totalQuantity),
    itemsGrossCents: row.itemsGrossCents,
    itemsDiscountCents: row.itemsDiscountCents,
    totalCents: row.totalCents,
    discountType: row.discountType as DiscountKind,
    discountValue: row.discountValue,
    discountCents: row.discountCents,
    freightCents: row.freightCents,
    finalAmountCents: row.finalAmountCents,
    validUntil: row.validUntil,
    notes: row.notes,
    paymentConditions: row.paymentConditions,
    reserveStock: row.reserveStock,
    reservationActive: row.reserveStock && !expired && (status === 'pending' || status === 'sent'),
    sentAt: iso(row.sentAt),
    viewedAt: iso(row.viewedAt),
    answer: (row.answer as Budget['answer']) ?? null,
    answeredAt: iso(row.answeredAt),
    refusalReason: row.refusalReason,
    sale: row.saleId !== null && row.saleNumber !== null ? { id: row.saleId, number: row.saleNumber } : null,
    cancelReason: row.cancelReason,
    canceledAt: iso(row.canceledAt),
    createdAt: iso(row.createdAt) as string,
    updatedAt: iso(row.updatedAt) as string,
  };
}

function toItem(i: ItemRow, currentUnitPriceCents: number | null): BudgetItem {
  return {
    id: i.id,
    ...pricedLineOf(i),
    currentUnitPriceCents,
  };
}

/** The budget's row and names (404 for another client's); `lock` takes it FOR UPDATE. */
export async function findBudgetRow(
  db: Executor,
  clientId: number,
  id: number,
  lock = false,
): Promise<{ row: BudgetRow; names: Names; today: string }> {
  const query = db
    .select({ row: budgets, ...namesSql, today: sql<string>`${shopTodaySql(clientId)}::text` })
    .from(budgets)
    .where(and(eq(budgets.id, id), eq(budgets.clientId, clientId)));
  const [found] = lock ? await query.for('update', { of: budgets }) : await query;
  if (!found) throw notFound(BUDGET_MESSAGES.notFound);
  const { row, today, ...names } = found;
  return { row, names, today };
}

export function findItems(db: Executor, budgetId: number) {
  return db
    .select()
    .from(budgetItems)
    .where(eq(budgetItems.budgetId, budgetId))
    .orderBy(asc(budgetItems.position));
}

/** Today's catalog price of each line (null when its product or variant is gone or inactive). */
async function currentPricesOf(db: Executor, clientId: number, items: ItemRow[]) {
  const prices = new Map<number, number | null>();
  for (const item of items) {
    if (item.productId === null) {
      prices.set(item.id, null);
      continue;
    }
    try {
      const [priced] = await priceItems(db, clientId, [
        {
          productId: item.productId,
          variantId: item.variantId,
          quantity: Number(item.quantity),
          additionals: [],
        },
      ]);
      prices.set(item.id, priced.unitPriceCents);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      prices.set(item.id, null);
    }
  }
  return prices;
}

/** One budget with its lines and today's catalog prices beside them. */
export async function findBudget(db: Executor, actor: Actor, id: number): Promise<Budget> {
  const { row, names, today } = await findBudgetRow(db, actor.clientId, id);
  const items = await findItems(db, id);
  const budget = toBudget(row, names, items, today, await currentPricesOf(db, actor.clientId, items));
  return { ...budget, pixPayment: await budgetPixPayment(db, actor.clientId, id) };
}

/** The Pix QR dinâmico the customer paid on the approval link (issue 33), as the bank confirmed it. */
export async function budgetPixPayment(
  db: Executor,
  clientId: number,
  id: number,
): Promise<BudgetPixPayment | null> {
  const paid = (await pixChargesOfAttempt(db, clientId, budgetPixAttemptKey(id))).find(
    (c) => c.charge.status === 'paid' && c.charge.endToEndId && c.charge.paidAt,
  )?.charge;
  return paid
    ? { amountCents: paid.amountCents, endToEndId: paid.endToEndId ?? '', paidAt: paid.paidAt ?? '' }
    : null;
}

// ---------------------------------------------------------------------------------------------------
// Writing

type Totals = ReturnType<typeof computeSaleTotals>;

/** Lines priced by the catalog (the till never sends a price) and the budget's totals. */
function priceBudget(
  data: Pick<BudgetData, 'items' | 'discountType' | 'discountValue' | 'freightCents' | 'typeOfSale'>,
  priced: PricedItem[],
) {
  const lines = data.items.map((item, i) => ({
    ...priced[i],
    quantity: item.quantity,
    discountType: item.discountType,
    discountValue: item.discountValue,
    notes: item.notes,
  }));
  const input = {
    lines,
    discountType: data.discountType,
    discountValue: data.discountValue,
    freightCents: data.typeOfSale === 'delivery' ? data.freightCents : 0,
  };
  const totals = computeSaleTotals(input);
  return { lines, totals, issues: saleTotalsIssues(input, totals) };
}

/** Core's discount rules (a line's first, then the budget's), then the amount a sale may carry. */
function checkTotals({ totals, issues }: ReturnType<typeof priceBudget>) {
  const [issue] = issues;
  if (issue) throw fail(issue.message, issue.path);
  if (totals.finalAmountCents > 2_147_483_647) throw fail('Valor do orçamento muito alto', 'items');
}

/** A budget's discounts stay within the user's limit (settings discountLimits): 422 on the field. */
async function checkDiscountLimit(db: Executor, actor: BudgetActor, totals: Totals) {
  const limit = await findDiscountLimit(db, actor);
  if (!limit) return;
  const over = discountsOverLimit(totals, limit);
  if (over.lines.length > 0) {
    const message = BUDGET_MESSAGES.discountOverLimit(`${percentText(limit.line)} por item`);
    throw new AppError(422, message, [{ path: `items.${over.lines[0]}.discountValue`, message }]);
  }
  if (over.sale) {
    const message = BUDGET_MESSAGES.discountOverLimit(`${percentText(limit.sale)} no orçamento`);
    throw new AppError(422, message, [{ path: 'discountValue', message }]);
  }
}

async function checkSeller(db: Executor, clientId: number, sellerId: number | null) {
  if (sellerId === null) return;
  const [seller] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, sellerId), eq(users.clientId, clientId), eq(users.active, true)));
  if (!seller) throw fail('Vendedor não encontrado', 'sellerId');
}

/** The validity asked for (not before today), or today + the system's budget validity days. */
async function validUntilOf(db: Executor, actor: Actor, asked: string | null, today: string) {
  if (asked !== null) {
    if (asked < today) throw fail(BUDGET_MESSAGES.validUntilPast, 'validUntil');
    return asked;
  }
  const settings = await findSystemSettings(db, actor);
  return addDays(today, settings.budgetValidityDays);
}

/** Lines as rows of budget_items. */
function itemRows(
  clientId: number,
  budgetId: number,
  lines: ReturnType<typeof priceBudget>['lines'],
  totals: Totals,
): (typeof budgetItems.$inferInsert)[] {
  return lines.map((l, i) => ({
    budgetId,
    clientId,
    position: i,
    ...pricedLineValues(l, totals.lines[i]),
  }));
}

const totalsColumns = (totals: Totals) => ({
  totalItems: totals.totalItems,
  totalQuantity: totals.totalQuantity,
  itemsGrossCents: totals.itemsGrossCents,
  itemsDiscountCents: totals.itemsDiscountCents,
  totalCents: totals.totalCents,
  discountCents: totals.discountCents,
  freightCents: totals.freightCents,
  finalAmountCents: totals.finalAmountCents,
});

/**
 * A new budget (the budget PDV): lines priced by the catalog, discounts within the user's limit,
 * the customer's delivery address copied, the validity, and, when asked and the shop controls
 * stock, the lines' stock reserved until it expires. No register, no stock or money moves.
 */
export async function createBudget(ctx: AppContext, actor: BudgetActor, data: BudgetData): Promise<Budget> {
  const { clientId } = actor;
  const id = await ctx.db.transaction(async (tx) => {
    const today = await shopTodayOf(tx, clientId);
    if (data.customerId !== null && !(await findCustomerRef(tx, clientId, data.customerId)))
      throw fail('Cliente não encontrado', 'customerId');
    await checkSeller(tx, clientId, data.sellerId);
    let deliveryAddress: DeliveryAddress | null = null;
    if (data.typeOfSale === 'delivery' && data.customerId !== null && data.deliveryAddressId !== null) {
      deliveryAddress = await findDeliveryAddress(tx, clientId, data.customerId, data.deliveryAddressId);
      if (!deliveryAddress)
        throw fail('Endereço de entrega não encontrado para este cliente', 'deliveryAddressId');
    }
    const priced = priceBudget(data, await priceItems(tx, clientId, data.items));
    checkTotals(priced);
    const { lines, totals } = priced;
    await checkDiscountLimit(tx, actor, totals);
    const validUntil = await validUntilOf(tx, actor, data.validUntil, today);
    if (data.reserveStock && !(await findStockSettings(tx, actor)).stockManagement)
      throw fail(BUDGET_MESSAGES.reservationOff, 'reserveStock');
    const [{ last }] = rowsOf<{ last: number }>(
      await tx.execute(sql`insert into budget_counters (client_id, last) values (${clientId}, 1)
        on conflict (client_id) do update set last = budget_counters.last + 1 returning last`),
    );
    const [row] = await tx
      .insert(budgets)
      .values({
        clientId,
        number: Number(last),
        userId: actor.userId,
        sellerId: data.sellerId,
        customerId: data.customerId,
        typeOfSale: data.typeOfSale,
        deliveryAddress,
        discountType: data.discountType,
        discountValue: data.discountValue,
        ...totalsColumns(totals),
        validUntil,
        notes: data.notes,
        paymentConditions: data.paymentConditions,
        reserveStock: data.reserveStock,
      })
      .returning({ id: budgets.id });
    await tx.insert(budgetItems).values(itemRows(clientId, row.id, lines, totals));
    if (data.reserveStock) await reserveLines(tx, clientId, row.id, lines, validUntil);
    return row.id;
  });
  ctx.changed(clientId, 'budget', id);
  return findBudget(ctx.db, actor, id);
}

async function reserveLines(
  tx: Executor,
  clientId: number,
  budgetId: number,
  lines: { productId: number | null; variantId: number | null; quantity: number }[],
  validUntil: string,
) {
  await reserveStock(
    tx,
    clientId,
    holderOf(budgetId),
    lines.flatMap((l) =>
      l.productId !== null
        ? [{ productId: l.productId, variantId: l.variantId, quantity: Number(l.quantity) }]
        : [],
    ),
    expiryInstantSql(clientId, validUntil),
  );
}

/** Open = pending or sent, and not past its validity. */
export function assertOpen(row: BudgetRow, today: string) {
  if (row.status === 'finished') throw conflict(BUDGET_MESSAGES.converted);
  if (row.status === 'canceled') throw conflict(BUDGET_MESSAGES.canceled);
  if (budgetExpired(row.status as BudgetStatus, row.validUntil, today))
    throw unprocessable(BUDGET_MESSAGES.expired);
}

/** Cancels an open budget (expired ones too) and releases its stock reservation. */
export async function cancelBudget(ctx: AppContext, actor: Actor, id: number, reason: string | null) {
  const refund = await ctx.db.transaction(async (tx) => {
    const { row } = await findBudgetRow(tx, actor.clientId, id, true);
    if (row.status === 'finished') throw conflict(BUDGET_MESSAGES.converted);
    if (row.status === 'canceled') throw conflict(BUDGET_MESSAGES.canceled);
    await tx
      .update(budgets)
      .set({ status: 'canceled', cancelReason: reason, canceledAt: new Date(), updatedAt: new Date() })
      .where(eq(budgets.id, id));
    await releaseReservation(tx, actor.clientId, holderOf(id));
    // Issue 33: the Pix the customer paid on the link goes back through devolução (once).
    return pixRefundOfUnsold(ctx)(tx, actor.clientId, budgetPixAttemptKey(id));
  });
  refund?.();
  ctx.changed(actor.clientId, 'budget', id);
  return findBudget(ctx.db, actor, id);
}

/**
 * Renews an expired budget: a new validity (default today + the system's days), the lines priced
 * again by today's catalog (their quantities and discounts kept), back to pending with no answer,
 * and its reservation taken again when it had one (409 when the stock is gone).
 */
export async function renewBudget(ctx: AppContext, actor: BudgetActor, id: number, asked: string | null) {
  const { clientId } = actor;
  await ctx.db.transaction(async (tx) => {
    const { row, today } = await findBudgetRow(tx, clientId, id, true);
    if (row.status === 'finished') throw conflict(BUDGET_MESSAGES.converted);
    if (row.status === 'canceled') throw conflict(BUDGET_MESSAGES.canceled);
    if (!budgetExpired(row.status as BudgetStatus, row.validUntil, today))
      throw unprocessable(BUDGET_MESSAGES.notExpired);
    const items = await findItems(tx, id);
    const data = budgetDataOf(row, items);
    const priced = priceBudget(data, await priceItems(tx, clientId, data.items));
    checkTotals(priced);
    const { lines, totals } = priced;
    const validUntil = await validUntilOf(tx, actor, asked, today);
    await tx.delete(budgetItems).where(eq(budgetItems.budgetId, id));
    await tx.insert(budgetItems).values(itemRows(clientId, id, lines, totals));
    await tx
      .update(budgets)
      .set({
        ...totalsColumns(totals),
        validUntil,
        status: 'pending',
        answer: null,
        answeredAt: null,
        refusalReason: null,
        updatedAt: new Date(),
      })
      .where(eq(budgets.id, id));
    await releaseReservation(tx, clientId, holderOf(id));
    if (row.reserveStock) await reserveLines(tx, clientId, id, lines, validUntil);
  });
  ctx.changed(clientId, 'budget', id);
  return findBudget(ctx.db, actor, id);
}

/** A stored budget as the input that would create it again (duplicate, renewal). */
function budgetDataOf(row: BudgetRow, items: ItemRow[]): BudgetData {
  const address = row.deliveryAddress as DeliveryAddress | null;
  return {
    items: items
      .filter((i) => i.productId !== null)
      .map((i) => ({
        productId: i.productId as number,
        variantId: i.variantId,
        quantity: Number(i.quantity),
        additionals: (i.additionals as { id: number; quantity: number }[]).map((a) => ({
          id: a.id,
          quantity: a.quantity,
        })),
        discountType: i.discountType as DiscountKind,
        discountValue: i.discountValue,
        notes: i.notes,
      })),
    customerId: row.customerId,
    sellerId: row.sellerId,
    typeOfSale: row.typeOfSale as 'store' | 'delivery',
    deliveryAddressId: address?.id ?? null,
    freightCents: row.freightCents,
    discountType: row.discountType as DiscountKind,
    discountValue: row.discountValue,
    validUntil: null,
    notes: row.notes,
    paymentConditions: row.paymentConditions,
    reserveStock: false,
  };
}

/** A new pending budget with the same customer, lines and texts at today's prices (no reservation). */
export async function duplicateBudget(ctx: AppContext, actor: BudgetActor, id: number) {
  const { row } = await findBudgetRow(ctx.db, actor.clientId, id);
  const items = await findItems(ctx.db, id);
  const data = budgetDataOf(row, items);
  if (data.items.length === 0) throw unprocessable('Os produtos deste orçamento não existem mais');
  return createBudget(ctx, actor, data);
}

/** The refunds of the Pix paid on a budget's link (issue 33): a canceled budget's, with the bank's status. */
export async function budgetPixRefunds(db: Executor, actor: Actor, id: number) {
  await findBudgetRow(db, actor.clientId, id);
  return pixRefundsOfAttempt(db, actor.clientId, budgetPixAttemptKey(id));
}

/**
 * A budget's link Pix confirmed by the bank (pix's hook, issue 33): kept for the budget's sale while
 * the budget may still become one; once canceled or converted, a Pix that still arrives (a QR left
 * open) is not the budget's: it goes to the reconciliation list.
 */
export const budgetPixPaid: PixChargePaidHook = async (tx, charge) => {
  const prefix = budgetPixAttemptKey(0).slice(0, -1);
  if (!charge.attemptKey.startsWith(prefix)) return null;
  const id = Number(charge.attemptKey.slice(prefix.length).split(':')[0]);
  const [row] = await tx
    .select({ status: budgets.status })
    .from(budgets)
    .where(and(eq(budgets.clientId, charge.clientId), eq(budgets.id, id)))
    .for('update');
  if (!row || row.status === 'canceled' || row.status === 'finished') return { reason: 'removed' };
  return { saleId: null };
};
