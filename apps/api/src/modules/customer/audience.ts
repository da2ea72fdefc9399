import { and, asc, eq, isNotNull, ne, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { customers } from './schema.ts';
import { hasAnyTagSql } from './service.ts';

export type AudienceCustomer = {
  id: number;
  name: string;
  /** person | company: how a message greets it ({primeiro_nome}). */
  personType: string;
  phone: string;
  whatsappValid: boolean | null;
  delinquent: boolean;
  optedOut: boolean;
};

/**
 * What a higher module (campaign) asks of the customer list for an audience: SQL fragments over the
 * customer's qualified id and phone, so this module keeps its table to itself.
 */
type AudienceQuery = {
  birthMonth: number | null;
  /** Customers carrying any of these tags (case-insensitive); empty = any customer. */
  tags?: string[];
  /** More conditions (bought within N days, spent above X, delinquent...). */
  conditions: (customerId: SQL) => SQL[];
  delinquent: (customerId: SQL) => SQL<boolean>;
  optedOut: (phone: SQL) => SQL<boolean>;
};

/** The client's active customers with a phone that match an audience, with their flags (one statement). */
export async function audienceCustomers(
  db: Executor,
  clientId: number,
  query: AudienceQuery,
): Promise<AudienceCustomer[]> {
  // Qualified by hand: drizzle leaves columns unqualified in a single-table select, where "id" inside
  // another table's subquery would mean that table's own.
  const id = sql`"customers"."id"`;
  const phone = sql`"customers"."phone"`;
  return db
    .select({
      id: customers.id,
      name: customers.name,
      personType: customers.personType,
      phone: sql<string>`${customers.phone}`,
      whatsappValid: customers.whatsappValid,
      delinquent: query.delinquent(id).mapWith(Boolean),
      optedOut: query.optedOut(phone).mapWith(Boolean),
    })
    .from(customers)
    .where(
      and(
        eq(customers.clientId, clientId),
        eq(customers.active, true),
        isNotNull(customers.phone),
        ne(customers.phone, ''),
        query.birthMonth ? sql`extract(month from ${customers.birthDate}) = ${query.birthMonth}` : undefined,
        query.tags?.length ? hasAnyTagSql(query.tags) : undefined,
        ...query.conditions(id),
      ),
    )
    .orderBy(asc(customers.id));
}
