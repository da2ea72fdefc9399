import type { HomeTables } from '@balcao/core/home';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { nightStartSql } from './night.ts';
import { listBoard } from './read.ts';

/**
 * The garçom's own figures on his home (issue 30): his open tabs (how many, their total so far) and
 * the tabs of his closed tonight (how many, what they took). Only his: no shop total.
 */
export async function waiterHomeFigures(db: Db, session: SessionUser): Promise<HomeTables> {
  const [board, closed] = await Promise.all([
    listBoard(db, session, session.userId),
    db.execute(sql`select count(distinct c.id)::int as count, coalesce(sum(p.amount_cents), 0)::int as "amountCents"
      from comandas c left join comanda_payments p on p.comanda_id = c.id
      where c.client_id = ${session.clientId} and c.waiter_id = ${session.userId} and c.status = 'finished'
        and c.closed_at >= ${nightStartSql(session.clientId)}`),
  ]);
  const [row] = (closed as unknown as { rows: { count: number; amountCents: number }[] }).rows;
  return {
    open: {
      count: board.tabs.length,
      amountCents: board.tabs.reduce((s, t) => s + t.totalCents, 0),
    },
    closedToday: { count: Number(row?.count ?? 0), amountCents: Number(row?.amountCents ?? 0) },
  };
}
