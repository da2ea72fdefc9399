import { DEFAULT_TIME_ZONE, dateIn } from '@balcao/core/time';
import type { Db } from '../../db/client.ts';
import { billingSubscriptions } from './schema.ts';

/**
 * The demo shop is on the Ilimitado plan: it has one user of each of the 11 types, more than the
 * default plan's 10, and its demos must be able to add users and products.
 */
export async function seedBilling(db: Db, clientId: number): Promise<void> {
  await db
    .insert(billingSubscriptions)
    .values({ clientId, planCode: 'ilimitado', startedOn: dateIn(DEFAULT_TIME_ZONE) })
    .onConflictDoUpdate({ target: billingSubscriptions.clientId, set: { planCode: 'ilimitado' } });
}
