import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { num } from '../../lib/pg.ts';
import { zoneDayStartSql } from '../../lib/shopToday.ts';
import { productCostSql } from '../product/costOf.ts';
import { stockMonthTotals, stockMovements } from './schema.ts';

export type TurnoverLedgerRow = {
  productId: number;
  openingQuantity: number;
  closingQuantity: number;
  /** Sold net of cancels and returns in the period. */
  soldQuantity: number;
  /** The sold quantity at the cost the ledger kept on each sale's row (today's cost where none). */
  cogsCents: number;
};

/**
 * The UTC month start nearest to an instant (a timestamp in UTC): a level at the instant is the month
 * totals before it plus (or minus) the ledger's rows between it and the instant.
 */
const nearestMonthSql = (at: SQL) => sql`(select case
    when ${at} - (y.m at time zone 'UTC') <= ((y.m + interval '1 month') at time zone 'UTC') - ${at} then y.m
    else y.m + interval '1 month' end
  from (select date_trunc('month', ${at} at time zone 'UTC') as m) y)`;

/**
 * The ledger's figures of each product for the stock turnover (issue 34): its level when the period
 * started and when it ended (the sum of its rows before each instant: the ledger is the level) and
 * what the period's sales took (sale rows minus sale-cancel and sale-return rows), at cost. Products
 * without any row before the period's end are left out (a product whose rows all came within days after
 * the end may be listed with zeros).
 *
 * Each figure is a sum of the ledger's rows before an instant, taken at the period's start and end and
 * subtracted: the sum of the product's month totals (`stock_month_totals`, kept by the ledger's triggers)
 * before the UTC month start nearest to the instant, plus the rows from there to the instant (minus the
 * rows from the instant to it when it is after). A month's turnover reads the two boundaries' few hours of
 * rows and the month totals instead of the whole history (1,000,000 sales: bench/RESULTS.md, issue 34).
 */
export async function turnoverLedger(
  db: Executor,
  p: { clientId: number; timeZone: string; from: string; to: string },
): Promise<TurnoverLedgerRow[]> {
  const start = zoneDayStartSql(p.timeZone, p.from);
  const end = zoneDayStartSql(p.timeZone, p.to, 1);
  const isSold = sql`m.type in ('sale', 'sale-cancel', 'sale-return')`;
  // The cancels' and returns' rows without a cost are summed per product and costed once at the
  // product's cost, outside the aggregate (a correlated subquery inside it made the planner read the
  // ledger in product order by index).
  const result = await db.execute(sql`
    with k as (
      select b.side, b.at, b.bound, b.bound at time zone 'UTC' as bound_at,
        case when b.bound at time zone 'UTC' <= b.at then 1 else -1 end as sign
      from (select 's' as side, ${start} as at, ${nearestMonthSql(start)} as bound
        union all select 'e', ${end}, ${nearestMonthSql(end)}) b
    ),
    parts as (
      select k.side, t.product_id, t.quantity as q, t.sold_quantity as sq, t.sold_cost_cents as sc,
        t.uncosted_quantity as uq
      from k join ${stockMonthTotals} t on t.client_id = ${p.clientId} and t.month < k.bound::date
      union all
      select k.side, m.product_id, k.sign * m.quantity,
        case when ${isSold} then k.sign * m.quantity else 0 end,
        case when ${isSold} then k.sign * m.quantity * coalesce(m.unit_cost_cents, 0) else 0 end,
        case when ${isSold} and m.unit_cost_cents is null then k.sign * m.quantity else 0 end
      from k join ${stockMovements} m on m.client_id = ${p.clientId}
        and m.created_at >= least(k.bound_at, k.at) and m.created_at < greatest(k.bound_at, k.at)
    )
    select x.product_id, x.opening, x.closing, x.sold,
      x.costed - x.uncosted * ${productCostSql(sql`x.product_id`)} as cogs
    from (select product_id,
        coalesce(sum(q) filter (where side = 's'), 0) as opening,
        coalesce(sum(q) filter (where side = 'e'), 0) as closing,
        -sum(case when side = 'e' then sq else -sq end) as sold,
        -sum(case when side = 'e' then sc else -sc end) as costed,
        sum(case when side = 'e' then uq else -uq end) as uncosted
      from parts group by product_id
      having count(*) filter (where side = 'e') > 0) x`);
  const rows = (
    result as unknown as {
      rows: { product_id: number; opening: unknown; closing: unknown; sold: unknown; cogs: unknown }[];
    }
  ).rows;
  return rows.map((r) => ({
    productId: Number(r.product_id),
    openingQuantity: num(r.opening),
    closingQuantity: num(r.closing),
    soldQuantity: num(r.sold),
    cogsCents: Math.round(num(r.cogs)),
  }));
}
