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
import { cashRegisters } from '../cash-register/schema.ts';
import { sales } from '../sale/schema.ts';

/**
 * Delivery orders (issue 18): one per delivery sale (the PDV's or a phone order), with what the
 * panel and the driver need as a snapshot of the sale (customer, address, totals) so the board never
 * joins the sale tables. Money in integer cents.
 */
export const deliveryOrders = pgTable(
  'delivery_orders',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    saleId: integer('sale_id')
      .notNull()
      .references(() => sales.id),
    saleNumber: integer('sale_number').notNull(),
    /** pending | waiting | available | accepted | sending | success | failed | canceled */
    status: text('status').notNull().default('pending'),
    customerName: text('customer_name'),
    customerPhone: text('customer_phone'),
    /** The address delivered to (a copy of the sale's). */
    address: jsonb('address'),
    neighborhood: text('neighborhood').notNull().default(''),
    itemsText: text('items_text').notNull().default(''),
    totalCents: integer('total_cents').notNull(),
    freightCents: integer('freight_cents').notNull().default(0),
    collectCents: integer('collect_cents').notNull().default(0),
    onDeliveryMethod: text('on_delivery_method'),
    changeForCents: integer('change_for_cents').notNull().default(0),
    changeCents: integer('change_cents').notNull().default(0),
    /**
     * Issue 33: what was to be collected on delivery, paid by Pix QR dinâmico (the bank's endToEndId).
     * The sale's payment is then Pix QR dinâmico; the acerto lists it as Pix, the cash close as Pix.
     */
    pixEndToEndId: text('pix_end_to_end_id'),
    driverFeeCents: integer('driver_fee_cents'),
    /** The customer's 4-digit proof of delivery (never answered to drivers). */
    code: text('code').notNull(),
    driverId: integer('driver_id').references(() => users.id),
    promisedAt: timestamp('promised_at', { withTimezone: true }).notNull(),
    failureReason: text('failure_reason'),
    cancelReason: text('cancel_reason'),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    pickedUpAt: timestamp('picked_up_at', { withTimezone: true }),
    /** When it was delivered or failed. */
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    settlementId: integer('settlement_id').references(() => driverSettlements.id),
    /** The register the sale was recorded at (issue 30 item 5): its "a receber" leaves with the acerto. */
    cashRegisterId: integer('cash_register_id').references(() => cashRegisters.id),
    /** The change float taken out of that register for the driver (a sangria made with the order). */
    floatCents: integer('float_cents').notNull().default(0),
    /** Issue 35: ifood | opendelivery | table | counter | phone (core DELIVERY_ORIGINS). */
    origin: text('origin').notNull().default('counter'),
    /** Issue 35: the marketplace whose own couriers deliver it ("iFood"); null = the shop's drivers. */
    marketplaceCourier: text('marketplace_courier'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // One order per sale: a retried hook or a second path can never make two.
    uniqueIndex('delivery_orders_sale_uq').on(t.saleId),
    index('delivery_orders_client_status_idx').on(t.clientId, t.status),
    index('delivery_orders_driver_idx').on(t.clientId, t.driverId, t.status),
    check(
      'delivery_orders_status_ck',
      sql`${t.status} in ('pending','waiting','available','accepted','sending','success','failed','canceled')`,
    ),
    check('delivery_orders_code_ck', sql`${t.code} ~ '^[0-9]{4}$'`),
    check(
      'delivery_orders_amounts_ck',
      sql`${t.collectCents} >= 0 and ${t.changeCents} >= 0 and ${t.changeForCents} >= 0`,
    ),
  ],
);

/** A driver's shift: check-in to check-out (open while ended_at is null; one open per driver). */
export const driverShifts = pgTable(
  'driver_shifts',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('driver_shifts_open_uq').on(t.userId).where(sql`${t.endedAt} is null`),
    index('driver_shifts_client_idx').on(t.clientId, t.endedAt),
  ],
);

/** A confirmed settlement (acerto) of a driver for a period: the sums as confirmed, and who confirmed. */
export const driverSettlements = pgTable(
  'driver_settlements',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    driverId: integer('driver_id')
      .notNull()
      .references(() => users.id),
    periodFrom: date('period_from', { mode: 'string' }).notNull(),
    periodTo: date('period_to', { mode: 'string' }).notNull(),
    changeCents: integer('change_cents').notNull(),
    cashCents: integer('cash_cents').notNull(),
    otherCents: integer('other_cents').notNull(),
    feesCents: integer('fees_cents').notNull(),
    toHandOverCents: integer('to_hand_over_cents').notNull(),
    countedCents: integer('counted_cents').notNull(),
    /** The open register the counted cash went into and the fees came out of (issue 30 item 5). */
    cashRegisterId: integer('cash_register_id').references(() => cashRegisters.id),
    /** The lines as confirmed (the orders' figures at that moment). */
    lines: jsonb('lines').notNull(),
    confirmedBy: integer('confirmed_by')
      .notNull()
      .references(() => users.id),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('driver_settlements_client_idx').on(t.clientId, t.driverId, t.confirmedAt)],
);

/** A client's delivery settings: the WhatsApp notice to the customer. */
export const deliverySettings = pgTable('delivery_settings', {
  clientId: integer('client_id')
    .primaryKey()
    .references(() => clients.id),
  notifyCustomer: boolean('notify_customer').notNull().default(false),
  /** Phone orders outside the working hours are taken with a warning instead of refused (issue 30 item 17). */
  acceptOutsideHours: boolean('accept_outside_hours').notNull().default(false),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
