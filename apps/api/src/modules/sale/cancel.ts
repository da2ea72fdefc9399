import type { Sale, SaleCancelInput } from '@balcao/core/sale';
import { SALE_RETURN_MESSAGES } from '@balcao/core/saleReturn';
import { and, eq } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { conflict, notFound } from '../../errors.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { resolveApproval } from '../auth/approval.ts';
import { cancelCouponUses } from '../coupon/service.ts';
import { addStoreCredit } from '../customer/storeCredit.ts';
import { cancelPendingOfSale } from '../receivable/service.ts';
import { returnSaleStock } from '../stock/sale.ts';
import { runSaleCanceledFollowUps } from './followUps.ts';
import { findSale, SALE_NOT_FOUND } from './read.ts';
import { salePayments, saleReturns, sales } from './schema.ts';

const SALE_ALREADY_CANCELED = 'Esta venda já está cancelada';
const CANCEL_NEEDS_APPROVAL =
  'Cancelar uma venda precisa da aprovação de um gerente: informe o email e a senha de um Administrador ou Gerente';
const CANCEL_APPROVAL_REFUSED = 'Aprovação recusada: email ou senha de Administrador/Gerente incorretos';

/** The client's sale, locked FOR UPDATE until the commit (cancel, settle). 404 for another client's. */
export async function lockSale(tx: Executor, clientId: number, id: number) {
  const [sale] = await tx
    .select()
    .from(sales)
    .where(and(eq(sales.id, id), eq(sales.clientId, clientId)))
    .for('update');
  if (!sale) throw notFound(SALE_NOT_FOUND);
  return sale;
}

/**
 * What else ends with a canceled sale (the delivery module's open order of a delivery sale, handed
 * over at wiring: delivery is above sale). Runs in the cancel's transaction; answers what to signal
 * after the commit.
 */
export type SaleCanceled = (
  tx: Executor,
  clientId: number,
  saleId: number,
  reason: string,
) => Promise<(() => void) | undefined>;

/**
 * Cancels a sale (Administrador/Gerente, or a PDV user with a manager's approval): returns the stock
 * it took (sale-cancel rows mirroring its sale rows), frees its coupon use and cancels its pending
 * receivables, in one transaction.
 */
export async function cancelSale(
  ctx: AppContext,
  session: SessionUser,
  id: number,
  input: SaleCancelInput,
  saleCanceled?: SaleCanceled,
): Promise<Sale> {
  const { db } = ctx;
  const approvedBy = await resolveApproval(
    db,
    session,
    input.approval,
    CANCEL_NEEDS_APPROVAL,
    CANCEL_APPROVAL_REFUSED,
  );
  const afterCommit = await db.transaction(async (tx) => {
    const sale = await lockSale(tx, session.clientId, id);
    if (sale.status === 'canceled') throw conflict(SALE_ALREADY_CANCELED);
    const [returned] = await tx
      .select({ id: saleReturns.id })
      .from(saleReturns)
      .where(eq(saleReturns.saleId, id))
      .limit(1);
    if (returned) throw conflict(SALE_RETURN_MESSAGES.hasReturns);
    const credit = await tx
      .select({ amount: salePayments.amountCents })
      .from(salePayments)
      .where(and(eq(salePayments.saleId, id), eq(salePayments.method, 'storeCredit')));
    const creditCents = credit.reduce((s, c) => s + c.amount, 0);
    if (creditCents > 0 && sale.customerId !== null) {
      // The vale-troca the sale spent goes back to the customer (issue 30).
      await addStoreCredit(tx, session, {
        customerId: sale.customerId,
        amountCents: creditCents,
        kind: 'sale-cancel',
        saleId: id,
      });
    }
    await returnSaleStock(tx, { clientId: session.clientId, userId: session.userId }, sale);
    await cancelCouponUses(tx, session, id);
    await cancelPendingOfSale(tx, session, id);
    await tx
      .update(sales)
      .set({
        status: 'canceled',
        cancelReason: input.reason,
        canceledAt: new Date(),
        canceledByUserId: session.userId,
        cancelApprovedByUserId: approvedBy,
        updatedAt: new Date(),
      })
      .where(eq(sales.id, id));
    return saleCanceled?.(tx, session.clientId, id, input.reason);
  });
  ctx.changed(session.clientId, 'sale', id);
  afterCommit?.();
  runSaleCanceledFollowUps(ctx, session, { id, reason: input.reason });
  return findSale(db, session, id);
}
