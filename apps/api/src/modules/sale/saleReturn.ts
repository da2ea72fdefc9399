import { formatQuantity } from '@balcao/core/product';
import { DEFERRED_METHODS } from '@balcao/core/sale';
import {
  lineRefundCents,
  netOfLines,
  type RefundKind,
  refundByMethod,
  SALE_RETURN_MESSAGES,
  type SaleReturnData,
  type SaleReturns,
  thousandths,
} from '@balcao/core/saleReturn';
import type { PaymentMethod } from '@balcao/core/status';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import { AppError, conflict, unprocessable } from '../../errors.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { resolveApproval } from '../auth/approval.ts';
import { recordRefund } from '../cash-register/service.ts';
import { findCustomerRef } from '../customer/refs.ts';
import { addStoreCredit } from '../customer/storeCredit.ts';
import { returnSettings } from '../settings/system.ts';
import { restockReturnedLines } from '../stock/sale.ts';
import { lockSale } from './cancel.ts';
import { claimOf, IDEMPOTENCY_KEY_REUSED, type KeyClaim } from './idempotency.ts';
import { findSale } from './read.ts';
import { saleItems, salePayments, saleReturnItems, saleReturnRefunds, saleReturns, sales } from './schema.ts';

/**
 * Exchanges and returns (trocas e devoluções, issue 30). Some lines of a sale come back: the stock
 * takes back what is restocked (`sale-return` rows with the user), the value goes back by the sale's
 * own methods (cash out of the operator's open register, card and Pix recorded as refunds of the
 * register when one is open) or as a vale-troca on the customer, and the home's summary drops the
 * returned value (a return is not revenue). One transaction, under the sale's row lock: two returns
 * of the same sale queue, and the second sees what the first took back (409 past what was sold). The
 * Idempotency-Key is required: a retried request answers the sale's returns without a second return.
 */

const fail = (message: string, path: string) => new AppError(422, message, [{ path, message }]);

type Outcome = { replayed: boolean; amountCents: number; creditCustomerId: number | null };

/** What went back of each line so far (sum per sale item). */
async function returnedOf(tx: Executor, saleId: number): Promise<Map<number, number>> {
  const rows = await tx
    .select({
      saleItemId: saleReturnItems.saleItemId,
      quantity: sql<string>`sum(${saleReturnItems.quantity})::text`,
    })
    .from(saleReturnItems)
    .innerJoin(saleReturns, eq(saleReturns.id, saleReturnItems.returnId))
    .where(eq(saleReturns.saleId, saleId))
    .groupBy(saleReturnItems.saleItemId);
  return new Map(rows.map((r) => [r.saleItemId, Number(r.quantity)]));
}

/** What earlier returns took of each of the sale's methods. */
async function refundedOf(tx: Executor, saleId: number): Promise<Map<PaymentMethod, number>> {
  const rows = await tx
    .select({
      method: saleReturnRefunds.method,
      amount: sql<number>`sum(${saleReturnRefunds.amountCents})::int`,
    })
    .from(saleReturnRefunds)
    .innerJoin(saleReturns, eq(saleReturns.id, saleReturnRefunds.returnId))
    .where(eq(saleReturns.saleId, saleId))
    .groupBy(saleReturnRefunds.method);
  return new Map(rows.map((r) => [r.method as PaymentMethod, Number(r.amount)]));
}

/** Days since the sale, in the shop's calendar (its time zone). */
async function daysSince(tx: Executor, clientId: number, at: Date): Promise<number> {
  const result = await tx.execute(sql`select ((now() at time zone c.time_zone)::date
      - (${at.toISOString()}::timestamptz at time zone c.time_zone)::date)::int as days
    from clients c where c.id = ${clientId}`);
  return Number((result as unknown as { rows: { days: number }[] }).rows[0]?.days ?? 0);
}

/**
 * The home's summary without the returned value: the sale's day loses the amount (its count stays: the
 * sale happened), its methods the refunds, the month's products the returned quantities.
 */
async function summaryWithoutReturn(
  tx: Executor,
  clientId: number,
  sale: { createdAt: Date },
  amountCents: number,
  byMethod: { method: PaymentMethod; amountCents: number }[],
  products: { productId: number; quantity: number; amountCents: number }[],
) {
  const day = sql`sale_local_day(${clientId}, ${sale.createdAt.toISOString()}::timestamptz)`;
  await tx.execute(sql`insert into sale_daily_totals as t (client_id, day, sales_count, amount_cents)
    values (${clientId}, ${day}, 0, ${-amountCents})
    on conflict (client_id, day) do update set amount_cents = t.amount_cents + excluded.amount_cents`);
  for (const m of byMethod) {
    await tx.execute(sql`insert into sale_daily_payments as t (client_id, day, method, amount_cents)
      values (${clientId}, ${day}, ${m.method}, ${-m.amountCents})
      on conflict (client_id, day, method) do update set amount_cents = t.amount_cents + excluded.amount_cents`);
  }
  for (const p of products) {
    await tx.execute(sql`insert into sale_monthly_products as t (client_id, month, product_id, quantity, amount_cents)
      values (${clientId}, date_trunc('month', ${day})::date, ${p.productId}, ${-p.quantity}, ${-p.amountCents})
      on conflict (client_id, month, product_id) do update
        set quantity = t.quantity + excluded.quantity, amount_cents = t.amount_cents + excluded.amount_cents`);
  }
}

/**
 * Returns some lines of a sale (POST /v1/sale/:id/return). A user type of the shop's return setting
 * returns directly, the others with a manager's approval (checked before the transaction).
 */
export async function returnSaleItems(
  ctx: AppContext,
  session: SessionUser,
  saleId: number,
  input: SaleReturnData,
  request: { idempotencyKey: string; body: unknown },
): Promise<{ replayed: boolean; sale: SaleReturns }> {
  const { db } = ctx;
  const { clientId } = session;
  const settings = await returnSettings(db, clientId);
  const approvedBy = settings.userTypeIds.includes(session.userTypeId)
    ? null
    : await resolveApproval(
        db,
        session,
        input.approval,
        SALE_RETURN_MESSAGES.needsApproval,
        SALE_RETURN_MESSAGES.approvalRefused,
      );
  const claim = claimOf(request.idempotencyKey, request.body);
  const outcome = await db.transaction((tx) =>
    applyReturn(tx, session, saleId, input, settings, approvedBy, claim),
  );
  if (!outcome.replayed) {
    ctx.changed(clientId, 'sale', saleId);
    ctx.changed(clientId, 'cash-register');
    ctx.changed(clientId, 'customer');
  }
  return { replayed: outcome.replayed, sale: await findSaleReturns(db, session, saleId) };
}

/** A sale's returns with what went back of each line (404 for another client's sale). */
export async function findSaleReturns(
  db: Executor,
  session: SessionUser,
  saleId: number,
): Promise<SaleReturns> {
  const sale = await findSale(db, session, saleId);
  const settings = await returnSettings(db, session.clientId);
  const rows = await db
    .select()
    .from(saleReturns)
    .where(and(eq(saleReturns.saleId, saleId), eq(saleReturns.clientId, session.clientId)))
    .orderBy(asc(saleReturns.id));
  const ids = rows.map((r) => r.id);
  const [itemRows, refundRows] =
    ids.length === 0
      ? [[], []]
      : [
          await db
            .select()
            .from(saleReturnItems)
            .where(inArray(saleReturnItems.returnId, ids))
            .orderBy(asc(saleReturnItems.id)),
          await db
            .select()
            .from(saleReturnRefunds)
            .where(inArray(saleReturnRefunds.returnId, ids))
            .orderBy(asc(saleReturnRefunds.id)),
        ];
  const userIds = [
    ...new Set(rows.flatMap((r) => [r.userId, ...(r.approvedByUserId ? [r.approvedByUserId] : [])])),
  ];
  const names = new Map(
    userIds.length === 0
      ? []
      : (
          await db.select({ id: users.id, name: users.name }).from(users).where(inArray(users.id, userIds))
        ).map((u) => [u.id, u.name] as const),
  );
  const customerNames = new Map<number, string>();
  for (const r of rows) {
    if (r.customerId !== null && !customerNames.has(r.customerId)) {
      customerNames.set(
        r.customerId,
        (await findCustomerRef(db, session.clientId, r.customerId))?.name ?? '',
      );
    }
  }
  const returned = new Map<number, number>();
  for (const i of itemRows)
    returned.set(
      i.saleItemId,
      (thousandths(returned.get(i.saleItemId) ?? 0) + thousandths(Number(i.quantity))) / 1000,
    );
  const days = await daysSince(db, session.clientId, new Date(sale.createdAt));
  return {
    saleId,
    returnedCents: rows.reduce((s, r) => s + r.amountCents, 0),
    returnedQuantities: [...returned].map(([saleItemId, quantity]) => ({ saleItemId, quantity })),
    windowDays: settings.windowDays,
    withinWindow: days <= settings.windowDays,
    canReturnWithoutApproval: settings.userTypeIds.includes(session.userTypeId),
    returns: rows.map((r) => ({
      id: r.id,
      createdAt: r.createdAt.toISOString(),
      user: { id: r.userId, name: names.get(r.userId) ?? '' },
      approvedBy: r.approvedByUserId
        ? { id: r.approvedByUserId, name: names.get(r.approvedByUserId) ?? '' }
        : null,
      refund: r.refund as RefundKind,
      amountCents: r.amountCents,
      reason: r.reason,
      customer:
        r.customerId !== null ? { id: r.customerId, name: customerNames.get(r.customerId) ?? '' } : null,
      lines: itemRows
        .filter((i) => i.returnId === r.id)
        .map((i) => {
          const item = sale.items.find((x) => x.id === i.saleItemId);
          return {
            saleItemId: i.saleItemId,
            description: item?.description ?? '',
            variantName: item?.variantName ?? null,
            quantity: Number(i.quantity),
            restock: i.restock,
            amountCents: i.amountCents,
          };
        }),
      refunds: refundRows
        .filter((f) => f.returnId === r.id)
        .map((f) => ({ method: f.method as PaymentMethod, amountCents: f.amountCents })),
    })),
  };
}

/**
 * The return itself, on the caller's transaction (a return, or an exchange inside its new sale's
 * transaction): the sale locked, the key checked, the lines, refunds, register, vale-troca, stock and
 * summary written. Answers the value and who got the vale-troca.
 */
export async function applyReturn(
  tx: Executor,
  session: SessionUser,
  saleId: number,
  input: SaleReturnData,
  settings: { windowDays: number },
  approvedBy: number | null,
  claim: KeyClaim | null,
): Promise<Outcome> {
  const { clientId } = session;
  const sale = await lockSale(tx, clientId, saleId);
  if (claim) {
    const [seen] = await tx
      .select({ saleId: saleReturns.saleId, requestHash: saleReturns.requestHash })
      .from(saleReturns)
      .where(and(eq(saleReturns.clientId, clientId), eq(saleReturns.idempotencyKey, claim.key)));
    if (seen) {
      if (seen.saleId !== saleId || seen.requestHash !== claim.hash)
        throw unprocessable(IDEMPOTENCY_KEY_REUSED);
      return { replayed: true, amountCents: 0, creditCustomerId: null };
    }
  }
  if (sale.status === 'canceled') throw conflict(SALE_RETURN_MESSAGES.canceled);
  if ((await daysSince(tx, clientId, sale.createdAt)) > settings.windowDays) {
    throw fail(SALE_RETURN_MESSAGES.windowOver(settings.windowDays), 'lines');
  }
  const items = await tx
    .select()
    .from(saleItems)
    .where(eq(saleItems.saleId, saleId))
    .orderBy(asc(saleItems.position));
  const returned = await returnedOf(tx, saleId);
  const nets = netOfLines({
    totalCents: sale.totalCents,
    discountCents: sale.discountCents,
    couponDiscountCents: sale.couponDiscountCents,
    items: items.map((i) => ({ id: i.id, quantity: Number(i.quantity), totalCents: i.totalCents })),
  });
  const lines = input.lines.map((line, index) => {
    const item = items.find((i) => i.id === line.saleItemId);
    if (!item) throw fail(SALE_RETURN_MESSAGES.lineNotFound, `lines.${index}.saleItemId`);
    const sold = Number(item.quantity);
    const before = returned.get(item.id) ?? 0;
    const left = (thousandths(sold) - thousandths(before)) / 1000;
    if (thousandths(line.quantity) > thousandths(left)) {
      const message = SALE_RETURN_MESSAGES.tooMany(item.description, formatQuantity(left, item.unit));
      throw new AppError(409, message, [{ path: `lines.${index}.quantity`, message }], 'conflict');
    }
    return {
      item,
      quantity: line.quantity,
      restock: line.restock,
      amountCents: lineRefundCents(nets.get(item.id) ?? 0, sold, before, line.quantity),
      grossCents: lineRefundCents(item.totalCents, sold, before, line.quantity),
    };
  });
  const amountCents = lines.reduce((s, l) => s + l.amountCents, 0);
  const payments = await tx
    .select({ method: salePayments.method, amountCents: salePayments.amountCents })
    .from(salePayments)
    .where(eq(salePayments.saleId, saleId))
    .orderBy(asc(salePayments.position));
  const byMethod =
    amountCents > 0
      ? refundByMethod(
          amountCents,
          payments.map((p) => ({ method: p.method as PaymentMethod, amountCents: p.amountCents })),
          await refundedOf(tx, saleId),
        )
      : [];
  const kind: RefundKind = input.refund;
  const creditCustomerId = kind === 'storeCredit' ? (input.customerId ?? sale.customerId) : sale.customerId;
  if (kind === 'storeCredit') {
    if (creditCustomerId === null) throw fail(SALE_RETURN_MESSAGES.storeCreditCustomer, 'customerId');
    if (!(await findCustomerRef(tx, clientId, creditCustomerId)))
      throw fail('Cliente não encontrado', 'customerId');
  } else if (byMethod.some((m) => DEFERRED_METHODS.includes(m.method))) {
    throw fail(SALE_RETURN_MESSAGES.deferredRefund, 'refund');
  }
  const reason = `Devolução da venda nº ${sale.number}: ${input.reason}`;
  let cashRegisterId: number | null = null;
  let creditBack = kind === 'storeCredit' ? amountCents : 0;
  if (kind === 'original') {
    for (const m of byMethod) {
      // A sale paid with vale-troca gets it back as vale-troca.
      if (m.method === 'storeCredit') {
        creditBack += m.amountCents;
        continue;
      }
      const method: PaymentMethod = m.method === 'paymentOnDelivery' ? 'money' : m.method;
      const registerId = await recordRefund(tx, session, { method, amountCents: m.amountCents, reason });
      if (registerId === null && method === 'money') {
        throw new AppError(422, SALE_RETURN_MESSAGES.registerClosed, undefined, 'register_closed');
      }
      cashRegisterId = registerId ?? cashRegisterId;
    }
  }
  if (creditBack > 0 && creditCustomerId === null)
    throw fail(SALE_RETURN_MESSAGES.storeCreditCustomer, 'customerId');
  const [row] = await tx
    .insert(saleReturns)
    .values({
      clientId,
      saleId,
      userId: session.userId,
      approvedByUserId: approvedBy,
      refund: kind,
      customerId: creditBack > 0 ? creditCustomerId : null,
      cashRegisterId,
      amountCents,
      reason: input.reason,
      idempotencyKey: claim?.key ?? null,
      requestHash: claim?.hash ?? null,
    })
    .returning({ id: saleReturns.id });
  await tx.insert(saleReturnItems).values(
    lines.map((l) => ({
      returnId: row.id,
      saleItemId: l.item.id,
      quantity: l.quantity,
      restock: l.restock,
      amountCents: l.amountCents,
    })),
  );
  if (byMethod.length > 0) {
    await tx.insert(saleReturnRefunds).values(byMethod.map((m) => ({ returnId: row.id, ...m })));
  }
  if (creditBack > 0 && creditCustomerId !== null) {
    await addStoreCredit(tx, session, {
      customerId: creditCustomerId,
      amountCents: creditBack,
      kind: 'return',
      saleId,
      saleReturnId: row.id,
    });
  }
  await restockReturnedLines(
    tx,
    { clientId, userId: session.userId },
    sale,
    lines.flatMap((l) =>
      l.restock && l.item.productId !== null
        ? [{ productId: l.item.productId, variantId: l.item.variantId, quantity: l.quantity }]
        : [],
    ),
  );
  await summaryWithoutReturn(
    tx,
    clientId,
    sale,
    amountCents,
    byMethod,
    lines.flatMap((l) =>
      l.item.productId !== null
        ? [{ productId: l.item.productId, quantity: l.quantity, amountCents: l.grossCents }]
        : [],
    ),
  );
  await tx.update(sales).set({ updatedAt: new Date() }).where(eq(sales.id, saleId));
  return { replayed: false, amountCents, creditCustomerId: creditBack > 0 ? creditCustomerId : null };
}
