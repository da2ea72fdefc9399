import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { clients, users } from '../../db/schema.ts';
import { lineSnapshotColumns, lineTotalsColumns, quantityColumn } from '../../lib/lineSnapshot.ts';
import { customers } from '../customer/schema.ts';
import { products, productVariants } from '../product/schema.ts';
import { sales } from '../sale/schema.ts';

/**
 * A budget (orçamento, issue 17). Money in cents. `status` is pending | sent | finished | canceled;
 * "expired" is never stored: an open budget is expired when `valid_until` (a shop date) is before
 * the shop's today, computed at read time (no timer).
 */
export const budgets = pgTable(
  'budgets',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    /** Sequential per client (budget_counters). */
    number: integer('number').notNull(),
    status: text('status').notNull().default('pending'),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    sellerId: integer('seller_id').references(() => users.id),
    customerId: integer('customer_id').references(() => customers.id),
    /** store | delivery */
    typeOfSale: text('type_of_sale').notNull().default('store'),
    deliveryAddress: jsonb('delivery_address'),
    totalItems: integer('total_items').notNull(),
    totalQuantity: quantityColumn('total_quantity').notNull(),
    itemsGrossCents: integer('items_gross_cents').notNull(),
    itemsDiscountCents: integer('items_discount_cents').notNull().default(0),
    totalCents: integer('total_cents').notNull(),
    discountType: text('discount_type').notNull().default('fixed_amount'),
    discountValue: integer('discount_value').notNull().default(0),
    discountCents: integer('discount_cents').notNull().default(0),
    freightCents: integer('freight_cents').notNull().default(0),
    finalAmountCents: integer('final_amount_cents').notNull(),
    /** The last day the budget is valid (shop date). */
    validUntil: date('valid_until', { mode: 'string' }).notNull(),
    notes: text('notes'),
    paymentConditions: text('payment_conditions'),
    reserveStock: boolean('reserve_stock').notNull().default(false),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    viewedAt: timestamp('viewed_at', { withTimezone: true }),
    /** approved | refused (the customer's answer on the public page). */
    answer: text('answer'),
    answeredAt: timestamp('answered_at', { withTimezone: true }),
    refusalReason: text('refusal_reason'),
    saleId: integer('sale_id').references(() => sales.id),
    /** The sale's number, written with saleId when the sale is recorded (shown without reading sales). */
    saleNumber: integer('sale_number'),
    cancelReason: text('cancel_reason'),
    canceledAt: timestamp('canceled_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('budgets_client_number_uq').on(t.clientId, t.number),
    index('budgets_client_created_idx').on(t.clientId, t.createdAt),
    uniqueIndex('budgets_sale_uq').on(t.saleId),
    check('budgets_status_ck', sql`${t.status} in ('pending', 'sent', 'finished', 'canceled')`),
    check('budgets_answer_ck', sql`${t.answer} is null or ${t.answer} in ('approved', 'refused')`),
    check('budgets_finished_sale_ck', sql`(${t.status} = 'finished') = (${t.saleId} is not null)`),
  ],
);

/** A budget's lines: the catalog's snapshot when it was priced (renewal prices them again). */
export const budgetItems = pgTable(
  'budget_items',
  {
    id: serial('id').primaryKey(),
    budgetId: integer('budget_id')
      .notNull()
      .references(() => budgets.id, { onDelete: 'cascade' }),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    position: integer('position').notNull(),
    productId: integer('product_id').references(() => products.id, { onDelete: 'set null' }),
    variantId: integer('variant_id').references(() => productVariants.id, { onDelete: 'set null' }),
    ...lineSnapshotColumns({ unitDefault: false }),
    ...lineTotalsColumns(),
  },
  (t) => [index('budget_items_budget_idx').on(t.budgetId, t.position)],
);

/** The last budget number of each client. */
export const budgetCounters = pgTable('budget_counters', {
  clientId: integer('client_id')
    .primaryKey()
    .references(() => clients.id),
  last: integer('last').notNull(),
});

/**
 * Approval links: only the SHA-256 of each token is stored (lib/secrets), so the link is shown
 * when issued; every issued link of a budget works while the budget is open.
 */
export const budgetLinks = pgTable(
  'budget_links',
  {
    id: serial('id').primaryKey(),
    budgetId: integer('budget_id')
      .notNull()
      .references(() => budgets.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('budget_links_token_uq').on(t.tokenHash),
    index('budget_links_budget_idx').on(t.budgetId),
  ],
);
