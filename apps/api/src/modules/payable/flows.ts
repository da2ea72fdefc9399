import type { DreGroup } from '@balcao/core/payable';
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { num } from '../../lib/pg.ts';
import { payableCategories, payablePayments, payables } from './schema.ts';

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/**
 * Payables in the cash flow (issue 34): what was paid per day (the payments' totals: amount - discount +
 * interest + fine; reversed ones excluded) and the open part of what falls due per day.
 */
export async function payableFlows(
  db: Executor,
  clientId: number,
  from: string,
  to: string,
  /** One bank account: only the payments made from it (what is due has no account yet). */
  accountId?: number,
): Promise<{ day: string; paidCents: number; dueCents: number }[]> {
  const paid = sql`select p.paid_on::text as day,
          sum(p.amount_cents - p.discount_cents + p.interest_cents + p.fine_cents) as paid, 0 as due
        from ${payablePayments} p
        where p.client_id = ${clientId} and p.reversed_at is null and p.paid_on between ${from} and ${to}
          ${accountId ? sql`and p.bank_account_id = ${accountId}` : sql``}
        group by 1`;
  if (accountId) {
    const rows = rowsOf<{ day: string; paid: unknown }>(await db.execute(paid));
    return rows.map((r) => ({ day: r.day, paidCents: num(r.paid), dueCents: 0 }));
  }
  const rows = rowsOf<{ day: string; paid: unknown; due: unknown }>(
    await db.execute(sql`
      ${paid}
      union all
      select b.due_date::text as day, 0 as paid, sum(b.amount_cents - b.paid_cents) as due
        from ${payables} b
        where b.client_id = ${clientId} and b.paid_cents < b.amount_cents and b.due_date between ${from} and ${to}
        group by 1`),
  );
  return rows.map((r) => ({ day: r.day, paidCents: num(r.paid), dueCents: num(r.due) }));
}

/** A competence month's payables by DRE group (accrual: the amount, paid or not). */
export async function payableExpensesOfMonth(
  db: Executor,
  clientId: number,
  month: string,
): Promise<Map<DreGroup, number>> {
  const rows = rowsOf<{ grp: DreGroup; amount: unknown }>(
    await db.execute(sql`select c.dre_group as grp, sum(b.amount_cents) as amount
      from ${payables} b join ${payableCategories} c on c.id = b.category_id
      where b.client_id = ${clientId} and b.competence_month = ${`${month}-01`}
      group by c.dre_group`),
  );
  return new Map(rows.map((r) => [r.grp, num(r.amount)]));
}

/** The payments of a day (live ones), for the day's close: what each bill took and from where. */
export async function paymentsOfDay(
  db: Executor,
  clientId: number,
  date: string,
): Promise<
  {
    paymentId: number;
    payableId: number;
    description: string;
    method: string;
    fromRegister: boolean;
    amountCents: number;
  }[]
> {
  const rows = rowsOf<{
    paymentId: number;
    id: number;
    description: string;
    method: string;
    source: string;
    total: unknown;
  }>(
    await db.execute(sql`select p.id as "paymentId", b.id, b.description, p.method, p.source,
        p.amount_cents - p.discount_cents + p.interest_cents + p.fine_cents as total
      from ${payablePayments} p join ${payables} b on b.id = p.payable_id
      where p.client_id = ${clientId} and p.paid_on = ${date} and p.reversed_at is null
      order by p.id`),
  );
  return rows.map((r) => ({
    paymentId: r.paymentId,
    payableId: r.id,
    description: r.description,
    method: r.method,
    fromRegister: r.source === 'register',
    amountCents: num(r.total),
  }));
}

/** A competence month's payables of one DRE group (the DRE drill-down), by due date: the first `limit` and the count. */
export async function payablesOfMonthGroup(
  db: Executor,
  clientId: number,
  month: string,
  group: DreGroup,
  limit: number,
  /** A page of the export: the payables after this one (keyset on due date and id), no count. */
  page?: { after: { at: string; id: number } | null },
): Promise<{
  count: number;
  rows: { id: number; dueDate: string; at: string; description: string; amountCents: number }[];
}> {
  const after = page?.after
    ? sql`and (b.due_date, b.id) > (${page.after.at}::date, ${page.after.id})`
    : sql``;
  const count = page ? sql`0` : sql`count(*) over ()::int`;
  const rows = rowsOf<{ id: number; due: string; description: string; amount: unknown; count: number }>(
    await db.execute(sql`select b.id, b.due_date::text as due, b.description, b.amount_cents as amount,
        ${count} as count
      from ${payables} b join ${payableCategories} c on c.id = b.category_id
      where b.client_id = ${clientId} and b.competence_month = ${`${month}-01`} and c.dre_group = ${group} ${after}
      order by b.due_date, b.id limit ${limit}`),
  );
  return {
    count: rows[0]?.count ?? 0,
    rows: rows.map((r) => ({
      id: r.id,
      dueDate: r.due,
      at: r.due,
      description: r.description,
      amountCents: num(r.amount),
    })),
  };
}
