import type { DeliveryAddress } from '@balcao/core/sale';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { escapeLike } from '../../lib/list.ts';
import { customers, userAddresses } from './schema.ts';

/** What another module shows of a customer (a sale's customer). */
export type CustomerRef = { name: string; document: string | null; phone: string | null };

/** A customer of the client as a sale shows it; null when there is no such customer. */
export async function findCustomerRef(
  db: Executor,
  clientId: number,
  customerId: number,
): Promise<CustomerRef | null> {
  const [row] = await db
    .select({ name: customers.name, document: customers.document, phone: customers.phone })
    .from(customers)
    .where(and(eq(customers.id, customerId), eq(customers.clientId, clientId)));
  return row ?? null;
}

/**
 * The customer `customerId` points at as a JSON `CustomerRef` (null when it points nowhere), as a
 * column of another module's select: one query for a whole page of sales. Read it with `readRef`.
 */
export function customerRefSql(customerId: SQL): SQL<unknown> {
  return sql`(select json_build_object('name', c.name, 'document', c.document, 'phone', c.phone) from customers c where c.id = ${customerId})`;
}

/**
 * The credit limit in cents of the client's customer `customerId` (null when there is no such
 * customer), as a column of another module's select: the credit check before a crediário sale.
 */
export function creditLimitSql(clientId: number, customerId: number): SQL<number | null> {
  return sql<
    number | null
  >`(select c.credit_limit_cents from customers c where c.id = ${customerId} and c.client_id = ${clientId})`;
}

/** A `customerRefSql` value (PGlite answers JSON as text, node-postgres parsed). */
export function readRef(value: unknown): CustomerRef | null {
  if (value === null || value === undefined) return null;
  return (typeof value === 'string' ? JSON.parse(value) : value) as CustomerRef;
}

/** Condition: the customer `customerId` points at matches a search by name or CPF/CNPJ. */
export function customerMatchesSql(customerId: SQL, q: string): SQL {
  const like = `%${escapeLike(q)}%`;
  const document = `%${escapeLike(q.replace(/[^0-9A-Za-z]/g, '').toUpperCase())}%`;
  return sql`exists (select 1 from customers c where c.id = ${customerId} and (c.name ilike ${like} or c.document like ${document}))`;
}

/** A copy of one of the customer's addresses for a delivery sale; null when it is not theirs. */
export async function findDeliveryAddress(
  db: Executor,
  clientId: number,
  customerId: number,
  addressId: number,
): Promise<DeliveryAddress | null> {
  const [a] = await db
    .select()
    .from(userAddresses)
    .where(
      and(
        eq(userAddresses.id, addressId),
        eq(userAddresses.customerId, customerId),
        eq(userAddresses.clientId, clientId),
      ),
    );
  if (!a) return null;
  return {
    id: a.id,
    zipCode: a.zipCode,
    street: a.street,
    number: a.number,
    complement: a.complement,
    neighborhood: a.neighborhood,
    city: a.city,
    state: a.state,
  };
}
