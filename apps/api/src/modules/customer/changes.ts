import type { CustomerAddress } from '@balcao/core/customer';
import {
  CHANGES_MARGIN_MS,
  type Changes,
  type ChangesQueryParsed,
  type OfflineCustomer,
} from '@balcao/core/offline';
import { and, asc, desc, eq, gt, gte, inArray, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Actor } from '../../lib/actor.ts';
import { shopTodaySql } from '../../lib/shopToday.ts';
import { customerDeletions, customers, userAddresses } from './schema.ts';
import type { ReceivableFigures } from './service.ts';

const CLIENT_ID = sql`"customers"."client_id"`;
const CUSTOMER_ID = sql`"customers"."id"`;

/**
 * GET /v1/customer/changes (issue 21): the customers changed since `since` (every one without it),
 * as the PDV needs them offline (the customer step's search, the delivery step's addresses, the
 * crediário figures as last seen), paged by id, and the ids deleted since. A customer changed when
 * it was edited (an address edit bumps its version too) or one of its receivables was written (a
 * crediário sale, a settle, a cancel): its figures are then sent again.
 */
export async function customerChanges(
  db: Db,
  actor: Actor,
  query: ChangesQueryParsed,
  figures: ReceivableFigures,
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
      creditLimitCents: customers.creditLimitCents,
      pendingCents: figures.pendingCents(CLIENT_ID, CUSTOMER_ID),
      isDelinquent: figures.overdueExists(CLIENT_ID, CUSTOMER_ID, shopTodaySql(clientId)),
    })
    .from(customers)
    .where(
      and(
        eq(customers.clientId, clientId),
        gt(customers.id, query.afterId),
        since
          ? or(
              gte(customers.updatedAt, since),
              figures.changedSince(CLIENT_ID, CUSTOMER_ID, since.toISOString()),
            )
          : undefined,
      ),
    )
    .orderBy(asc(customers.id))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  const addresses = new Map<number, CustomerAddress[]>();
  if (page.length > 0) {
    const found = await db
      .select()
      .from(userAddresses)
      .where(
        and(
          eq(userAddresses.clientId, clientId),
          inArray(
            userAddresses.customerId,
            page.map((r) => r.id),
          ),
        ),
      )
      .orderBy(desc(userAddresses.isDefault), asc(userAddresses.id));
    for (const a of found) {
      const list = addresses.get(a.customerId) ?? [];
      list.push({
        id: a.id,
        customerId: a.customerId,
        label: a.label,
        zipCode: a.zipCode,
        street: a.street,
        number: a.number,
        complement: a.complement,
        neighborhood: a.neighborhood,
        city: a.city,
        state: a.state,
        isDefault: a.isDefault,
      });
      addresses.set(a.customerId, list);
    }
  }
  const items = page.map((r) => ({
    ...r,
    pendingCents: Number(r.pendingCents),
    isDelinquent: r.isDelinquent === true || (r.isDelinquent as unknown) === 't',
    addresses: addresses.get(r.id) ?? [],
  }));
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
    nextAfterId: rows.length > query.limit ? page[page.length - 1].id : null,
  };
}
