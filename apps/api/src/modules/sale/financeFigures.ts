import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { num } from '../../lib/pg.ts';
import { shopDayStartSql } from '../../lib/shopToday.ts';
import { productCostSql } from '../product/costOf.ts';
import { saleUnitCostsSql } from '../stock/sale.ts';
import {
  saleDailyCreditInstallments,
  saleDailyGroups,
  saleDailyPayments,
  saleDailyProducts,
  saleItems,
  salePayments,
  saleReturnItems,
  saleReturns,
  sales,
} from './schema.ts';

/** What the finance reports (issue 34) read of the sales: by shop day and method, and a month's DRE figures. */

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/**
 * Sales received per shop-local day and method from the daily summary (kept by triggers): a period of a
 * year reads ~365 x methods rows, never the sales.
 */
export async function salePaymentsByDay(
  db: Executor,
  clientId: number,
  from: string,
  to: string,
): Promise<{ day: string; method: string; amountCents: number }[]> {
  const rows = rowsOf<{ day: string; method: string; amount: string | number }>(
    await db.execute(sql`select ${saleDailyPayments.day}::text as day, ${saleDailyPayments.method} as method,
        ${saleDailyPayments.amountCents} as amount
      from ${saleDailyPayments}
      where ${saleDailyPayments.clientId} = ${clientId} and ${saleDailyPayments.day} between ${from} and ${to}`),
  );
  return rows.map((r) => ({ day: r.day, method: r.method, amountCents: num(r.amount) }));
}

export type SaleMonthFigures = {
  salesCount: number;
  /** Items before any discount, plus freight. */
  grossCents: number;
  /** Line, sale and coupon discounts. */
  discountsCents: number;
  returnsCents: number;
  /**
   * Quantity sold x the weighted average cost the ledger kept at the sale (today's cost without it), less
   * the cost of the units the month's returns put back in stock (`returnedCostSql`).
   */
  cmvCents: number;
  payments: { method: string; installments: number; amountCents: number }[];
};

/**
 * A sale's CMV (unrounded) as a scalar subquery: each line's quantity x the unit cost the ledger kept on
 * the sale (`saleUnitCostsSql`), the product's cost of today where it kept none.
 */
const saleCmvSql = (saleId: SQL) =>
  sql`(select sum(i.quantity * coalesce(c.cost, ${productCostSql(sql`i.product_id`)}))
    from ${saleItems} i left join ${saleUnitCostsSql(saleId)} c on c.product_id = i.product_id
    where i.sale_id = ${saleId})`;

/**
 * The credit card sales in 2 or more instalments per shop-local day and number of instalments (a part of
 * `salePaymentsByDay`'s creditCard amount), from their summary kept by triggers.
 */
export async function creditInstallmentsByDay(
  db: Executor,
  clientId: number,
  from: string,
  to: string,
): Promise<{ day: string; installments: number; amountCents: number }[]> {
  const t = saleDailyCreditInstallments;
  const rows = rowsOf<{ day: string; installments: number; amount: string | number }>(
    await db.execute(sql`select ${t.day}::text as day, ${t.installments} as installments, ${t.amountCents} as amount
      from ${t} where ${t.clientId} = ${clientId} and ${t.day} between ${from} and ${to}`),
  );
  return rows.map((r) => ({ day: r.day, installments: Number(r.installments), amountCents: num(r.amount) }));
}

/**
 * A return's cost back in stock (unrounded) as a scalar subquery: the restocked units of its lines x the
 * unit cost the ledger kept on their sale (today's cost where it kept none). Those goods are on the shelf
 * again, so the DRE's CMV leaves them out in the month of the return (as the returns line); a unit not
 * restocked (damaged) stays a cost.
 */
const returnedCostSql = (returnId: SQL, saleId: SQL) =>
  sql`(select sum(ri.quantity * coalesce(c.cost, ${productCostSql(sql`i.product_id`)}))
    from ${saleReturnItems} ri join ${saleItems} i on i.id = ri.sale_item_id
      left join ${saleUnitCostsSql(saleId)} c on c.product_id = i.product_id
    where ri.return_id = ${returnId} and ri.restock and i.product_id is not null)`;

/**
 * A shop-local period's sales (not canceled) as the DRE reads them. The count, gross, discounts and CMV
 * come from the reports' daily summary (kept by the sales' triggers: ~days x groups rows and ~days x
 * products rows, never the sales): the CMV is the sum the summary kept of each line's quantity x the
 * ledger's cost at the sale, plus the quantity the ledger did not cost at the product's cost of today,
 * rounded once (as summing the sales did). The payments by method and installments and the returns of
 * the period are read from their tables (bench/RESULTS.md, issue 34: the DRE of a month of 83,000 sales).
 */
export async function saleFiguresBetween(
  db: Executor,
  clientId: number,
  from: string,
  toExclusive: string,
): Promise<SaleMonthFigures> {
  const inPeriod = (createdAt: SQL) =>
    sql`${createdAt} >= ${shopDayStartSql(clientId, from)} and ${createdAt} < ${shopDayStartSql(clientId, toExclusive)}`;
  const saleFilter = sql`s.client_id = ${clientId} and s.status <> 'canceled' and ${inPeriod(sql`s.created_at`)}`;
  const [totals] = rowsOf<{ count: number; gross: string; discounts: string }>(
    await db.execute(sql`select coalesce(sum(g.sales_count), 0)::int as count,
        coalesce(sum(g.gross_cents), 0) as gross, coalesce(sum(g.discounts_cents), 0) as discounts
      from ${saleDailyGroups} g
      where g.client_id = ${clientId} and g.day >= ${from} and g.day < ${toExclusive}`),
  );
  const [cmv] = rowsOf<{ cmv: string }>(
    await db.execute(sql`select round(coalesce(sum(x.costed + x.uncosted * ${productCostSql(sql`x.product_id`)}), 0)) as cmv
      from (select d.product_id, sum(d.cmv_cents) as costed, sum(d.uncosted_quantity) as uncosted
        from ${saleDailyProducts} d
        where d.client_id = ${clientId} and d.day >= ${from} and d.day < ${toExclusive}
        group by d.product_id) x`),
  );
  const payments = rowsOf<{ method: string; installments: number; amount: string }>(
    await db.execute(sql`select p.method, p.number_installments as installments, sum(p.amount_cents) as amount
      from ${sales} s join ${salePayments} p on p.sale_id = s.id where ${saleFilter}
      group by p.method, p.number_installments`),
  );
  const [returns] = rowsOf<{ amount: string | null; cost: string | null }>(
    await db.execute(sql`select sum(r.amount_cents) as amount,
        sum(round(${returnedCostSql(sql`r.id`, sql`r.sale_id`)})) as cost
      from ${saleReturns} r
      where r.client_id = ${clientId} and ${inPeriod(sql`r.created_at`)}`),
  );
  return {
    salesCount: totals.count,
    grossCents: num(totals.gross),
    discountsCents: num(totals.discounts),
    returnsCents: num(returns?.amount),
    cmvCents: num(cmv.cmv) - num(returns?.cost),
    payments: payments.map((p) => ({
      method: p.method,
      installments: p.installments,
      amountCents: num(p.amount),
    })),
  };
}

/** What a DRE line reads of each sale (issue 34 drill-down). */
/** Where an export's page of records starts: after the record at this time (the database's text) and id. */
type EntryCursor = { at: string; id: number };
type SaleEntry = { id: number; number: number; day: string; at: string; amountCents: number };

/**
 * Every record a paged query gives, `pageSize` at a time by keyset (the export of a drill-down: constant
 * memory whatever the month holds).
 */
export async function* eachPage<T extends { at: string }>(
  page: (after: EntryCursor | null) => Promise<{ rows: T[] }>,
  idOf: (row: T) => number,
  pageSize: number,
): AsyncGenerator<T> {
  let after: EntryCursor | null = null;
  for (;;) {
    const { rows } = await page(after);
    yield* rows;
    if (rows.length < pageSize) return;
    const last = rows[rows.length - 1];
    after = { at: last.at, id: idOf(last) };
  }
}

export type SaleDreFigure = 'gross' | 'discounts' | 'cmv';

/**
 * The sales (not canceled) of a shop-local period behind a DRE line, oldest first, each with its part of
 * the line (the sale's CMV rounded to the cent): the first `limit` and how many there are.
 */
export async function saleEntriesBetween(
  db: Executor,
  clientId: number,
  from: string,
  toExclusive: string,
  figure: SaleDreFigure,
  limit: number,
  /** A page of the export: the sales after this one (keyset), no count. */
  page?: { after: EntryCursor | null },
): Promise<{ count: number; rows: SaleEntry[] }> {
  const zone = sql`(select c.time_zone from clients c where c.id = ${clientId})`;
  const saleFilter = sql`s.client_id = ${clientId} and s.status <> 'canceled'
    and s.created_at >= ${shopDayStartSql(clientId, from)} and s.created_at < ${shopDayStartSql(clientId, toExclusive)}`;
  const amount =
    figure === 'gross'
      ? sql`s.total_cents + s.items_discount_cents + s.freight_cents`
      : figure === 'discounts'
        ? sql`s.items_discount_cents + s.discount_cents + s.coupon_discount_cents`
        : sql`round(${saleCmvSql(sql`s.id`)})`;
  const after = page?.after
    ? sql`and (s.created_at, s.id) > (${page.after.at}::timestamptz, ${page.after.id})`
    : sql``;
  const count = page ? sql`0` : sql`count(*) over ()::int`;
  const rows = rowsOf<{
    id: number;
    number: number;
    day: string;
    at: string;
    amount: unknown;
    count: number;
  }>(
    await db.execute(sql`select x.*, ${count} as count from (select s.id, s.number, s.created_at,
        s.created_at::text as at, (s.created_at at time zone ${zone})::date::text as day, ${amount} as amount
      from ${sales} s where ${saleFilter} ${after}) x where coalesce(x.amount, 0) <> 0
      order by x.created_at, x.id limit ${limit}`),
  );
  return {
    count: rows[0]?.count ?? 0,
    rows: rows.map((r) => ({ id: r.id, number: r.number, day: r.day, at: r.at, amountCents: num(r.amount) })),
  };
}

/**
 * The returns of a shop-local period, oldest first: the first `limit` and the count. `amount`: the value
 * returned (the DRE's devoluções); `cost`: the cost of what they put back in stock (the CMV's, rounded per
 * return; returns without any are left out).
 */
export async function saleReturnEntriesBetween(
  db: Executor,
  clientId: number,
  from: string,
  toExclusive: string,
  limit: number,
  /** A page of the export: the returns after this one (keyset), no count. */
  page?: { after: EntryCursor | null },
  figure: 'amount' | 'cost' = 'amount',
): Promise<{
  count: number;
  rows: {
    id: number;
    saleId: number;
    number: number;
    day: string;
    at: string;
    reason: string;
    amountCents: number;
  }[];
}> {
  const zone = sql`(select c.time_zone from clients c where c.id = ${clientId})`;
  const after = page?.after
    ? sql`and (r.created_at, r.id) > (${page.after.at}::timestamptz, ${page.after.id})`
    : sql``;
  const count = page ? sql`0` : sql`count(*) over ()::int`;
  const rows = rowsOf<{
    id: number;
    saleId: number;
    number: number;
    day: string;
    at: string;
    reason: string;
    amount: unknown;
    count: number;
  }>(
    await db.execute(sql`select x.*, ${count} as count from (select r.id, r.sale_id as "saleId", s.number,
        (r.created_at at time zone ${zone})::date::text as day, r.created_at, r.created_at::text as at, r.reason,
        ${figure === 'amount' ? sql`r.amount_cents` : sql`round(${returnedCostSql(sql`r.id`, sql`r.sale_id`)})`} as amount
      from ${saleReturns} r join ${sales} s on s.id = r.sale_id
      where r.client_id = ${clientId} and r.created_at >= ${shopDayStartSql(clientId, from)}
        and r.created_at < ${shopDayStartSql(clientId, toExclusive)} ${after}) x
      ${figure === 'cost' ? sql`where coalesce(x.amount, 0) <> 0` : sql``}
      order by x.created_at, x.id limit ${limit}`),
  );
  return {
    count: rows[0]?.count ?? 0,
    rows: rows.map((r) => ({
      id: r.id,
      at: r.at,
      saleId: r.saleId,
      number: r.number,
      day: r.day,
      reason: r.reason,
      amountCents: num(r.amount),
    })),
  };
}
