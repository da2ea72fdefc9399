import {
  OFFLINE_MAX_AGE_DAYS,
  OFFLINE_MESSAGES,
  type OfflineFlag,
  type OfflineSaleData,
} from '@balcao/core/sale';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { findDeliveryAddress } from '../customer/refs.ts';
import { priceItems } from '../product/pricing.ts';
import { type DeliveryOrderOfSale, deliveryOrderHook } from './checkout.ts';
import { findKey } from './idempotency.ts';
import { findSale } from './read.ts';
import { type RecordedSale, recordSale, type SaleDraft } from './record.ts';

/**
 * The offline sync origin (issue 21, POST /v1/sale/offline): a sale the PDV made without a
 * connection, sent when it came back. The customer has already left with the goods, so the sale is
 * accepted as made: the prices and coupon discount the till charged from its copy of the catalog, at
 * the time it was made. Where today's catalog or rules differ, the sale is flagged (record.ts adds
 * stock, coupon and discount-limit flags; this file the price changes) and the manager's bell rings.
 * The till's id for the sale is its Idempotency-Key: a retried, cut or doubled sync records it once.
 */

/** How far ahead of the server's clock a till's time may be (clock drift), in ms. */
const CLOCK_SKEW_MS = 5 * 60_000;

function madeAtOf(text: string, now = Date.now()): Date {
  const madeAt = new Date(text);
  const fail = (message: string) => new AppError(422, message, [{ path: 'madeAt', message }]);
  if (madeAt.getTime() > now + CLOCK_SKEW_MS) throw fail(OFFLINE_MESSAGES.madeAtFuture);
  if (madeAt.getTime() < now - OFFLINE_MAX_AGE_DAYS * 86_400_000) throw fail(OFFLINE_MESSAGES.madeAtTooOld);
  return madeAt;
}

const samePrices = (a: { id: number; priceCents: number }[], b: { id: number; priceCents: number }[]) =>
  a.length === b.length && a.every((x) => b.some((y) => y.id === x.id && y.priceCents === x.priceCents));

/** The draft: names and codes from the catalog, prices as the till charged them (flagged when different). */
async function offlineDraft(tx: Executor, clientId: number, data: OfflineSaleData, madeAt: Date) {
  const { sale } = data;
  const deliveryAddress =
    sale.typeOfSale === 'delivery' && sale.customerId !== null && sale.deliveryAddressId !== null
      ? await findDeliveryAddress(tx, clientId, sale.customerId, sale.deliveryAddressId)
      : null;
  const priced = await priceItems(tx, clientId, sale.items);
  const flags: OfflineFlag[] = [];
  const lines = sale.items.map((item, i) => {
    const charged = data.prices[i];
    const catalog = priced[i];
    const additionals = catalog.additionals.map((a) => ({
      ...a,
      priceCents: charged.additionals.find((c) => c.id === a.id)?.priceCents ?? a.priceCents,
    }));
    if (
      charged.unitPriceCents !== catalog.unitPriceCents ||
      !samePrices(charged.additionals, catalog.additionals)
    ) {
      if (!flags.includes('price_changed')) flags.push('price_changed');
    }
    return {
      ...catalog,
      unitPriceCents: charged.unitPriceCents,
      additionals,
      quantity: item.quantity,
      discountType: item.discountType,
      discountValue: item.discountValue,
      notes: item.notes,
    };
  });
  return {
    originSale: 'pdv',
    typeOfSale: sale.typeOfSale,
    isSimple: false,
    customerId: sale.customerId,
    sellerId: sale.sellerId,
    deliveryAddress,
    discountType: sale.discountType,
    discountValue: sale.discountValue,
    couponCode: sale.couponCode,
    freightCents: sale.typeOfSale === 'delivery' ? sale.freightCents : 0,
    notes: sale.notes,
    payments: sale.payments,
    cashDepositAmountCents: sale.cashDepositAmountCents,
    lines,
    offline: { madeAt, couponDiscountCents: data.couponDiscountCents, flags },
  } satisfies SaleDraft;
}

/**
 * Records (or replays) an offline sale. The key is the till's `clientSaleId`, which is also the
 * Idempotency-Key the PDV sent to POST /v1/sale first: when that request did reach the server (the
 * answer was lost, so the till kept the sale), its sale is the answer.
 */
export async function syncOfflineSale(
  ctx: AppContext,
  session: SessionUser,
  data: OfflineSaleData,
  deliveryOrderOfSale?: DeliveryOrderOfSale,
): Promise<RecordedSale> {
  const online = await findKey(ctx.db, session.clientId, data.clientSaleId);
  if (online?.saleId) return { sale: await findSale(ctx.db, session, online.saleId), replayed: true };
  const madeAt = madeAtOf(data.madeAt);
  const { approval: _none, ...sale } = data.sale;
  const body = { ...data, sale };
  // A delivery sale's order is made as the online checkout makes it (deliveryOrderHook).
  const order = deliveryOrderHook(ctx, session, sale, deliveryOrderOfSale);
  const recorded = await recordSale(ctx, session, (tx) => offlineDraft(tx, session.clientId, body, madeAt), {
    idempotencyKey: `offline:${data.clientSaleId}`,
    body,
    onRecorded: order.onRecorded,
  });
  order.afterCommit();
  return recorded;
}
