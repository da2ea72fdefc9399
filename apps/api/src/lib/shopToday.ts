import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';

/**
 * "Today" in the shop's time zone (the platform column `clients.time_zone`, issue 14) as a SQL date,
 * to embed in a statement that runs anyway: `due_date < ${shopTodaySql(clientId)}`, or selected as
 * a column (`::text`, 'YYYY-MM-DD'). With a number it is an uncorrelated subquery, evaluated once
 * per statement; `now()` is the transaction's start.
 */
export const shopTodaySql = (clientId: number | SQL): SQL<string> =>
  sql<string>`(now() at time zone ${shopZoneSql(clientId)})::date`;

/** "Today" in the shop's time zone as 'YYYY-MM-DD' (one query: for paths without a statement to ride on). */
export async function shopToday(db: Executor, clientId: number): Promise<string> {
  return (await shopClock(db, clientId)).today;
}

/** The shop's time zone as a SQL subquery (uncorrelated with a number: evaluated once per statement). */
const shopZoneSql = (clientId: number | SQL): SQL<string> =>
  sql<string>`(select c.time_zone from clients c where c.id = ${clientId})`;

/**
 * The instant a shop date starts (midnight in the shop's time zone, daylight saving of old dates
 * included), `plusDays` later: for date filters on timestamps (`created_at >= ...`, `< ... + 1`).
 */
export const shopDayStartSql = (clientId: number, isoDate: string, plusDays = 0): SQL =>
  sql`((${isoDate}::date + ${plusDays}::int)::timestamp at time zone ${shopZoneSql(clientId)})`;

/**
 * The instant a shop date starts when the caller already read the zone (`shopClock`): the zone is a
 * value the planner sees, so a range over a year of sales is estimated as such (with the subquery of
 * `shopDayStartSql` the planner guesses a few thousand rows and picks nested loops: the sales
 * reports, issue 34, ran 2x slower on 1,000,000 sales).
 */
export const zoneDayStartSql = (timeZone: string, isoDate: string, plusDays = 0): SQL =>
  sql`((${isoDate}::date + ${plusDays}::int)::timestamp at time zone ${timeZone}::text)`;

/** The shop's time zone and today's date in it, one query: for CSV dates and file names. */
export async function shopClock(
  db: Executor,
  clientId: number,
): Promise<{ timeZone: string; today: string }> {
  const result = await db.execute(
    sql`select c.time_zone as "timeZone", (now() at time zone c.time_zone)::date::text as today
      from clients c where c.id = ${clientId}`,
  );
  const [row] = (result as unknown as { rows: { timeZone: string; today: string }[] }).rows;
  if (!row) throw new Error(`client ${clientId} not found`);
  return row;
}
