import { periodOf } from '@balcao/core/finance';
import {
  abcCurve,
  previousPeriod,
  type ReportQuery,
  type ReportSummary,
  type SalesReport,
} from '@balcao/core/report';
import { ORIGIN_SALE_LABELS, type OriginSale, PAYMENT_METHOD_LABELS } from '@balcao/core/sale';
import type { PaymentMethod } from '@balcao/core/status';
import { type AnyColumn, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import type { Actor } from '../../lib/actor.ts';
import { shopClock } from '../../lib/shopToday.ts';
import { categoryService } from '../product-category/service.ts';
import {
  type ReportFigures,
  type ReportPeriod,
  type SaleGroupRow,
  salePaymentsByMethod,
  summaryFigures,
} from '../sale/reportFigures.ts';

/**
 * The sales reports (issue 34): the sale module's figures of a period (`sale/reportFigures.ts`) put
 * together with names, the ABC curve, the periods and the previous period. Four statements for the
 * period and three for the previous one (the long ones two at a time), then the names; no table
 * of its own.
 */

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

const NO_CATEGORY = 'Sem categoria';
const QUICK_SALE_LINES = 'Itens avulsos (venda simples)';
const NO_USER = 'Usuário removido';

async function userNames(db: Executor, clientId: number, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: users.id, name: users.name })
    .from(users)
    .where(sql`${users.clientId} = ${clientId} and ${inArray(users.id, [...new Set(ids)])}`);
  return new Map(rows.map((r) => [r.id, r.name]));
}

async function categoryNames(db: Executor, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const id = sql.raw('v.id') as unknown as AnyColumn;
  const rows = rowsOf<{ id: number; name: string | null }>(
    await db.execute(
      sql`select v.id, ${categoryService.nameOf(id)} as name from unnest(${`{${[...new Set(ids)].join(',')}}`}::int[]) as v(id)`,
    ),
  );
  return new Map(rows.map((r) => [r.id, r.name ?? NO_CATEGORY]));
}

function summaryOf(
  total: SaleGroupRow,
  costCents: number,
  itemsRevenueCents: number,
  canceled: { salesCount: number; netCents: number }[],
): ReportSummary {
  return {
    ...total,
    costCents,
    marginCents: itemsRevenueCents - costCents,
    averageTicketCents: total.salesCount ? Math.round(total.netCents / total.salesCount) : 0,
    canceledCount: canceled.reduce((s, c) => s + c.salesCount, 0),
    canceledCents: canceled.reduce((s, c) => s + c.netCents, 0),
  };
}

/** The period the report reads: the shop's zone, its dates inclusive. */
export async function reportPeriod(
  db: Executor,
  actor: Actor,
  from: string,
  to: string,
): Promise<ReportPeriod> {
  const { timeZone } = await shopClock(db, actor.clientId);
  return { clientId: actor.clientId, from, to, timeZone };
}

/**
 * `figures`: the summary's readings (the pages, the exports); the tests pass the raw sales' readings and
 * expect the same report to the cent.
 */
export async function salesReport(
  db: Executor,
  actor: Actor,
  query: ReportQuery,
  figures: ReportFigures = summaryFigures,
): Promise<SalesReport> {
  const { groups: saleGroups, products: saleProductFigures, canceled: canceledSalesByUser } = figures;
  const period = await reportPeriod(db, actor, query.from, query.to);
  const before = { ...period, ...previousPeriod(query.from, query.to) };
  // The two long reads of each period run side by side (on PostgreSQL each takes a connection of the
  // pool: two at most, the checkouts keep the rest; PGlite runs them one after another).
  const [groups, products] = await Promise.all([saleGroups(db, period), saleProductFigures(db, period)]);
  // The previous period's groups too (by seller and origin: each row's figure beside it).
  const [previousGroups, previousProducts] = await Promise.all([
    saleGroups(db, before),
    saleProductFigures(db, before),
  ]);
  const methods = await salePaymentsByMethod(db, period);
  const previousMethods = await salePaymentsByMethod(db, before);
  const canceled = await canceledSalesByUser(db, period);
  const previousCanceled = await canceledSalesByUser(db, before);

  const names = await userNames(db, actor.clientId, [
    ...groups.bySeller.map((s) => s.userId),
    ...canceled.flatMap((c) => (c.userId === null ? [] : [c.userId])),
  ]);
  const categories = await categoryNames(
    db,
    products.flatMap((p) => (p.categoryId === null ? [] : [p.categoryId])),
  );

  const prior = {
    method: new Map(previousMethods.map((m) => [m.method, m.amountCents])),
    seller: new Map(previousGroups.bySeller.map((r) => [r.userId, r.netCents])),
    origin: new Map(previousGroups.byOrigin.map((r) => [r.origin, r.netCents])),
    product: new Map(previousProducts.map((p) => [p.productId, p.revenueCents])),
    category: new Map<number | null, number>(),
  };
  // A product's category is today's in both periods (a product moved counts where it is now).
  for (const p of previousProducts) {
    const key = p.productId === null ? null : p.categoryId;
    prior.category.set(key, (prior.category.get(key) ?? 0) + p.revenueCents);
  }
  const cost = products.reduce((s, p) => s + p.costCents, 0);
  const itemsRevenue = products.reduce((s, p) => s + p.revenueCents, 0);
  const byPeriod = new Map<string, { salesCount: number; netCents: number }>();
  for (const d of groups.byDay) {
    const key = periodOf(d.day, query.groupBy);
    const row = byPeriod.get(key) ?? { salesCount: 0, netCents: 0 };
    row.salesCount += d.salesCount;
    row.netCents += d.netCents;
    byPeriod.set(key, row);
  }
  const byCategory = new Map<number | null, SalesReport['byCategory'][number]>();
  for (const p of products) {
    const key = p.productId === null ? null : p.categoryId;
    const row = byCategory.get(key) ?? {
      categoryId: key,
      name: key === null ? NO_CATEGORY : (categories.get(key) ?? NO_CATEGORY),
      quantity: 0,
      revenueCents: 0,
      costCents: 0,
      marginCents: 0,
      previousRevenueCents: prior.category.get(key) ?? 0,
    };
    row.quantity += p.quantity;
    row.revenueCents += p.revenueCents;
    row.costCents += p.costCents;
    row.marginCents = row.revenueCents - row.costCents;
    byCategory.set(key, row);
  }

  return {
    from: query.from,
    to: query.to,
    groupBy: query.groupBy,
    timeZone: period.timeZone,
    summary: summaryOf(groups.total, cost, itemsRevenue, canceled),
    previous: {
      ...summaryOf(
        previousGroups.total,
        previousProducts.reduce((s, p) => s + p.costCents, 0),
        previousProducts.reduce((s, p) => s + p.revenueCents, 0),
        previousCanceled,
      ),
      from: before.from,
      to: before.to,
    },
    byPeriod: [...byPeriod].map(([p, r]) => ({ period: p, ...r })),
    byMethod: methods
      .filter((m) => m.amountCents !== 0)
      .map((m) => ({
        method: m.method,
        label: PAYMENT_METHOD_LABELS[m.method as PaymentMethod] ?? m.method,
        amountCents: m.amountCents,
        previousAmountCents: prior.method.get(m.method) ?? 0,
      })),
    bySeller: groups.bySeller
      .map((s) => ({
        userId: s.userId,
        name: names.get(s.userId) ?? NO_USER,
        salesCount: s.salesCount,
        netCents: s.netCents,
        averageTicketCents: s.salesCount ? Math.round(s.netCents / s.salesCount) : 0,
        discountsCents: s.discountsCents,
        previousNetCents: prior.seller.get(s.userId) ?? 0,
      }))
      .sort((a, b) => b.netCents - a.netCents),
    byOrigin: groups.byOrigin
      .map((o) => ({
        origin: o.origin,
        label: ORIGIN_SALE_LABELS[o.origin as OriginSale] ?? o.origin,
        salesCount: o.salesCount,
        netCents: o.netCents,
        previousNetCents: prior.origin.get(o.origin) ?? 0,
      }))
      .sort((a, b) => b.netCents - a.netCents),
    byProduct: abcCurve(
      products.map((p) => ({
        productId: p.productId,
        name: p.productId === null ? QUICK_SALE_LINES : p.name,
        categoryName:
          p.productId === null ? null : p.categoryId === null ? null : (categories.get(p.categoryId) ?? null),
        quantity: p.quantity,
        revenueCents: p.revenueCents,
        costCents: p.costCents,
        marginCents: p.revenueCents - p.costCents,
        previousRevenueCents: prior.product.get(p.productId) ?? 0,
      })),
    ),
    byCategory: [...byCategory.values()].sort((a, b) => b.revenueCents - a.revenueCents),
    heatMap: groups.byHour
      .map((h) => ({ weekday: h.weekday, hour: h.hour, salesCount: h.salesCount, netCents: h.netCents }))
      .sort((a, b) => a.weekday - b.weekday || a.hour - b.hour),
    canceled: canceled.map((c) => ({
      userId: c.userId,
      name: c.userId === null ? NO_USER : (names.get(c.userId) ?? NO_USER),
      salesCount: c.salesCount,
      netCents: c.netCents,
    })),
  };
}

export { userNames };
