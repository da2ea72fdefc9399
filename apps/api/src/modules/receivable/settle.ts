import type { Sale } from '@balcao/core/sale';
import type { PaymentMethod } from '@balcao/core/status';
import { and, eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { conflict, notFound, unprocessable } from '../../errors.ts';
import type { Actor } from '../../lib/actor.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { recordReceipt } from '../cash-register/service.ts';
import { receivables } from './schema.ts';

type LockedSale = { id: number; number: number; status: string };

/**
 * What settling needs from the sale an installment belongs to. The sale module sits above this one
 * (its checkout writes receivables), so it hands these over when the modules are wired
 * (modules/index.ts) instead of this module importing it.
 */
export type SaleOfInstallments = {
  /** Locks the client's sale (FOR UPDATE) for the settle; 404 when there is none. */
  lock(tx: Executor, clientId: number, saleId: number): Promise<LockedSale>;
  /** An installment was paid: with none left pending a pending sale is finished; updatedAt moves. */
  installmentPaid(tx: Executor, sale: LockedSale, nonePending: boolean, at: Date): Promise<void>;
  /** The sale as GET /v1/sale/{id} answers it. */
  find(db: Executor, actor: Actor, saleId: number): Promise<Sale>;
};

/**
 * Marks a crediário/boleto installment as paid. The amount is recorded in the user's open register
 * (as a receipt of the given method) when there is one; the sale becomes finished when nothing is
 * left pending. Answers the sale.
 */
export async function settleReceivable(
  ctx: AppContext,
  sales: SaleOfInstallments,
  session: SessionUser,
  input: { saleId: number; receivableId: number; paymentMethod: PaymentMethod },
): Promise<Sale> {
  const { saleId, receivableId } = input;
  const registerId = await ctx.db.transaction(async (tx) => {
    const sale = await sales.lock(tx, session.clientId, saleId);
    if (sale.status === 'canceled') throw unprocessable('Esta venda está cancelada');
    const [receivable] = await tx
      .select()
      .from(receivables)
      .where(
        and(
          eq(receivables.id, receivableId),
          eq(receivables.saleId, saleId),
          eq(receivables.clientId, session.clientId),
        ),
      )
      .for('update');
    if (!receivable) throw notFound('Parcela não encontrada');
    if (receivable.status === 'finished') throw conflict('Esta parcela já foi paga');
    if (receivable.status !== 'pending') throw unprocessable('Esta parcela está cancelada');
    const now = new Date();
    await tx
      .update(receivables)
      .set({ status: 'finished', paidAt: now, updatedAt: now })
      .where(eq(receivables.id, receivableId));
    const receiptRegister = await recordReceipt(tx, session, {
      receivableId,
      method: input.paymentMethod,
      amountCents: receivable.amountCents,
      reason: `Parcela ${receivable.installment} da venda nº ${sale.number}`,
    });
    const [left] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(receivables)
      .where(and(eq(receivables.saleId, saleId), eq(receivables.status, 'pending')));
    await sales.installmentPaid(tx, sale, Number(left.n) === 0, now);
    return receiptRegister;
  });
  ctx.changed(session.clientId, 'receivable', receivableId);
  ctx.changed(session.clientId, 'sale', saleId);
  if (registerId !== null) ctx.changed(session.clientId, 'cash-register', registerId);
  return sales.find(ctx.db, session, saleId);
}
