import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
  index,
  integer,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { clients } from '../../db/schema.ts';

/** A customer of a client (shop): a person (CPF) or a company (CNPJ). */
export const customers = pgTable(
  'customers',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    /** person | company */
    personType: text('person_type').notNull().default('person'),
    name: text('name').notNull(),
    /** CPF or CNPJ, normalized (digits, or upper-case alphanumeric CNPJ); unique per client when given. */
    document: text('document'),
    email: text('email'),
    /** WhatsApp number: 55 + DDD + number. */
    phone: text('phone'),
    birthDate: date('birth_date', { mode: 'string' }),
    notes: text('notes'),
    creditLimitCents: integer('credit_limit_cents').notNull().default(0),
    /** Vale-troca balance (issue 30): credited by returns, spent at the PDV (`customer/storeCredit.ts`). */
    storeCreditCents: integer('store_credit_cents').notNull().default(0),
    active: boolean('active').notNull().default(true),
    /** Result of the WhatsApp number check: null = not checked / unknown. */
    whatsappValid: boolean('whatsapp_valid'),
    whatsappCheckedAt: timestamp('whatsapp_checked_at', { withTimezone: true }),
    /** Segments/tags chosen by the shop (campaign audiences filter by them). */
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('customers_client_document_uq')
      .on(t.clientId, t.document)
      .where(sql`${t.document} is not null`),
    index('customers_client_name_idx').on(t.clientId, t.name),
    index('customers_tags_idx').using('gin', t.tags),
  ],
);

/** Addresses of a customer (the spec's userAddress): several, exactly one default when any. */
export const userAddresses = pgTable(
  'user_addresses',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    label: text('label'),
    /** CEP, 8 digits. */
    zipCode: text('zip_code').notNull(),
    street: text('street').notNull(),
    number: text('number').notNull(),
    complement: text('complement'),
    neighborhood: text('neighborhood').notNull(),
    city: text('city').notNull(),
    /** UF */
    state: text('state').notNull(),
    isDefault: boolean('is_default').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('user_addresses_customer_idx').on(t.customerId),
    uniqueIndex('user_addresses_one_default_uq').on(t.customerId).where(sql`${t.isDefault}`),
  ],
);

/**
 * Deleted customers, for the PDV's local copy (issue 21): `GET /v1/customer/changes` answers the ids
 * deleted since a time. Written by deleteCustomer.
 */
export const customerDeletions = pgTable(
  'customer_deletions',
  {
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    customerId: integer('customer_id').notNull(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('customer_deletions_client_idx').on(t.clientId, t.deletedAt)],
);

/**
 * The vale-troca's history (issue 30): + a return's credit, - a sale paid with it, + a canceled sale's
 * credit given back. `sale_id`/`sale_return_id` name the sale module's rows without a foreign key
 * (sale is above customer).
 */
export const customerStoreCredits = pgTable(
  'customer_store_credits',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    /** Signed cents. */
    amountCents: integer('amount_cents').notNull(),
    /** return | sale | sale-cancel */
    kind: text('kind').notNull(),
    saleId: integer('sale_id'),
    saleReturnId: integer('sale_return_id'),
    userId: integer('user_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('customer_store_credits_customer_idx').on(t.customerId, t.id)],
);
