import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  unique,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { clients, users } from '../../db/schema.ts';
import { lineSnapshotColumns, lineTotalsColumns, quantityColumn } from '../../lib/lineSnapshot.ts';
import { cashRegisters } from '../cash-register/schema.ts';
import { coupons } from '../coupon/schema.ts';
import { customers } from '../customer/schema.ts';
import { products, productVariants } from '../product/schema.ts';

/** A sale (PDV, quick sale; comandas, budgets and delivery orders end in one too). Money in cents. */
export const sales = pgTable(
  'sales',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    /** Sequential per client without gaps (sale_counters), set inside the checkout transaction. */
    number: integer('number').notNull(),
    /** The user at the PDV. */
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** The seller credited (saleSeller), when another user. */
    sellerId: integer('seller_id').references(() => users.id),
    customerId: integer('customer_id').references(() => customers.id),
    cashRegisterId: integer('cash_register_id').references(() => cashRegisters.id),
    /** pending | finished | canceled */
    status: text('status').notNull(),
    /** store | delivery | command | budget */
    typeOfSale: text('type_of_sale').notNull().default('store'),
    /** pdv | waiter | command | budget | delivery */
    originSale: text('origin_sale').notNull().default('pdv'),
    isSimple: boolean('is_simple').notNull().default(false),
    totalItems: integer('total_items').notNull(),
    totalQuantity: quantityColumn('total_quantity').notNull(),
    itemsDiscountCents: integer('items_discount_cents').notNull().default(0),
    /** Items after their own discounts. */
    totalCents: integer('total_cents').notNull(),
    /** fixed_amount | percentage */
    discountType: text('discount_type').notNull().default('fixed_amount'),
    /** Cents or hundredths of a percent, as typed. */
    discountValue: integer('discount_value').notNull().default(0),
    discountCents: integer('discount_cents').notNull().default(0),
    couponId: integer('coupon_id').references(() => coupons.id),
    couponCode: text('coupon_code'),
    couponDiscountCents: integer('coupon_discount_cents').notNull().default(0),
    freightCents: integer('freight_cents').notNull().default(0),
    finalAmountCents: integer('final_amount_cents').notNull(),
    cashDepositAmountCents: integer('cash_deposit_amount_cents').notNull().default(0),
    changeCents: integer('change_cents').notNull().default(0),
    /** Snapshot of the customer's address at the time of the sale. */
    deliveryAddress: jsonb('delivery_address'),
    notes: text('notes'),
    cancelReason: text('cancel_reason'),
    canceledAt: timestamp('canceled_at', { withTimezone: true }),
    canceledByUserId: integer('canceled_by_user_id').references(() => users.id),
    cancelApprovedByUserId: integer('cancel_approved_by_user_id').references(() => users.id),
    /** The manager who approved a discount above the operator's limit (issue 12 point 9). */
    discountApprovedByUserId: integer('discount_approved_by_user_id').references(() => users.id),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** Made at a PDV without a connection and sent later (issue 21): created_at is the till's time. */
    madeOffline: boolean('made_offline').notNull().default(false),
    /** When an offline sale reached the server (null for online sales). */
    syncedAt: timestamp('synced_at', { withTimezone: true }),
    /** Conflicts an offline sale was accepted with (core OFFLINE_FLAGS), [] when none. */
    offlineFlags: jsonb('offline_flags').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    /**
     * "CPF na nota?" (issue 32): the consumer's CPF or CNPJ (digits) typed at the PDV, kept with the
     * sale so a note issued later (the fiscal sweep, a restart before the follow-up) still carries it.
     */
    consumerDocument: text('consumer_document'),
  },
  (t) => [
    uniqueIndex('sales_client_number_uq').on(t.clientId, t.number),
    index('sales_client_created_idx').on(t.clientId, t.createdAt, t.id),
    index('sales_client_customer_idx').on(t.clientId, t.customerId),
    index('sales_cash_register_idx').on(t.cashRegisterId),
    check('sales_status_ck', sql`${t.status} in ('pending', 'finished', 'canceled')`),
    check('sales_amounts_ck', sql`${t.finalAmountCents} >= 0 and ${t.changeCents} >= 0`),
  ],
);

/** Lines of a sale: a snapshot of the product (name, codes, price) at the time of the sale. */
export const saleItems = pgTable(
  'sale_items',
  {
    id: serial('id').primaryKey(),
    saleId: integer('sale_id')
      .notNull()
      .references(() => sales.id, { onDelete: 'cascade' }),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    position: integer('position').notNull(),
    /** Null for a quick sale line or a product deleted since (the snapshot stays). */
    productId: integer('product_id').references(() => products.id, { onDelete: 'set null' }),
    variantId: integer('variant_id').references(() => productVariants.id, { onDelete: 'set null' }),
    ...lineSnapshotColumns({ unitDefault: true }),
    ...lineTotalsColumns(),
  },
  (t) => [
    index('sale_items_sale_idx').on(t.saleId, t.position),
    index('sale_items_product_idx').on(t.productId),
  ],
);

/** How a sale was paid; money rows hold the amount applied (the change is on the sale). */
export const salePayments = pgTable(
  'sale_payments',
  {
    id: serial('id').primaryKey(),
    saleId: integer('sale_id')
      .notNull()
      .references(() => sales.id, { onDelete: 'cascade' }),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    position: integer('position').notNull(),
    method: text('method').notNull(),
    amountCents: integer('amount_cents').notNull(),
    numberInstallments: integer('number_installments').notNull().default(1),
    /** Crediário/boleto: first due date. */
    dueDate: date('due_date', { mode: 'string' }),
    /** Crediário/boleto: installment number of this payment's first receivable. */
    firstInstallment: integer('first_installment'),
    /** Pix QR dinâmico (issue 33): the Pix's endToEndId, as the bank confirmed it (receipt, detail). */
    pixEndToEndId: text('pix_end_to_end_id'),
  },
  (t) => [
    index('sale_payments_sale_idx').on(t.saleId),
    check('sale_payments_amount_ck', sql`${t.amountCents} > 0`),
  ],
);

/** Next sale number per client: `UPDATE ... SET last = last + 1 RETURNING` inside the checkout. */
export const saleCounters = pgTable('sale_counters', {
  clientId: integer('client_id')
    .primaryKey()
    .references(() => clients.id),
  last: integer('last').notNull().default(0),
});

/**
 * Idempotency-Key of POST /v1/sale: the first request with a key inserts the row in its own checkout
 * transaction; a retry (even racing) hits the primary key and answers the sale recorded for it.
 */
export const saleIdempotencyKeys = pgTable(
  'sale_idempotency_keys',
  {
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    key: text('key').notNull(),
    /** Hash of the request body: the same key with another sale is refused. */
    requestHash: text('request_hash').notNull(),
    saleId: integer('sale_id').references(() => sales.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.clientId, t.key] })],
);

/**
 * The shop's day at a glance (the home), kept by triggers on sales, sale_payments and sale_items (custom
 * migration `sale_home_summary_triggers`): per client and shop-local day (the client's time zone when
 * the sale was written), the sales not canceled, their payments per method and their products. A
 * cancel subtracts its sale. The home reads a month as ~30 rows instead of scanning its sales; products
 * are kept per month (`saleMonthlyProducts`).
 */
export const saleDailyTotals = pgTable(
  'sale_daily_totals',
  {
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    day: date('day', { mode: 'string' }).notNull(),
    salesCount: integer('sales_count').notNull().default(0),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.clientId, t.day] })],
);

export const saleDailyPayments = pgTable(
  'sale_daily_payments',
  {
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    day: date('day', { mode: 'string' }).notNull(),
    method: text('method').notNull(),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.clientId, t.day, t.method] })],
);

/**
 * Credit card sales in instalments (2x or more) per shop-local day and number of instalments (issue 34):
 * the part of `saleDailyPayments`' creditCard amount the cash flow settles instalment by instalment at
 * the fee table's rate for that many instalments. Kept by deferred triggers like the daily summary (a sale's
 * payment adds, its cancel subtracts) and by `rebuildSaleSummary`.
 */
export const saleDailyCreditInstallments = pgTable(
  'sale_daily_credit_installments',
  {
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    day: date('day', { mode: 'string' }).notNull(),
    installments: integer('installments').notNull(),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.clientId, t.day, t.installments] })],
);

/**
 * Products sold per shop-local month (the home's best sellers): a month holds one row per product sold,
 * and the (client, month, amount) index gives the first five without reading the others.
 */
export const saleMonthlyProducts = pgTable(
  'sale_monthly_products',
  {
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    /** The month's first day. */
    month: date('month', { mode: 'string' }).notNull(),
    /** No foreign key: a deleted product keeps its history. */
    productId: integer('product_id').notNull(),
    quantity: quantityColumn('quantity').notNull().default(0),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.clientId, t.month, t.productId] }),
    index('sale_monthly_products_top_idx').on(t.clientId, t.month, t.amountCents.desc(), t.productId),
  ],
);

/**
 * The sales reports' summary (issue 34, `sale/reportFigures.ts`), kept by deferred triggers on sales,
 * sale_returns and sale_return_items (migration `sale_report_summary`, `sale_report_apply`): the sales not
 * canceled per shop-local day and hour, seller (the seller credited, else the operator) and origin, with
 * their gross, discounts, returns and final amount. A year is at most 365 x 24 x sellers x origins rows.
 * No foreign key on the seller: a removed user keeps the history.
 */
export const saleDailyGroups = pgTable(
  'sale_daily_groups',
  {
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    day: date('day', { mode: 'string' }).notNull(),
    hour: integer('hour').notNull(),
    sellerId: integer('seller_id').notNull(),
    origin: text('origin').notNull(),
    salesCount: integer('sales_count').notNull().default(0),
    grossCents: bigint('gross_cents', { mode: 'number' }).notNull().default(0),
    discountsCents: bigint('discounts_cents', { mode: 'number' }).notNull().default(0),
    returnsCents: bigint('returns_cents', { mode: 'number' }).notNull().default(0),
    finalCents: bigint('final_cents', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.clientId, t.day, t.hour, t.sellerId, t.origin] })],
);

/**
 * Products sold per shop-local day for the reports (issue 34): quantity kept (sold - returned) and
 * revenue net of the line discount, of the line's share of the sale's discount and coupon (rounded per
 * line) and of what came back. Lines without a product (quick sales) are the row with a null product.
 */
export const saleDailyProducts = pgTable(
  'sale_daily_products',
  {
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    day: date('day', { mode: 'string' }).notNull(),
    /** No foreign key: a deleted product keeps its history. Null: the lines without a product. */
    productId: integer('product_id'),
    /** The least of the lines' descriptions (what the report shows). */
    name: text('name').notNull(),
    /** Lines of the sales not canceled (a line fully returned still counts: the report lists it at 0). */
    linesCount: integer('lines_count').notNull().default(0),
    quantity: numeric('quantity', { precision: 14, scale: 3 }).notNull().default('0'),
    revenueCents: bigint('revenue_cents', { mode: 'number' }).notNull().default(0),
    /**
     * The DRE's CMV of the lines the stock ledger costed (issue 34): quantity sold x the unit cost the
     * ledger kept on the sale's row, unrounded (the DRE rounds the month's sum, as it did reading the
     * sales). Returns do not change it (the DRE's CMV is of what was sold).
     */
    cmvCents: numeric('cmv_cents').notNull().default('0'),
    /** Quantity sold on lines the ledger kept no cost for: the DRE costs it at the product's cost of today. */
    uncostedQuantity: numeric('uncosted_quantity', { precision: 14, scale: 3 }).notNull().default('0'),
  },
  (t) => [unique('sale_daily_products_key').on(t.clientId, t.day, t.productId).nullsNotDistinct()],
);

/** Canceled sales per shop-local day of the sale and who canceled them (issue 34, same triggers). */
export const saleDailyCancels = pgTable(
  'sale_daily_cancels',
  {
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    day: date('day', { mode: 'string' }).notNull(),
    /** No foreign key; null when nobody is recorded. */
    userId: integer('user_id'),
    salesCount: integer('sales_count').notNull().default(0),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull().default(0),
  },
  (t) => [unique('sale_daily_cancels_key').on(t.clientId, t.day, t.userId).nullsNotDistinct()],
);

/**
 * A return of some lines of a sale (issue 30, `sale/saleReturn.ts`): written in one transaction with
 * its lines, its refunds, the stock that came back, the register's refund movements or the customer's
 * vale-troca. The Idempotency-Key is unique per client: a retried request answers the first return.
 */
export const saleReturns = pgTable(
  'sale_returns',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    saleId: integer('sale_id')
      .notNull()
      .references(() => sales.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    approvedByUserId: integer('approved_by_user_id').references(() => users.id),
    /** original | storeCredit */
    refund: text('refund').notNull(),
    /** Who got the vale-troca (the sale's customer, or the one named at the return). */
    customerId: integer('customer_id').references(() => customers.id, { onDelete: 'set null' }),
    /** The register the money left from (original refunds with an open register). */
    cashRegisterId: integer('cash_register_id').references(() => cashRegisters.id),
    amountCents: integer('amount_cents').notNull(),
    reason: text('reason').notNull(),
    idempotencyKey: text('idempotency_key'),
    requestHash: text('request_hash'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('sale_returns_sale_idx').on(t.saleId),
    // The DRE's returns of a month (issue 34).
    index('sale_returns_client_created_idx').on(t.clientId, t.createdAt),
    uniqueIndex('sale_returns_client_key_uq').on(t.clientId, t.idempotencyKey),
    check('sale_returns_refund_ck', sql`${t.refund} in ('original', 'storeCredit')`),
    check('sale_returns_amount_ck', sql`${t.amountCents} >= 0`),
  ],
);

/** The lines of a return: how much of a sale line came back and what it was worth. */
export const saleReturnItems = pgTable(
  'sale_return_items',
  {
    id: serial('id').primaryKey(),
    returnId: integer('return_id')
      .notNull()
      .references(() => saleReturns.id, { onDelete: 'cascade' }),
    saleItemId: integer('sale_item_id')
      .notNull()
      .references(() => saleItems.id, { onDelete: 'cascade' }),
    quantity: quantityColumn('quantity').notNull(),
    restock: boolean('restock').notNull(),
    amountCents: integer('amount_cents').notNull(),
  },
  (t) => [
    index('sale_return_items_return_idx').on(t.returnId),
    index('sale_return_items_item_idx').on(t.saleItemId),
  ],
);

/** Where a return's money went: one row per method (the sale's own methods, or storeCredit). */
export const saleReturnRefunds = pgTable(
  'sale_return_refunds',
  {
    id: serial('id').primaryKey(),
    returnId: integer('return_id')
      .notNull()
      .references(() => saleReturns.id, { onDelete: 'cascade' }),
    method: text('method').notNull(),
    amountCents: integer('amount_cents').notNull(),
  },
  (t) => [
    index('sale_return_refunds_return_idx').on(t.returnId),
    check('sale_return_refunds_amount_ck', sql`${t.amountCents} > 0`),
  ],
);
