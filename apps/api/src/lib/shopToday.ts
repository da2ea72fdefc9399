import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';

/**
 * "Today" in the shop's time zone (the platform column `clients.time_zone`, issue 14) as a SQL date,
 * to embed in a statement that runs anyway: `due_date < ${shopTodaySql(clientId)}`, or selected as
 * a column (`::text`, 'YYYY-MM-DD'). With a number it is an uncorrelated subquery, evaluated once
 * per statement; `now()` is the transaction's start.
 */
export const shopTodaySql = (clientId: number | SQL): SQL<string> =>
  sql<string>`(now() at time zone (select c.time_zone from clients c where c.id = ${clientId}))::date`;

/** "Today" in the shop's time zone as 'YYYY-MM-DD' (one query: for paths without a statement to ride on). */
export async function shopToday(db: Executor, clientId: number): Promise<string> {
  const [row] = await db.execute(sql`select ${shopTodaySql(clientId)}::text as today`).then(rowsOf);
  if (!row?.today) throw new Error(`client ${clientId} not found`);
  return row.today;
}

function rowsOf(result: unknown): { today: string }[] {
  return (result as { rows: { today: string }[] }).rows;
}
