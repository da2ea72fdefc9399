import { MARKETPLACE_KIND_LABELS, type MarketplaceKind } from '@balcao/core/marketplace';
import { formatInZone } from '@balcao/core/time';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import type { Actor } from '../../lib/actor.ts';
import { shopClock } from '../../lib/shopToday.ts';
import { productionKeyOfSale } from '../delivery/production.ts';
import {
  adoptSectorTickets,
  cancelSectorTickets,
  deliverSectorTickets,
  queueSectorTicketsOfOrders,
  type SectorTickets,
} from '../printing/sectorTickets.ts';
import { categoriesOfProducts } from '../product/categoryOf.ts';
import type { NormalizedOrder } from './adapters.ts';

/**
 * The kitchen tickets of marketplace orders (issue 35): an automatically confirmed order's tickets are
 * written with the order itself, in the polling's transaction, before its sale (a burst of 200 orders
 * no longer puts the 200th card on the KDS after 199 sales). Their keys are the order's
 * (`marketplace-order-{id}-{sectorId}`); the sale, when it is recorded, adopts them as its own
 * (`sale-production-{saleId}-{sectorId}`), so neither the sale nor "Preparar" on the panel prints them
 * again. A canceled order's tickets get a cancel ticket each, once.
 */

export const kitchenKeyOfOrder = (orderId: number) => `marketplace-order-${orderId}`;

type KitchenOrder = { id: number; detail: unknown };
type Account = { kind: string; name: string };
type Maps = Map<string, { productId: number; name: string }>;

/** The orders' tickets, in `tx` (2-3 statements for the whole batch). */
export async function queueKitchenOfOrders(
  tx: Executor,
  actor: Actor,
  account: Account & { id: number },
  orders: readonly KitchenOrder[],
  maps: Maps,
): Promise<SectorTickets> {
  if (orders.length === 0) return { queued: [], unrouted: [] };
  const label = account.name || MARKETPLACE_KIND_LABELS[account.kind as MarketplaceKind];
  const productIds = orders.flatMap((o) =>
    (o.detail as NormalizedOrder).items.flatMap((i) => {
      const m = maps.get(`${account.id}:${i.externalCode}`);
      return m ? [m.productId] : [];
    }),
  );
  // One after the other: a transaction's connection runs one query at a time (node-postgres).
  const categories = await categoriesOfProducts(tx, actor.clientId, productIds);
  const { timeZone } = await shopClock(tx, actor.clientId);
  const when = formatInZone(new Date(), timeZone);
  const tickets = await queueSectorTicketsOfOrders(
    tx,
    actor,
    orders.map((o) => {
      const d = o.detail as NormalizedOrder;
      const delivery = d.type === 'delivery';
      return {
        key: kitchenKeyOfOrder(o.id),
        title: `${delivery ? 'Entrega' : 'Retirada'} ${label} #${d.displayId}`,
        heading: [
          `${delivery ? 'ENTREGA' : 'RETIRADA'} ${label.toUpperCase()} #${d.displayId}`,
          `Cliente: ${d.customer.name}`,
          when,
        ],
        lines: d.items.map((i) => {
          const m = maps.get(`${account.id}:${i.externalCode}`);
          return {
            categoryId: m ? (categories.get(m.productId) ?? null) : null,
            quantity: i.quantity,
            description: m?.name ?? i.name,
            variantName: null,
            additionals: [],
            notes: i.notes,
          };
        }),
      };
    }),
  );
  return {
    queued: tickets.flatMap((t) => t.queued),
    unrouted: tickets.flatMap((t) => t.unrouted),
  };
}

/** In the sale's transaction: the order's tickets written before it become the sale's. */
export function adoptKitchenOfOrder(tx: Executor, clientId: number, orderId: number, saleId: number) {
  return adoptSectorTickets(tx, clientId, kitchenKeyOfOrder(orderId), productionKeyOfSale(saleId));
}

/** A canceled order: a cancel ticket for each of its tickets (its own or its sale's), once; signaled. */
export async function cancelKitchenOfOrder(
  ctx: AppContext,
  actor: Actor,
  order: { id: number; saleId: number | null },
) {
  const keys = [kitchenKeyOfOrder(order.id)];
  if (order.saleId !== null) keys.push(productionKeyOfSale(order.saleId));
  deliverSectorTickets(ctx, actor.clientId, await cancelSectorTickets(ctx.db, actor, keys), {
    signalFirst: true,
  });
}
