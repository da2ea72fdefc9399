import { and, eq, sql } from 'drizzle-orm';
import type { ReceivableFigures } from '../customer/service.ts';
import { receivables } from './schema.ts';

/**
 * A customer's receivable figures for the customer list, detail, counters and delete check, handed
 * to the customer module at wiring (modules/index.ts): SQL fragments for its selects (delinquency,
 * pending and overdue sums) and whether any receivable points at a customer.
 */
export const receivableFigures: ReceivableFigures = {
  overdueExists: (clientId, customerId, today) =>
    sql<boolean>`exists (select 1 from receivables r where r.client_id = ${clientId} and r.customer_id = ${customerId} and r.status = 'pending' and r.due_date < ${today})`,
  pendingCents(clientId, customerId, overdueBefore) {
    const overdue = overdueBefore ? sql` and r.due_date < ${overdueBefore}` : sql``;
    return sql<number>`(select coalesce(sum(r.amount_cents), 0)::int from receivables r where r.client_id = ${clientId} and r.customer_id = ${customerId} and r.status = 'pending'${overdue})`;
  },
  changedSince: (clientId, customerId, since) =>
    sql<boolean>`exists (select 1 from receivables r where r.client_id = ${clientId} and r.customer_id = ${customerId} and r.updated_at >= ${since})`,
  async anyOf(db, clientId, customerId) {
    const [row] = await db
      .select({ id: receivables.id })
      .from(receivables)
      .where(and(eq(receivables.clientId, clientId), eq(receivables.customerId, customerId)))
      .limit(1);
    return row !== undefined;
  },
};
