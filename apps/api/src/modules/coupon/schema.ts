import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
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

/**
 * A discount coupon of a client (spec 3). Amounts are integers (docs/decisions.md): the API's
 * discountValue/minSaleAmount decimal numbers times 100.
 */
export const coupons = pgTable(
  'coupons',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    /** Upper-case, trimmed; unique per client among coupons not deleted (case-insensitive). */
    code: text('code').notNull(),
    /** PERCENTAGE | FIXED_AMOUNT */
    discountType: text('discount_type').notNull(),
    /** Cents (FIXED_AMOUNT) or hundredths of a percent (PERCENTAGE: 1050 = 10,5%). */
    discountValueHundredths: integer('discount_value_hundredths').notNull(),
    startDate: date('start_date', { mode: 'string' }).notNull(),
    endDate: date('end_date', { mode: 'string' }).notNull(),
    isSingleUse: boolean('is_single_use').notNull().default(false),
    /** 0 = unlimited. */
    maxUsesPerUser: integer('max_uses_per_user').notNull().default(0),
    /** 0 = no minimum. */
    minSaleAmountCents: integer('min_sale_amount_cents').notNull().default(0),
    /** active | inactive | deleted (soft delete: kept for the sales that used it). */
    status: text('status').notNull().default('active'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // A race between two saves of the same code cannot pass the service check twice.
    uniqueIndex('coupons_client_code_uq')
      .on(t.clientId, sql`lower(${t.code})`)
      .where(sql`${t.status} <> 'deleted'`),
    index('coupons_client_status_idx').on(t.clientId, t.status),
    check('coupons_discount_type_ck', sql`${t.discountType} in ('PERCENTAGE', 'FIXED_AMOUNT')`),
    check('coupons_status_ck', sql`${t.status} in ('active', 'inactive', 'deleted')`),
    check(
      'coupons_discount_value_ck',
      sql`${t.discountValueHundredths} > 0 and (${t.discountType} <> 'PERCENTAGE' or ${t.discountValueHundredths} <= 10000)`,
    ),
    check('coupons_max_uses_ck', sql`${t.maxUsesPerUser} >= 0`),
    check('coupons_min_sale_ck', sql`${t.minSaleAmountCents} >= 0`),
    check('coupons_dates_ck', sql`${t.endDate} >= ${t.startDate}`),
  ],
);

/**
 * One use of a coupon by a sale. The sale issue writes these inside its checkout transaction
 * (`useCoupon`); a canceled sale sets canceled_at and the use no longer counts.
 */
export const couponUses = pgTable(
  'coupon_uses',
  {
    id: serial('id').primaryKey(),
    couponId: integer('coupon_id')
      .notNull()
      .references(() => coupons.id),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    /** The sale that used it (no foreign key until the sales table exists). */
    saleId: integer('sale_id'),
    /** The sale's customer, when any (counts per-customer limits). */
    customerId: integer('customer_id'),
    discountCents: integer('discount_cents').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    canceledAt: timestamp('canceled_at', { withTimezone: true }),
  },
  (t) => [
    index('coupon_uses_coupon_idx').on(t.couponId, t.customerId),
    index('coupon_uses_client_sale_idx').on(t.clientId, t.saleId),
  ],
);
