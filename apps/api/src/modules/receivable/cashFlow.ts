import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { num } from '../../lib/pg.ts';
import { shopDayStartSql } from '../../lib/shopToday.ts';
import { receivables } from './schema.ts';

/**
 * Crediário in the cash flow (issue 34): installments received per shop-local day (realised) and
 * pending ones per due date (projected), in a period.
 */
export async function receivableFlows(
  db: Executor,
  clientId: number,
  from: string,
  to: string,
): Promise<{ day: string; receivedCents: number; dueCents: number }[]> {
  const result = await db.execute(sql`
    select (r.paid_at at time zone c.time_zone)::date::text as day, sum(r.amount_cents) as received, 0 as due
      from ${receivables} r join clients c on c.id = r.client_id
      where r.client_id = ${clientId} and r.status = 'finished'
        and r.paid_at >= ${shopDayStartSql(clientId, from)} and r.paid_at < ${shopDayStartSql(clientId, to, 1)}
      group by 1
    union all
    select r.due_date::text as day, 0 as received, sum(r.amount_cents) as due
      from ${receivables} r
      where r.client_id = ${clientId} and r.status = 'pending' and r.due_date between ${from} and ${to}
      group by 1`);
  const rows = (result as unknown as { rows: { day: string; received: unknown; due: unknown }[] }).rows;
  return rows.map((r) => ({ day: r.day, receivedCents: num(r.received), dueCents: num(r.due) }));
}
