import type { Sale } from '@balcao/core/sale';
import { formatInZone } from '@balcao/core/time';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import type { Actor } from '../../lib/actor.ts';
import { shopClock } from '../../lib/shopToday.ts';
import { deliverSectorTickets, queueSectorTickets, type SectorTickets } from '../printing/sectorTickets.ts';
import { categoriesOfProducts } from '../product/categoryOf.ts';
import { findSale } from '../sale/read.ts';

/** The key of a sale's production tickets (`{key}-{sectorId}`). */
export const productionKeyOfSale = (saleId: number) => `sale-production-${saleId}`;

/**
 * The kitchen of a delivery or pickup order (issue 30 item 3): the sale's lines go to the
 * production sectors of their categories, like a comanda's send, in the sale's transaction. The
 * job keys are the sale's (`sale-production-{saleId}-{sectorId}`), so the PDV, a phone order, an
 * offline sync, a budget conversion and "Preparar" on the panel print each sector's ticket once.
 */
export async function queueProductionOfSale(
  tx: Executor,
  actor: Actor,
  sale: Sale,
  promisedAt: Date | null,
): Promise<SectorTickets> {
  const products = sale.items.flatMap((i) => (i.productId === null ? [] : [i.productId]));
  const categories = await categoriesOfProducts(tx, actor.clientId, products);
  const { timeZone } = await shopClock(tx, actor.clientId);
  const delivery = sale.typeOfSale === 'delivery';
  const title = `${delivery ? 'Entrega' : 'Retirada'} nº ${sale.number}`;
  return queueSectorTickets(tx, actor, {
    key: productionKeyOfSale(sale.id),
    title,
    heading: [
      `${delivery ? 'ENTREGA' : 'RETIRADA'} Nº ${sale.number}`,
      ...(sale.customer ? [`Cliente: ${sale.customer.name}`] : []),
      ...(promisedAt ? [`Prometido: ${formatInZone(promisedAt, timeZone, 'time')}`] : []),
      formatInZone(new Date(), timeZone),
      ...(sale.notes ? [`OBS: ${sale.notes}`] : []),
    ],
    lines: sale.items.map((i) => ({
      categoryId: i.productId === null ? null : (categories.get(i.productId) ?? null),
      quantity: i.quantity,
      description: i.description,
      variantName: i.variantName,
      additionals: i.additionals,
      notes: i.notes,
    })),
  });
}

/**
 * "Preparar" on the panel: the order's kitchen tickets when they were not printed yet (a sector
 * given a printer since the sale, an order made before issue 30); one that has its ticket prints
 * nothing more.
 */
export async function printProductionOfOrder(
  ctx: AppContext,
  actor: Actor,
  order: { saleId: number; promisedAt: string },
): Promise<void> {
  const tickets = await ctx.db.transaction(async (tx) => {
    const sale = await findSale(tx, actor, order.saleId);
    return queueProductionOfSale(tx, actor, sale, new Date(order.promisedAt));
  });
  deliverSectorTickets(ctx, actor.clientId, tickets);
}
