import { DELIVERY_MESSAGES, type DeliveryOrderPix, OPEN_DELIVERY_STATUSES } from '@balcao/core/delivery';
import { deliveryPixAttemptKey } from '@balcao/core/pixCharge';
import { can, DRIVERS } from '@balcao/core/routes';
import { and, eq } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { AppError, notFound, unprocessable } from '../../errors.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { returnDeliveryFloat } from '../cash-register/delivery.ts';
import {
  createPixCharge,
  findPixCharge,
  type PixChargePaidHook,
  pixChargesOfAttempt,
  pixOffered,
} from '../pix/service.ts';
import { payOnDeliveryByPix } from '../sale/record.ts';
import { deliveryOrders } from './schema.ts';

/**
 * A delivery order paid on delivery, switched to Pix QR dinâmico (issue 33): from the panel, or by
 * the order's driver at the door while it is not delivered. The charge is of what the order collects
 * (the server's figure); its attempt key is the order's (`delivery-pix:<id>:<n>`), so a retry or a
 * reopened screen gets the same txid, and a new one only after the last expired unpaid. Once the bank
 * confirms it (webhook, or the poll asking GET /cob), `deliveryPixPaid` applies it in the transaction
 * that settles the Pix: nothing left to collect in cash, the sale's payment is Pix QR dinâmico.
 */

const isOpen = (status: string) => (OPEN_DELIVERY_STATUSES as readonly string[]).includes(status);

export async function deliveryOrderPix(
  ctx: AppContext,
  session: SessionUser,
  id: number,
  mode: 'pay' | 'status',
): Promise<DeliveryOrderPix> {
  const { clientId } = session;
  const [order] = await ctx.db
    .select()
    .from(deliveryOrders)
    .where(and(eq(deliveryOrders.clientId, clientId), eq(deliveryOrders.id, id)));
  if (!order) throw notFound(DELIVERY_MESSAGES.notFound);
  // A driver charges only the orders that are with them.
  if (can(session.userTypeId, DRIVERS) && order.driverId !== session.userId)
    throw new AppError(403, DELIVERY_MESSAGES.notYours, undefined, 'forbidden');
  const baseKey = deliveryPixAttemptKey(id);
  const charges = await pixChargesOfAttempt(ctx.db, clientId, baseKey);
  const paid = charges.find((c) => c.charge.status === 'paid');
  const last = charges.at(-1);
  if (mode === 'status') {
    const offered = await pixOffered(ctx, clientId);
    const shown = paid ?? last;
    if (!shown) return { offered, charge: null };
    return { offered, charge: await findPixCharge(ctx, session, shown.charge.txid) };
  }
  if (paid) return { offered: true, charge: paid.charge };
  if (order.pixEndToEndId) throw unprocessable(DELIVERY_MESSAGES.pixAlreadyPaid);
  if (!isOpen(order.status)) throw unprocessable(DELIVERY_MESSAGES.pixClosed);
  if (order.marketplaceCourier) throw unprocessable(DELIVERY_MESSAGES.pixMarketplace);
  if (order.collectCents <= 0) throw unprocessable(DELIVERY_MESSAGES.pixNothingToCollect);
  if (!(await pixOffered(ctx, clientId))) throw unprocessable(DELIVERY_MESSAGES.pixNotOffered);
  const current =
    last && last.charge.status === 'active' && Date.parse(last.charge.expiresAt) > Date.now() ? last : null;
  const attemptKey = current?.attemptKey ?? `${baseKey}:${charges.length + 1}`;
  const charge = await createPixCharge(ctx, session, { attemptKey, amountCents: order.collectCents });
  ctx.changed(clientId, 'delivery', id);
  return { offered: true, charge };
}

/**
 * The bank confirmed an order's Pix (in the transaction that settles it, pix's hook): the order has
 * nothing to collect in cash (method Pix, its endToEndId; a change float not yet gone back to its
 * register), the sale's payment on delivery becomes Pix QR dinâmico and the charge the sale's. An order
 * finished or canceled meanwhile, or another amount, refuses it: the Pix goes to reconciliation.
 */
export function deliveryPixPaid(ctx: AppContext): PixChargePaidHook {
  const prefix = `${deliveryPixAttemptKey(0).slice(0, -1)}`;
  return async (tx, charge) => {
    if (!charge.attemptKey.startsWith(prefix)) return null;
    const orderId = Number(charge.attemptKey.slice(prefix.length).split(':')[0]);
    const [order] = await tx
      .select()
      .from(deliveryOrders)
      .where(and(eq(deliveryOrders.clientId, charge.clientId), eq(deliveryOrders.id, orderId)))
      .for('update');
    if (!order || !isOpen(order.status) || order.pixEndToEndId) return { reason: 'removed' };
    if (order.collectCents !== charge.paidCents) return { reason: 'wrong_amount' };
    const pickedUp = order.pickedUpAt !== null;
    await tx
      .update(deliveryOrders)
      .set({
        onDeliveryMethod: 'pix',
        pixEndToEndId: charge.endToEndId,
        // Still at the shop: no change to carry, its float back in the register. Gone: the driver
        // hands the change back at the acerto, as for a canceled order.
        ...(pickedUp ? {} : { changeCents: 0, changeForCents: 0, floatCents: 0 }),
        updatedAt: new Date(),
      })
      .where(eq(deliveryOrders.id, order.id));
    if (!pickedUp && order.cashRegisterId !== null && order.floatCents > 0)
      await returnDeliveryFloat(tx, {
        clientId: order.clientId,
        registerId: order.cashRegisterId,
        amountCents: order.floatCents,
        reason: `Troco da entrega nº ${order.saleNumber} paga por Pix`,
      });
    await payOnDeliveryByPix(tx, order.saleId);
    return {
      saleId: order.saleId,
      after: () => {
        ctx.changed(order.clientId, 'delivery', order.id);
        ctx.changed(order.clientId, 'sale', order.saleId);
      },
    };
  };
}
