import { eq, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import type { Actor } from '../../lib/actor.ts';
import { type GroupProductCount, ownGroupIds } from '../product-additional/service.ts';
import { productAdditionalLinks as links } from './schema.ts';

/**
 * The add-on groups a product offers, in order (product_additional_links): the product's own data,
 * edited with the product. The groups themselves, their items and prices are product-additional's.
 */

/** The ids of the groups the product in `productId` offers, in order (an int[] scalar subquery). */
export function groupIdsOf(productId: SQL): SQL<number[]> {
  return sql<
    number[]
  >`array(select l.group_id from ${links} l where l.product_id = ${productId} order by l.position)`;
}

/** How many products offer a group: product-additional's `productCount`, handed over at wiring. */
export const groupProductCount: GroupProductCount = (groupId) =>
  sql<number>`(select count(*)::int from ${links} l where l.group_id = ${groupId})`;

/** Links a product to add-on groups of its own client, replacing the previous links. */
export async function setProductGroups(tx: Executor, actor: Actor, productId: number, groupIds: number[]) {
  const unique = [...new Set(groupIds)];
  if ((await ownGroupIds(tx, actor.clientId, unique)).length !== unique.length)
    throw new AppError(422, 'Grupo de adicionais não encontrado', [
      { path: 'additionalGroupIds', message: 'Grupo de adicionais não encontrado' },
    ]);
  await tx.delete(links).where(eq(links.productId, productId));
  if (unique.length > 0)
    await tx.insert(links).values(unique.map((groupId, position) => ({ productId, groupId, position })));
}
