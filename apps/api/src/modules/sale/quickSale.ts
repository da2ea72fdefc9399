import type { SimpleSaleData } from '@balcao/core/sale';
import type { AppContext } from '../../context.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { type RecordedSale, type RecordOptions, recordSale, type SaleDraft } from './record.ts';

/** The quick sale (POST /v1/sale/simple): one free-text line, no catalog, stock or coupon. */

function quickDraft(data: SimpleSaleData): SaleDraft {
  return {
    originSale: 'pdv',
    typeOfSale: 'store',
    isSimple: true,
    customerId: data.customerId,
    sellerId: null,
    deliveryAddress: null,
    discountType: 'fixed_amount',
    discountValue: 0,
    couponCode: null,
    freightCents: 0,
    notes: data.notes,
    payments: data.payments,
    cashDepositAmountCents: data.cashDepositAmountCents,
    lines: [
      {
        productId: null,
        variantId: null,
        description: data.description,
        variantName: null,
        sku: null,
        barcode: null,
        unit: 'un',
        quantity: 1,
        unitPriceCents: data.valueCents,
        additionals: [],
        discountType: 'fixed_amount',
        discountValue: 0,
        notes: null,
      },
    ],
  };
}

export function quickSale(
  ctx: AppContext,
  session: SessionUser,
  data: SimpleSaleData,
  options: RecordOptions,
): Promise<RecordedSale> {
  return recordSale(ctx, session, async () => quickDraft(data), options);
}
