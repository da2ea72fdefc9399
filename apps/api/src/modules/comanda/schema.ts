import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  check,
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
import { lineSnapshotColumns } from '../../lib/lineSnapshot.ts';
import { cashRegisters } from '../cash-register/schema.ts';
import { customers } from '../customer/schema.ts';
import { sales } from '../sale/schema.ts';

/**
 * A comanda (open tab, issue 16). Its number is unique among the client's OPEN tabs (partial unique
 * index): a closed tab's number is free again. Closed into exactly one sale (sale_id).
 */
export const comandas = pgTable(
  'comandas',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    number: integer('number').notNull(),
    /** active | finished (closed into a sale) | canceled (merged into another) */
    status: text('status').notNull().default('active'),
    tableLabel: text('table_label'),
    customerId: integer('customer_id').references(() => customers.id),
    customerName: text('customer_name'),
    customerPhone: text('customer_phone'),
    people: integer('people').notNull().default(1),
    waiterId: integer('waiter_id').references(() => users.id),
    /** Hundredths of a percent, copied from the system settings at opening. */
    serviceFeePercent: integer('service_fee_percent').notNull(),
    serviceFeeReason: text('service_fee_reason'),
    couvertPerPersonCents: integer('couvert_per_person_cents').notNull().default(0),
    billRequestedAt: timestamp('bill_requested_at', { withTimezone: true }),
    openedBy: integer('opened_by')
      .notNull()
      .references(() => users.id),
    lastItemAt: timestamp('last_item_at', { withTimezone: true }),
    saleId: integer('sale_id').references(() => sales.id),
    /** The tab this one was merged into (status canceled): its sends went there with its lines. */
    mergedIntoId: integer('merged_into_id').references((): AnyPgColumn => comandas.id),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('comandas_open_number_uq').on(t.clientId, t.number).where(sql`${t.status} = 'active'`),
    index('comandas_client_status_idx').on(t.clientId, t.status),
    check('comandas_status_ck', sql`${t.status} in ('active', 'finished', 'canceled')`),
    check('comandas_people_ck', sql`${t.people} >= 1`),
  ],
);

/** A send to production: the lines it took are the ones whose send_id is it. One per Idempotency-Key. */
export const comandaSends = pgTable(
  'comanda_sends',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    comandaId: integer('comanda_id')
      .notNull()
      .references(() => comandas.id),
    idempotencyKey: text('idempotency_key').notNull(),
    /** Print job ids of this send (tickets per sector) and the lines printed nowhere. */
    jobIds: jsonb('job_ids').$type<number[]>().notNull().default([]),
    unrouted: jsonb('unrouted').$type<string[]>().notNull().default([]),
    createdBy: integer('created_by')
      .notNull()
      .references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('comanda_sends_key_uq').on(t.clientId, t.idempotencyKey),
    index('comanda_sends_comanda_idx').on(t.comandaId),
  ],
);

/** One line of a tab, appended one per request (never the tab saved whole). Prices snapshotted. */
export const comandaLines = pgTable(
  'comanda_lines',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    comandaId: integer('comanda_id')
      .notNull()
      .references(() => comandas.id),
    productId: integer('product_id'),
    variantId: integer('variant_id'),
    /** The product's category when added: its production sector at send time. */
    categoryId: integer('category_id'),
    ...lineSnapshotColumns({ unitDefault: true }),
    /** active | canceled */
    status: text('status').notNull().default('active'),
    sendId: integer('send_id').references(() => comandaSends.id),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    /** The line this one came from (a transfer). */
    transferredFrom: integer('transferred_from'),
    addedBy: integer('added_by')
      .notNull()
      .references(() => users.id),
    addedAt: timestamp('added_at', { withTimezone: true }).notNull().defaultNow(),
    /** The Idempotency-Key of the add: a retried add answers this line. */
    idempotencyKey: text('idempotency_key'),
    cancelReason: text('cancel_reason'),
    canceledBy: integer('canceled_by').references(() => users.id),
    cancelApprovedBy: integer('cancel_approved_by').references(() => users.id),
    canceledAt: timestamp('canceled_at', { withTimezone: true }),
  },
  (t) => [
    index('comanda_lines_comanda_idx').on(t.comandaId, t.id),
    uniqueIndex('comanda_lines_key_uq')
      .on(t.clientId, t.idempotencyKey)
      .where(sql`${t.idempotencyKey} is not null`),
    check('comanda_lines_status_ck', sql`${t.status} in ('active', 'canceled')`),
    check('comanda_lines_quantity_ck', sql`${t.quantity} > 0`),
  ],
);

/**
 * Money received against a tab, by the user who received it at their open register. The sale the
 * tab closes into has exactly these payments (docs/decisions.md, issue 16).
 */
export const comandaPayments = pgTable(
  'comanda_payments',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    comandaId: integer('comanda_id')
      .notNull()
      .references(() => comandas.id),
    /** items | share | amount */
    kind: text('kind').notNull(),
    method: text('method').notNull(),
    amountCents: integer('amount_cents').notNull(),
    changeCents: integer('change_cents').notNull().default(0),
    label: text('label').notNull(),
    /** Item payments: [{lineId, quantity}]. */
    items: jsonb('items').$type<{ lineId: number; quantity: number }[]>().notNull().default([]),
    receivedBy: integer('received_by')
      .notNull()
      .references(() => users.id),
    cashRegisterId: integer('cash_register_id')
      .notNull()
      .references(() => cashRegisters.id),
    idempotencyKey: text('idempotency_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('comanda_payments_comanda_idx').on(t.comandaId),
    uniqueIndex('comanda_payments_key_uq')
      .on(t.clientId, t.idempotencyKey)
      .where(sql`${t.idempotencyKey} is not null`),
    check('comanda_payments_amount_ck', sql`${t.amountCents} > 0`),
  ],
);

/** Who did what to a tab and when: transfers, merges, table moves, fee changes, cancels, sends. */
export const comandaEvents = pgTable(
  'comanda_events',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    comandaId: integer('comanda_id')
      .notNull()
      .references(() => comandas.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    kind: text('kind').notNull(),
    text: text('text').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('comanda_events_comanda_idx').on(t.comandaId, t.id)],
);

/**
 * A table's QR code (issue 35): the token's SHA-256 (the token itself is only in the printed QR). One
 * live per table; a new one revokes the old (`revoked_at`), which then answers "não é mais válido".
 */
export const comandaTableQrs = pgTable(
  'comanda_table_qrs',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    tableLabel: text('table_label').notNull(),
    tokenHash: text('token_hash').notNull(),
    /**
     * The token sealed with the secrets key (lib/secrets.ts), so the same card prints again (issue 35);
     * null on QRs issued before, or without a key: printing those issues a new one.
     */
    tokenSealed: text('token_sealed'),
    /** Who printed it: the table's orders are added in this user's name when approved directly. */
    createdBy: integer('created_by')
      .notNull()
      .references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('comanda_table_qrs_token_uq').on(t.tokenHash),
    uniqueIndex('comanda_table_qrs_live_uq').on(t.clientId, t.tableLabel).where(sql`${t.revokedAt} is null`),
  ],
);

/** A customer's order from the table's QR menu: waits for approval, then becomes the tab's lines. */
export const comandaTableOrders = pgTable(
  'comanda_table_orders',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    qrId: integer('qr_id')
      .notNull()
      .references(() => comandaTableQrs.id),
    tableLabel: text('table_label').notNull(),
    /** The lines as ordered (comanda line inputs) with their descriptions when ordered. */
    lines: jsonb('lines')
      .$type<
        {
          productId: number;
          variantId: number | null;
          quantity: number;
          additionals: { id: number; quantity: number }[];
          notes: string | null;
          description: string;
          /** The add-ons' names when ordered (issue 35; absent on older orders). */
          additionalNames?: string[];
        }[]
      >()
      .notNull(),
    /** pending | approved | rejected */
    status: text('status').notNull().default('pending'),
    idempotencyKey: text('idempotency_key').notNull(),
    comandaId: integer('comanda_id').references(() => comandas.id),
    decidedBy: integer('decided_by').references(() => users.id),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('comanda_table_orders_key_uq').on(t.clientId, t.idempotencyKey),
    index('comanda_table_orders_pending_idx').on(t.clientId, t.status),
    check('comanda_table_orders_status_ck', sql`${t.status} in ('pending', 'approved', 'rejected')`),
  ],
);
