import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { clients, users } from '../../db/schema.ts';
import { products, productVariants } from '../product/schema.ts';

/**
 * The stock ledger (issue 6): one row per change of a product's (or variant's) stock.
 *
 * `quantity` is SIGNED: positive rows add to the stock (entry, fractionate-in, sale-cancel, a
 * positive adjustment), negative rows take from it (exit, fractionate-out, sale, a negative
 * adjustment). A product's level is the sum of its rows (variant rows included); a variant's level
 * is the sum of the rows with its id. products.stock and product_variants.stock cache those sums;
 * the custom migration "stock_ledger_triggers" records an 'adjustment' row whenever something other than
 * the stock service writes a cached level (the product form, the CSV import, the grid), so the two
 * never disagree.
 *
 * Deleting a product deletes its ledger; deleting a variant keeps its rows as product rows
 * (variant_id set null) and the grid's recomputed level records the difference.
 */
export const stockMovements = pgTable(
  'stock_movements',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    variantId: integer('variant_id').references(() => productVariants.id, { onDelete: 'set null' }),
    /** core STOCK_MOVEMENT_TYPES. */
    type: text('type').notNull(),
    quantity: numeric('quantity', { precision: 14, scale: 3, mode: 'string' }).notNull(),
    /**
     * Cost per unit of what came in (entries, fractionate-in); on a sale's row, the product's weighted
     * average cost when it was sold (the DRE's CMV, issue 34); null otherwise.
     */
    unitCostCents: integer('unit_cost_cents'),
    /** Exit reason code (core STOCK_EXIT_REASONS) or the database's adjustment reason. */
    reason: text('reason'),
    /** Invoice (nota fiscal) or other document number. */
    document: text('document'),
    note: text('note'),
    /** Null for rows the database wrote (product form, CSV import). */
    userId: integer('user_id').references(() => users.id),
    /** The sale of a sale / sale-cancel row (the sales table belongs to the PDV issue). */
    saleId: integer('sale_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('stock_movements_client_created_idx').on(t.clientId, t.createdAt, t.id),
    index('stock_movements_product_idx').on(t.productId, t.id),
    index('stock_movements_variant_idx').on(t.variantId),
    index('stock_movements_sale_idx').on(t.saleId),
    check(
      'stock_movements_type_ck',
      sql`${t.type} in ('entry', 'exit', 'fractionate-out', 'fractionate-in', 'sale', 'sale-cancel', 'adjustment', 'sale-return')`,
    ),
    check('stock_movements_quantity_ck', sql`${t.quantity} <> 0`),
  ],
);

/** Per-client stock settings (a row appears on the first change; no row = the defaults). */
export const stockSettings = pgTable('stock_settings', {
  clientId: integer('client_id')
    .primaryKey()
    .references(() => clients.id),
  /** Exits and sales may take a level below zero. Default false: they are refused with 409. */
  allowNegativeStock: boolean('allow_negative_stock').notNull().default(false),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The last ratio used to fractionate one product into another (pre-filled next time). */
export const stockFractionRatios = pgTable(
  'stock_fraction_ratios',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    sourceProductId: integer('source_product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    targetProductId: integer('target_product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    sourceQuantity: numeric('source_quantity', { precision: 14, scale: 3, mode: 'string' }).notNull(),
    targetQuantity: numeric('target_quantity', { precision: 14, scale: 3, mode: 'string' }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('stock_fraction_ratios_pair_uq').on(t.clientId, t.sourceProductId, t.targetProductId)],
);

/**
 * Stock held for a holder (a budget, issue 17): units other sales may not take while the
 * reservation is active, i.e. not released and `expires_at` still ahead. Expiry is computed from
 * the timestamp when stock is read or taken (no timer); the holder's module releases it on cancel
 * or conversion and moves `expires_at` on renewal. `holder_id` is the holder's id in its own module.
 */
export const stockReservations = pgTable(
  'stock_reservations',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    variantId: integer('variant_id').references(() => productVariants.id, { onDelete: 'cascade' }),
    /** 'budget' */
    holderKind: text('holder_kind').notNull(),
    holderId: integer('holder_id').notNull(),
    quantity: numeric('quantity', { precision: 14, scale: 3, mode: 'string' }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    releasedAt: timestamp('released_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('stock_reservations_product_idx').on(t.clientId, t.productId),
    index('stock_reservations_holder_idx').on(t.holderKind, t.holderId),
    check('stock_reservations_quantity_ck', sql`${t.quantity} > 0`),
  ],
);

/**
 * The stock ledger summed per product and UTC calendar month (issue 34, the stock turnover), kept by
 * statement triggers on stock_movements (migration `stock_month_totals`) in the transaction that writes
 * the ledger: the level at any instant is the sum of the months before its month plus that month's rows
 * up to the instant, so a period's opening and closing levels and what it sold read a few partial
 * months of rows instead of the whole history. UTC months: nothing moves when the shop's time zone does.
 * No foreign key on the product: its ledger goes with it and the triggers bring these sums to zero.
 */
export const stockMonthTotals = pgTable(
  'stock_month_totals',
  {
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    /** The first day of the UTC month. */
    month: date('month', { mode: 'string' }).notNull(),
    productId: integer('product_id').notNull(),
    /** Every row's quantity (signed): the month's change of the level. */
    quantity: numeric('quantity', { precision: 14, scale: 3, mode: 'string' }).notNull().default('0'),
    /** The sale, sale-cancel and sale-return rows' quantity (signed as the ledger: negative is sold). */
    soldQuantity: numeric('sold_quantity', { precision: 14, scale: 3, mode: 'string' })
      .notNull()
      .default('0'),
    /** Those rows' quantity x unit cost where the ledger kept one (signed). */
    soldCostCents: numeric('sold_cost_cents', { mode: 'string' }).notNull().default('0'),
    /** Those rows' quantity where it kept none (the turnover costs it at today's cost). */
    uncostedQuantity: numeric('uncosted_quantity', { precision: 14, scale: 3, mode: 'string' })
      .notNull()
      .default('0'),
  },
  (t) => [primaryKey({ columns: [t.clientId, t.month, t.productId] })],
);
