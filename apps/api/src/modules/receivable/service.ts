import { and, asc, eq, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { receivables } from './schema.ts';

/**
 * Receivables: one row per crediário or boleto installment a customer owes. The sale writes them at
 * checkout and cancels the pending ones with the sale; settling one is in `settle.ts`; customers read
 * their debts through the SQL fragments below (delinquency, pending and overdue sums).
 */

export type ReceivableRow = typeof receivables.$inferSelect;
export type NewInstallment = Omit<typeof receivables.$inferInsert, 'id' | 'createdAt' | 'updatedAt'>;

/**
 * Sum of a customer's pending receivables in cents (only those due before `overdueBefore` when
 * given), as a subquery for another module's select. `clientId` and `customerId` are values or
 * qualified columns of the outer query (e.g. sql`"customers"."id"`).
 */
export function pendingCentsSql(clientId: SQL | number, customerId: SQL | number, overdueBefore?: string) {
  const overdue = overdueBefore ? sql` and r.due_date < ${overdueBefore}` : sql``;
  return sql<number>`(select coalesce(sum(r.amount_cents), 0)::int from receivables r where r.client_id = ${clientId} and r.customer_id = ${customerId} and r.status = 'pending'${overdue})`;
}

/** A customer is delinquent when a pending receivable of theirs is past its due date (before `today`). */
export function overdueExistsSql(clientId: SQL | number, customerId: SQL | number, today: string) {
  return sql<boolean>`exists (select 1 from receivables r where r.client_id = ${clientId} and r.customer_id = ${customerId} and r.status = 'pending' and r.due_date < ${today})`;
}

/** Whether any receivable (of any status) points at the customer: such a customer cannot be deleted. */
export async function customerHasReceivables(db: Executor, clientId: number, customerId: number) {
  const [row] = await db
    .select({ id: receivables.id })
    .from(receivables)
    .where(and(eq(receivables.clientId, clientId), eq(receivables.customerId, customerId)))
    .limit(1);
  return row !== undefined;
}

/** Writes installments (a sale's, inside its transaction; the demo seed's); answers the rows written. */
export async function insertInstallments(tx: Executor, rows: NewInstallment[]): Promise<ReceivableRow[]> {
  return rows.length > 0 ? tx.insert(receivables).values(rows).returning() : [];
}

/** A sale's receivables by installment number. */
export function receivablesOfSale(db: Executor, clientId: number, saleId: number): Promise<ReceivableRow[]> {
  return db
    .select()
    .from(receivables)
    .where(and(eq(receivables.saleId, saleId), eq(receivables.clientId, clientId)))
    .orderBy(asc(receivables.installment));
}

/** A canceled sale cancels its pending receivables (paid ones stay paid: refunds happen outside). */
export async function cancelPendingOfSale(tx: Executor, clientId: number, saleId: number): Promise<void> {
  await tx
    .update(receivables)
    .set({ status: 'canceled', updatedAt: new Date() })
    .where(
      and(
        eq(receivables.saleId, saleId),
        eq(receivables.clientId, clientId),
        eq(receivables.status, 'pending'),
      ),
    );
}
