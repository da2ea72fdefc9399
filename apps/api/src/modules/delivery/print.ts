import { DELIVERY_MESSAGES, ON_DELIVERY_METHOD_LABELS } from '@balcao/core/delivery';
import { formatCents } from '@balcao/core/money';
import { formatInZone } from '@balcao/core/time';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import type { Actor } from '../../lib/actor.ts';
import { shopClock } from '../../lib/shopToday.ts';
import { enqueuePrintJob, getPrintingSettings } from '../printing/service.ts';
import { findSale } from '../sale/read.ts';
import { findOrder } from './service.ts';

/**
 * The bag ticket: the order, its items, the address, what to collect and the change to carry, queued
 * on the receipt printer's profile (printing's one interface). The key is the caller's: a retried
 * click prints once.
 */
export async function printBagTicket(ctx: AppContext, actor: Actor, id: number, idempotencyKey: string) {
  const order = await findOrder(ctx.db, actor, id);
  const settings = await getPrintingSettings(ctx.db, actor);
  const profile =
    settings.profiles.find((p) => p.key === settings.receipt.profileKey) ?? settings.profiles[0] ?? null;
  if (!profile?.id) throw new AppError(422, DELIVERY_MESSAGES.noPrinter);
  const sale = await findSale(ctx.db, actor, order.saleId);
  const a = order.address;
  const { timeZone } = await shopClock(ctx.db, actor.clientId);
  const promised = formatInZone(order.promisedAt, timeZone, 'dayTime');
  const lines = [
    `PEDIDO DE ENTREGA No ${order.saleNumber}`,
    `Prometido para: ${promised}`,
    '',
    `Cliente: ${order.customerName ?? '-'}`,
    ...(order.customerPhone ? [`Telefone: ${order.customerPhone}`] : []),
    ...(a
      ? [
          `${a.street}, ${a.number}${a.complement ? ` - ${a.complement}` : ''}`,
          `${a.neighborhood} - ${a.city}/${a.state}`,
          `CEP ${a.zipCode}`,
        ]
      : []),
    '',
    // Each line with its add-ons and note (issue 30 item 3: the bag is checked against them).
    ...sale.items.flatMap((i) => [
      `${i.quantity}x ${i.description}${i.variantName ? ` (${i.variantName})` : ''}  ${formatCents(i.totalCents)}`,
      ...i.additionals.map((a) => `  + ${a.quantity > 1 ? `${a.quantity} ` : ''}${a.name}`),
      ...(i.notes ? [`  OBS: ${i.notes}`] : []),
    ]),
    '',
    `Frete: ${formatCents(order.freightCents)}`,
    `Total: ${formatCents(order.totalCents)}`,
    order.collectCents > 0
      ? `RECEBER NA ENTREGA: ${formatCents(order.collectCents)} (${ON_DELIVERY_METHOD_LABELS[order.onDeliveryMethod ?? 'money']})`
      : 'PAGO',
    ...(order.changeCents > 0
      ? [`Troco para ${formatCents(order.changeForCents)}: levar ${formatCents(order.changeCents)}`]
      : []),
  ].map((l) => l.slice(0, 200));
  const { job } = await enqueuePrintJob(ctx, actor, {
    profileId: profile.id,
    kind: 'document',
    payload: { title: `Entrega nº ${order.saleNumber}`, lines },
    idempotencyKey,
  });
  return job;
}
