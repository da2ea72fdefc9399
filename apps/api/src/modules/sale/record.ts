import { CASH_REGISTER_MESSAGES } from '@balcao/core/cashRegister';
import {
  type Approval,
  checkPayments,
  computeSaleTotals,
  type DeliveryAddress,
  type DiscountKind,
  type LineSnapshot,
  OFFLINE_FLAG_LABELS,
  type OfflineFlag,
  type OriginSale,
  type PaymentCheck,
  type PaymentInput,
  type Sale,
  type SaleTotals,
  saleTotalsIssues,
  type TypeOfSale,
} from '@balcao/core/sale';
import { DISCOUNT_LIMIT_MESSAGES, discountsOverLimit, percentText } from '@balcao/core/settings';
import { and, asc, eq, type SQL, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { withPreparedStatements } from '../../db/prepared.ts';
import { users } from '../../db/schema.ts';
import { AppError, conflict, unprocessable } from '../../errors.ts';
import { pricedLineValues } from '../../lib/lineSnapshot.ts';
import { insertJsonRows } from '../../lib/pg.ts';
import { shopTodaySql } from '../../lib/shopToday.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { resolveApproval } from '../auth/approval.ts';
import { openDrawerForSale, openRegisterForSaleSql } from '../cash-register/service.ts';
import { couponUseSql } from '../coupon/sale.ts';
import {
  type AppliedCoupon,
  type CouponSaleRequest,
  checkCoupon,
  hasUseLimit,
  useCoupon,
} from '../coupon/service.ts';
import { type CustomerRef, findCustomerRef } from '../customer/refs.ts';
import { spendStoreCredit } from '../customer/storeCredit.ts';
import {
  deliverSaleReceipt,
  queueSaleReceipt,
  type ReceiptSettings,
  receiptSettingsSql,
} from '../printing/receipt.ts';
import { customerCredit } from '../receivable/credit.ts';
import { insertInstallments, type NewInstallment } from '../receivable/service.ts';
import { discountLimitSql, effectiveDiscountLimit } from '../settings/discountLimits.ts';
import { saleStockSettingsSql, takeOfflineSaleStock, takeSaleStock } from '../stock/sale.ts';
import { type LowStockAlert, notifyLowStock } from '../stock/service.ts';
import { runSaleFollowUps } from './followUps.ts';
import { claimOf, claimSql, findKey, IDEMPOTENCY_KEY_REUSED, type KeyClaim } from './idempotency.ts';
import { findSale, toSale } from './read.ts';
import { saleItems, salePayments, sales } from './schema.ts';

/**
 * THE way a sale is recorded, whatever its origin (PDV checkout, quick sale; next comanda close,
 * budget conversion, delivery order, offline sync). An origin, in its own file, builds a `SaleDraft`:
 * its lines with their prices and snapshots, payments, customer, discounts, coupon, freight; this
 * file checks the totals and payments, writes the sale and takes stock, coupon and number.
 */

/**
 * One line of a sale as its origin built it: its snapshot (core LineSnapshot; the sale never reads
 * it back from elsewhere; a catalog line moves stock, a free-text line has no productId) and discount.
 */
export type SaleLineDraft = LineSnapshot & {
  discountType: DiscountKind;
  /** Cents or hundredths of a percent, as typed. */
  discountValue: number;
  notes: string | null;
};

/** A sale as its origin hands it over (PRODUCT.md: typeOfSale, originSale). */
export type SaleDraft = {
  originSale: OriginSale;
  typeOfSale: TypeOfSale;
  /** A quick sale (one free-text line): marked in lists. */
  isSimple: boolean;
  customerId: number | null;
  /** The seller credited when another user than the operator. */
  sellerId: number | null;
  /** A copy of the customer's address (delivery). */
  deliveryAddress: DeliveryAddress | null;
  discountType: DiscountKind;
  discountValue: number;
  couponCode: string | null;
  freightCents: number;
  notes: string | null;
  payments: PaymentInput[];
  cashDepositAmountCents: number;
  lines: SaleLineDraft[];
  /**
   * A sale made at a PDV without a connection (issue 21, `sale/offlineSync.ts`): recorded at the
   * till's time and accepted as made. Its conflicts (stock below zero, a coupon no longer valid, a
   * discount nobody could approve; the origin adds price changes) are flagged, never refused.
   */
  offline?: { madeAt: Date; couponDiscountCents: number; flags: OfflineFlag[] };
  /**
   * "CPF na nota?" (issue 32): stored on the sale's row (same insert, no extra round trip) and handed
   * to the follow-ups after the commit (the NFC-e); `saleConsumerDocument` reads it back later.
   */
  consumerDocument?: string | null;
};

/**
 * Builds the draft inside the sale's transaction, after the Idempotency-Key and the register:
 * a retried request replays its first sale before any catalog read, and an origin may lock or
 * close its own rows (a comanda, a budget) in the same transaction as the sale.
 */
export type DraftBuilder = (tx: Executor) => Promise<SaleDraft>;

/** `idempotencyKey` (the header, maybe prefixed per endpoint) and the request body it is bound to. */
export type RecordOptions = {
  idempotencyKey?: string | null;
  body: unknown;
  /** A manager's approval for discounts above the operator's limit (checked before the transaction). */
  approval?: Approval;
  /**
   * The origin's own writes that belong to the sale (a comanda closed into it, a budget pointing to
   * it, a delivery order made of it): called inside the sale's transaction after the sale is
   * numbered, so both commit or neither. Not called when the Idempotency-Key replays a sale.
   */
  onRecorded?: (tx: Executor, sale: { id: number; number: number }) => Promise<void>;
};

export type RecordedSale = { sale: Sale; replayed: boolean };

const fail = (message: string, path: string) => new AppError(422, message, [{ path, message }]);

/** Rows of a raw query (PGlite and node-postgres both answer `{rows}`). */
function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

// ---------------------------------------------------------------------------------------------
// The steps, in the order `recordSale` runs them inside the sale's transaction.

type LockedRegister = {
  id: number;
  stockManagement: boolean;
  allowNegativeStock: boolean;
  userName: string;
  saleId: number;
  /** 0 when the Idempotency-Key was already there (another request's sale: replay it). */
  claimed: number;
  /** The operator's stored discount limit (the settings module's jsonb), null when not saved. */
  discountLimit: unknown;
  /** The shop's date in its time zone ('YYYY-MM-DD'): coupon validity, due dates, overdue. */
  today: string;
  /** The automatic receipt's settings (printing module), null when no receipt prints. */
  receipt: ReceiptSettings | null;
};

/**
 * Claim the key and lock the register: one statement, the checkout's first. Claims the
 * Idempotency-Key and reads the user's open register (FOR SHARE: closing it waits for this sale; the
 * cash-register module's subquery) with the client's stock settings (the stock module's), the user's
 * name, the new sale's id, the operator's discount limit, the shop's date (its time zone) and the
 * receipt settings (the printing module's). Null without an open register.
 */
async function claimAndLockRegister(
  tx: Executor,
  session: SessionUser,
  claim: KeyClaim | null,
): Promise<LockedRegister | null> {
  const { cte, claimed } = claimSql(session.clientId, claim);
  const [row] = rowsOf<LockedRegister>(
    await tx.execute(sql`${cte}select r.id, st."stockManagement", st."allowNegativeStock",
        (select u.name from users u where u.id = ${session.userId}) as "userName",
        nextval(pg_get_serial_sequence('sales', 'id'))::int as "saleId", ${claimed} as claimed,
        ${discountLimitSql(session.clientId, session.userTypeId)} as "discountLimit",
        ${shopTodaySql(session.clientId)}::text as today,
        ${receiptSettingsSql(session.clientId)} as receipt
      from (${openRegisterForSaleSql(session)}) r
      cross join (${saleStockSettingsSql(session.clientId)}) st`),
  );
  return row ? { ...row, saleId: Number(row.saleId), claimed: Number(row.claimed) } : null;
}

/**
 * When the key was there, another request with it committed first (the claim waited for it): the
 * id of its sale to answer, even when the register has been closed since. A key row without a sale
 * is this request's own claim (no open register). Throws when the sale cannot be recorded.
 */
async function replayedSaleId(
  tx: Executor,
  clientId: number,
  claim: KeyClaim | null,
  register: LockedRegister | null,
): Promise<number | null> {
  if (claim && (!register || register.claimed === 0)) {
    const first = await findKey(tx, clientId, claim.key);
    if (first?.saleId) {
      if (first.requestHash !== claim.hash) throw unprocessable(IDEMPOTENCY_KEY_REUSED);
      return first.saleId;
    }
    if (register) throw conflict('Esta venda ainda está sendo registrada: tente novamente');
  }
  if (!register) throw new AppError(422, CASH_REGISTER_MESSAGES.mustOpen, undefined, 'register_closed');
  return null;
}

/** The seller credited: an active user of the client (422 otherwise). Returns the name. */
async function findSeller(tx: Executor, clientId: number, sellerId: number | null): Promise<string | null> {
  if (sellerId === null) return null;
  const [seller] = await tx
    .select({ name: users.name })
    .from(users)
    .where(and(eq(users.id, sellerId), eq(users.clientId, clientId), eq(users.active, true)));
  if (!seller) throw fail('Vendedor não encontrado', 'sellerId');
  return seller.name;
}

/**
 * The discount limit of the operator's type (issue 12 point 9): a line or the sale above it needs a
 * manager's approval (403 without one, naming the limit). Answers the approving manager to record,
 * null when no approval was needed or the operator is a manager.
 */
function checkDiscountLimit(
  session: SessionUser,
  stored: unknown,
  totals: { lines: { grossCents: number; discountCents: number }[]; discountCents: number },
  approvedBy: number | null | undefined,
): number | null {
  const limit = effectiveDiscountLimit(session.userTypeId, stored);
  if (!limit) return null;
  const over = discountsOverLimit(totals, limit);
  if (over.lines.length === 0 && !over.sale) return null;
  if (approvedBy === undefined) {
    const message = DISCOUNT_LIMIT_MESSAGES.needsApproval(
      over.lines.length > 0 ? `${percentText(limit.line)} por item` : `${percentText(limit.sale)} na venda`,
    );
    const path = over.lines.length > 0 ? `items.${over.lines[0]}.discountValue` : 'discountValue';
    throw new AppError(
      403,
      message,
      [
        { path: 'approval', message },
        { path, message },
      ],
      'forbidden',
    );
  }
  return approvedBy;
}

/** The coupon as checked against the sale (its use is recorded later, see `couponUse`). */
type CheckedCoupon = { request: CouponSaleRequest & { saleId: number }; applied: AppliedCoupon | null };

/**
 * The coupon's rules against this sale, without a lock: its use is recorded (and, for coupons with
 * use limits, checked again under the row lock) after the sale's own rows. Offline, the discount the
 * till gave stands and a coupon refused now is flagged, not the sale. (An AppError here is thrown
 * before any statement fails: the transaction goes on.)
 */
async function checkCouponOf(
  tx: Executor,
  session: SessionUser,
  draft: SaleDraft,
  register: LockedRegister,
  flags: Set<OfflineFlag>,
): Promise<CheckedCoupon | null> {
  if (!draft.couponCode) return null;
  const withoutCoupon = computeSaleTotals({
    lines: draft.lines,
    discountType: draft.discountType,
    discountValue: draft.discountValue,
    freightCents: draft.freightCents,
  });
  const request = {
    code: draft.couponCode,
    subtotalCents: withoutCoupon.totalCents,
    customerId: draft.customerId,
    today: register.today,
    saleId: register.saleId,
  };
  if (!draft.offline) return { request, applied: await checkCoupon(tx, session, request, { forSale: true }) };
  const applied = await checkCoupon(tx, session, request, { forSale: true }).catch((error) => {
    if (!(error instanceof AppError)) throw error;
    flags.add('coupon_refused');
    return null;
  });
  return { request, applied };
}

/**
 * The sale's totals with the coupon's discount, checked by core's discount rules (422 on the
 * field; the sale's own discount is named before a line's) and against what a sale may carry.
 */
function checkTotals(draft: SaleDraft, couponDiscountCents: number): SaleTotals {
  const input = {
    lines: draft.lines,
    discountType: draft.discountType,
    discountValue: draft.discountValue,
    couponDiscountCents,
    freightCents: draft.freightCents,
  };
  const totals = computeSaleTotals(input);
  const issues = saleTotalsIssues(input, totals);
  const issue = issues.find((i) => i.path === 'discountValue') ?? issues[0];
  if (issue) throw fail(issue.message, issue.path);
  if (totals.finalAmountCents > 2_147_483_647) throw fail('Valor da venda muito alto', 'items');
  return totals;
}

/** Everything the checks decided before a row is written. */
type CheckedSale = {
  customer: CustomerRef | null;
  sellerName: string | null;
  coupon: CheckedCoupon | null;
  couponDiscountCents: number;
  totals: SaleTotals;
  paid: Extract<PaymentCheck, { ok: true }>;
  discountApprovedByUserId: number | null;
  /** Credit warnings: the customer's situation before this sale against its crediário amount. */
  warnings: Sale['warnings'];
};

/**
 * Check totals and payments: the customer and seller exist, the coupon applies, discounts fit the
 * total and the operator's limit (or a manager approved), the payments pay the final amount. Offline
 * conflicts go to `flags`.
 */
async function checkSale(
  tx: Executor,
  session: SessionUser,
  register: LockedRegister,
  draft: SaleDraft,
  approvedBy: number | null | undefined,
  flags: Set<OfflineFlag>,
): Promise<CheckedSale> {
  const { clientId } = session;
  const { offline } = draft;
  const customer = draft.customerId !== null ? await findCustomerRef(tx, clientId, draft.customerId) : null;
  if (draft.customerId !== null && !customer) throw fail('Cliente não encontrado', 'customerId');
  const sellerName = await findSeller(tx, clientId, draft.sellerId);
  const coupon = await checkCouponOf(tx, session, draft, register, flags);
  const couponDiscountCents = offline
    ? draft.couponCode
      ? offline.couponDiscountCents
      : 0
    : (coupon?.applied?.discountCents ?? 0);
  const totals = checkTotals(draft, couponDiscountCents);
  let discountApprovedByUserId: number | null = null;
  try {
    discountApprovedByUserId = checkDiscountLimit(session, register.discountLimit, totals, approvedBy);
  } catch (error) {
    if (!offline || !(error instanceof AppError)) throw error;
    flags.add('discount_unapproved');
  }
  const paid = checkPayments({
    finalAmountCents: totals.finalAmountCents,
    payments: draft.payments,
    cashDepositAmountCents: draft.cashDepositAmountCents,
    customerId: draft.customerId,
    typeOfSale: draft.typeOfSale,
    today: register.today,
  });
  if (!paid.ok) throw new AppError(422, paid.message, paid.issues);
  const creditShopCents = paid.payments
    .filter((p) => p.method === 'creditShop')
    .reduce((sum, p) => sum + p.amountCents, 0);
  const warnings =
    draft.customerId !== null && creditShopCents > 0
      ? (await customerCredit(tx, session, draft.customerId, creditShopCents)).warnings
      : [];
  return {
    customer,
    sellerName,
    coupon,
    couponDiscountCents,
    totals,
    paid,
    discountApprovedByUserId,
    warnings,
  };
}

/** The rows of the sale's own tables, as written and as answered. */
function saleRows(session: SessionUser, register: LockedRegister, draft: SaleDraft, checked: CheckedSale) {
  const { clientId } = session;
  const { saleId } = register;
  const { totals, paid, couponDiscountCents } = checked;
  const { offline } = draft;
  const now = new Date();
  const madeAt = offline?.madeAt ?? now;
  // The number is a placeholder (-id: unique, never shown) until the counter gives the real one, last.
  const sale = {
    id: saleId,
    clientId,
    number: -saleId,
    userId: session.userId,
    sellerId: draft.sellerId,
    customerId: draft.customerId,
    cashRegisterId: register.id,
    status: paid.status,
    typeOfSale: draft.typeOfSale,
    originSale: draft.originSale,
    isSimple: draft.isSimple,
    totalItems: totals.totalItems,
    totalQuantity: totals.totalQuantity,
    itemsDiscountCents: totals.itemsDiscountCents,
    totalCents: totals.totalCents,
    discountType: draft.discountType,
    discountValue: draft.discountValue,
    discountCents: totals.discountCents,
    couponId: checked.coupon?.applied?.coupon.id ?? null,
    couponCode: draft.couponCode ? draft.couponCode.toUpperCase() : null,
    couponDiscountCents,
    freightCents: totals.freightCents,
    finalAmountCents: totals.finalAmountCents,
    cashDepositAmountCents: paid.cashDepositAmountCents,
    changeCents: paid.changeCents,
    deliveryAddress: draft.deliveryAddress,
    notes: draft.notes,
    cancelReason: null,
    canceledAt: null,
    canceledByUserId: null,
    cancelApprovedByUserId: null,
    discountApprovedByUserId: checked.discountApprovedByUserId,
    finishedAt: paid.status === 'finished' ? madeAt : null,
    createdAt: madeAt,
    updatedAt: now,
    madeOffline: Boolean(offline),
    syncedAt: offline ? now : null,
    offlineFlags: [] as string[],
    consumerDocument: draft.consumerDocument ?? null,
  } satisfies typeof sales.$inferSelect;
  const items = draft.lines.map((l, i) => ({
    saleId,
    clientId,
    position: i,
    ...pricedLineValues(l, totals.lines[i]),
  }));
  let installment = 1;
  const installments: NewInstallment[] = [];
  const payments = paid.payments.map((p, position) => {
    const firstInstallment = p.installments.length > 0 ? installment : null;
    for (const inst of p.installments) {
      installments.push({
        clientId,
        customerId: draft.customerId as number,
        saleId,
        installment: installment++,
        amountCents: inst.amountCents,
        dueDate: inst.dueDate,
        status: 'pending',
      });
    }
    return {
      saleId,
      clientId,
      position,
      method: p.method,
      amountCents: p.amountCents,
      numberInstallments: p.numberInstallments,
      dueDate: p.dueDate,
      firstInstallment,
    };
  });
  return { sale, items, payments, installments };
}

type SaleRowValues = ReturnType<typeof saleRows>;

/**
 * Write the sale, items, payments and receivables: the sale's own rows, nobody else waits for them.
 * The sale, its items and payments and the key -> sale go in one statement (rows as JSON: one round
 * trip, one parameter each); the answer is built from these values and the ids.
 */
async function writeSaleRows(tx: Executor, clientId: number, claim: KeyClaim | null, rows: SaleRowValues) {
  const noPayment = sql`select null::int as id, null::int as position where false`;
  const [ids] = rowsOf<{ items: number[]; payments: number[] | null }>(
    await tx.execute(sql`with
      s as (${insertJsonRows(sales, [rows.sale])} returning id),
      i as (${insertJsonRows(saleItems, rows.items)} returning id, position),
      p as (${rows.payments.length > 0 ? sql`${insertJsonRows(salePayments, rows.payments)} returning id, position` : noPayment}),
      k as (update sale_idempotency_keys set sale_id = (select id from s)
            where client_id = ${clientId} and key = ${claim?.key ?? null} returning key)
      select (select json_agg(id order by position) from i) as items,
             (select json_agg(id order by position) from p) as payments`),
  );
  return {
    items: rows.items.map((row, i) => ({ ...row, id: Number(ids.items[i]) })),
    payments: rows.payments.map((row, i) => ({ ...row, id: Number(ids.payments?.[i]) })),
    receivables: await insertInstallments(tx, rows.installments),
  };
}

/**
 * The vale-troca a sale is paid with (issue 30): taken from the customer's balance by one guarded
 * update (422 with the balance when short). An offline sale is accepted as made, even below zero.
 */
async function spendCreditOf(
  tx: Executor,
  session: SessionUser,
  saleId: number,
  draft: SaleDraft,
  checked: CheckedSale,
): Promise<void> {
  const cents = checked.paid.payments
    .filter((p) => p.method === 'storeCredit')
    .reduce((sum, p) => sum + p.amountCents, 0);
  if (cents === 0 || draft.customerId === null) return;
  await spendStoreCredit(
    tx,
    session,
    { customerId: draft.customerId, amountCents: cents, saleId },
    Boolean(draft.offline),
  );
}

/**
 * Stock: shared rows from here to the commit (levels locked by id, then the coupon, then the
 * counter). Offline, a level below zero is taken and flagged.
 */
async function takeStock(
  tx: Executor,
  session: SessionUser,
  register: LockedRegister,
  draft: SaleDraft,
  flags: Set<OfflineFlag>,
): Promise<LowStockAlert[]> {
  const lines = draft.lines.flatMap((l) =>
    l.productId !== null ? [{ productId: l.productId, variantId: l.variantId, quantity: l.quantity }] : [],
  );
  const actor = { clientId: session.clientId, userId: session.userId };
  if (!draft.offline) return takeSaleStock(tx, actor, register.saleId, lines, register);
  const taken = await takeOfflineSaleStock(tx, actor, register.saleId, lines, register);
  if (taken.wentNegative) flags.add('negative_stock');
  return taken.lowStock;
}

/**
 * The coupon's use. A coupon with use limits is locked and checked again here; one without is
 * recorded by the last statement, with the number (the CTE this answers). Offline, a use over the
 * limit is still recorded (it happened), flagged.
 */
async function couponUse(
  tx: Executor,
  session: SessionUser,
  draft: SaleDraft,
  checked: CheckedSale,
  flags: Set<OfflineFlag>,
): Promise<SQL> {
  const { coupon, couponDiscountCents } = checked;
  const applied = coupon?.applied ?? null;
  if (!coupon || !applied) return sql``;
  let limited = hasUseLimit(applied.coupon);
  if (limited && draft.offline) {
    const used = await useCoupon(tx, session, coupon.request, {
      ...applied,
      discountCents: couponDiscountCents,
    }).catch((error) => {
      if (!(error instanceof AppError)) throw error;
      flags.add('coupon_refused');
      return null;
    });
    if (!used) limited = false;
  } else if (limited) await useCoupon(tx, session, coupon.request, applied);
  if (limited) return sql``;
  return sql`, coupon_use as (${couponUseSql({
    couponId: applied.coupon.id,
    clientId: session.clientId,
    saleId: coupon.request.saleId,
    customerId: draft.customerId,
    discountCents: draft.offline ? couponDiscountCents : applied.discountCents,
  })})`;
}

/**
 * Number the sale: the client's counter, the hottest row, is the last statement before the commit
 * (with the coupon's use and the offline flags). Numbers stay gap-free: a sale that fails rolls its
 * counter back.
 */
async function numberSale(
  tx: Executor,
  clientId: number,
  saleId: number,
  useOfCoupon: SQL,
  offlineFlags: string[],
): Promise<number> {
  const [{ number }] = rowsOf<{ number: number }>(
    await tx.execute(
      sql`with counter as (
            insert into sale_counters (client_id, last) values (${clientId}, 1)
            on conflict (client_id) do update set last = sale_counters.last + 1
            returning last)
          ${useOfCoupon}
          update sales set number = counter.last${
            offlineFlags.length > 0 ? sql`, offline_flags = ${JSON.stringify(offlineFlags)}::jsonb` : sql``
          } from counter
          where sales.id = ${saleId} returning sales.number as "number"`,
    ),
  );
  return Number(number);
}

/** The answer, built from the rows just written (no read back after the commit). */
async function answerOf(
  tx: Executor,
  session: SessionUser,
  register: LockedRegister,
  draft: SaleDraft,
  checked: CheckedSale,
  rows: SaleRowValues,
  written: Awaited<ReturnType<typeof writeSaleRows>>,
  {
    pixIds,
    ...recorded
  }: { number: number; offlineFlags: string[]; pixIds: Map<number, string | null> | null },
): Promise<Sale> {
  const names = new Map([[session.userId, register.userName]]);
  if (draft.sellerId !== null && checked.sellerName !== null) names.set(draft.sellerId, checked.sellerName);
  const approver = checked.discountApprovedByUserId;
  if (approver !== null) {
    const [manager] = await tx.select({ name: users.name }).from(users).where(eq(users.id, approver));
    names.set(approver, manager?.name ?? '');
  }
  const sale = toSale({
    sale: { ...rows.sale, ...recorded },
    customer: checked.customer,
    items: written.items,
    payments: written.payments.map((p) => ({ ...p, pixEndToEndId: pixIds?.get(p.id) ?? null })),
    receivables: written.receivables,
    names,
    today: register.today,
  });
  return { ...sale, warnings: checked.warnings };
}

type Recorded = {
  sale: Sale;
  lowStock: LowStockAlert[];
  receiptJob: number | null;
  /** The register it was made on, and whether money was paid (the drawer opens, issue 36). */
  drawer: { registerId: number } | null;
  consumerDocument: string | null;
};

/**
 * Signal, after the commit: the client's tills (`changed` 'sale'), the low-stock crossings, the
 * manager's bell for an offline sale accepted with conflicts (issue 21), and the receipt queued with
 * the sale handed to a station (not waited for).
 */
function signal(
  ctx: AppContext,
  session: SessionUser,
  { sale, lowStock, receiptJob, drawer, consumerDocument }: Recorded,
) {
  const { clientId } = session;
  ctx.changed(clientId, 'sale', sale.id);
  notifyLowStock(ctx.notify, clientId, lowStock);
  if (sale.offlineFlags.length > 0) {
    ctx.notify(clientId, {
      message: `Venda nº ${sale.number} feita sem conexão com divergência: ${sale.offlineFlags
        .map((f) => OFFLINE_FLAG_LABELS[f].toLowerCase())
        .join(', ')}`,
      alertColor: 'warning',
    });
  }
  if (receiptJob !== null) deliverSaleReceipt(ctx, clientId, receiptJob);
  if (drawer) void openDrawerForSale(ctx, session, drawer.registerId, sale.id).catch(() => undefined);
  // The modules above sale that follow a sale's commit (issue 32: its NFC-e), never awaited here.
  runSaleFollowUps(ctx, session, { id: sale.id, consumerDocument });
}

// ---------------------------------------------------------------------------------------------

/**
 * Records a sale: ONE transaction writes the sale, its items, payments, receivables (one per
 * crediário or boleto installment), the coupon use, the stock movements and the automatic receipt's
 * print job, then signals the client's tills (`changed` 'sale') and the low-stock crossings.
 *
 * Order inside the transaction, the same for every sale so concurrent checkouts queue instead of
 * deadlocking, and arranged so the rows every till shares are held the shortest (row locks last until
 * the commit): the idempotency key -> the user's open register (FOR SHARE) -> the origin's reads
 * (catalog), customer and coupon reads (no locks) -> the sale's own rows (sale with a placeholder
 * number, items, payments, receivables, key -> sale) -> stock rows (FOR NO KEY UPDATE, by id) -> the
 * coupon row (FOR NO KEY UPDATE, only for coupons with use limits) -> the client's sale counter,
 * which also numbers the sale -> the origin's own writes and the receipt's print job. The checkout's
 * statements are prepared (PGlite: db/prepared.ts).
 */
export async function recordSale(
  ctx: AppContext,
  session: SessionUser,
  buildDraft: DraftBuilder,
  options: RecordOptions,
): Promise<RecordedSale> {
  const { db } = ctx;
  const { clientId } = session;
  const claim = claimOf(options.idempotencyKey, options.body);
  // A manager's approval is checked before the transaction (a password hash is slow): the manager's
  // id, null when the operator is a manager, undefined without an approval.
  const approvedBy =
    options.approval === undefined
      ? undefined
      : await resolveApproval(db, session, options.approval, '', DISCOUNT_LIMIT_MESSAGES.refused);
  const outcome = await withPreparedStatements(() =>
    db.transaction(async (tx): Promise<{ replayOf: number } | Recorded> => {
      const found = await claimAndLockRegister(tx, session, claim);
      const replayOf = await replayedSaleId(tx, clientId, claim, found);
      if (replayOf !== null) return { replayOf };
      const register = found as LockedRegister;
      const draft = await buildDraft(tx);
      const flags = new Set<OfflineFlag>(draft.offline?.flags ?? []);
      const checked = await checkSale(tx, session, register, draft, approvedBy, flags);
      const rows = saleRows(session, register, draft, checked);
      const written = await writeSaleRows(tx, clientId, claim, rows);
      await spendCreditOf(tx, session, register.saleId, draft, checked);
      const lowStock = await takeStock(tx, session, register, draft, flags);
      const useOfCoupon = await couponUse(tx, session, draft, checked, flags);
      const offlineFlags = [...flags];
      const number = await numberSale(tx, clientId, register.saleId, useOfCoupon, offlineFlags);
      await options.onRecorded?.(tx, { id: register.saleId, number });
      // A Pix QR dinâmico's endToEndId is written on the payment by the origin's hook (issue 33).
      const pixIds = written.payments.some((p) => p.method === 'pixQrCode')
        ? new Map(
            (
              await tx
                .select({ id: salePayments.id, e2e: salePayments.pixEndToEndId })
                .from(salePayments)
                .where(eq(salePayments.saleId, register.saleId))
            ).map((r) => [r.id, r.e2e]),
          )
        : null;
      const sale = await answerOf(tx, session, register, draft, checked, rows, written, {
        number,
        offlineFlags,
        pixIds,
      });
      // The automatic receipt (printer page), queued with the sale. An offline sale printed its
      // receipt at the till when it was made.
      const receiptJob =
        register.receipt && !draft.offline
          ? await queueSaleReceipt(tx, session, register.receipt, sale)
          : null;
      // Money paid at the counter opens the drawer (after the commit); offline, it opened at the till.
      const paidInCash = !draft.offline && sale.payments.some((p) => p.method === 'money');
      return {
        sale,
        lowStock,
        receiptJob,
        drawer: paidInCash ? { registerId: register.id } : null,
        consumerDocument: draft.consumerDocument ?? null,
      };
    }),
  );
  if ('replayOf' in outcome) {
    return { sale: await findSale(db, session, outcome.replayOf), replayed: true };
  }
  signal(ctx, session, outcome);
  return { sale: outcome.sale, replayed: false };
}

/**
 * The endToEndIds of a sale's Pix QR dinâmico payments (issue 33), written on the sale's own payment
 * rows in the sale's transaction by the module that confirmed them (pix, above sale). Each Pix goes
 * to the first payment of its amount not yet given one; any left over join the last Pix payment.
 */
export async function recordPixEndToEndIds(
  tx: Executor,
  saleId: number,
  pixes: readonly { endToEndId: string; amountCents: number }[],
): Promise<void> {
  if (pixes.length === 0) return;
  const rows = await tx
    .select({ id: salePayments.id, amountCents: salePayments.amountCents })
    .from(salePayments)
    .where(and(eq(salePayments.saleId, saleId), eq(salePayments.method, 'pixQrCode')))
    .orderBy(asc(salePayments.position));
  if (rows.length === 0) return;
  const left = [...pixes];
  const ids = new Map<number, string[]>();
  for (const row of rows) {
    const i = left.findIndex((p) => p.amountCents === row.amountCents);
    if (i >= 0) ids.set(row.id, [left.splice(i, 1)[0].endToEndId]);
  }
  for (const row of rows)
    if (!ids.has(row.id) && left.length) ids.set(row.id, [left.shift()?.endToEndId ?? '']);
  const last = rows[rows.length - 1].id;
  if (left.length) ids.set(last, [...(ids.get(last) ?? []), ...left.map((p) => p.endToEndId)]);
  for (const [id, e2e] of ids)
    await tx
      .update(salePayments)
      .set({ pixEndToEndId: e2e.join(' ') })
      .where(eq(salePayments.id, id));
}

/**
 * A delivery sale's payment on delivery paid by Pix QR dinâmico before the driver collected it (issue
 * 33): its `paymentOnDelivery` payments become `pixQrCode` (the cash close counts them as Pix, never as
 * "a receber"), in the transaction that settled the Pix. The home's daily summary (kept by insert
 * triggers) moves the amount between the two methods on the sale's day. Returns the cents switched.
 */
export async function payOnDeliveryByPix(tx: Executor, saleId: number): Promise<number> {
  const switched = await tx
    .update(salePayments)
    .set({ method: 'pixQrCode' })
    .where(and(eq(salePayments.saleId, saleId), eq(salePayments.method, 'paymentOnDelivery')))
    .returning({ amountCents: salePayments.amountCents });
  const cents = switched.reduce((s, p) => s + p.amountCents, 0);
  if (cents === 0) return 0;
  await tx.execute(sql`insert into sale_daily_payments as t (client_id, day, method, amount_cents)
    select s.client_id, sale_local_day(s.client_id, s.created_at), m.method, m.cents
    from sales s, (values ('paymentOnDelivery', ${-cents}::bigint), ('pixQrCode', ${cents}::bigint)) as m(method, cents)
    where s.id = ${saleId} and s.status <> 'canceled'
    on conflict (client_id, day, method) do update set amount_cents = t.amount_cents + excluded.amount_cents`);
  return cents;
}
