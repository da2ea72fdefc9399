import type { ProductFiscal, ProductFiscalOverride, ShopIbsCbsRates } from '@balcao/core/fiscal';
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { clients } from '../../db/schema.ts';
import { products } from '../product/schema.ts';
import { sales } from '../sale/schema.ts';

/** Issue 32: a shop's NFC-e issuer (one row per client), edited on Configurações > Fiscal. */
export const fiscalSettings = pgTable('fiscal_settings', {
  clientId: integer('client_id')
    .primaryKey()
    .references(() => clients.id),
  enabled: boolean('enabled').notNull().default(false),
  /** local | homologacao | producao */
  environment: text('environment').notNull().default('local'),
  cnpj: text('cnpj').notNull(),
  ie: text('ie').notNull(),
  legalName: text('legal_name').notNull(),
  tradeName: text('trade_name'),
  crt: text('crt').notNull(),
  uf: text('uf').notNull(),
  cityCode: text('city_code').notNull(),
  cityName: text('city_name').notNull(),
  street: text('street').notNull(),
  streetNumber: text('street_number').notNull(),
  district: text('district').notNull(),
  zipCode: text('zip_code').notNull(),
  series: integer('series').notNull().default(1),
  cscId: text('csc_id').notNull(),
  /** lib/secrets.ts sealed CSC. */
  cscSealed: text('csc_sealed').notNull().default(''),
  /** The QR code layout: 2 (CSC hash) or 3 (NT 2025.001, offline notes signed with the A1). */
  qrCodeVersion: integer('qr_code_version').notNull().default(2),
  /** The product fiscal fields a product without its own uses. */
  defaults: jsonb('defaults').$type<ProductFiscal>().notNull(),
  /** auto | always | never: when the notes carry the IBS/CBS groups (NT 2025.002). */
  ibsCbsMode: text('ibs_cbs_mode').notNull().default('auto'),
  /** The IBS/CBS rates LC 214/2025 leaves to be set later, by year (core's IBS_CBS_SCHEDULE). */
  ibsCbsRates: jsonb('ibs_cbs_rates').$type<ShopIbsCbsRates>().notNull().default({}),
  /** lib/secrets.ts sealed {pfxBase64, password}; '' without a certificate. */
  certificateSealed: text('certificate_sealed').notNull().default(''),
  certificateHolder: text('certificate_holder'),
  certificateCnpj: text('certificate_cnpj'),
  certificateNotBefore: timestamp('certificate_not_before', { withTimezone: true, mode: 'string' }),
  certificateNotAfter: timestamp('certificate_not_after', { withTimezone: true, mode: 'string' }),
  /** The day (YYYY-MM-DD, UTC) the bell last warned of the certificate's expiry: once a day. */
  certificateWarnedOn: text('certificate_warned_on'),
  /** When issuing was switched on: the sweep issues notes for finished sales since then only. */
  enabledAt: timestamp('enabled_at', { withTimezone: true, mode: 'string' }),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'string' }).notNull().defaultNow(),
});

/**
 * The next number per issuer, model and series: a note's number is taken with one UPDATE ... RETURNING
 * on this row (its row lock serialises two tills and two API instances), never in memory.
 */
export const fiscalCounters = pgTable(
  'fiscal_counters',
  {
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    model: integer('model').notNull(),
    series: integer('series').notNull(),
    nextNumber: integer('next_number').notNull(),
  },
  (t) => [primaryKey({ columns: [t.clientId, t.model, t.series] })],
);

/** One NFC-e: its signed XML persisted before it is sent, SEFAZ's answer and its events. */
export const fiscalNotes = pgTable(
  'fiscal_notes',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    saleId: integer('sale_id').references(() => sales.id),
    model: integer('model').notNull().default(65),
    series: integer('series').notNull(),
    number: integer('number').notNull(),
    accessKey: text('access_key').notNull(),
    /** 1 normal, 9 offline contingency. */
    tpEmis: integer('tp_emis').notNull(),
    environment: text('environment').notNull(),
    /** pending | contingency | queued | authorised | rejected | canceled | voided */
    status: text('status').notNull(),
    totalCents: integer('total_cents').notNull(),
    consumerDocument: text('consumer_document'),
    /** The signed NFe (with infNFeSupl), as sent. */
    xml: text('xml').notNull(),
    /** nfeProc (NFe + protNFe) once authorised. */
    procXml: text('proc_xml'),
    protocol: text('protocol'),
    statusCode: text('status_code'),
    statusText: text('status_text'),
    qrCodeUrl: text('qr_code_url'),
    transmitBy: timestamp('transmit_by', { withTimezone: true, mode: 'string' }),
    attempts: integer('attempts').notNull().default(0),
    /** Signed cancel event (110111) and SEFAZ's answer. */
    cancelXml: text('cancel_xml'),
    cancelProtocol: text('cancel_protocol'),
    /** What the note is built from (the sale's lines, payments, issuer): a queued note is signed again from it. */
    draft: jsonb('draft').notNull(),
    /** A contingency note's normal twin (same number, tpEmis 1), asked about before the note is sent. */
    firstKey: text('first_key'),
    firstXml: text('first_xml'),
    /** São Paulo's EPEC (event 110140) as procEventoNFe, and its protocol. */
    epecXml: text('epec_xml'),
    epecProtocol: text('epec_protocol'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'string' }).notNull().defaultNow(),
    authorisedAt: timestamp('authorised_at', { withTimezone: true, mode: 'string' }),
  },
  (t) => [
    uniqueIndex('fiscal_notes_number_uq').on(t.clientId, t.model, t.series, t.number),
    uniqueIndex('fiscal_notes_key_uq').on(t.accessKey),
    // A sale gets one note (a retried follow-up finds it).
    uniqueIndex('fiscal_notes_sale_uq').on(t.saleId).where(sql`${t.saleId} is not null`),
    index('fiscal_notes_client_status_idx').on(t.clientId, t.status),
    check(
      'fiscal_notes_status_ck',
      sql`${t.status} in ('pending', 'contingency', 'epec', 'queued', 'authorised', 'rejected', 'canceled', 'voided')`,
    ),
  ],
);

/** Number voiding (inutilização): the range, the reason and SEFAZ's answer. */
export const fiscalVoids = pgTable('fiscal_voids', {
  id: serial('id').primaryKey(),
  clientId: integer('client_id')
    .notNull()
    .references(() => clients.id),
  model: integer('model').notNull().default(65),
  series: integer('series').notNull(),
  fromNumber: integer('from_number').notNull(),
  toNumber: integer('to_number').notNull(),
  reason: text('reason').notNull(),
  statusCode: text('status_code').notNull(),
  statusText: text('status_text').notNull(),
  protocol: text('protocol'),
  xml: text('xml').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'string' }).notNull().defaultNow(),
});

/** A product's own fiscal fields (a field left out uses the shop's default). */
export const fiscalProductFields = pgTable(
  'fiscal_product_fields',
  {
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    fields: jsonb('fields').$type<ProductFiscalOverride>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.clientId, t.productId] })],
);
