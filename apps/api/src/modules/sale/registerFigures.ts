import type { PaymentMethod } from '@balcao/core/status';
import { and, eq, ne, sql } from 'drizzle-orm';
import { inOrder } from '../../lib/inOrder.ts';
import type { RegisterSales } from '../cash-register/service.ts';
import { salePayments, sales } from './schema.ts';

/**
 * A register's sale figures for its summary, handed to the cash-register module at wiring
 * (modules/index.ts): payments per method and totals of the sales made at it, canceled ones apart.
 */
export const registerSaleFigures: RegisterSales = async (db, registerId) => {
  // In order: `db` may be a transaction (one connection).
  const [paymentRows, [stats]] = await inOrder([
    db
      .select({
        method: salePayments.method,
        amountCents: sql<number>`coalesce(sum(${salePayments.amountCents}), 0)::int`,
      })
      .from(salePayments)
      .innerJoin(sales, eq(sales.id, salePayments.saleId))
      .where(and(eq(sales.cashRegisterId, registerId), ne(sales.status, 'canceled')))
      .groupBy(salePayments.method),
    db
      .select({
        count: sql<number>`count(*) filter (where ${sales.status} <> 'canceled')::int`,
        canceledCount: sql<number>`count(*) filter (where ${sales.status} = 'canceled')::int`,
        amountCents: sql<number>`coalesce(sum(${sales.finalAmountCents}) filter (where ${sales.status} <> 'canceled'), 0)::int`,
        discountCents: sql<number>`coalesce(sum(${sales.discountCents} + ${sales.couponDiscountCents} + ${sales.itemsDiscountCents}) filter (where ${sales.status} <> 'canceled'), 0)::int`,
        changeCents: sql<number>`coalesce(sum(${sales.changeCents}) filter (where ${sales.status} <> 'canceled'), 0)::int`,
      })
      .from(sales)
      .where(eq(sales.cashRegisterId, registerId)),
  ]);
  return {
    byMethod: new Map(paymentRows.map((r) => [r.method as PaymentMethod, Number(r.amountCents)])),
    count: Number(stats.count),
    canceledCount: Number(stats.canceledCount),
    amountCents: Number(stats.amountCents),
    discountCents: Number(stats.discountCents),
    changeCents: Number(stats.changeCents),
  };
};
