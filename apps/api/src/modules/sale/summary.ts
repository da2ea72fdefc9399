import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import {
  saleDailyCreditInstallments,
  saleDailyPayments,
  saleDailyTotals,
  saleMonthlyProducts,
} from './schema.ts';

/**
 * Recomputes a client's daily sale summary (sale_daily_*, sale_monthly_products, and the reports' summary of
 * migration `sale_report_summary` through its `sale_report_rebuild`) from its sales: after a change of the shop's
 * time zone (the days move), after loading sales with triggers off (the bench), or to repair it. The
 * triggers keep it current otherwise. Run it in a transaction to swap the rows at once.
 */
export async function rebuildSaleSummary(db: Executor, clientId: number): Promise<void> {
  const day = sql`(s.created_at at time zone c.time_zone)::date`;
  const from = sql`from sales s join clients c on c.id = s.client_id
    where s.client_id = ${clientId} and s.status <> 'canceled'`;
  await db.execute(sql`delete from ${saleDailyTotals} where client_id = ${clientId}`);
  await db.execute(sql`delete from ${saleDailyPayments} where client_id = ${clientId}`);
  await db.execute(sql`delete from ${saleMonthlyProducts} where client_id = ${clientId}`);
  await db.execute(sql`delete from ${saleDailyCreditInstallments} where client_id = ${clientId}`);
  await db.execute(sql`insert into ${saleDailyCreditInstallments} (client_id, day, installments, amount_cents)
    select s.client_id, ${day}, p.number_installments, sum(p.amount_cents)
    from sale_payments p join sales s on s.id = p.sale_id join clients c on c.id = s.client_id
    where s.client_id = ${clientId} and s.status <> 'canceled' and p.method = 'creditCard'
      and p.number_installments >= 2
    group by 1, 2, 3`);
  await db.execute(sql`insert into ${saleDailyTotals} (client_id, day, sales_count, amount_cents)
    select s.client_id, ${day}, count(*), sum(s.final_amount_cents) ${from} group by 1, 2`);
  await db.execute(sql`insert into ${saleDailyPayments} (client_id, day, method, amount_cents)
    select s.client_id, ${day}, p.method, sum(p.amount_cents)
    from sale_payments p join sales s on s.id = p.sale_id join clients c on c.id = s.client_id
    where s.client_id = ${clientId} and s.status <> 'canceled' group by 1, 2, 3`);
  await db.execute(sql`insert into ${saleMonthlyProducts} (client_id, month, product_id, quantity, amount_cents)
    select s.client_id, date_trunc('month', ${day})::date, i.product_id, sum(i.quantity), sum(i.total_cents)
    from sale_items i join sales s on s.id = i.sale_id join clients c on c.id = s.client_id
    where s.client_id = ${clientId} and s.status <> 'canceled' and i.product_id is not null
    group by 1, 2, 3`);
  // Returns (issue 30) take their value off the sale's day, methods and products, as when recorded.
  await db.execute(sql`insert into ${saleDailyTotals} as t (client_id, day, sales_count, amount_cents)
    select s.client_id, ${day}, 0, -sum(r.amount_cents)
    from sale_returns r join sales s on s.id = r.sale_id join clients c on c.id = s.client_id
    where s.client_id = ${clientId} and s.status <> 'canceled' group by 1, 2
    on conflict (client_id, day) do update set amount_cents = t.amount_cents + excluded.amount_cents`);
  await db.execute(sql`insert into ${saleDailyPayments} as t (client_id, day, method, amount_cents)
    select s.client_id, ${day}, f.method, -sum(f.amount_cents)
    from sale_return_refunds f join sale_returns r on r.id = f.return_id join sales s on s.id = r.sale_id
    join clients c on c.id = s.client_id
    where s.client_id = ${clientId} and s.status <> 'canceled' group by 1, 2, 3
    on conflict (client_id, day, method) do update set amount_cents = t.amount_cents + excluded.amount_cents`);
  await db.execute(sql`insert into ${saleMonthlyProducts} as t (client_id, month, product_id, quantity, amount_cents)
    select s.client_id, date_trunc('month', ${day})::date, i.product_id, -sum(q.quantity),
      -sum(round(i.total_cents * q.quantity / i.quantity))
    from (select sale_item_id, sum(quantity) as quantity from sale_return_items group by 1) q
    join sale_items i on i.id = q.sale_item_id join sales s on s.id = i.sale_id
    join clients c on c.id = s.client_id
    where s.client_id = ${clientId} and s.status <> 'canceled' and i.product_id is not null
    group by 1, 2, 3
    on conflict (client_id, month, product_id) do update
      set quantity = t.quantity + excluded.quantity, amount_cents = t.amount_cents + excluded.amount_cents`);
  await db.execute(sql`select sale_report_rebuild(${clientId}::int)`);
}
