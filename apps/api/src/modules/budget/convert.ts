import { BUDGET_MESSAGES, type BudgetConvertInput } from '@balcao/core/budget';
import type { DeliveryOnSale } from '@balcao/core/delivery';
import { formatCents } from '@balcao/core/money';
import { budgetPixAttemptKey } from '@balcao/core/pixCharge';
import type { DeliveryAddress, DiscountKind, PaymentInput } from '@balcao/core/sale';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { unprocessable } from '../../errors.ts';
import { lineSnapshotOf } from '../../lib/lineSnapshot.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { pixChargeOfSale, unsoldPaidPixCents } from '../pix/service.ts';
import { priceItems } from '../product/pricing.ts';
import { type DeliveryOrderOfSale, deliveryOrderHook } from '../sale/checkout.ts';
import { type RecordedSale, recordSale, type SaleLineDraft } from '../sale/record.ts';
import { releaseReservation } from '../stock/reservation.ts';
import { budgets } from './schema.ts';
import { assertOpen, findBudgetRow, findItems, holderOf } from './service.ts';

/**
 * A budget converted into a sale (issue 17), THE sale seam's origin 'budget': the budget is locked
 * inside the sale's transaction (a second click waits, then finds it converted: 409), its lines go
 * at the budget's prices or today's catalog prices, its reservation is released so the sale may take
 * the units it held, and `onRecorded` marks it finished with the sale, in the same transaction.
 */

type BudgetConvertData = {
  prices: 'budget' | 'current';
  payments: PaymentInput[];
  cashDepositAmountCents: number;
  approval?: BudgetConvertInput['approval'];
  delivery?: DeliveryOnSale;
};

export async function convertBudget(
  ctx: AppContext,
  session: SessionUser,
  id: number,
  input: BudgetConvertData,
  idempotencyKey: string | null,
  deliveryOrderOfSale?: DeliveryOrderOfSale,
): Promise<RecordedSale> {
  const { clientId } = session;
  const { approval, ...body } = input;
  // An unknown budget (or another shop's) is a 404 before anything the sale seam checks, such as
  // the operator's open register: the read is repeated, locked, inside the sale's transaction.
  const budget = await findBudgetRow(ctx.db, clientId, id);
  // A delivery budget's sale makes its delivery order as the PDV's does (issue 30 item 7): the same
  // hook, in the sale's transaction (a budget's type of sale never changes after it is made).
  const typeOfSale = budget.row.typeOfSale === 'delivery' ? 'delivery' : 'store';
  const order = deliveryOrderHook(
    ctx,
    session,
    { typeOfSale, delivery: input.delivery ?? undefined },
    deliveryOrderOfSale,
  );
  const recorded = await recordSale(
    ctx,
    session,
    async (tx) => {
      const { row, today } = await findBudgetRow(tx, clientId, id, true);
      assertOpen(row, today);
      const items = await findItems(tx, id);
      const catalog = items.filter((i) => i.productId !== null);
      const current =
        input.prices === 'current'
          ? await priceItems(
              tx,
              clientId,
              catalog.map((i) => ({
                productId: i.productId as number,
                variantId: i.variantId,
                quantity: Number(i.quantity),
                additionals: (i.additionals as { id: number; quantity: number }[]).map((a) => ({
                  id: a.id,
                  quantity: a.quantity,
                })),
              })),
            )
          : null;
      const lines: SaleLineDraft[] = items.map((i) => {
        const priced = current && i.productId !== null ? current[catalog.indexOf(i)] : null;
        // The stored snapshot, or today's catalog for the same product, variant and add-ons.
        return {
          ...lineSnapshotOf(i),
          ...priced,
          discountType: i.discountType as DiscountKind,
          discountValue: i.discountValue,
          notes: i.notes,
        };
      });
      // The units this budget held are now this sale's to take.
      await releaseReservation(tx, clientId, holderOf(id));
      return {
        originSale: 'budget',
        typeOfSale: row.typeOfSale as 'store' | 'delivery',
        isSimple: false,
        customerId: row.customerId,
        sellerId: row.sellerId ?? (row.userId !== session.userId ? row.userId : null),
        deliveryAddress: (row.deliveryAddress as DeliveryAddress | null) ?? null,
        discountType: row.discountType as DiscountKind,
        discountValue: row.discountValue,
        couponCode: null,
        freightCents: row.freightCents,
        notes: [`Orçamento nº ${row.number}`, row.notes].filter(Boolean).join(' · '),
        payments: input.payments,
        cashDepositAmountCents: input.cashDepositAmountCents,
        lines,
      };
    },
    {
      idempotencyKey: idempotencyKey ? `budget:${id}:${idempotencyKey}` : null,
      body: { budgetId: id, ...body },
      approval,
      onRecorded: async (tx, sale) => {
        // Issue 33: the Pix the customer paid on the link is this sale's Pix QR dinâmico payment (its
        // endToEndId on the payment, refunded on cancel); a pixQrCode payment is only ever that Pix.
        const pixCents = input.payments
          .filter((p) => p.method === 'pixQrCode')
          .reduce((sum, p) => sum + p.amountCents, 0);
        const paidCents = await unsoldPaidPixCents(tx, clientId, budgetPixAttemptKey(id));
        if (paidCents > 0 && pixCents === 0)
          throw unprocessable(BUDGET_MESSAGES.pixPaidMissing(formatCents(paidCents)), [
            { path: 'payments', message: BUDGET_MESSAGES.pixPaidMissing(formatCents(paidCents)) },
          ]);
        await pixChargeOfSale(tx, clientId, budgetPixAttemptKey(id), sale, pixCents);
        await tx
          .update(budgets)
          .set({ status: 'finished', saleId: sale.id, saleNumber: sale.number, updatedAt: new Date() })
          .where(eq(budgets.id, id));
        await order.onRecorded?.(tx, sale);
      },
    },
  );
  ctx.changed(clientId, 'budget', id);
  order.afterCommit();
  return recorded;
}
