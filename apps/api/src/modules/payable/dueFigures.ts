import type { PayableDue } from '@balcao/core/payable';
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import type { Actor } from '../../lib/actor.ts';
import { num } from '../../lib/pg.ts';
import { shopTodaySql } from '../../lib/shopToday.ts';
import { payables } from './schema.ts';

/**
 * The shop's open payables against its date (issue 34): overdue, due today and due in the next 7 days,
 * each with its open balance (a partly paid bill owes the rest). One statement on
 * payables_client_due_idx; the bell (GET /v1/payable/due) and the home's card read it.
 */
export async function payableDueFigures(db: Executor, actor: Actor): Promise<PayableDue> {
  const result = await db.execute(sql`
    with d as materialized (select ${shopTodaySql(actor.clientId)} as today)
    select
      count(*) filter (where p.due_date < d.today) as overdue_count,
      coalesce(sum(p.amount_cents - p.paid_cents) filter (where p.due_date < d.today), 0) as overdue_cents,
      count(*) filter (where p.due_date = d.today) as today_count,
      coalesce(sum(p.amount_cents - p.paid_cents) filter (where p.due_date = d.today), 0) as today_cents,
      count(*) filter (where p.due_date > d.today) as next_count,
      coalesce(sum(p.amount_cents - p.paid_cents) filter (where p.due_date > d.today), 0) as next_cents
    from d
    left join ${payables} p on p.client_id = ${actor.clientId} and p.paid_cents < p.amount_cents
      and p.due_date <= d.today + 7`);
  const [row] = (result as unknown as { rows: Record<string, unknown>[] }).rows;
  return {
    overdue: { count: num(row?.overdue_count), amountCents: num(row?.overdue_cents) },
    dueToday: { count: num(row?.today_count), amountCents: num(row?.today_cents) },
    dueNextDays: { count: num(row?.next_count), amountCents: num(row?.next_cents) },
  };
}
