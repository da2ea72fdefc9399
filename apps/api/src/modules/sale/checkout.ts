import type { SaleData } from '@balcao/core/sale';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { findDeliveryAddress } from '../customer/refs.ts';
import { priceItems } from '../product/pricing.ts';
import { type RecordedSale, type RecordOptions, recordSale, type SaleDraft } from './record.ts';

/** The PDV checkout (POST /v1/sale): catalog lines priced by the product module, a store or delivery sale. */

async function deliveryAddressOf(tx: Executor, clientId: number, data: SaleData) {
  if (data.typeOfSale !== 'delivery' || data.customerId === null || data.deliveryAddressId === null) {
    return null;
  }
  const address = await findDeliveryAddress(tx, clientId, data.customerId, data.deliveryAddressId);
  if (!address) {
    const message = 'Endereço de entrega não encontrado para este cliente';
    throw new AppError(422, message, [{ path: 'deliveryAddressId', message }]);
  }
  return address;
}

/** The PDV's draft: prices, names and codes from the catalog (the till never sends a price). */
export async function pdvDraft(tx: Executor, clientId: number, data: SaleData): Promise<SaleDraft> {
  const deliveryAddress = await deliveryAddressOf(tx, clientId, data);
  const priced = await priceItems(tx, clientId, data.items);
  return {
    originSale: 'pdv',
    typeOfSale: data.typeOfSale,
    isSimple: false,
    customerId: data.customerId,
    sellerId: data.sellerId,
    deliveryAddress,
    discountType: data.discountType,
    discountValue: data.discountValue,
    couponCode: data.couponCode,
    freightCents: data.typeOfSale === 'delivery' ? data.freightCents : 0,
    notes: data.notes,
    payments: data.payments,
    cashDepositAmountCents: data.cashDepositAmountCents,
    consumerDocument: data.consumerDocument,
    lines: data.items.map((item, i) => ({
      ...priced[i],
      quantity: item.quantity,
      discountType: item.discountType,
      discountValue: item.discountValue,
      notes: item.notes,
    })),
  };
}

/**
 * The delivery order of a delivery sale, made inside the sale's transaction (the delivery module's,
 * handed over at wiring: delivery is above sale). Answers what to signal after the commit.
 */
export type DeliveryOrderOfSale = (
  ctx: AppContext,
  tx: Executor,
  session: SessionUser,
  sale: { id: number; number: number },
  delivery: SaleData['delivery'],
) => Promise<() => void>;

/**
 * The delivery order of a delivery sale, made by the delivery module's hook in the sale's
 * transaction (`onRecorded`; a replayed key never reaches it, so a resent sale makes one order),
 * and its signal sent after the commit (`afterCommit`). The online checkout and the offline sync
 * both record through it.
 */
export function deliveryOrderHook(
  ctx: AppContext,
  session: SessionUser,
  sale: Pick<SaleData, 'typeOfSale' | 'delivery'>,
  deliveryOrderOfSale: DeliveryOrderOfSale | undefined,
) {
  // A food shop's counter sale (pickup, comandas on) sends its lines to the kitchen through it too.
  const makeOrder = sale.typeOfSale === 'delivery' || session.saleCommand ? deliveryOrderOfSale : undefined;
  let signal: (() => void) | undefined;
  return {
    onRecorded:
      makeOrder &&
      (async (tx: Executor, s: { id: number; number: number }) => {
        signal = await makeOrder(ctx, tx, session, s, sale.delivery);
      }),
    afterCommit: () => signal?.(),
  };
}

/**
 * The dynamic Pix (`pixQrCode`) of a sale, checked and tied to it in the sale's transaction: the pix
 * module's (issue 33), handed over at wiring (pix is above sale). The charge is the attempt's, found
 * by the sale's Idempotency-Key; refused (422) until the PSP confirmed it for that amount.
 */
export type PixPaymentOfSale = (
  tx: Executor,
  clientId: number,
  attemptKey: string | null | undefined,
  sale: { id: number },
  pixCents: number,
) => Promise<void>;

export async function checkout(
  ctx: AppContext,
  session: SessionUser,
  data: SaleData,
  options: RecordOptions,
  deliveryOrderOfSale?: DeliveryOrderOfSale,
  pixPaymentOfSale?: PixPaymentOfSale,
): Promise<RecordedSale> {
  // The approval holds a manager's password: checked, never part of what the key is bound to (a
  // retry that adds the approval after a 403 is the same sale).
  const { approval, ...sale } = data;
  const order = deliveryOrderHook(ctx, session, sale, deliveryOrderOfSale);
  const pixCents = sale.payments
    .filter((p) => p.method === 'pixQrCode')
    .reduce((sum, p) => sum + p.amountCents, 0);
  const recorded = await recordSale(ctx, session, (tx) => pdvDraft(tx, session.clientId, sale), {
    ...options,
    body: sale,
    approval,
    onRecorded:
      pixCents > 0 && pixPaymentOfSale
        ? async (tx, s) => {
            await pixPaymentOfSale(tx, session.clientId, options.idempotencyKey, s, pixCents);
            await order.onRecorded?.(tx, s);
          }
        : order.onRecorded,
  });
  order.afterCommit();
  return recorded;
}
