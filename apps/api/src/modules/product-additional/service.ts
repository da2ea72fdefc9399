import type { ListQuery, ListResult } from '@balcao/core/list';
import {
  ADDITIONAL_NAME_TAKEN,
  type ProductAdditionalGroup,
  type productAdditionalInputSchema,
  type productAdditionalUpdateSchema,
} from '@balcao/core/product';
import { and, asc, eq, ilike, inArray, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db, Executor } from '../../db/client.ts';
import { AppError, duplicate, notFound } from '../../errors.ts';
import type { Actor } from '../../lib/actor.ts';
import { escapeLike, listResult, orderByOf, pageWindow } from '../../lib/list.ts';
import { isSameVersion, mapUnique } from '../../lib/pg.ts';
import { assertNotStale } from '../../lib/version.ts';
import { productAdditionalGroups as groups, productAdditionalItems as items } from './schema.ts';

type GroupInput = z.output<typeof productAdditionalInputSchema>;
type GroupUpdate = z.output<typeof productAdditionalUpdateSchema>;

const UNIQUE = { product_additional_groups_client_name_uq: ADDITIONAL_NAME_TAKEN };

/**
 * How many products offer the add-on group whose id is `groupId` (a scalar subquery). Which groups
 * a product offers is the product module's data, and product is above this module (its links
 * reference the groups): modules/index.ts hands its implementation over.
 */
export type GroupProductCount = (groupId: SQL) => SQL<number>;

/** Qualified by hand: drizzle leaves columns unqualified in a single-table select. */
const groupId = sql.raw('"product_additional_groups".id');

const groupColumns = (productCount: GroupProductCount) => ({
  id: groups.id,
  name: groups.name,
  minQuantity: groups.minQuantity,
  maxQuantity: groups.maxQuantity,
  active: groups.active,
  productCount: productCount(groupId),
  updatedAt: groups.updatedAt,
});

/** Groups with their items, in the given order of ids. */
type GroupRow = Omit<ProductAdditionalGroup, 'items' | 'updatedAt'> & { updatedAt: Date };

async function withItems(db: Executor, rows: GroupRow[]): Promise<ProductAdditionalGroup[]> {
  if (rows.length === 0) return [];
  const all = await db
    .select({
      id: items.id,
      groupId: items.groupId,
      name: items.name,
      priceCents: items.priceCents,
      active: items.active,
      position: items.position,
    })
    .from(items)
    .where(
      inArray(
        items.groupId,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(asc(items.position), asc(items.id));
  return rows.map((row) => ({
    ...row,
    updatedAt: row.updatedAt.toISOString(),
    items: all.filter((i) => i.groupId === row.id).map(({ groupId: _, ...item }) => item),
  }));
}

export async function findAdditionalGroup(
  db: Executor,
  actor: Actor,
  id: number,
  productCount: GroupProductCount,
): Promise<ProductAdditionalGroup> {
  const clientId = actor.clientId;
  const rows = await db
    .select(groupColumns(productCount))
    .from(groups)
    .where(and(eq(groups.clientId, clientId), eq(groups.id, id)));
  if (rows.length === 0) throw notFound('Grupo de adicionais não encontrado');
  return (await withItems(db, rows))[0];
}

export async function listAdditionalGroups(
  db: Db,
  actor: Actor,
  query: ListQuery,
  productCount: GroupProductCount,
): Promise<ListResult<ProductAdditionalGroup>> {
  const clientId = actor.clientId;
  const where = and(
    eq(groups.clientId, clientId),
    query.q ? ilike(groups.name, `%${escapeLike(query.q)}%`) : undefined,
  );
  const order = orderByOf<'name' | 'createdAt'>(
    query.sort,
    { name: sql`lower(${groups.name})`, createdAt: groups.createdAt },
    { field: 'name', direction: 'asc' },
    groups.id,
  );
  const { limit, offset } = pageWindow(query);
  const rows = await db
    .select(groupColumns(productCount))
    .from(groups)
    .where(where)
    .orderBy(...order)
    .limit(limit)
    .offset(offset);
  const [{ total }] = await db.select({ total: sql<number>`count(*)::int` }).from(groups).where(where);
  return listResult(await withItems(db, rows), total, query);
}

/**
 * The add-on groups with these ids, in the order of `ids` (a product's groups: the product module
 * keeps which ones and in what order). No query for no ids.
 */
export async function additionalGroupsInOrder(
  db: Executor,
  ids: readonly number[],
  productCount: GroupProductCount,
): Promise<ProductAdditionalGroup[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select(groupColumns(productCount))
    .from(groups)
    .where(inArray(groups.id, [...ids]));
  const byId = new Map(rows.map((row) => [row.id, row]));
  const ordered = ids.flatMap((id) => byId.get(id) ?? []);
  return withItems(db, ordered);
}

/** Which of `ids` are add-on groups of the client (a product may offer only its own client's). */
export async function ownGroupIds(db: Executor, clientId: number, ids: readonly number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ id: groups.id })
    .from(groups)
    .where(and(eq(groups.clientId, clientId), inArray(groups.id, [...ids])));
  return rows.map((row) => row.id);
}

async function assertNameFree(db: Executor, clientId: number, name: string, exceptId?: number) {
  const [taken] = await db
    .select({ id: groups.id })
    .from(groups)
    .where(and(eq(groups.clientId, clientId), eq(sql`lower(${groups.name})`, name.toLowerCase())));
  if (taken && taken.id !== exceptId) throw duplicate(ADDITIONAL_NAME_TAKEN);
}

/** Replaces the items of a group: sent ids are updated, new ones inserted, missing ones removed. */
async function saveItems(tx: Executor, clientId: number, groupId: number, input: GroupInput['items']) {
  const existing = await tx.select({ id: items.id }).from(items).where(eq(items.groupId, groupId));
  const existingIds = new Set(existing.map((i) => i.id));
  for (const item of input)
    if (item.id !== undefined && !existingIds.has(item.id))
      throw new AppError(422, 'Item de adicional não encontrado neste grupo', [
        { path: 'items', message: 'Item de adicional não encontrado neste grupo' },
      ]);
  const keep = new Set(input.flatMap((i) => (i.id === undefined ? [] : [i.id])));
  const removed = [...existingIds].filter((id) => !keep.has(id));
  if (removed.length) await tx.delete(items).where(inArray(items.id, removed));
  for (const [position, item] of input.entries()) {
    const values = { name: item.name, priceCents: item.priceCents, active: item.active, position };
    if (item.id === undefined) await tx.insert(items).values({ ...values, clientId, groupId });
    else await tx.update(items).set(values).where(eq(items.id, item.id));
  }
}

export async function createAdditionalGroup(
  db: Db,
  actor: Actor,
  input: GroupInput,
  productCount: GroupProductCount,
) {
  const clientId = actor.clientId;
  await assertNameFree(db, clientId, input.name);
  const id = await mapUnique(
    () =>
      db.transaction(async (tx) => {
        const [row] = await tx
          .insert(groups)
          .values({
            clientId,
            name: input.name,
            minQuantity: input.minQuantity,
            maxQuantity: input.maxQuantity,
            active: input.active,
          })
          .returning({ id: groups.id });
        await saveItems(tx, clientId, row.id, input.items);
        return row.id;
      }),
    UNIQUE,
  );
  return findAdditionalGroup(db, actor, id, productCount);
}

export async function updateAdditionalGroup(
  db: Db,
  actor: Actor,
  id: number,
  input: GroupUpdate,
  productCount: GroupProductCount,
) {
  const clientId = actor.clientId;
  await findAdditionalGroup(db, actor, id, productCount);
  await assertNameFree(db, clientId, input.name, id);
  await mapUnique(
    () =>
      db.transaction(async (tx) => {
        const updated = await tx
          .update(groups)
          .set({
            name: input.name,
            minQuantity: input.minQuantity,
            maxQuantity: input.maxQuantity,
            active: input.active,
            updatedAt: new Date(),
          })
          .where(
            and(
              eq(groups.clientId, clientId),
              eq(groups.id, id),
              isSameVersion(groups.updatedAt, input.updatedAt),
            ),
          )
          .returning({ id: groups.id });
        assertNotStale(updated);
        await saveItems(tx, clientId, id, input.items);
      }),
    UNIQUE,
  );
  return findAdditionalGroup(db, actor, id, productCount);
}

/** Deleting a group also removes it from the products that offered it. */
export async function deleteAdditionalGroup(
  db: Db,
  actor: Actor,
  id: number,
  productCount: GroupProductCount,
) {
  const clientId = actor.clientId;
  await findAdditionalGroup(db, actor, id, productCount);
  await db.delete(groups).where(and(eq(groups.clientId, clientId), eq(groups.id, id)));
  return { id };
}
