import { and, asc, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import type { Actor } from '../../lib/actor.ts';
import { receivables } from './schema.ts';

/**
 * Receivables: one row per crediário or boleto installment a customer owes. The sale writes them at
 * checkout and cancels the pending ones with the sale; settling one is in `settle.ts`; a customer's
 * credit before a crediário sale in `credit.ts`; the customer module's figures in `customerFigures.ts`.
 */

export type ReceivableRow = typeof receivables.$inferSelect;
export type NewInstallment = Omit<typeof receivables.$inferInsert, 'id' | 'createdAt' | 'updatedAt'>;

/** Writes installments (a sale's, inside its transaction; the demo seed's); answers the rows written. */
export async function insertInstallments(tx: Executor, rows: NewInstallment[]): Promise<ReceivableRow[]> {
  return rows.length > 0 ? tx.insert(receivables).values(rows).returning() : [];
}

/** A sale's receivables by installment number. */
export function receivablesOfSale(db: Executor, actor: Actor, saleId: number): Promise<ReceivableRow[]> {
  return db
    .select()
    .from(receivables)
    .where(and(eq(receivables.saleId, saleId), eq(receivables.clientId, actor.clientId)))
    .orderBy(asc(receivables.installment));
}

/** A canceled sale cancels its pending receivables (paid ones stay paid: refunds happen outside). */
export async function cancelPendingOfSale(tx: Executor, actor: Actor, saleId: number): Promise<void> {
  await tx
    .update(receivables)
    .set({ status: 'canceled', updatedAt: new Date() })
    .where(
      and(
        eq(receivables.saleId, saleId),
        eq(receivables.clientId, actor.clientId),
        eq(receivables.status, 'pending'),
      ),
    );
}
