import { computeSaleTotals } from '@balcao/core/sale';
import { SALE_RETURN_MESSAGES, type SaleExchangeData } from '@balcao/core/saleReturn';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { resolveApproval } from '../auth/approval.ts';
import { returnSettings } from '../settings/system.ts';
import { lockSale } from './cancel.ts';
import { type DeliveryOrderOfSale, deliveryOrderHook, pdvDraft } from './checkout.ts';
import { type RecordedSale, recordSale } from './record.ts';
import { applyReturn } from './saleReturn.ts';

const fail = (message: string, path: string) => new AppError(422, message, [{ path, message }]);

/**
 * An exchange in one operation (issue 30, POST /v1/sale/:id/exchange): the sale's origin file. Inside
 * the new sale's transaction (after its Idempotency-Key and register), the returned lines become the
 * customer's vale-troca (`applyReturn`), the new sale is priced as the PDV's and paid first with that
 * credit; `sale.payments` pay the difference, and what the credit leaves over stays on the customer.
 * Both commit or neither; a retried key answers the new sale without a second return.
 */
export async function exchangeSale(
  ctx: AppContext,
  session: SessionUser,
  saleId: number,
  input: SaleExchangeData,
  idempotencyKey: string,
  deliveryOrderOfSale?: DeliveryOrderOfSale,
): Promise<RecordedSale> {
  const { db } = ctx;
  const { clientId } = session;
  const settings = await returnSettings(db, clientId);
  // Passwords are checked, never part of what the key is bound to.
  const { approval, ...rest } = input;
  const { approval: saleApproval, ...newSale } = input.sale;
  const body = { ...rest, sale: newSale };
  const approvedBy = settings.userTypeIds.includes(session.userTypeId)
    ? null
    : await resolveApproval(
        db,
        session,
        approval,
        SALE_RETURN_MESSAGES.needsApproval,
        SALE_RETURN_MESSAGES.approvalRefused,
      );
  if (input.sale.couponCode) throw fail(SALE_RETURN_MESSAGES.exchangeCoupon, 'sale.couponCode');
  const order = deliveryOrderHook(ctx, session, input.sale, deliveryOrderOfSale);
  const recorded = await recordSale(
    ctx,
    session,
    async (tx) => {
      const old = await lockSale(tx, clientId, saleId);
      const customerId = input.sale.customerId ?? old.customerId;
      if (customerId === null) throw fail(SALE_RETURN_MESSAGES.exchangeCustomer, 'sale.customerId');
      const returned = await applyReturn(
        tx,
        session,
        saleId,
        { lines: input.lines, refund: 'storeCredit', customerId, reason: input.reason },
        settings,
        approvedBy,
        null,
      );
      const draft = await pdvDraft(tx, clientId, { ...newSale, customerId, couponCode: null });
      const { finalAmountCents } = computeSaleTotals({
        lines: draft.lines,
        discountType: draft.discountType,
        discountValue: draft.discountValue,
        freightCents: draft.freightCents,
      });
      const credit = Math.min(returned.amountCents, finalAmountCents);
      return {
        ...draft,
        notes: draft.notes ?? SALE_RETURN_MESSAGES.exchangeNotes(old.number),
        payments:
          credit > 0
            ? [
                { method: 'storeCredit', amountCents: credit, numberInstallments: 1, dueDate: null },
                ...draft.payments,
              ]
            : draft.payments,
      };
    },
    {
      idempotencyKey: `exchange:${idempotencyKey}`,
      body,
      approval: saleApproval,
      onRecorded: order.onRecorded,
    },
  );
  order.afterCommit();
  if (!recorded.replayed) {
    ctx.changed(clientId, 'sale', saleId);
    ctx.changed(clientId, 'customer');
  }
  return recorded;
}
