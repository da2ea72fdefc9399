import { sql } from 'drizzle-orm';
import { check, date, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { clients, users } from '../../db/schema.ts';

/** The shop's subscription to Balcão: its plan and its customer at the payment gateway. */
export const billingSubscriptions = pgTable('billing_subscriptions', {
  clientId: integer('client_id')
    .primaryKey()
    .references(() => clients.id),
  planCode: text('plan_code').notNull(),
  /** The first period starts here; each later one a month after the previous. */
  startedOn: date('started_on', { mode: 'string' }).notNull(),
  /** Asaas customer id (cus_...), created at the first payment. */
  gatewayCustomerId: text('gateway_customer_id'),
  updatedBy: integer('updated_by').references(() => users.id),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** One invoice per subscription period. */
export const billingInvoices = pgTable(
  'billing_invoices',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    periodStart: date('period_start', { mode: 'string' }).notNull(),
    periodEnd: date('period_end', { mode: 'string' }).notNull(),
    dueDate: date('due_date', { mode: 'string' }).notNull(),
    amountCents: integer('amount_cents').notNull(),
    /** pending | paid | overdue | canceled */
    status: text('status').notNull().default('pending'),
    /** Asaas payment id (pay_...), created at the first payment attempt. */
    gatewayPaymentId: text('gateway_payment_id'),
    pixPayload: text('pix_payload'),
    pixImage: text('pix_image'),
    pixExpiresAt: text('pix_expires_at'),
    boletoUrl: text('boleto_url'),
    boletoLine: text('boleto_line'),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('billing_invoices_period_uq').on(t.clientId, t.periodStart),
    uniqueIndex('billing_invoices_payment_uq').on(t.gatewayPaymentId),
    check('billing_invoices_status_ck', sql`${t.status} in ('pending', 'paid', 'overdue', 'canceled')`),
  ],
);

/** Webhook events already processed (Asaas retries an event until it gets a 200): each acts once. */
export const billingWebhookEvents = pgTable('billing_webhook_events', {
  eventId: text('event_id').primaryKey(),
  event: text('event').notNull(),
  paymentId: text('payment_id'),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});
