import type { OfflineSaleInput, Sale } from '@balcao/core/sale';
import type { OfflineDb } from '../offline/db.ts';
import { enqueueSale } from '../offline/outbox.ts';
import { type PdvState, pdvPaymentCheck, pdvToSaleInput, pdvTotals } from './state.ts';

/**
 * A PDV sale finished without a connection (issue 21): queued in the outbox with the prices and
 * coupon discount the screen charged, and answered as a provisional sale for the receipt (number 0:
 * the server numbers it when it arrives). The attempt's Idempotency-Key is the sale's id, so a sale
 * whose online request did reach the server is not recorded twice.
 */
export async function finishOffline(
  db: OfflineDb,
  state: PdvState,
  user: { id: number; name: string },
): Promise<Sale> {
  const totals = pdvTotals(state);
  const paid = pdvPaymentCheck(state, totals.finalAmountCents);
  if (!paid.ok) throw new Error(paid.message);
  const madeAt = new Date().toISOString();
  const body: OfflineSaleInput = {
    clientSaleId: state.idempotencyKey,
    madeAt,
    sale: pdvToSaleInput(state),
    prices: state.items.map((l) => ({
      unitPriceCents: l.unitPriceCents,
      additionals: l.additionals.map((a) => ({ id: a.id, priceCents: a.priceCents })),
    })),
    couponDiscountCents: totals.couponDiscountCents,
  };
  try {
    await enqueueSale(db, {
      clientSaleId: body.clientSaleId,
      body,
      madeAt,
      finalAmountCents: totals.finalAmountCents,
    });
  } catch (error) {
    // Queued already (a reload between queueing and the screen's next step): the same sale.
    if (!(error instanceof Error && error.name === 'ConstraintError')) throw error;
  }
  const now = madeAt;
  return {
    id: 0,
    number: 0,
    status: paid.status,
    typeOfSale: state.typeOfSale,
    originSale: 'pdv',
    isSimple: false,
    customer: state.customer
      ? {
          id: state.customer.id,
          name: state.customer.name,
          document: state.customer.document,
          phone: state.customer.phone,
        }
      : null,
    user: { id: user.id, name: user.name },
    seller: null,
    cashRegisterId: null,
    items: state.items.map((l, i) => ({
      id: i + 1,
      productId: l.productId,
      variantId: l.variantId,
      description: l.name,
      variantName: l.variantName,
      sku: l.sku,
      barcode: l.barcode,
      unit: l.unit,
      quantity: l.quantity,
      unitPriceCents: l.unitPriceCents,
      additionals: l.additionals,
      unitTotalCents: totals.lines[i].unitTotalCents,
      grossCents: totals.lines[i].grossCents,
      discountType: l.discountType,
      discountValue: l.discountValue,
      discountCents: totals.lines[i].discountCents,
      totalCents: totals.lines[i].totalCents,
      notes: null,
    })),
    payments: paid.payments.map((p, i) => ({
      id: i + 1,
      method: p.method,
      amountCents: p.amountCents,
      numberInstallments: p.numberInstallments,
      dueDate: p.dueDate,
    })),
    receivables: [],
    totalItems: totals.totalItems,
    totalQuantity: totals.totalQuantity,
    itemsDiscountCents: totals.itemsDiscountCents,
    totalCents: totals.totalCents,
    discountType: state.discountType,
    discountValue: state.discountValue,
    discountCents: totals.discountCents,
    coupon: state.coupon ? { id: 0, code: state.coupon.code } : null,
    couponDiscountCents: totals.couponDiscountCents,
    freightCents: totals.freightCents,
    finalAmountCents: totals.finalAmountCents,
    cashDepositAmountCents: paid.cashDepositAmountCents,
    changeCents: paid.changeCents,
    deliveryAddress: null,
    notes: null,
    cancelReason: null,
    canceledAt: null,
    canceledBy: null,
    discountApprovedBy: null,
    cancelApprovedBy: null,
    createdAt: now,
    finishedAt: paid.status === 'finished' ? now : null,
    updatedAt: now,
    madeOffline: true,
    syncedAt: null,
    offlineFlags: [],
  };
}
