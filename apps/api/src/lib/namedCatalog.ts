import type { NamedCatalogApi } from '@balcao/core/endpoints/namedCatalog';
import type { ListResult } from '@balcao/core/list';
import type { CATALOG_NAME_SORTS, catalogNameListQuerySchema, ProductCategory } from '@balcao/core/product';
import { type AnyColumn, and, eq, getTableName, ilike, type SQL, sql } from 'drizzle-orm';
import { boolean, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { AppContext } from '../context.ts';
import type { Db, Executor } from '../db/client.ts';
import { conflict, duplicate, notFound } from '../errors.ts';
import { assertOwnClient, sessionOf } from '../plugins/auth.ts';
import type { Actor } from './actor.ts';
import { route } from './endpoint.ts';
import { countRows, escapeLike, listResult, orderByOf, pageWindow } from './list.ts';
import { isForeignKeyViolation, isSameVersion, mapUnique } from './pg.ts';
import { assertNotStale } from './version.ts';

type ListQuery = z.output<typeof catalogNameListQuerySchema>;
type NameInput = { name: string; active: boolean };
/** The longest name the input schema accepts (a CSV cell is cut to it). */
const NAME_MAX = 80;

/**
 * The shape of a named-catalog table (product_categories, product_brands): the service is typed
 * against this exemplar, never created in the database; each module declares its own table.
 */
const exemplar = pgTable('named_catalog', {
  id: serial('id').primaryKey(),
  clientId: integer('client_id').notNull(),
  name: text('name').notNull(),
  active: boolean('active').notNull().default(true),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
export type NamedTable = typeof exemplar;

/**
 * How many records of a higher module use a category or brand (the products): a scalar subquery
 * given the record's qualified id and client id. The module that references these records hands it
 * over at wiring (modules/index.ts), so this lower module never names its table.
 */
export type UsageCount = (recordId: SQL, clientId: SQL) => SQL<number>;

type NamedCatalogOptions = {
  table: NamedTable;
  uniqueConstraint: string;
  nameTaken: string;
  notFoundMessage: string;
  inUse: (count: number) => string;
};

/**
 * Categories and brands are the same small record (name unique per client, active flag, usage
 * count, delete refused while records use it): one service and one set of routes serve both.
 */
export function namedCatalogService(o: NamedCatalogOptions) {
  const t = o.table;
  // Qualified by hand: drizzle leaves columns unqualified in a single-table select, and the count is
  // a subquery over another table.
  const table = getTableName(t);
  const recordId = sql.raw(`"${table}".id`);
  const recordClientId = sql.raw(`"${table}".client_id`);
  const columnsWith = (usage: UsageCount) => ({
    id: t.id,
    name: t.name,
    active: t.active,
    productCount: usage(recordId, recordClientId),
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
  });
  /** A record just created: nothing uses it yet. */
  const unused: UsageCount = () => sql<number>`0`;

  /** The answer: dates as ISO text. */
  const toRecord = (
    row: { createdAt: Date; updatedAt: Date } & Omit<ProductCategory, 'createdAt' | 'updatedAt'>,
  ) => ({
    ...row,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  });

  async function find(db: Executor, actor: Actor, id: number, usage: UsageCount): Promise<ProductCategory> {
    const [row] = await db
      .select(columnsWith(usage))
      .from(t)
      .where(and(eq(t.clientId, actor.clientId), eq(t.id, id)));
    if (!row) throw notFound(o.notFoundMessage);
    return toRecord(row);
  }

  async function assertNameFree(db: Executor, clientId: number, name: string, exceptId?: number) {
    const [taken] = await db
      .select({ id: t.id })
      .from(t)
      .where(and(eq(t.clientId, clientId), eq(sql`lower(${t.name})`, name.toLowerCase())));
    if (taken && taken.id !== exceptId) throw duplicate(o.nameTaken);
  }

  const unique = { [o.uniqueConstraint]: o.nameTaken };

  return {
    find,

    async list(
      db: Db,
      actor: Actor,
      query: ListQuery,
      usage: UsageCount,
    ): Promise<ListResult<ProductCategory>> {
      const columns = columnsWith(usage);
      const where = and(
        eq(t.clientId, actor.clientId),
        query.q ? ilike(t.name, `%${escapeLike(query.q)}%`) : undefined,
        query.active === undefined ? undefined : eq(t.active, query.active),
      );
      const order = orderByOf<(typeof CATALOG_NAME_SORTS)[number]>(
        query.sort,
        { name: sql`lower(${t.name})`, productCount: columns.productCount, createdAt: t.createdAt },
        { field: 'name', direction: 'asc' },
        t.id,
      );
      const { limit, offset } = pageWindow(query);
      const [items, total] = await Promise.all([
        db
          .select(columns)
          .from(t)
          .where(where)
          .orderBy(...order)
          .limit(limit)
          .offset(offset),
        countRows(db, t, where),
      ]);
      return listResult(items.map(toRecord), total, query);
    },

    /**
     * The record's name for a foreign-key column of another table's query (a scalar subquery, so
     * the caller's list stays one statement without joining this table).
     */
    nameOf(idColumn: AnyColumn): SQL<string | null> {
      return sql<string | null>`(select n.name from ${t} n where n.id = ${idColumn})`;
    },

    /** True when the record exists and is the actor's client's (a product's reference). */
    async exists(db: Executor, actor: Actor, id: number): Promise<boolean> {
      const [row] = await db
        .select({ id: t.id })
        .from(t)
        .where(and(eq(t.clientId, actor.clientId), eq(t.id, id)));
      return row !== undefined;
    },

    async create(db: Db, actor: Actor, input: NameInput): Promise<ProductCategory> {
      await assertNameFree(db, actor.clientId, input.name);
      const [row] = await mapUnique(
        () =>
          db
            .insert(t)
            .values({ clientId: actor.clientId, name: input.name, active: input.active })
            .returning({ id: t.id }),
        unique,
      );
      return find(db, actor, row.id, unused);
    },

    async update(
      db: Db,
      actor: Actor,
      id: number,
      input: NameInput & { updatedAt: string },
      usage: UsageCount,
    ): Promise<ProductCategory> {
      await find(db, actor, id, usage);
      await assertNameFree(db, actor.clientId, input.name, id);
      const rows = await mapUnique(
        () =>
          db
            .update(t)
            .set({ name: input.name, active: input.active, updatedAt: new Date() })
            .where(
              and(eq(t.clientId, actor.clientId), eq(t.id, id), isSameVersion(t.updatedAt, input.updatedAt)),
            )
            .returning({ id: t.id }),
        unique,
      );
      assertNotStale(rows);
      return find(db, actor, id, usage);
    },

    /** Refused (409) while records use it; the count is read in the same transaction as the delete. */
    async remove(db: Db, actor: Actor, id: number, usage: UsageCount): Promise<{ id: number }> {
      try {
        return await db.transaction(async (tx) => {
          const record = await find(tx, actor, id, usage);
          if (record.productCount > 0) throw conflict(o.inUse(record.productCount));
          await tx.delete(t).where(and(eq(t.clientId, actor.clientId), eq(t.id, id)));
          return { id };
        });
      } catch (error) {
        // A record saved with this one between the count and the delete: the foreign key refuses.
        if (isForeignKeyViolation(error))
          throw conflict(o.inUse((await find(db, actor, id, usage)).productCount));
        throw error;
      }
    },

    /**
     * Ids by name (ignoring case) of the given names, creating the missing ones with the executor
     * given (the CSV import runs it inside its transaction).
     */
    async idsByName(tx: Executor, actor: Actor, names: string[]): Promise<Map<string, number>> {
      const key = (name: string) => name.toLocaleLowerCase('pt-BR');
      const rows = await tx.select({ id: t.id, name: t.name }).from(t).where(eq(t.clientId, actor.clientId));
      const ids = new Map(rows.map((r) => [key(r.name), r.id]));
      for (const name of names) {
        if (ids.has(key(name))) continue;
        const [row] = await tx
          .insert(t)
          .values({ clientId: actor.clientId, name: name.slice(0, NAME_MAX) })
          .returning({ id: t.id });
        ids.set(key(name), row.id);
      }
      return ids;
    },
  };
}

type NamedCatalogService = ReturnType<typeof namedCatalogService>;

/**
 * The handlers of a named-catalog resource (DESIGN.md): its endpoints are declared in core
 * (`namedCatalogEndpoints`: `productCategoryApi`, `productBrandApi`, `campaignCategoryApi`), with who
 * reads and who writes.
 */
export function namedCatalogRoutes(
  ctx: AppContext,
  api: NamedCatalogApi,
  service: NamedCatalogService,
  usage: UsageCount,
): FastifyPluginAsyncZod {
  return async (app) => {
    const { db } = ctx;

    route(app, api.list, (request) =>
      service.list(db, assertOwnClient(request, request.params.clientId), request.query, usage),
    );

    route(app, api.get, (request) => service.find(db, sessionOf(request), request.params.id, usage));

    route(app, api.create, (request) => service.create(db, sessionOf(request), request.body));

    route(app, api.update, (request) =>
      service.update(db, sessionOf(request), request.params.id, request.body, usage),
    );

    route(app, api.remove, (request) => service.remove(db, sessionOf(request), request.params.id, usage));
  };
}
