import type {
  AddressData,
  Customer,
  CustomerAddress,
  CustomerCounters,
  CustomerData,
  CustomerDetail,
  CustomerListItem,
  CustomerTagCount,
  customerListQuerySchema,
  PersonType,
} from '@balcao/core/customer';
import { CUSTOMER_NOT_FOUND, DOCUMENT_TAKEN } from '@balcao/core/customer';
import { normalizeDocument, onlyDigits } from '@balcao/core/document';
import type { ListResult } from '@balcao/core/list';
import { and, asc, desc, eq, inArray, isNull, not, or, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db, Executor } from '../../db/client.ts';
import { AppError, conflict, duplicate, notFound } from '../../errors.ts';
import type { Actor } from '../../lib/actor.ts';
import { countAll, escapeLike, listResult, orderByOf, pageWindow } from '../../lib/list.ts';
import { isForeignKeyViolation, isSameVersion, isTimestamp, violatedUnique } from '../../lib/pg.ts';
import { shopTodaySql } from '../../lib/shopToday.ts';
import { assertNotStale } from '../../lib/version.ts';
import { customerDeletions, customers, userAddresses } from './schema.ts';

type CustomerListQuery = z.output<typeof customerListQuerySchema>;

/**
 * What the customer list, detail, counters and delete check need of a customer's receivables. The
 * receivable module sits above this one (its table references customers), so it hands these over
 * when the modules are wired (modules/index.ts) instead of this module importing it. `clientId` and
 * `customerId` are qualified columns of the outer query (e.g. sql`"customers"."id"`).
 */
export type ReceivableFigures = {
  /** Condition: a pending receivable of the customer is past its due date (before `today`). */
  overdueExists(clientId: SQL, customerId: SQL, today: SQL<string> | string): SQL<boolean>;
  /** Column: the customer's pending receivables summed in cents (due before `overdueBefore` if given). */
  pendingCents(clientId: SQL, customerId: SQL, overdueBefore?: SQL<string> | string): SQL<number>;
  /** Condition: a receivable of the customer was written at or after `since` (the PDV's offline copy). */
  changedSince(clientId: SQL, customerId: SQL, since: string): SQL<boolean>;
  /** Whether any receivable (of any status) points at the customer: such a customer cannot be deleted. */
  anyOf(db: Executor, clientId: number, customerId: number): Promise<boolean>;
};

/**
 * The customer row of the outer query, by qualified name: drizzle renders columns unqualified in
 * single-table selects, where "id" inside a receivables subquery would mean the receivable's own.
 */
const CLIENT_ID = sql`"customers"."client_id"`;
const CUSTOMER_ID = sql`"customers"."id"`;

/**
 * A customer is delinquent when a pending (crediário) receivable of theirs is past its due date,
 * "today" being the shop's date in its time zone (read by the same statement).
 */
const delinquentSql = (figures: ReceivableFigures, clientId: number) =>
  figures.overdueExists(CLIENT_ID, CUSTOMER_ID, shopTodaySql(clientId));

const customerColumns = (figures: ReceivableFigures, clientId: number) => ({
  id: customers.id,
  clientId: customers.clientId,
  personType: customers.personType,
  name: customers.name,
  document: customers.document,
  email: customers.email,
  phone: customers.phone,
  birthDate: customers.birthDate,
  notes: customers.notes,
  creditLimitCents: customers.creditLimitCents,
  active: customers.active,
  whatsappValid: customers.whatsappValid,
  whatsappCheckedAt: customers.whatsappCheckedAt,
  tags: customers.tags,
  isDelinquent: delinquentSql(figures, clientId),
  createdAt: customers.createdAt,
  updatedAt: customers.updatedAt,
});

type CustomerRow = {
  [K in keyof ReturnType<typeof customerColumns>]: unknown;
};

function toCustomer(row: CustomerRow): Customer {
  const r = row as Record<string, unknown>;
  const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : v === null ? null : String(v));
  return {
    ...(r as unknown as Customer),
    personType: r.personType as PersonType,
    isDelinquent: r.isDelinquent === true || r.isDelinquent === 't',
    whatsappCheckedAt: iso(r.whatsappCheckedAt),
    createdAt: iso(r.createdAt) as string,
    updatedAt: iso(r.updatedAt) as string,
  };
}

function toAddress(row: typeof userAddresses.$inferSelect): CustomerAddress {
  return {
    id: row.id,
    customerId: row.customerId,
    label: row.label,
    zipCode: row.zipCode,
    street: row.street,
    number: row.number,
    complement: row.complement,
    neighborhood: row.neighborhood,
    city: row.city,
    state: row.state,
    isDefault: row.isDefault,
  };
}

/** Where clause of the list (and of the CSV export): search and filters, always inside the client. */
function customerWhere(
  figures: ReceivableFigures,
  clientId: number,
  query: Omit<CustomerListQuery, 'page' | 'pageSize'>,
): SQL {
  const conditions: (SQL | undefined)[] = [eq(customers.clientId, clientId)];
  if (query.q) {
    const like = (text: string) => `%${escapeLike(text)}%`;
    const search: SQL[] = [
      sql`${customers.name} ilike ${like(query.q)}`,
      sql`${customers.email} ilike ${like(query.q)}`,
    ];
    const doc = normalizeDocument(query.q);
    if (doc.length >= 3) search.push(sql`${customers.document} like ${like(doc)}`);
    const digits = onlyDigits(query.q);
    if (digits.length >= 3) search.push(sql`${customers.phone} like ${like(digits)}`);
    conditions.push(or(...search));
  }
  if (query.active !== undefined) conditions.push(eq(customers.active, query.active));
  if (query.personType) conditions.push(eq(customers.personType, query.personType));
  if (query.delinquent !== undefined) {
    conditions.push(
      query.delinquent ? delinquentSql(figures, clientId) : not(delinquentSql(figures, clientId)),
    );
  }
  if (query.whatsappValid === 'unknown') conditions.push(isNull(customers.whatsappValid));
  else if (query.whatsappValid) conditions.push(eq(customers.whatsappValid, query.whatsappValid === 'true'));
  if (query.tag) conditions.push(hasAnyTagSql([query.tag]));
  return and(...conditions) as SQL;
}

const SORT_COLUMNS = {
  name: sql`lower(${customers.name})`,
  createdAt: customers.createdAt,
  updatedAt: customers.updatedAt,
};

export async function listCustomers(
  db: Db,
  actor: Actor,
  query: CustomerListQuery,
  figures: ReceivableFigures,
): Promise<ListResult<CustomerListItem>> {
  const clientId = actor.clientId;
  const where = customerWhere(figures, clientId, query);
  const order = orderByOf(query.sort, SORT_COLUMNS, { field: 'name', direction: 'asc' }, customers.id);
  const { limit, offset } = pageWindow(query);
  const [rows, [{ total }]] = await Promise.all([
    db
      .select(customerColumns(figures, clientId))
      .from(customers)
      .where(where)
      .orderBy(...order)
      .limit(limit)
      .offset(offset),
    db.select({ total: countAll }).from(customers).where(where),
  ]);
  const items = rows.map(toCustomer);
  const defaults = await defaultAddresses(
    db,
    clientId,
    items.map((c) => c.id),
  );
  return listResult(
    items.map((c) => ({ ...c, defaultAddress: defaults.get(c.id) ?? null })),
    total,
    query,
  );
}

/** The CSV export's cap. */
const EXPORT_MAX = 50_000;

/**
 * Every customer matching the filters (CSV export), with their default address, read 1,000 at a
 * time in the list's order. Capped.
 */
export async function* eachCustomer(
  db: Db,
  actor: Actor,
  query: Omit<CustomerListQuery, 'page' | 'pageSize'>,
  figures: ReceivableFigures,
  batch = 1000,
): AsyncGenerator<CustomerListItem> {
  const clientId = actor.clientId;
  const where = customerWhere(figures, clientId, query);
  const order = orderByOf(query.sort, SORT_COLUMNS, { field: 'name', direction: 'asc' }, customers.id);
  for (let offset = 0; offset < EXPORT_MAX; offset += batch) {
    const rows = await db
      .select(customerColumns(figures, clientId))
      .from(customers)
      .where(where)
      .orderBy(...order)
      .limit(Math.min(batch, EXPORT_MAX - offset))
      .offset(offset);
    const items = rows.map(toCustomer);
    const defaults = await defaultAddresses(
      db,
      clientId,
      items.map((c) => c.id),
    );
    for (const c of items) yield { ...c, defaultAddress: defaults.get(c.id) ?? null };
    if (rows.length < batch) return;
  }
}

async function defaultAddresses(db: Executor, clientId: number, ids: number[]) {
  const map = new Map<number, CustomerAddress>();
  for (let i = 0; i < ids.length; i += 1000) {
    const chunk = ids.slice(i, i + 1000);
    const rows = await db
      .select()
      .from(userAddresses)
      .where(
        and(
          eq(userAddresses.clientId, clientId),
          inArray(userAddresses.customerId, chunk),
          eq(userAddresses.isDefault, true),
        ),
      );
    for (const row of rows) map.set(row.customerId, toAddress(row));
  }
  return map;
}

export async function findAddresses(db: Executor, actor: Actor, customerId: number) {
  const clientId = actor.clientId;
  const rows = await db
    .select()
    .from(userAddresses)
    .where(and(eq(userAddresses.clientId, clientId), eq(userAddresses.customerId, customerId)))
    .orderBy(desc(userAddresses.isDefault), asc(userAddresses.id));
  return rows.map(toAddress);
}

export async function findCustomer(
  db: Executor,
  actor: Actor,
  id: number,
  figures: ReceivableFigures,
): Promise<CustomerDetail> {
  const clientId = actor.clientId;
  const today = shopTodaySql(clientId);
  const [row] = await db
    .select({
      ...customerColumns(figures, clientId),
      pendingCents: figures.pendingCents(CLIENT_ID, CUSTOMER_ID),
      overdueCents: figures.pendingCents(CLIENT_ID, CUSTOMER_ID, today),
    })
    .from(customers)
    .where(and(eq(customers.clientId, clientId), eq(customers.id, id)));
  if (!row) throw notFound(CUSTOMER_NOT_FOUND);
  const { pendingCents, overdueCents, ...rest } = row;
  return {
    ...toCustomer(rest),
    pendingCents: Number(pendingCents),
    overdueCents: Number(overdueCents),
    addresses: await findAddresses(db, actor, id),
  };
}

async function assertDocumentFree(
  db: Executor,
  clientId: number,
  document: string | null,
  exceptId?: number,
) {
  if (!document) return;
  const [taken] = await db
    .select({ id: customers.id })
    .from(customers)
    .where(and(eq(customers.clientId, clientId), eq(customers.document, document)));
  if (taken && taken.id !== exceptId) throw duplicate(DOCUMENT_TAKEN);
}

/** A unique violation on the document (a race the check above did not see) is the same 409. */
async function mapDocumentTaken<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (violatedUnique(error) === 'customers_client_document_uq') throw duplicate(DOCUMENT_TAKEN);
    throw error;
  }
}

type CustomerFields = Omit<CustomerData, 'addresses'>;

function columnsOf(data: CustomerFields) {
  return {
    personType: data.personType,
    name: data.name,
    document: data.document,
    email: data.email,
    phone: data.phone,
    birthDate: data.birthDate,
    notes: data.notes,
    creditLimitCents: data.creditLimitCents,
    active: data.active,
    ...(data.tags !== undefined ? { tags: data.tags } : {}),
  };
}

function addressColumns(address: AddressData) {
  return {
    label: address.label,
    zipCode: address.zipCode,
    street: address.street,
    number: address.number,
    complement: address.complement,
    neighborhood: address.neighborhood,
    city: address.city,
    state: address.state,
    isDefault: address.isDefault,
  };
}

/** Inserts one customer and their addresses (inside the caller's transaction). Returns the id. */
export async function insertCustomer(tx: Executor, clientId: number, data: CustomerData): Promise<number> {
  const now = new Date();
  const { addresses, ...fields } = data;
  const [row] = await tx
    .insert(customers)
    .values({ ...columnsOf(fields), clientId, createdAt: now, updatedAt: now })
    .returning({ id: customers.id });
  if (addresses.length > 0) {
    await tx.insert(userAddresses).values(
      addresses.map((a) => ({
        ...addressColumns(a),
        clientId,
        customerId: row.id,
        createdAt: now,
        updatedAt: now,
      })),
    );
  }
  return row.id;
}

export async function createCustomer(
  db: Db,
  actor: Actor,
  data: CustomerData,
  figures: ReceivableFigures,
): Promise<CustomerDetail> {
  const clientId = actor.clientId;
  await assertDocumentFree(db, clientId, data.document);
  const id = await mapDocumentTaken(() => db.transaction((tx) => insertCustomer(tx, clientId, data)));
  return findCustomer(db, actor, id, figures);
}

/**
 * Edit with optimistic concurrency. Addresses are replaced as a set: ids kept are updated, new ones
 * inserted, missing ones deleted (sales keep a copy of the delivery address, not a reference).
 * Returns the customer and whether the phone changed (the WhatsApp check must run again).
 */
export async function updateCustomer(
  db: Db,
  actor: Actor,
  id: number,
  data: CustomerData & { updatedAt: string },
  figures: ReceivableFigures,
): Promise<{ customer: CustomerDetail; phoneChanged: boolean }> {
  const clientId = actor.clientId;
  if (!isTimestamp(data.updatedAt)) throw new AppError(400, 'Versão do registro (updatedAt) inválida');
  const [current] = await db
    .select({ phone: customers.phone })
    .from(customers)
    .where(and(eq(customers.clientId, clientId), eq(customers.id, id)));
  if (!current) throw notFound(CUSTOMER_NOT_FOUND);
  await assertDocumentFree(db, clientId, data.document, id);
  const phoneChanged = current.phone !== data.phone;
  const { addresses, updatedAt, ...fields } = data;
  await mapDocumentTaken(() =>
    db.transaction(async (tx) => {
      const now = new Date();
      const updated = await tx
        .update(customers)
        .set({
          ...columnsOf(fields),
          updatedAt: now,
          ...(phoneChanged ? { whatsappValid: null, whatsappCheckedAt: null } : {}),
        })
        .where(
          and(
            eq(customers.clientId, clientId),
            eq(customers.id, id),
            isSameVersion(customers.updatedAt, updatedAt),
          ),
        )
        .returning({ id: customers.id });
      assertNotStale(updated);
      await syncAddresses(tx, clientId, id, addresses, now);
    }),
  );
  return { customer: await findCustomer(db, actor, id, figures), phoneChanged };
}

async function syncAddresses(
  tx: Executor,
  clientId: number,
  customerId: number,
  addresses: AddressData[],
  now: Date,
) {
  const existing = await tx
    .select({ id: userAddresses.id })
    .from(userAddresses)
    .where(and(eq(userAddresses.clientId, clientId), eq(userAddresses.customerId, customerId)));
  const existingIds = new Set(existing.map((a) => a.id));
  for (const address of addresses) {
    if (address.id !== undefined && !existingIds.has(address.id)) {
      throw new AppError(400, 'Endereço não encontrado neste cliente. Recarregue a página.', [
        { path: 'addresses', message: 'Endereço não encontrado neste cliente' },
      ]);
    }
  }
  const kept = new Set(addresses.flatMap((a) => (a.id === undefined ? [] : [a.id])));
  const removed = [...existingIds].filter((addressId) => !kept.has(addressId));
  if (removed.length > 0) await tx.delete(userAddresses).where(inArray(userAddresses.id, removed));
  // Clear the default first: the partial unique index allows one default per customer at any moment.
  if (kept.size > 0) {
    await tx
      .update(userAddresses)
      .set({ isDefault: false })
      .where(inArray(userAddresses.id, [...kept]));
  }
  const ordered = [...addresses].sort((a, b) => Number(a.isDefault) - Number(b.isDefault));
  for (const address of ordered) {
    if (address.id !== undefined) {
      await tx
        .update(userAddresses)
        .set({ ...addressColumns(address), updatedAt: now })
        .where(eq(userAddresses.id, address.id));
    } else {
      await tx
        .insert(userAddresses)
        .values({ ...addressColumns(address), clientId, customerId, createdAt: now, updatedAt: now });
    }
  }
}

/** Deletes a customer (addresses go with them); refused while receivables or sales point at them. */
export async function deleteCustomer(
  db: Db,
  actor: Actor,
  id: number,
  figures: ReceivableFigures,
): Promise<void> {
  const clientId = actor.clientId;
  const [row] = await db
    .select({ id: customers.id })
    .from(customers)
    .where(and(eq(customers.clientId, clientId), eq(customers.id, id)));
  if (!row) throw notFound(CUSTOMER_NOT_FOUND);
  const inUse = 'Este cliente tem vendas ou contas no crediário: desative-o em vez de excluir.';
  if (await figures.anyOf(db, clientId, id)) throw conflict(inUse);
  try {
    await db.transaction(async (tx) => {
      await tx.delete(customers).where(and(eq(customers.clientId, clientId), eq(customers.id, id)));
      await tx.insert(customerDeletions).values({ clientId, customerId: id });
    });
  } catch (error) {
    if (isForeignKeyViolation(error)) throw conflict(inUse);
    throw error;
  }
}

/** True (as SQL) when the customer row carries one of `tags` (case-insensitive). */
export function hasAnyTagSql(tags: string[]): SQL {
  const wanted = tags.map((t) => t.toLowerCase());
  return sql`exists (select 1 from unnest(${customers.tags}) as tag(name) where lower(tag.name) in (${sql.join(
    wanted.map((t) => sql`${t}`),
    sql`, `,
  )}))`;
}

/** The tags the client's customers carry, most used first (the form's suggestions, the audience filter). */
export async function customerTags(db: Db, actor: Actor): Promise<CustomerTagCount[]> {
  const result = (await db.execute(sql`
    select min(tag.name) as tag, count(distinct ${customers.id})::int as count
    from ${customers}, unnest(${customers.tags}) as tag(name)
    where ${customers.clientId} = ${actor.clientId}
    group by lower(tag.name)
    order by count(distinct ${customers.id}) desc, lower(tag.name)
    limit 200`)) as unknown as { rows: { tag: string; count: number }[] };
  return result.rows.map((r) => ({ tag: r.tag, count: Number(r.count) }));
}

/** Dashboard and campaign counters, over the client's active customers. */
export async function customerCounters(
  db: Db,
  actor: Actor,
  figures: ReceivableFigures,
): Promise<CustomerCounters> {
  const delinquent = delinquentSql(figures, actor.clientId);
  const [row] = await db
    .select({
      userIsDelinquent: sql<number>`count(*) filter (where ${delinquent})::int`,
      userNotIsDelinquent: sql<number>`count(*) filter (where not ${delinquent})::int`,
      userValidWhatsAppNumber: sql<number>`count(*) filter (where ${customers.whatsappValid} = true)::int`,
      userNotValidWhatsAppNumber: sql<number>`count(*) filter (where ${customers.whatsappValid} = false)::int`,
    })
    .from(customers)
    .where(and(eq(customers.clientId, actor.clientId), eq(customers.active, true)));
  return {
    userIsDelinquent: Number(row.userIsDelinquent),
    userNotIsDelinquent: Number(row.userNotIsDelinquent),
    userValidWhatsAppNumber: Number(row.userValidWhatsAppNumber),
    userNotValidWhatsAppNumber: Number(row.userNotValidWhatsAppNumber),
  };
}

/** Documents already used by the client's customers, among `documents` (CSV import). */
export async function takenDocuments(
  db: Executor,
  clientId: number,
  documents: string[],
): Promise<Set<string>> {
  const taken = new Set<string>();
  for (let i = 0; i < documents.length; i += 1000) {
    const rows = await db
      .select({ document: customers.document })
      .from(customers)
      .where(
        and(eq(customers.clientId, clientId), inArray(customers.document, documents.slice(i, i + 1000))),
      );
    for (const r of rows) if (r.document) taken.add(r.document);
  }
  return taken;
}

/** The id of the client's customer with this document (CPF/CNPJ, normalized); null when there is none. */
export async function customerIdByDocument(
  db: Executor,
  clientId: number,
  document: string,
): Promise<number | null> {
  const [row] = await db
    .select({ id: customers.id })
    .from(customers)
    .where(and(eq(customers.clientId, clientId), eq(customers.document, document)));
  return row?.id ?? null;
}

/** Whether the client has this customer. */
export async function customerExists(db: Executor, clientId: number, id: number): Promise<boolean> {
  const [row] = await db
    .select({ id: customers.id })
    .from(customers)
    .where(and(eq(customers.clientId, clientId), eq(customers.id, id)));
  return row !== undefined;
}

/** Bumps the customer's version after an address changed through the address endpoints. */
export async function touchCustomer(tx: Executor, clientId: number, id: number) {
  await tx
    .update(customers)
    .set({ updatedAt: new Date() })
    .where(and(eq(customers.clientId, clientId), eq(customers.id, id)));
}
