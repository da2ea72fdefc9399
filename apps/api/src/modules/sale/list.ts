import { centsToDecimalString } from '@balcao/core/money';
import {
  type OfflineFlag,
  ORIGIN_SALE_LABELS,
  PAYMENT_METHOD_LABELS,
  SALE_STATUS_LABELS,
  SALE_STATUSES,
  TYPE_OF_SALE_LABELS,
} from '@balcao/core/sale';
import type {
  SaleListItem,
  SaleListQueryParsed,
  SaleListResult,
  SaleListTotals,
} from '@balcao/core/saleList';
import type { PaymentMethod } from '@balcao/core/status';
import { formatInZone } from '@balcao/core/time';
import { and, eq, gte, inArray, lt, ne, or, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import Papa from 'papaparse';
import type { Db } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import { orderByOf } from '../../lib/list.ts';
import { shopClock, shopDayStartSql } from '../../lib/shopToday.ts';
import { customerMatchesSql, customerRefSql, readRef } from '../customer/refs.ts';
import { noCustomer, saleHead } from './read.ts';
import { salePayments, saleReturnRefunds, saleReturns, sales } from './schema.ts';

/** The filters of the list, the totals and the CSV: always inside the caller's client. */
function saleWhere(clientId: number, query: Omit<SaleListQueryParsed, 'page' | 'pageSize' | 'sort'>): SQL {
  const conditions: (SQL | undefined)[] = [eq(sales.clientId, clientId)];
  if (query.from) conditions.push(gte(sales.createdAt, shopDayStartSql(clientId, query.from)));
  if (query.to) conditions.push(lt(sales.createdAt, shopDayStartSql(clientId, query.to, 1)));
  if (query.status) conditions.push(eq(sales.status, query.status));
  if (query.typeOfSale) conditions.push(eq(sales.typeOfSale, query.typeOfSale));
  if (query.customerId) conditions.push(eq(sales.customerId, query.customerId));
  if (query.cashRegisterId) conditions.push(eq(sales.cashRegisterId, query.cashRegisterId));
  if (query.sellerId) conditions.push(sql`coalesce(${sales.sellerId}, ${sales.userId}) = ${query.sellerId}`);
  if (query.paymentMethod) {
    conditions.push(
      // Explicit table names: drizzle leaves columns unqualified in single-table selects, where "id"
      // inside the subquery would mean the payment's own id.
      sql`exists (select 1 from sale_payments sp where sp.sale_id = "sales"."id" and sp.method = ${query.paymentMethod})`,
    );
  }
  if (query.q) {
    const q = query.q.replace(/^#|^n[ºo°]\s*/i, '').trim();
    const search: SQL[] = [customerMatchesSql(sql`"sales"."customer_id"`, query.q)];
    if (/^\d{1,9}$/.test(q)) search.push(eq(sales.number, Number(q)));
    conditions.push(or(...search));
  }
  return and(...conditions) as SQL;
}

const seller = alias(users, 'seller');
const operator = alias(users, 'operator');

const listColumns = {
  id: sales.id,
  number: sales.number,
  status: sales.status,
  typeOfSale: sales.typeOfSale,
  originSale: sales.originSale,
  isSimple: sales.isSimple,
  customerId: sales.customerId,
  customer: customerRefSql(sql`"sales"."customer_id"`),
  userId: sales.userId,
  userName: operator.name,
  sellerId: sales.sellerId,
  sellerName: seller.name,
  totalItems: sales.totalItems,
  discountCents: sales.discountCents,
  itemsDiscountCents: sales.itemsDiscountCents,
  couponDiscountCents: sales.couponDiscountCents,
  freightCents: sales.freightCents,
  finalAmountCents: sales.finalAmountCents,
  createdAt: sales.createdAt,
  madeOffline: sales.madeOffline,
  offlineFlags: sales.offlineFlags,
};

function baseSelect(db: Db) {
  return db
    .select(listColumns)
    .from(sales)
    .innerJoin(operator, eq(operator.id, sales.userId))
    .leftJoin(seller, eq(seller.id, sales.sellerId));
}

type ListRow = Awaited<ReturnType<ReturnType<typeof baseSelect>['where']>>[number];

async function withMethods(db: Db, rows: ListRow[]): Promise<SaleListItem[]> {
  const ids = rows.map((r) => r.id);
  const methods = ids.length
    ? await db
        .selectDistinct({ saleId: salePayments.saleId, method: salePayments.method })
        .from(salePayments)
        .where(inArray(salePayments.saleId, ids))
    : [];
  const bySale = new Map<number, PaymentMethod[]>();
  for (const m of methods) bySale.set(m.saleId, [...(bySale.get(m.saleId) ?? []), m.method as PaymentMethod]);
  return rows.map((r) => ({
    ...saleHead(r),
    customer: r.customerId !== null ? { id: r.customerId, ...(readRef(r.customer) ?? noCustomer) } : null,
    user: { id: r.userId, name: r.userName },
    seller: r.sellerId !== null ? { id: r.sellerId, name: r.sellerName ?? '' } : null,
    totalItems: r.totalItems,
    discountCents: r.discountCents + r.itemsDiscountCents,
    couponDiscountCents: r.couponDiscountCents,
    freightCents: r.freightCents,
    finalAmountCents: r.finalAmountCents,
    createdAt: r.createdAt.toISOString(),
    madeOffline: r.madeOffline,
    offlineFlags: r.offlineFlags as OfflineFlag[],
    paymentMethods: bySale.get(r.id) ?? [],
  }));
}

function order(sort: string | undefined) {
  return orderByOf<'createdAt' | 'number' | 'finalAmountCents'>(
    sort,
    { createdAt: sales.createdAt, number: sales.number, finalAmountCents: sales.finalAmountCents },
    { field: 'createdAt', direction: 'desc' },
    sales.id,
  );
}

/** Totals of the whole filtered set (not just the page). */
async function saleTotals(db: Db, where: SQL): Promise<SaleListTotals> {
  const statusColumns = Object.fromEntries(
    SALE_STATUSES.flatMap((s) => [
      [`${s}Count`, sql<number>`count(*) filter (where ${sales.status} = ${s})::int`],
      [
        `${s}Amount`,
        sql<number>`coalesce(sum(${sales.finalAmountCents}) filter (where ${sales.status} = ${s}), 0)::bigint`,
      ],
    ]),
  );
  const [[row], methods, refunds] = await Promise.all([
    db
      .select({
        count: sql<number>`count(*)::int`,
        finalAmount: sql<number>`coalesce(sum(${sales.finalAmountCents}), 0)::bigint`,
        discount: sql<number>`coalesce(sum(${sales.discountCents} + ${sales.itemsDiscountCents} + ${sales.couponDiscountCents}) filter (where ${sales.status} <> 'canceled'), 0)::bigint`,
        ...statusColumns,
      })
      .from(sales)
      .where(where),
    db
      .select({
        method: salePayments.method,
        amount: sql<number>`coalesce(sum(${salePayments.amountCents}), 0)::bigint`,
      })
      .from(salePayments)
      .innerJoin(sales, eq(sales.id, salePayments.saleId))
      .where(and(where, ne(sales.status, 'canceled')))
      .groupBy(salePayments.method),
    // Returns (issue 30): what went back is not revenue, per method of the sale.
    db
      .select({
        method: saleReturnRefunds.method,
        amount: sql<number>`coalesce(sum(${saleReturnRefunds.amountCents}), 0)::bigint`,
      })
      .from(saleReturnRefunds)
      .innerJoin(saleReturns, eq(saleReturns.id, saleReturnRefunds.returnId))
      .innerJoin(sales, eq(sales.id, saleReturns.saleId))
      .where(and(where, ne(sales.status, 'canceled')))
      .groupBy(saleReturnRefunds.method),
  ]);
  const refundOf = new Map(refunds.map((f) => [f.method, Number(f.amount)]));
  const returnedCents = [...refundOf.values()].reduce((a, b) => a + b, 0);
  const r = row as Record<string, unknown>;
  const byStatus = Object.fromEntries(
    SALE_STATUSES.map((s) => [s, { count: Number(r[`${s}Count`]), amountCents: Number(r[`${s}Amount`]) }]),
  ) as SaleListTotals['byStatus'];
  return {
    count: Number(r.count),
    finalAmountCents: Number(r.finalAmount),
    discountCents: Number(r.discount),
    activeCount: byStatus.pending.count + byStatus.finished.count,
    activeAmountCents: byStatus.pending.amountCents + byStatus.finished.amountCents - returnedCents,
    returnedCents,
    byStatus,
    byPaymentMethod: Object.fromEntries(
      methods.map((m) => [m.method, Number(m.amount) - (refundOf.get(m.method) ?? 0)]),
    ),
  };
}

export async function listSales(
  db: Db,
  clientId: number,
  query: SaleListQueryParsed,
): Promise<SaleListResult> {
  const where = saleWhere(clientId, query);
  const rows = await baseSelect(db)
    .where(where)
    .orderBy(...order(query.sort))
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize);
  const [items, totals] = await Promise.all([withMethods(db, rows), saleTotals(db, where)]);
  return { items, total: totals.count, page: query.page, pageSize: query.pageSize, totals };
}

const money = (cents: number) => centsToDecimalString(cents).replace('.', ',');

/** The CSV's columns (";" separated, decimal comma, UTF-8 with BOM: opens right in Excel pt-BR). */
export const SALE_CSV_HEADER = `\uFEFF${Papa.unparse(
  [
    [
      'numero',
      'data',
      'status',
      'tipo',
      'origem',
      'cliente',
      'vendedor',
      'operador',
      'itens',
      'desconto',
      'cupom',
      'frete',
      'total',
      'pagamentos',
    ],
  ],
  { delimiter: ';', escapeFormulae: true, newline: '\r\n' },
)}\r\n`;

/** The most rows one export gives. */
const CSV_MAX_ROWS = 100_000;

/** Every sale of the filter, read 1000 at a time (the CSV export through `sendCsvStream`). */
export async function* eachSale(db: Db, clientId: number, query: SaleListQueryParsed, batch = 1000) {
  const where = saleWhere(clientId, query);
  for (let offset = 0; offset < CSV_MAX_ROWS; offset += batch) {
    const rows = await baseSelect(db)
      .where(where)
      .orderBy(...order(query.sort))
      .limit(batch)
      .offset(offset);
    for (const item of await withMethods(db, rows)) yield item;
    if (rows.length < batch) return;
  }
}

/** CSV lines of a batch of sales, dates and times on the shop's clock. */
export async function saleCsvLines(db: Db, clientId: number) {
  const { timeZone, today } = await shopClock(db, clientId);
  const lines = (items: SaleListItem[]) =>
    items.length === 0
      ? ''
      : `${Papa.unparse(
          items.map((s) => [
            String(s.number),
            formatInZone(s.createdAt, timeZone, 'sheet'),
            SALE_STATUS_LABELS[s.status],
            TYPE_OF_SALE_LABELS[s.typeOfSale],
            s.isSimple ? 'Venda simples' : ORIGIN_SALE_LABELS[s.originSale],
            s.customer?.name ?? '',
            (s.seller ?? s.user).name,
            s.user.name,
            String(s.totalItems),
            money(s.discountCents),
            money(s.couponDiscountCents),
            money(s.freightCents),
            money(s.finalAmountCents),
            s.paymentMethods.map((m) => PAYMENT_METHOD_LABELS[m]).join(', '),
          ]),
          // escapeFormulae: a cell starting with =, +, -, @ gets a leading ' (spreadsheet formula injection).
          { delimiter: ';', escapeFormulae: true, newline: '\r\n' },
        )}\r\n`;
  return { today, lines };
}

export const csvFileName = (query: SaleListQueryParsed) =>
  `vendas${query.from ? `-${query.from}` : ''}${query.to ? `-a-${query.to}` : ''}.csv`;
