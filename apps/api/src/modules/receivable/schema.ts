import { sql } from 'drizzle-orm';
import { date, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { clients } from '../../db/schema.ts';
import { customers } from '../customer/schema.ts';

/**
 * Crediário and boleto receivables: what a customer owes and when. The sale writes them (one per
 * installment) through this module's service; the customer module flags delinquency (a pending one
 * past its due date) with its SQL fragments.
 */
export const receivables = pgTable(
  'receivables',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    /** The sale it came from (null for balances entered by hand). No FK: the sales table is the sale module's. */
    saleId: integer('sale_id'),
    /** Installment number (1..n) of the sale. */
    installment: integer('installment').notNull().default(1),
    amountCents: integer('amount_cents').notNull(),
    dueDate: date('due_date', { mode: 'string' }).notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    /** pending | finished (paid) | canceled */
    status: text('status').notNull().default('pending'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('receivables_customer_pending_idx')
      .on(t.clientId, t.customerId, t.dueDate)
      .where(sql`${t.status} = 'pending'`),
    index('receivables_sale_idx').on(t.saleId),
    /** Pending installments of the client by due date (the home's due and overdue figures). */
    index('receivables_client_due_pending_idx').on(t.clientId, t.dueDate).where(sql`${t.status} = 'pending'`),
    /** Installments received by day (the cash flow, issue 34). */
    index('receivables_client_paid_idx').on(t.clientId, t.paidAt).where(sql`${t.status} = 'finished'`),
  ],
);
