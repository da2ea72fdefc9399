import type { DeliveryStatus } from '@balcao/core/delivery';
import { and, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { deliveryOrders } from './schema.ts';

/**
 * The delivery status of some sales' orders (issue 35: the marketplace module tells the marketplace
 * what the panel did). Sales without a delivery order are absent from the map.
 */
export async function deliveryStatusesOfSales(
  db: Executor,
  clientIds: number[],
  saleIds: number[],
): Promise<Map<number, DeliveryStatus>> {
  if (saleIds.length === 0) return new Map();
  const rows = await db
    .select({ saleId: deliveryOrders.saleId, status: deliveryOrders.status })
    .from(deliveryOrders)
    .where(and(inArray(deliveryOrders.clientId, clientIds), inArray(deliveryOrders.saleId, saleIds)));
  return new Map(rows.map((r) => [r.saleId, r.status as DeliveryStatus]));
}

/** One order's id by its sale (the marketplace's cancellation cancels the panel's order). */
export async function deliveryOrderIdOfSale(db: Executor, clientId: number, saleId: number) {
  const [row] = await db
    .select({ id: deliveryOrders.id })
    .from(deliveryOrders)
    .where(and(eq(deliveryOrders.clientId, clientId), eq(deliveryOrders.saleId, saleId)));
  return row?.id ?? null;
}
