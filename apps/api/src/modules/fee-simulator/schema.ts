import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { clients } from '../../db/schema.ts';

/**
 * A shop's card rate table (issue 20): started from a dated preset or blank, edited and kept per shop.
 * Rates are integer hundredths of a percent (3,79% -> 379), like the coupon's percentages.
 */
export const feeTables = pgTable(
  'fee_tables',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    name: text('name').notNull(),
    acquirer: text('acquirer').notNull(),
    presetKey: text('preset_key'),
    plan: text('plan').notNull().default(''),
    tier: text('tier').notNull().default(''),
    settlementLabel: text('settlement_label').notNull().default(''),
    brandGroup: text('brand_group').notNull().default(''),
    ratesDate: date('rates_date', { mode: 'string' }).notNull(),
    verified: boolean('verified').notNull().default(true),
    /** Null: the acquirer offers no such rate (or does not publish it). */
    debitRateBp: integer('debit_rate_bp'),
    pixRateBp: integer('pix_rate_bp'),
    /** Index 0 is 1x; 1 to 18 entries. */
    creditRatesBp: integer('credit_rates_bp').array().notNull(),
    /** none | simple | compound | linear */
    anticipationModel: text('anticipation_model').notNull(),
    /** Per month. */
    anticipationRateBp: integer('anticipation_rate_bp').notNull().default(0),
    /** monthly | daily */
    anticipationBasis: text('anticipation_basis').notNull().default('monthly'),
    linearSkipsFirst: boolean('linear_skips_first').notNull().default(false),
    settlementDays: integer('settlement_days').notNull(),
    settlesAtOnce: boolean('settles_at_once').notNull().default(false),
    buyerInterestRateBp: integer('buyer_interest_rate_bp').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('fee_tables_client_idx').on(t.clientId),
    check('fee_tables_model_ck', sql`${t.anticipationModel} in ('none', 'simple', 'compound', 'linear')`),
    check('fee_tables_basis_ck', sql`${t.anticipationBasis} in ('monthly', 'daily')`),
    check(
      'fee_tables_rates_ck',
      sql`coalesce(${t.debitRateBp}, 0) between 0 and 9999 and coalesce(${t.pixRateBp}, 0) between 0 and 9999
        and ${t.anticipationRateBp} between 0 and 9999 and ${t.buyerInterestRateBp} between 0 and 9999`,
    ),
    check(
      'fee_tables_credit_ck',
      sql`cardinality(${t.creditRatesBp}) between 1 and 18 and 0 <= all(${t.creditRatesBp}) and 9999 >= all(${t.creditRatesBp})`,
    ),
    check('fee_tables_days_ck', sql`${t.settlementDays} between 0 and 60`),
  ],
);

/** The simulator settings of a shop: the active table (the PDV's) and the PDV surcharge display. */
export const feeSettings = pgTable('fee_settings', {
  clientId: integer('client_id')
    .primaryKey()
    .references(() => clients.id),
  activeTableId: integer('active_table_id').references(() => feeTables.id, { onDelete: 'set null' }),
  /** Off by default (issue 20). */
  pdvSurcharge: boolean('pdv_surcharge').notNull().default(false),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A shop's meal voucher brands (issue 33): one row per brand it saved (VR/VA cards are paid by the
 * voucher company on its own contract, not by the card machine's acquirer): offered at the PDV or not,
 * the rate in hundredths of a percent and the days until the brand pays.
 */
export const mealVoucherRates = pgTable(
  'meal_voucher_rates',
  {
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    /** A payment method of MEAL_VOUCHER_METHODS (voucherAlelo...). */
    method: text('method').notNull(),
    enabled: boolean('enabled').notNull().default(false),
    rateBp: integer('rate_bp').notNull().default(0),
    settlementDays: integer('settlement_days').notNull().default(30),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.clientId, t.method] }),
    check('meal_voucher_rates_rate_ck', sql`${t.rateBp} between 0 and 9999`),
    check('meal_voucher_rates_days_ck', sql`${t.settlementDays} between 0 and 60`),
  ],
);
