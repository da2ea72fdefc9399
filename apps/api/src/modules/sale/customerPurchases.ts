import { type SQL, sql } from 'drizzle-orm';

/**
 * A customer's purchases as SQL fragments over the customer's qualified id, for a higher module's
 * audience (campaign): canceled sales do not count.
 */
export const customerPurchases = {
  /** When the customer last bought (null if never). */
  lastPurchaseAt: (clientId: number, customerId: SQL) =>
    sql<Date | null>`(select max(s.created_at) from sales s where s.client_id = ${clientId} and s.customer_id = ${customerId} and s.status <> 'canceled')`,
  /** What the customer spent in total, in cents. */
  spentCents: (clientId: number, customerId: SQL) =>
    sql<number>`(select coalesce(sum(s.total_cents), 0) from sales s where s.client_id = ${clientId} and s.customer_id = ${customerId} and s.status <> 'canceled')`,
};
