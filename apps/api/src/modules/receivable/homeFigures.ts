import type { HomeReceivables } from '@balcao/core/home';
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import type { Actor } from '../../lib/actor.ts';
import { num } from '../../lib/pg.ts';
import { receivables } from './schema.ts';

/**
 * The client's pending installments for the home: overdue, due today and due in the next 7 days, with
 * "today" the shop's date in its time zone (receivables_client_due_pending_idx).
 */
export async function receivableHomeFigures(db: Executor, actor: Actor): Promise<HomeReceivables> {
  const result = await db.execute(sql`
    with d as materialized (
      select (now() at time zone c.time_zone)::date as today from clients c where c.id = ${actor.clientId}
    )
    select
      count(*) filter (where r.due_date < d.today) as overdue_count,
      coalesce(sum(r.amount_cents) filter (where r.due_date < d.today), 0) as overdue_cents,
      count(*) filter (where r.due_date = d.today) as today_count,
      coalesce(sum(r.amount_cents) filter (where r.due_date = d.today), 0) as today_cents,
      count(*) filter (where r.due_date > d.today) as next_count,
      coalesce(sum(r.amount_cents) filter (where r.due_date > d.today), 0) as next_cents
    from d
    left join ${receivables} r on r.client_id = ${actor.clientId} and r.status = 'pending'
      and r.due_date <= d.today + 7`);
  const [row] = (result as unknown as { rows: Record<string, unknown>[] }).rows;
  return {
    overdue: { count: num(row?.overdue_count), amountCents: num(row?.overdue_cents) },
    dueToday: { count: num(row?.today_count), amountCents: num(row?.today_cents) },
    dueNextDays: { count: num(row?.next_count), amountCents: num(row?.next_cents) },
  };
}
