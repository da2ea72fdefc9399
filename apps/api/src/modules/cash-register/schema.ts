import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { clients, users } from '../../db/schema.ts';

/**
 * A cash register session (caixa) of one user: opened with an opening amount, closed with the amounts
 * counted per payment method. One open register per user (partial unique index).
 */
export const cashRegisters = pgTable(
  'cash_registers',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** open | closed */
    status: text('status').notNull().default('open'),
    openingAmountCents: integer('opening_amount_cents').notNull().default(0),
    openedAt: timestamp('opened_at', { withTimezone: true }).notNull().defaultNow(),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    closingNotes: text('closing_notes'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('cash_registers_user_open_uq').on(t.userId).where(sql`${t.status} = 'open'`),
    index('cash_registers_client_opened_idx').on(t.clientId, t.openedAt),
    check('cash_registers_status_ck', sql`${t.status} in ('open', 'closed')`),
    check('cash_registers_opening_ck', sql`${t.openingAmountCents} >= 0`),
  ],
);

/**
 * Money in and out of a register besides sales: suprimento (deposit), sangria (withdrawal) and
 * receipts of crediário installments settled at this register (receipt, any payment method).
 */
export const cashRegisterMovements = pgTable(
  'cash_register_movements',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    cashRegisterId: integer('cash_register_id')
      .notNull()
      .references(() => cashRegisters.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** deposit (suprimento) | withdrawal (sangria) | receipt (installment received) | refund (a return paid back, issue 30) */
    type: text('type').notNull(),
    paymentMethod: text('payment_method').notNull().default('money'),
    amountCents: integer('amount_cents').notNull(),
    reason: text('reason').notNull().default(''),
    /** The manager who approved a sangria typed by a user without the right. */
    approvedByUserId: integer('approved_by_user_id').references(() => users.id),
    /** receipt: the receivable settled. */
    receivableId: integer('receivable_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * A movement made at the PDV without a connection (issue 21): the till's id for it (recorded
     * once per client) and created_at is the till's time.
     */
    clientMovementId: text('client_movement_id'),
  },
  (t) => [
    index('cash_register_movements_register_idx').on(t.cashRegisterId, t.createdAt),
    uniqueIndex('cash_register_movements_client_movement_uq').on(t.clientId, t.clientMovementId),
    check(
      'cash_register_movements_type_ck',
      sql`${t.type} in ('deposit', 'withdrawal', 'receipt', 'refund')`,
    ),
    check('cash_register_movements_amount_ck', sql`${t.amountCents} > 0`),
  ],
);

/** The closing count: expected (computed at close) and counted per payment method. */
export const cashRegisterCounts = pgTable(
  'cash_register_counts',
  {
    cashRegisterId: integer('cash_register_id')
      .notNull()
      .references(() => cashRegisters.id),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    paymentMethod: text('payment_method').notNull(),
    expectedCents: integer('expected_cents').notNull(),
    countedCents: integer('counted_cents').notNull(),
  },
  (t) => [primaryKey({ columns: [t.cashRegisterId, t.paymentMethod] })],
);

/**
 * Each opening of the cash drawer (issue 36), logged on the register: a cash sale, a sangria, or
 * "Abrir gaveta" by a user allowed to (ACTION.openDrawer). `key` is the kick's print job key (one
 * opening per sale, per movement, per click).
 */
export const cashDrawerOpenings = pgTable(
  'cash_drawer_openings',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    cashRegisterId: integer('cash_register_id')
      .notNull()
      .references(() => cashRegisters.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** sale | withdrawal | manual */
    reason: text('reason').notNull(),
    key: text('key').notNull(),
    /** The print job of the kick. */
    printJobId: integer('print_job_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('cash_drawer_openings_key_uq').on(t.clientId, t.key),
    index('cash_drawer_openings_register_idx').on(t.cashRegisterId, t.createdAt),
    check('cash_drawer_openings_reason_ck', sql`${t.reason} in ('sale', 'withdrawal', 'manual')`),
  ],
);
