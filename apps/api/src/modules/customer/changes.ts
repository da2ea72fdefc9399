import {
  CHANGES_MARGIN_MS,
  type Changes,
  type ChangesQueryParsed,
  type OfflineCustomer,
} from '@balcao/core/offline';
import { and, asc, eq, gt, gte } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Actor } from '../../lib/actor.ts';
import { customerDeletions, customers } from './schema.ts';

/**
 * GET /v1/customer/changes (issue 21): the customers changed since `since` (every one without it),
 * as the PDV's customer step needs them offline, paged by id, and the ids deleted since.
 */
export async function customerChanges(
  db: Db,
  actor: Actor,
  query: ChangesQueryParsed,
): Promise<Changes<OfflineCustomer>> {
  const { clientId } = actor;
  const until = new Date();
  const since = query.since ? new Date(new Date(query.since).getTime() - CHANGES_MARGIN_MS) : null;
  const rows = await db
    .select({
      id: customers.id,
      name: customers.name,
      document: customers.document,
      phone: customers.phone,
      active: customers.active,
    })
    .from(customers)
    .where(
      and(
        eq(customers.clientId, clientId),
        gt(customers.id, query.afterId),
        since ? gte(customers.updatedAt, since) : undefined,
      ),
    )
    .orderBy(asc(customers.id))
    .limit(query.limit + 1);
  const items = rows.slice(0, query.limit);
  const deletedIds =
    since && query.afterId === 0
      ? (
          await db
            .select({ id: customerDeletions.customerId })
            .from(customerDeletions)
            .where(and(eq(customerDeletions.clientId, clientId), gte(customerDeletions.deletedAt, since)))
        ).map((r) => r.id)
      : [];
  return {
    items,
    deletedIds,
    until: until.toISOString(),
    nextAfterId: rows.length > query.limit ? items[items.length - 1].id : null,
  };
}
