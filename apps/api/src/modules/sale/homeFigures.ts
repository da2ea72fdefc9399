import type { HomeSales, SalesPeriod } from '@balcao/core/home';
import type { PaymentMethod } from '@balcao/core/status';
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import type { Actor } from '../../lib/actor.ts';
import { num } from '../../lib/pg.ts';
import { productNames } from '../product/homeFigures.ts';
import { saleDailyPayments, saleDailyTotals, saleMonthlyProducts, sales } from './schema.ts';

const TOP_PRODUCTS = 5;
const DAYS = 30;

const period = (count: unknown, amount: unknown): SalesPeriod => {
  const salesCount = num(count);
  const amountCents = num(amount);
  return {
    salesCount,
    amountCents,
    averageTicketCents: salesCount ? Math.round(amountCents / salesCount) : 0,
  };
};

type Row = {
  today: string;
  t_count: unknown;
  t_amount: unknown;
  y_count: unknown;
  y_amount: unknown;
  m_count: unknown;
  m_amount: unknown;
  pm_count: unknown;
  pm_amount: unknown;
  days: { day: string; salesCount: number; amountCents: number }[];
  methods: { method: PaymentMethod; today: number; month: number }[] | null;
  top: { productId: number; quantity: number; amountCents: number }[] | null;
};

/**
 * The shop's sales for the home, in one statement, with "today" and "this month" in the client's time
 * zone. Whole days come from the daily summary (sale_daily_*, kept by triggers); only the partial days of
 * the comparisons (yesterday and the same day last month, until the current time) read sales, a range
 * of the (client, created_at) index. Best sellers come from the month's product rows, in
 * amount order from their index.
 */
export async function saleHomeFigures(db: Executor, actor: Actor): Promise<HomeSales> {
  const clientId = actor.clientId;
  const result = await db.execute(sql`
    with z as (
      select c.time_zone as tz, (now() at time zone c.time_zone) as ln from clients c where c.id = ${clientId}
    ),
    -- Materialized: the bounds are computed once (a zone conversion per compared row costs ~0.2 ms).
    d as materialized (
      select ln::date as today,
        date_trunc('month', ln)::date as month_start,
        (date_trunc('month', ln) - interval '1 month')::date as prev_start,
        (ln - interval '1 month')::date as prev_day,
        ((ln::date - 1)::timestamp at time zone tz) as y_from,
        ((ln - interval '1 day') at time zone tz) as y_to,
        ((ln - interval '1 month')::date::timestamp at time zone tz) as pm_from,
        ((ln - interval '1 month') at time zone tz) as pm_to
      from z
    ),
    t as (
      select t.day, t.sales_count, t.amount_cents from ${saleDailyTotals} t, d
      where t.client_id = ${clientId} and t.day >= least(d.prev_start, d.today - ${sql.raw(String(DAYS - 1))}) and t.day <= d.today
    )
    select d.today::text as today,
      (select coalesce(sum(sales_count), 0) from t where t.day = d.today) as t_count,
      (select coalesce(sum(amount_cents), 0) from t where t.day = d.today) as t_amount,
      y.count as y_count, y.amount as y_amount,
      (select coalesce(sum(sales_count), 0) from t where t.day >= d.month_start) as m_count,
      (select coalesce(sum(amount_cents), 0) from t where t.day >= d.month_start) as m_amount,
      pm.count + (select coalesce(sum(sales_count), 0) from t
        where t.day >= d.prev_start and t.day < d.prev_day) as pm_count,
      pm.amount + (select coalesce(sum(amount_cents), 0) from t
        where t.day >= d.prev_start and t.day < d.prev_day) as pm_amount,
      (select json_agg(json_build_object('day', g.day::date::text,
          'salesCount', coalesce(t.sales_count, 0), 'amountCents', coalesce(t.amount_cents, 0)) order by g.day)
        from generate_series(d.today - ${sql.raw(String(DAYS - 1))}, d.today, interval '1 day') g(day)
        left join t on t.day = g.day::date) as days,
      (select json_agg(json_build_object('method', p.method, 'today', p.today, 'month', p.month)
          order by p.month desc)
        from (select method,
            coalesce(sum(amount_cents) filter (where day = d.today), 0) as today,
            sum(amount_cents) as month
          from ${saleDailyPayments}
          where client_id = ${clientId} and day >= d.month_start and day <= d.today
          group by method) p) as methods,
      (select json_agg(json_build_object('productId', p.product_id, 'quantity', p.quantity,
          'amountCents', p.amount) order by p.amount desc, p.product_id)
        from (select product_id, quantity, amount_cents as amount from ${saleMonthlyProducts}
          where client_id = ${clientId} and month = d.month_start and amount_cents > 0
          order by amount_cents desc nulls last, product_id limit ${sql.raw(String(TOP_PRODUCTS))}) p) as top
    from d
    cross join lateral (
      select count(*) as count, coalesce(sum(s.final_amount_cents), 0) as amount from ${sales} s
      where s.client_id = ${clientId} and s.status <> 'canceled'
        and s.created_at >= d.y_from and s.created_at < d.y_to
    ) y
    cross join lateral (
      select count(*) as count, coalesce(sum(s.final_amount_cents), 0) as amount from ${sales} s
      where s.client_id = ${clientId} and s.status <> 'canceled'
        and s.created_at >= d.pm_from and s.created_at < d.pm_to
    ) pm`);
  const [row] = (result as unknown as { rows: Row[] }).rows;
  const top = row.top ?? [];
  const names = await productNames(
    db,
    actor,
    top.map((p) => p.productId),
  );
  const methods = (row.methods ?? []).map((m) => ({ ...m, today: num(m.today), month: num(m.month) }));
  return {
    today: period(row.t_count, row.t_amount),
    yesterdayUntilNow: period(row.y_count, row.y_amount),
    month: period(row.m_count, row.m_amount),
    previousMonthUntilNow: period(row.pm_count, row.pm_amount),
    byMethodToday: methods
      .filter((m) => m.today !== 0)
      .sort((a, b) => b.today - a.today)
      .map((m) => ({ method: m.method, amountCents: m.today })),
    byMethodMonth: methods
      .filter((m) => m.month !== 0)
      .map((m) => ({ method: m.method, amountCents: m.month })),
    days: row.days.map((x) => ({
      day: x.day,
      salesCount: num(x.salesCount),
      amountCents: num(x.amountCents),
    })),
    topProducts: top.map((p) => ({
      productId: p.productId,
      name: names.get(p.productId) ?? 'Produto excluído',
      quantity: num(p.quantity),
      amountCents: num(p.amountCents),
    })),
  };
}
