import type { SaleReceivable } from '@balcao/core/receivable';
import type {
  DeliveryAddress,
  DiscountKind,
  OfflineFlag,
  OriginSale,
  Sale,
  SaleItem,
  SalePayment,
  SaleStatus,
  TypeOfSale,
} from '@balcao/core/sale';
import type { PaymentMethod } from '@balcao/core/status';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import type { Actor } from '../../lib/actor.ts';
import { pricedLineOf } from '../../lib/lineSnapshot.ts';
import { shopTodaySql } from '../../lib/shopToday.ts';
import { type CustomerRef, customerRefSql, readRef } from '../customer/refs.ts';
import { type ReceivableRow, receivablesOfSale } from '../receivable/service.ts';
import { saleItems, salePayments, sales } from './schema.ts';

export const SALE_NOT_FOUND = 'Venda não encontrada';

function iso(value: Date | string | null): string | null {
  if (value === null) return null;
  return value instanceof Date ? value.toISOString() : new Date(value).toISOString();
}

/** Which payment method each installment belongs to (payments keep their first installment number). */
function methodOfInstallment(
  payments: (typeof salePayments.$inferSelect)[],
  installment: number,
): PaymentMethod {
  const deferred = payments
    .filter((p) => p.firstInstallment !== null)
    .sort((a, b) => (a.firstInstallment ?? 0) - (b.firstInstallment ?? 0));
  let method: PaymentMethod = 'creditShop';
  for (const p of deferred) if ((p.firstInstallment ?? 0) <= installment) method = p.method as PaymentMethod;
  return method;
}

/** A sale's number, status and kinds as answered (the whole sale and the list). */
export function saleHead(
  s: Pick<typeof sales.$inferSelect, 'id' | 'number' | 'status' | 'typeOfSale' | 'originSale' | 'isSimple'>,
) {
  return {
    id: s.id,
    number: s.number,
    status: s.status as SaleStatus,
    typeOfSale: s.typeOfSale as TypeOfSale,
    originSale: s.originSale as OriginSale,
    isSimple: s.isSimple,
  };
}

/** What a sale shows of a customer whose reference can no longer be read. */
export const noCustomer: CustomerRef = { name: '', document: null, phone: null };

type SaleRows = {
  sale: typeof sales.$inferSelect;
  customer: CustomerRef | null;
  items: (typeof saleItems.$inferSelect)[];
  payments: (typeof salePayments.$inferSelect)[];
  receivables: ReceivableRow[];
  /** Names of the users the sale points at (operator, seller, who canceled). */
  names: Map<number, string>;
  /** The shop's date (its time zone), for the receivables' `isOverdue`. */
  today: string;
};

/** The whole sale: items, payments, receivables, customer, users. 404 for another client's. */
export async function findSale(db: Executor, actor: Actor, id: number): Promise<Sale> {
  const { clientId } = actor;
  const [row] = await db
    .select({
      sale: sales,
      customer: customerRefSql(sql`"sales"."customer_id"`),
      today: sql<string>`${shopTodaySql(clientId)}::text`,
    })
    .from(sales)
    .where(and(eq(sales.id, id), eq(sales.clientId, clientId)));
  if (!row) throw notFound(SALE_NOT_FOUND);
  const s = row.sale;
  const userIds = [
    s.userId,
    s.sellerId,
    s.canceledByUserId,
    s.cancelApprovedByUserId,
    s.discountApprovedByUserId,
  ].filter((v): v is number => v !== null);
  const [items, payments, receivableRows, userRows] = await Promise.all([
    db.select().from(saleItems).where(eq(saleItems.saleId, id)).orderBy(asc(saleItems.position)),
    db.select().from(salePayments).where(eq(salePayments.saleId, id)).orderBy(asc(salePayments.position)),
    receivablesOfSale(db, actor, id),
    db.select({ id: users.id, name: users.name }).from(users).where(inArray(users.id, userIds)),
  ]);
  return toSale({
    sale: s,
    customer: s.customerId !== null ? (readRef(row.customer) ?? noCustomer) : null,
    items,
    payments,
    receivables: receivableRows,
    names: new Map(userRows.map((u) => [u.id, u.name])),
    today: row.today,
  });
}

/**
 * The "CPF na nota?" typed at the PDV for a sale (issue 32), null when none: the fiscal module's note
 * issued after the commit (the follow-up, the sweep) takes it from here.
 */
export async function saleConsumerDocument(db: Executor, actor: Actor, id: number): Promise<string | null> {
  const [row] = await db
    .select({ consumerDocument: sales.consumerDocument })
    .from(sales)
    .where(and(eq(sales.id, id), eq(sales.clientId, actor.clientId)));
  return row?.consumerDocument ?? null;
}

/** Rows -> the API's sale (the checkout builds it from the rows it just inserted: no read back). */
export function toSale({
  sale: s,
  customer,
  items,
  payments,
  receivables: receivableRows,
  names: name,
  today,
}: SaleRows): Sale {
  return {
    ...saleHead(s),
    customer: s.customerId !== null && customer ? { id: s.customerId, ...customer } : null,
    user: { id: s.userId, name: name.get(s.userId) ?? '' },
    seller: s.sellerId !== null ? { id: s.sellerId, name: name.get(s.sellerId) ?? '' } : null,
    cashRegisterId: s.cashRegisterId,
    items: items.map((i): SaleItem => ({ id: i.id, ...pricedLineOf(i) })),
    payments: payments.map(
      (p): SalePayment => ({
        id: p.id,
        method: p.method as PaymentMethod,
        amountCents: p.amountCents,
        numberInstallments: p.numberInstallments,
        dueDate: p.dueDate,
        pixEndToEndId: p.pixEndToEndId,
      }),
    ),
    receivables: receivableRows.map(
      (r): SaleReceivable => ({
        id: r.id,
        installment: r.installment,
        method: methodOfInstallment(payments, r.installment),
        amountCents: r.amountCents,
        dueDate: r.dueDate,
        status: r.status as SaleReceivable['status'],
        paidAt: iso(r.paidAt),
        isOverdue: r.status === 'pending' && r.dueDate < today,
      }),
    ),
    totalItems: s.totalItems,
    totalQuantity: Number(s.totalQuantity),
    itemsDiscountCents: s.itemsDiscountCents,
    totalCents: s.totalCents,
    discountType: s.discountType as DiscountKind,
    discountValue: s.discountValue,
    discountCents: s.discountCents,
    coupon: s.couponId !== null ? { id: s.couponId, code: s.couponCode ?? '' } : null,
    couponDiscountCents: s.couponDiscountCents,
    freightCents: s.freightCents,
    finalAmountCents: s.finalAmountCents,
    cashDepositAmountCents: s.cashDepositAmountCents,
    changeCents: s.changeCents,
    deliveryAddress: (s.deliveryAddress as DeliveryAddress | null) ?? null,
    notes: s.notes,
    cancelReason: s.cancelReason,
    canceledAt: iso(s.canceledAt),
    canceledBy:
      s.canceledByUserId !== null
        ? { id: s.canceledByUserId, name: name.get(s.canceledByUserId) ?? '' }
        : null,
    discountApprovedBy:
      s.discountApprovedByUserId !== null
        ? { id: s.discountApprovedByUserId, name: name.get(s.discountApprovedByUserId) ?? '' }
        : null,
    cancelApprovedBy:
      s.cancelApprovedByUserId !== null
        ? { id: s.cancelApprovedByUserId, name: name.get(s.cancelApprovedByUserId) ?? '' }
        : null,
    createdAt: s.createdAt.toISOString(),
    finishedAt: iso(s.finishedAt),
    updatedAt: s.updatedAt.toISOString(),
    madeOffline: s.madeOffline,
    syncedAt: iso(s.syncedAt),
    offlineFlags: s.offlineFlags as OfflineFlag[],
  };
}
