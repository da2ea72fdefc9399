import { sql } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client.ts';
import type { Storage } from '../storage/storage.ts';
import { quoteIdent as q, rowsOf, shopTablePlan, type TablePlan } from './catalog.ts';
import { shopFileKeys } from './export.ts';

/**
 * Every row of the shop deleted inside the caller's transaction (children first, triggers off for the
 * transaction), its users' sessions too; answers the rows deleted per table. purgeShop's core, and a
 * restore's with --force (the shop's rows replaced by its backup's in one transaction).
 */
export async function deleteShopRows(
  tx: Executor,
  plans: TablePlan[],
  clientId: number,
): Promise<Record<string, number>> {
  const rows: Record<string, number> = {};
  // Triggers off: counters and summaries of a shop that is going need no upkeep (the order below
  // still deletes children first, so each filter finds its parents).
  await tx.execute(sql`set local session_replication_role = replica`);
  // Its users' login sessions (not shop data, so not in the plan) go first.
  const [{ n }] = await rowsOf<{ n: number }>(
    tx,
    sql`with gone as (delete from sessions where user_id in (select id from users where client_id = ${clientId}) returning 1) select count(*)::int as n from gone`,
  );
  if (n > 0) rows.sessions = n;
  for (const plan of [...plans].reverse()) {
    const filter = plan.filter.replace(/\$CLIENT/g, String(Math.trunc(clientId)));
    const [{ n }] = await rowsOf<{ n: number }>(
      tx,
      sql.raw(
        `with gone as (delete from ${q(plan.name)} t where ${filter} returning 1) select count(*)::int as n from gone`,
      ),
    );
    if (n > 0) rows[plan.name] = n;
  }
  return rows;
}

type PurgeResult = { clientId: number; rows: Record<string, number>; total: number; files: number };

/**
 * LGPD's eliminação (issue 37): every row of the shop, children before parents (the export's order
 * reversed, so each child table's filter still finds its parents), in one transaction, then its stored
 * files. Counted per table and logged in one line; no other shop's row is touched (the same filters as
 * the export).
 */
export async function purgeShop(
  db: Db,
  storage: Storage,
  clientId: number,
  log: (line: string) => void = console.log,
): Promise<PurgeResult> {
  const plans = await shopTablePlan(db);
  const keys = await shopFileKeys(db, plans, clientId);
  const rows: Record<string, number> = {};
  await db.transaction(async (tx) => {
    Object.assign(rows, await deleteShopRows(tx, plans, clientId));
  });
  for (const key of keys) await storage.remove(key);
  const total = Object.values(rows).reduce((a, b) => a + b, 0);
  log(
    `shop ${clientId} deleted (LGPD): ${total} rows in ${Object.keys(rows).length} tables, ${keys.length} files; ${Object.entries(
      rows,
    )
      .map(([t, n]) => `${t}=${n}`)
      .join(' ')}`,
  );
  return { clientId, rows, total, files: keys.length };
}
