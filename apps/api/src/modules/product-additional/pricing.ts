import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { productAdditionalItems } from './schema.ts';

/** Add-ons at the point of sale: the groups a product offers and the items chosen. */

/** An active add-on group linked to a product, with how many items a sale must choose from it. */
type AddOnGroup = { groupId: number; name: string; minQuantity: number; maxQuantity: number };

/**
 * The product's active add-on groups as a JSON array (`AddOnGroup[]`, in the product's order), a
 * column of the product module's select: one query for the whole cart. `groupIds` is the product's
 * group ids (an int[] expression the product module builds: it keeps which groups a product
 * offers), `clientId` a qualified column of the outer query. Read it with `readGroups`.
 */
export function activeGroupsSql(groupIds: SQL, clientId: SQL): SQL<unknown> {
  return sql`(select coalesce(json_agg(json_build_object('groupId', g.id, 'name', g.name, 'minQuantity', g.min_quantity, 'maxQuantity', g.max_quantity) order by u.n), '[]'::json)
    from unnest(${groupIds}) with ordinality u(id, n) join product_additional_groups g on g.id = u.id
    where g.client_id = ${clientId} and g.active)`;
}

/** An `activeGroupsSql` value (PGlite answers JSON as text, node-postgres parsed). */
export function readGroups(value: unknown): AddOnGroup[] {
  return (typeof value === 'string' ? JSON.parse(value) : value) as AddOnGroup[];
}

/** The client's add-on items among `ids`, with their group and price (no rows for no ids). */
export async function findAddOnItems(tx: Executor, clientId: number, ids: number[]) {
  if (ids.length === 0) return [];
  return tx
    .select({
      id: productAdditionalItems.id,
      groupId: productAdditionalItems.groupId,
      name: productAdditionalItems.name,
      priceCents: productAdditionalItems.priceCents,
      active: productAdditionalItems.active,
    })
    .from(productAdditionalItems)
    .where(and(eq(productAdditionalItems.clientId, clientId), inArray(productAdditionalItems.id, ids)));
}
