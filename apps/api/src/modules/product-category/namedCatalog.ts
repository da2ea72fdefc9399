import type { ListResult } from '@balcao/core/list';
import type { CATALOG_NAME_SORTS, catalogNameListQuerySchema, ProductCategory } from '@balcao/core/product';
import { and, eq, getTableColumns, getTableName, ilike, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db, Executor } from '../../db/client.ts';
import { conflict, notFound } from '../../errors.ts';
import { escapeLike, listResult, orderByOf, pageWindow } from '../../lib/list.ts';
import { isForeignKeyViolation, isSameVersion, mapUnique } from '../../lib/pg.ts';
import { staleEdit } from '../product/dbHelpers.ts';
import { products } from '../product/schema.ts';
import type { productCategories } from './schema.ts';

/**
 * Categories and brands are the same small record (name unique per client, active flag, product
 * count, delete refused while products use it). One service shape serves both tables.
 */
type NamedTable = typeof productCategories;
type ListQuery = z.output<typeof catalogNameListQuerySchema>;
type NameInput = { name: string; active: boolean };

export type NamedCatalogOptions = {
  table: NamedTable;
  /** The products column pointing at this table. */
  productColumn: 'categoryId' | 'brandId';
  uniqueConstraint: string;
  nameTaken: string;
  notFoundMessage: string;
  inUse: (count: number) => string;
};

export function namedCatalogService(o: NamedCatalogOptions) {
  const t = o.table;
  // Qualified by hand: drizzle leaves columns unqualified in a single-table select.
  const table = getTableName(t);
  const fk = getTableColumns(products)[o.productColumn].name;
  const productCount = sql<number>`(${sql.raw(
    `select count(*)::int from products p where p.client_id = "${table}".client_id and p.${fk} = "${table}".id`,
  )})`;
  const columns = {
    id: t.id,
    name: t.name,
    active: t.active,
    productCount,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
  };

  /** The answer: dates as ISO text. */
  const toRecord = (
    row: { createdAt: Date; updatedAt: Date } & Omit<ProductCategory, 'createdAt' | 'updatedAt'>,
  ) => ({
    ...row,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  });

  async function find(db: Executor, clientId: number, id: number): Promise<ProductCategory> {
    const [row] = await db
      .select(columns)
      .from(t)
      .where(and(eq(t.clientId, clientId), eq(t.id, id)));
    if (!row) throw notFound(o.notFoundMessage);
    return toRecord(row);
  }

  async function assertNameFree(db: Executor, clientId: number, name: string, exceptId?: number) {
    const [taken] = await db
      .select({ id: t.id })
      .from(t)
      .where(and(eq(t.clientId, clientId), eq(sql`lower(${t.name})`, name.toLowerCase())));
    if (taken && taken.id !== exceptId) throw conflict(o.nameTaken);
  }

  const unique = { [o.uniqueConstraint]: o.nameTaken };

  return {
    find,

    async list(db: Db, clientId: number, query: ListQuery): Promise<ListResult<ProductCategory>> {
      const where = and(
        eq(t.clientId, clientId),
        query.q ? ilike(t.name, `%${escapeLike(query.q)}%`) : undefined,
        query.active === undefined ? undefined : eq(t.active, query.active),
      );
      const order = orderByOf<(typeof CATALOG_NAME_SORTS)[number]>(
        query.sort,
        { name: sql`lower(${t.name})`, productCount, createdAt: t.createdAt },
        { field: 'name', direction: 'asc' },
        t.id,
      );
      const { limit, offset } = pageWindow(query);
      const [items, [{ total }]] = await Promise.all([
        db
          .select(columns)
          .from(t)
          .where(where)
          .orderBy(...order)
          .limit(limit)
          .offset(offset),
        db.select({ total: sql<number>`count(*)::int` }).from(t).where(where),
      ]);
      return listResult(items.map(toRecord), total, query);
    },

    async create(db: Db, clientId: number, input: NameInput): Promise<ProductCategory> {
      await assertNameFree(db, clientId, input.name);
      const [row] = await mapUnique(
        () =>
          db.insert(t).values({ clientId, name: input.name, active: input.active }).returning({ id: t.id }),
        unique,
      );
      return find(db, clientId, row.id);
    },

    async update(
      db: Db,
      clientId: number,
      id: number,
      input: NameInput & { updatedAt: string },
    ): Promise<ProductCategory> {
      await find(db, clientId, id);
      await assertNameFree(db, clientId, input.name, id);
      const rows = await mapUnique(
        () =>
          db
            .update(t)
            .set({ name: input.name, active: input.active, updatedAt: new Date() })
            .where(and(eq(t.clientId, clientId), eq(t.id, id), isSameVersion(t.updatedAt, input.updatedAt)))
            .returning({ id: t.id }),
        unique,
      );
      if (rows.length === 0) throw staleEdit();
      return find(db, clientId, id);
    },

    /** Refused (409) while products use it; the count is read in the same transaction as the delete. */
    async remove(db: Db, clientId: number, id: number): Promise<{ id: number }> {
      try {
        return await db.transaction(async (tx) => {
          const record = await find(tx, clientId, id);
          if (record.productCount > 0) throw conflict(o.inUse(record.productCount));
          await tx.delete(t).where(and(eq(t.clientId, clientId), eq(t.id, id)));
          return { id };
        });
      } catch (error) {
        // A product saved with this record between the count and the delete: the foreign key refuses.
        if (isForeignKeyViolation(error))
          throw conflict(o.inUse((await find(db, clientId, id)).productCount));
        throw error;
      }
    },

    /** Case-insensitive name -> id map of the client's records (CSV import). */
    async idsByName(db: Executor, clientId: number): Promise<Map<string, number>> {
      const rows = await db.select({ id: t.id, name: t.name }).from(t).where(eq(t.clientId, clientId));
      return new Map(rows.map((r) => [r.name.toLocaleLowerCase('pt-BR'), r.id]));
    },
  };
}

export type NamedCatalogService = ReturnType<typeof namedCatalogService>;
