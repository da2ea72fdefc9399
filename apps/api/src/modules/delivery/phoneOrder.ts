import { DELIVERY_MESSAGES } from '@balcao/core/delivery';
import type { SaleData } from '@balcao/core/sale';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { findDeliveryAddress } from '../customer/refs.ts';
import { pixChargeOfSale } from '../pix/service.ts';
import { priceItems } from '../product/pricing.ts';
import { type RecordedSale, recordSale, type SaleDraft } from '../sale/record.ts';
import { findWorkingHoursStatus } from '../settings/workingHours.ts';
import { createOrderOfSale, getDeliverySettings } from './service.ts';

/**
 * A phone order taken on the delivery panel (POST /v1/delivery/orders): the sale is recorded at once
 * through the sale seam with origin 'delivery' (catalog prices, the operator's open register), and
 * its delivery order is made in the same transaction. What is paid on delivery stays a
 * paymentOnDelivery payment until the driver's settlement; a Pix QR dinâmico is paid before dispatch.
 */
async function phoneOrderDraft(tx: Executor, clientId: number, data: SaleData): Promise<SaleDraft> {
  if (data.customerId === null || data.deliveryAddressId === null) {
    const message = 'Informe o cliente e o endereço de entrega';
    throw new AppError(422, message, [{ path: 'deliveryAddressId', message }]);
  }
  const address = await findDeliveryAddress(tx, clientId, data.customerId, data.deliveryAddressId);
  if (!address) {
    const message = 'Endereço de entrega não encontrado para este cliente';
    throw new AppError(422, message, [{ path: 'deliveryAddressId', message }]);
  }
  const priced = await priceItems(tx, clientId, data.items);
  return {
    originSale: 'delivery',
    typeOfSale: 'delivery',
    isSimple: false,
    customerId: data.customerId,
    sellerId: data.sellerId,
    deliveryAddress: address,
    discountType: data.discountType,
    discountValue: data.discountValue,
    couponCode: data.couponCode,
    freightCents: data.freightCents,
    notes: data.notes,
    payments: data.payments,
    cashDepositAmountCents: data.cashDepositAmountCents,
    lines: data.items.map((item, i) => ({
      ...priced[i],
      quantity: item.quantity,
      discountType: item.discountType,
      discountValue: item.discountValue,
      notes: item.notes,
    })),
  };
}

export async function takePhoneOrder(
  ctx: AppContext,
  session: SessionUser,
  data: SaleData,
  idempotencyKey: string | null,
): Promise<RecordedSale> {
  // Outside the working hours a phone order is refused, or taken when the shop allows it (issue 30
  // item 17, PRODUCT.md: checkIsOpen refuses delivery orders; the panel warns before sending).
  const hours = await findWorkingHoursStatus(ctx.db, session);
  if (
    hours.enabled &&
    !hours.open &&
    !(await getDeliverySettings(ctx.db, session.clientId)).acceptOutsideHours
  )
    throw new AppError(422, DELIVERY_MESSAGES.closedNow);
  const { approval, delivery, ...sale } = data;
  const body = { ...sale, typeOfSale: 'delivery' as const, delivery };
  let afterCommit: (() => void) | undefined;
  const recorded = await recordSale(ctx, session, (tx) => phoneOrderDraft(tx, session.clientId, body), {
    idempotencyKey: idempotencyKey ? `delivery:${idempotencyKey}` : null,
    body,
    approval,
    onRecorded: async (tx, s) => {
      // Issue 33: a Pix QR dinâmico taken on the phone is paid before the order goes out: each must be
      // the bank-confirmed charge of this attempt (the panel's key, as the PDV's), its endToEndId kept.
      const pixCents = sale.payments
        .filter((p) => p.method === 'pixQrCode')
        .reduce((sum, p) => sum + p.amountCents, 0);
      await pixChargeOfSale(tx, session.clientId, idempotencyKey, s, pixCents);
      afterCommit = await createOrderOfSale(ctx, tx, session, s, delivery);
    },
  });
  afterCommit?.();
  return recorded;
}
