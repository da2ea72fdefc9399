import { boolean, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { clients, users } from '../../db/schema.ts';

/**
 * The shop's settings pages (issue 14), one row per client, created on the page's first save. The
 * company's name, document, segment, phone, flags, time zone and logo stay in the platform `clients`
 * table (the login answer carries them) and the Pix key in `payment_gateways`; these tables hold the
 * rest and who saved each page last.
 */
const changedBy = {
  updatedByUserId: integer('updated_by_user_id').references(() => users.id, { onDelete: 'set null' }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

export const companySettings = pgTable('company_settings', {
  clientId: integer('client_id')
    .primaryKey()
    .references(() => clients.id),
  legalName: text('legal_name'),
  stateRegistration: text('state_registration'),
  whatsapp: text('whatsapp'),
  email: text('email'),
  zipCode: text('zip_code'),
  street: text('street'),
  number: text('number'),
  complement: text('complement'),
  neighborhood: text('neighborhood'),
  city: text('city'),
  state: text('state'),
  receiptHeader: text('receipt_header'),
  receiptFooter: text('receipt_footer'),
  ...changedBy,
});

export type StoredDiscountLimits = Record<string, { line: number; sale: number }>;
export type StoredDelivery = {
  enabled: boolean;
  minimumOrderCents: number;
  estimateMinutes: number;
  payment: string;
};

export const systemSettings = pgTable('system_settings', {
  clientId: integer('client_id')
    .primaryKey()
    .references(() => clients.id),
  /** `{ [userTypeId]: { line, sale } }` in hundredths of a percent. */
  discountLimits: jsonb('discount_limits').$type<StoredDiscountLimits>().notNull(),
  budgetValidityDays: integer('budget_validity_days').notNull(),
  /** Hundredths of a percent. */
  serviceFeePercent: integer('service_fee_percent').notNull(),
  couvertCents: integer('couvert_cents').notNull(),
  tabIdleMinutes: integer('tab_idle_minutes').notNull(),
  delivery: jsonb('delivery').$type<StoredDelivery>().notNull(),
  /** Issue 30: `{ windowDays, userTypeIds }` of exchanges and returns; null = the defaults. */
  returns: jsonb('returns').$type<{ windowDays: number; userTypeIds: number[] }>(),
  /** Issue 30: user types that close their register by a blind count; null = the default (Caixa). */
  blindCountUserTypeIds: jsonb('blind_count_user_type_ids').$type<number[]>(),
  /** Issue 35: orders from the QR menu at the table go to the tab and the kitchen without approval. */
  tableOrdersDirect: boolean('table_orders_direct').notNull().default(false),
  ...changedBy,
});

export type StoredWorkingHours = {
  weekly: { start: string; end: string }[][];
  exceptions: { date: string; closed: boolean; intervals: { start: string; end: string }[]; note: string }[];
};

export const workingHours = pgTable('working_hours', {
  clientId: integer('client_id')
    .primaryKey()
    .references(() => clients.id),
  weekly: jsonb('weekly').$type<StoredWorkingHours['weekly']>().notNull(),
  exceptions: jsonb('exceptions').$type<StoredWorkingHours['exceptions']>().notNull(),
  paused: boolean('paused').notNull().default(false),
  pauseReason: text('pause_reason').notNull().default(''),
  pausedUntil: timestamp('paused_until', { withTimezone: true }),
  ...changedBy,
});
