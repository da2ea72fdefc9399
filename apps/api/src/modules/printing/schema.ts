import type { KdsItem } from '@balcao/core/kds';
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
import { clients, users } from '../../db/schema.ts';
import { productCategories } from '../product-category/schema.ts';

/**
 * A printer profile: how a printer prints (paper, columns, code page, copies, cut). A removed
 * profile is kept (`deleted_at`) for the jobs that printed on it.
 */
export const printerProfiles = pgTable(
  'printer_profiles',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    /** The form's stable key (sectors and the receipt option point at a profile by it). */
    key: text('key').notNull(),
    name: text('name').notNull(),
    paperWidth: integer('paper_width').notNull(),
    columns: integer('columns').notNull(),
    codePage: text('code_page').notNull(),
    copies: integer('copies').notNull().default(1),
    cut: boolean('cut').notNull().default(true),
    position: integer('position').notNull().default(0),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('printer_profiles_client_key_uq').on(t.clientId, t.key).where(sql`${t.deletedAt} is null`),
    check('printer_profiles_paper_ck', sql`${t.paperWidth} in (58, 80)`),
    check('printer_profiles_columns_ck', sql`${t.columns} in (32, 42, 48)`),
    check('printer_profiles_copies_ck', sql`${t.copies} between 1 and 5`),
  ],
);

/** A production sector (Cozinha, Bar...): its tickets print on a profile. */
export const printSectors = pgTable(
  'print_sectors',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    key: text('key').notNull(),
    name: text('name').notNull(),
    profileId: integer('profile_id').references(() => printerProfiles.id),
    position: integer('position').notNull().default(0),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('print_sectors_client_key_uq').on(t.clientId, t.key).where(sql`${t.deletedAt} is null`),
  ],
);

/** Which sector a product category's items go to (at most one sector per category). */
export const categorySectors = pgTable(
  'category_sectors',
  {
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    categoryId: integer('category_id')
      .notNull()
      .references(() => productCategories.id, { onDelete: 'cascade' }),
    sectorId: integer('sector_id')
      .notNull()
      .references(() => printSectors.id),
  },
  (t) => [uniqueIndex('category_sectors_category_uq').on(t.clientId, t.categoryId)],
);

/** One row per client: the receipt options and who saved the printer page last. */
export const printingSettings = pgTable('printing_settings', {
  clientId: integer('client_id')
    .primaryKey()
    .references(() => clients.id),
  autoPrintReceipt: boolean('auto_print_receipt').notNull().default(false),
  receiptProfileId: integer('receipt_profile_id').references(() => printerProfiles.id),
  updatedBy: integer('updated_by').references(() => users.id),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A print job: queued with the sender's idempotency key (a retried send finds the same job),
 * delivered to one station (`station_id`, claimed by one UPDATE), confirmed when printed.
 */
export const printJobs = pgTable(
  'print_jobs',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    profileId: integer('profile_id')
      .notNull()
      .references(() => printerProfiles.id),
    sectorId: integer('sector_id').references(() => printSectors.id),
    kind: text('kind').notNull(),
    /** {title, lines}: what prints, as monospaced lines. */
    payload: jsonb('payload').$type<{ title: string; lines: string[] }>().notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    reprintOf: integer('reprint_of'),
    /** pending | sent | printed | failed */
    status: text('status').notNull().default('pending'),
    stationId: text('station_id'),
    stationName: text('station_name'),
    attempts: integer('attempts').notNull().default(0),
    error: text('error'),
    createdBy: integer('created_by')
      .notNull()
      .references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    printedAt: timestamp('printed_at', { withTimezone: true }),
    /**
     * A production ticket's lines as data (issue 35): what the kitchen display shows and bumps line by
     * line. Null for the other kinds of job.
     */
    items: jsonb('items').$type<KdsItem[]>(),
    /** The kitchen display's "pronto" (issue 35): the whole ticket, and the lines bumped one by one. */
    readyAt: timestamp('ready_at', { withTimezone: true }),
    readyLines: jsonb('ready_lines').$type<number[]>().notNull().default([]),
    readyBy: integer('ready_by').references(() => users.id),
  },
  (t) => [
    uniqueIndex('print_jobs_client_key_uq').on(t.clientId, t.idempotencyKey),
    index('print_jobs_waiting_idx').on(t.clientId, t.status, t.profileId),
    index('print_jobs_sender_idx').on(t.clientId, t.createdBy, t.createdAt),
    /** The delivery sweep (deliverStalePrintJobs) finds the waiting jobs of every shop. */
    index('print_jobs_pending_idx').on(t.createdAt).where(sql`${t.status} = 'pending'`),
    /** A station's screen lists its sector's open tickets (issue 35). */
    index('print_jobs_kds_idx').on(t.clientId, t.sectorId, t.id).where(sql`${t.kind} = 'ticket'`),
    check('print_jobs_status_ck', sql`${t.status} in ('pending', 'sent', 'printed', 'failed')`),
  ],
);

/**
 * A print agent (issue 36): a program on a shop's PC that prints one station's profiles. Created with
 * a pairing code (stored as its SHA-256, valid minutes), exchanged once for the agent's own token
 * (SHA-256 too); revoking it ends the token. The last printer state it reported shows on its card.
 */
export const printAgents = pgTable(
  'print_agents',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    name: text('name').notNull(),
    profileIds: jsonb('profile_ids').$type<number[]>().notNull(),
    pairingCodeHash: text('pairing_code_hash'),
    pairingExpiresAt: timestamp('pairing_expires_at', { withTimezone: true }),
    tokenHash: text('token_hash'),
    printerState: text('printer_state').notNull().default('unknown'),
    printerMessage: text('printer_message'),
    heldJobs: integer('held_jobs').notNull().default(0),
    createdBy: integer('created_by')
      .notNull()
      .references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    pairedAt: timestamp('paired_at', { withTimezone: true }),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    index('print_agents_client_idx').on(t.clientId),
    uniqueIndex('print_agents_code_uq').on(t.pairingCodeHash),
    uniqueIndex('print_agents_token_uq').on(t.tokenHash),
  ],
);

/**
 * A production sector's kitchen display (issue 35): when its screen last said it was alive. While it
 * keeps saying so, the sector's tickets stay off the printer; silent past the shop's limit, they print.
 */
export const kdsScreens = pgTable(
  'kds_screens',
  {
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    sectorId: integer('sector_id')
      .notNull()
      .references(() => printSectors.id),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: 'kds_screens_pk', columns: [t.clientId, t.sectorId] })],
);

/** One row per client: the kitchen display's targets (yellow, red) and the silence before the printer. */
export const kdsSettings = pgTable('kds_settings', {
  clientId: integer('client_id')
    .primaryKey()
    .references(() => clients.id),
  warnMinutes: integer('warn_minutes').notNull().default(10),
  lateMinutes: integer('late_minutes').notNull().default(20),
  silenceSeconds: integer('silence_seconds').notNull().default(60),
  updatedBy: integer('updated_by').references(() => users.id),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
