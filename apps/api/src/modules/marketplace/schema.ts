import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { clients, users } from '../../db/schema.ts';
import { customers } from '../customer/schema.ts';
import { products } from '../product/schema.ts';
import { sales } from '../sale/schema.ts';

/**
 * Marketplace inbox (issue 35). An account is one shop on one marketplace (iFood, or an Open Delivery
 * ordering app named by the server's configuration); its client secret is sealed (lib/secrets.ts).
 */
export const marketplaceAccounts = pgTable(
  'marketplace_accounts',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    /** ifood | opendelivery */
    kind: text('kind').notNull(),
    /** The Open Delivery app (a key of OPEN_DELIVERY_PROVIDERS); '' for iFood. */
    provider: text('provider').notNull().default(''),
    name: text('name').notNull(),
    merchantId: text('merchant_id').notNull(),
    appClientId: text('app_client_id').notNull(),
    /** secretBox-sealed client secret. */
    clientSecret: text('client_secret').notNull(),
    active: boolean('active').notNull().default(true),
    autoConfirm: boolean('auto_confirm').notNull().default(false),
    /** Whose register takes the sales (the user who saved the account). */
    operatorId: integer('operator_id')
      .notNull()
      .references(() => users.id),
    lastPolledAt: timestamp('last_polled_at', { withTimezone: true }),
    lastError: text('last_error'),
    /** A 429 answered: no call before this instant. */
    pausedUntil: timestamp('paused_until', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // A merchant of a marketplace is one shop's: two shops can never both poll it.
    uniqueIndex('marketplace_accounts_merchant_uq').on(t.kind, t.provider, t.merchantId),
    index('marketplace_accounts_client_idx').on(t.clientId),
    check('marketplace_accounts_kind_ck', sql`${t.kind} in ('ifood','opendelivery')`),
  ],
);

/**
 * An order as received, stored ONCE per account and marketplace order id before its events are
 * acknowledged. `detail` is the adapter's normalized order (adapters.ts `NormalizedOrder`).
 */
export const marketplaceOrders = pgTable(
  'marketplace_orders',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    accountId: integer('account_id')
      .notNull()
      .references(() => marketplaceAccounts.id),
    externalId: text('external_id').notNull(),
    displayId: text('display_id').notNull(),
    /** new | mapping | confirmed | canceled */
    status: text('status').notNull().default('new'),
    detail: jsonb('detail').notNull(),
    confirmDeadline: timestamp('confirm_deadline', { withTimezone: true }).notNull(),
    cancellationRequested: boolean('cancellation_requested').notNull().default(false),
    saleId: integer('sale_id').references(() => sales.id),
    saleNumber: integer('sale_number'),
    problem: text('problem'),
    /**
     * The marketplace's courier news (dispatched | concluded) read before the order was confirmed in
     * Balcão: kept and applied to its delivery order at confirmation (out-of-order events, issue 35).
     */
    courierEvent: text('courier_event'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Exactly once: a repeated or reordered event finds the order already there.
    uniqueIndex('marketplace_orders_external_uq').on(t.accountId, t.externalId),
    uniqueIndex('marketplace_orders_sale_uq').on(t.saleId),
    index('marketplace_orders_client_status_idx').on(t.clientId, t.status),
    check('marketplace_orders_status_ck', sql`${t.status} in ('new','mapping','confirmed','canceled')`),
  ],
);

/** The mapping screen's memory: a marketplace item's code is this product of the shop. */
export const marketplaceItemMaps = pgTable(
  'marketplace_item_maps',
  {
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    accountId: integer('account_id')
      .notNull()
      .references(() => marketplaceAccounts.id),
    externalCode: text('external_code').notNull(),
    /** The item's name on the marketplace when it was mapped. */
    name: text('name').notNull(),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id),
    /** The product's name when it was mapped (the mapping list). */
    productName: text('product_name').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.externalCode] })],
);

/** A marketplace customer is one customer of the shop (their next order finds them). */
export const marketplaceCustomers = pgTable(
  'marketplace_customers',
  {
    accountId: integer('account_id')
      .notNull()
      .references(() => marketplaceAccounts.id),
    externalId: text('external_id').notNull(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.externalId] })],
);

/**
 * The status outbox: each status of an order is a row (unique per order and status: told once), sent
 * by the status job until the marketplace accepts it (sent_at), retried with a growing pause.
 */
export const marketplaceStatusSends = pgTable(
  'marketplace_status_sends',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    orderId: integer('order_id')
      .notNull()
      .references(() => marketplaceOrders.id),
    /** confirmed | preparing | ready | dispatched | delivered | canceled | acceptCancellation | denyCancellation */
    status: text('status').notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAt: timestamp('next_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    /** The marketplace has no such call (iFood concludes a delivery by itself): nothing to send. */
    skipped: boolean('skipped').notNull().default(false),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('marketplace_status_sends_uq').on(t.orderId, t.status),
    index('marketplace_status_sends_due_idx').on(t.nextAt).where(sql`${t.sentAt} is null`),
  ],
);
