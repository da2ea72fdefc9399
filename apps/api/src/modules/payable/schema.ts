import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  index,
  integer,
  numeric,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { clients, users } from '../../db/schema.ts';
import { cashRegisterMovements, cashRegisters } from '../cash-register/schema.ts';
import { products, productVariants } from '../product/schema.ts';

/** A supplier of the shop (issue 34): who a payable is owed to. */
export const suppliers = pgTable(
  'suppliers',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    name: text('name').notNull(),
    /** CPF or CNPJ, digits only; unique in the shop when given. */
    document: text('document'),
    contactName: text('contact_name'),
    phone: text('phone'),
    email: text('email'),
    pixKey: text('pix_key'),
    notes: text('notes'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('suppliers_client_document_uq')
      .on(t.clientId, t.document)
      .where(sql`${t.document} is not null`),
    index('suppliers_client_name_idx').on(t.clientId, t.name),
  ],
);

/**
 * The product a supplier's own code (cProd of its NF-e items) stands for in this shop (issue 34): set
 * when a note's item is matched in the review, so the next note of that supplier matches by itself.
 */
export const supplierProductCodes = pgTable(
  'supplier_product_codes',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    supplierId: integer('supplier_id')
      .notNull()
      .references(() => suppliers.id, { onDelete: 'cascade' }),
    code: text('code').notNull(),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    variantId: integer('variant_id').references(() => productVariants.id, { onDelete: 'cascade' }),
    /** Product units per unit of the supplier's line (uCom CX of 12: 12), remembered with the match. */
    factor: numeric('factor', { precision: 12, scale: 4, mode: 'number' }).notNull().default(1),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('supplier_product_codes_uq').on(t.clientId, t.supplierId, t.code)],
);

/** The shop's expense categories, each in one DRE group (cmv, operating, personnel, taxes, financial, other). */
export const payableCategories = pgTable(
  'payable_categories',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    name: text('name').notNull(),
    dreGroup: text('dre_group').notNull(),
    /** Archived: not offered for new bills; the bills that have it keep it. */
    archivedAt: timestamp('archived_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('payable_categories_client_name_uq').on(t.clientId, sql`lower(${t.name})`),
    check(
      'payable_categories_group_ck',
      sql`${t.dreGroup} in ('cmv', 'operating', 'personnel', 'taxes', 'financial', 'other')`,
    ),
  ],
);

/** The shop's named bank accounts (issue 34): where a payment left from when not the till. */
export const bankAccounts = pgTable(
  'bank_accounts',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    name: text('name').notNull(),
    bank: text('bank'),
    agency: text('agency'),
    account: text('account'),
    active: boolean('active').notNull().default(true),
    /** The cash flow's sale methods that land in this account (pix, creditCard, voucher...). */
    receives: text('receives').array().notNull().default(sql`'{}'::text[]`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('bank_accounts_client_name_uq').on(t.clientId, sql`lower(${t.name})`)],
);

/** The instalments of one purchase or a monthly recurrence: its payables share it. */
export const payableSeries = pgTable(
  'payable_series',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    /** installments | recurrence */
    kind: text('kind').notNull(),
    count: integer('count').notNull(),
    /** The access key of the supplier's NF-e these instalments came from (imported once). */
    nfeKey: text('nfe_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('payable_series_kind_ck', sql`${t.kind} in ('installments', 'recurrence')`),
    uniqueIndex('payable_series_client_nfe_uq').on(t.clientId, t.nfeKey).where(sql`${t.nfeKey} is not null`),
  ],
);

/**
 * A conta a pagar. `paid_cents` is the sum of its live payments (kept with them in one transaction), so
 * the list, its totals and the cash flow read one row per payable.
 */
export const payables = pgTable(
  'payables',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    supplierId: integer('supplier_id').references(() => suppliers.id),
    categoryId: integer('category_id')
      .notNull()
      .references(() => payableCategories.id),
    description: text('description').notNull(),
    amountCents: integer('amount_cents').notNull(),
    paidCents: integer('paid_cents').notNull().default(0),
    dueDate: date('due_date', { mode: 'string' }).notNull(),
    /** The competence month's first day (the DRE's month). */
    competenceMonth: date('competence_month', { mode: 'string' }).notNull(),
    documentNumber: text('document_number'),
    notes: text('notes'),
    /** The boleto's linha digitável, digits only (checked on input). */
    boletoLine: text('boleto_line'),
    seriesId: integer('series_id').references(() => payableSeries.id),
    seriesIndex: integer('series_index'),
    /** The last live payment's date (the "paid" period filter and the list's column). */
    lastPaidOn: date('last_paid_on', { mode: 'string' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // The list (by due date, open ones) and the cash flow's projection read ranges of due dates.
    index('payables_client_due_idx').on(t.clientId, t.dueDate, t.id),
    // The DRE reads a competence month's expenses by category.
    index('payables_client_competence_idx').on(t.clientId, t.competenceMonth, t.categoryId),
    index('payables_series_idx').on(t.seriesId, t.seriesIndex),
    index('payables_supplier_idx').on(t.supplierId),
    index('payables_category_idx').on(t.categoryId),
    check('payables_amount_ck', sql`${t.amountCents} > 0 and ${t.paidCents} >= 0`),
  ],
);

/** A payment of a payable; a reversed one keeps its row (reversed_at) and stops counting. */
export const payablePayments = pgTable(
  'payable_payments',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    payableId: integer('payable_id')
      .notNull()
      .references(() => payables.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    paidOn: date('paid_on', { mode: 'string' }).notNull(),
    amountCents: integer('amount_cents').notNull(),
    discountCents: integer('discount_cents').notNull().default(0),
    interestCents: integer('interest_cents').notNull().default(0),
    fineCents: integer('fine_cents').notNull().default(0),
    method: text('method').notNull(),
    /** register (a withdrawal on the user's open register) | bank */
    source: text('source').notNull(),
    cashRegisterId: integer('cash_register_id').references(() => cashRegisters.id),
    /** The shop's bank account it left from (source bank; null: an account not named). */
    bankAccountId: integer('bank_account_id').references(() => bankAccounts.id),
    movementId: integer('movement_id').references(() => cashRegisterMovements.id, { onDelete: 'set null' }),
    /** The Idempotency-Key of the request that paid: a retry answers without paying twice. */
    idempotencyKey: text('idempotency_key'),
    reversedAt: timestamp('reversed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('payable_payments_payable_idx').on(t.payableId),
    // The cash flow's realised outflows and the day's close read payments by date.
    index('payable_payments_client_paid_idx').on(t.clientId, t.paidOn),
    // The cash flow read per account.
    index('payable_payments_account_idx').on(t.bankAccountId, t.paidOn),
    uniqueIndex('payable_payments_key_uq').on(t.clientId, t.idempotencyKey),
    check('payable_payments_source_ck', sql`${t.source} in ('register', 'bank')`),
    check('payable_payments_amount_ck', sql`${t.amountCents} > 0 and ${t.discountCents} >= 0`),
  ],
);

/** A file kept with a payable (issue 34): its bytes in the storage adapter under `storage_key`. */
export const payableAttachments = pgTable(
  'payable_attachments',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    payableId: integer('payable_id')
      .notNull()
      .references(() => payables.id, { onDelete: 'cascade' }),
    /** The name the browser sent (shown and offered on download). */
    fileName: text('file_name').notNull(),
    /** Sniffed from the bytes: application/pdf, image/jpeg, image/png or image/webp. */
    contentType: text('content_type').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    storageKey: text('storage_key').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('payable_attachments_payable_idx').on(t.payableId, t.id)],
);
