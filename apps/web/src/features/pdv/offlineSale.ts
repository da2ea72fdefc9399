import { formatQuantity } from '@balcao/core/product';
import type { OfflineSaleInput, Sale } from '@balcao/core/sale';
import { insufficientStockMessage } from '@balcao/core/stock';
import { ApiError } from '../../lib/api.ts';
import {
  type PdvLine,
  type PdvState,
  pdvPaymentCheck,
  pdvToSaleInput,
  pdvTotals,
} from '../checkout/index.ts';
import type { LocalCatalog, OfflineDb } from '../offline/index.ts';
import { enqueueSale } from '../offline/index.ts';

/**
 * The stock an offline sale would leave, checked on the local copy as the server checks it online:
 * with stock management on and negative stock forbidden, a line the copy cannot cover is refused
 * with the online message; where negative stock is allowed, the operator is warned and goes on.
 * Answers the warnings.
 */
async function checkOfflineStock(catalog: LocalCatalog, lines: PdvLine[]): Promise<string[]> {
  const settings = await catalog.stockSettings();
  if (!settings?.stockManagement) return [];
  const taken = new Map<string, number>();
  const warnings: string[] = [];
  for (const line of lines) {
    const product = await catalog.get(line.productId);
    if (!product?.stockControl) continue;
    const variant = line.variantId === null ? null : product.variants.find((v) => v.id === line.variantId);
    const key = `${product.id}:${variant?.id ?? ''}`;
    const level = (variant ? variant.stock : product.stock) - (taken.get(key) ?? 0);
    taken.set(key, (taken.get(key) ?? 0) + line.quantity);
    if (level - line.quantity >= 0) continue;
    const name = variant ? `${product.name} (${variant.name})` : product.name;
    if (!settings.allowNegativeStock)
      throw new ApiError(409, insufficientStockMessage(name, Math.max(level, 0)));
    warnings.push(
      `Estoque de ${name} ficará negativo (${formatQuantity(Math.round((level - line.quantity) * 1000) / 1000)}) neste aparelho`,
    );
  }
  return warnings;
}

/**
 * A PDV sale finished without a connection (issue 21): queued in the outbox with the prices and
 * coupon discount the screen charged, and answered as a provisional sale for the receipt (number 0:
 * the server numbers it when it arrives). The attempt's Idempotency-Key is the sale's id, so a sale
 * whose online request did reach the server is not recorded twice.
 */
export async function finishOffline(
  db: OfflineDb,
  catalog: LocalCatalog,
  state: PdvState,
  user: { id: number; name: string },
): Promise<{ sale: Sale; stockWarnings: string[] }> {
  const totals = pdvTotals(state);
  const paid = pdvPaymentCheck(state, totals.finalAmountCents);
  if (!paid.ok) throw new ApiError(422, paid.message);
  const stockWarnings = await checkOfflineStock(catalog, state.items);
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
    // Queued and taken from the local stock together: a sale queued twice (a reload) takes it once.
    await db.transaction('rw', db.outbox, db.products, async () => {
      await enqueueSale(db, {
        clientSaleId: body.clientSaleId,
        body,
        madeAt,
        finalAmountCents: totals.finalAmountCents,
      });
      await catalog.takeStock(state.items);
    });
  } catch (error) {
    // Queued already (a reload between queueing and the screen's next step): the same sale.
    if (!(error instanceof Error && error.name === 'ConstraintError')) throw error;
  }
  const now = madeAt;
  const sale: Sale = {
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
  return { sale, stockWarnings };
}
