import type { Audience, Pacing } from '@balcao/core/campaign';
import { sql } from 'drizzle-orm';
import {
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
import { campaignCategories } from '../campaign-category/schema.ts';
import { coupons } from '../coupon/schema.ts';
import { customers } from '../customer/schema.ts';

/** A WhatsApp campaign of a client (issue 19). */
export const campaigns = pgTable(
  'campaigns',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    categoryId: integer('category_id').references(() => campaignCategories.id),
    couponId: integer('coupon_id').references(() => coupons.id),
    name: text('name').notNull(),
    message: text('message').notNull(),
    /** The uploaded image's storage key (campaign/{clientId}/{random}.jpg), sent with every message. */
    imageKey: text('image_key'),
    audience: jsonb('audience').$type<Audience>().notNull(),
    pacing: jsonb('pacing').$type<Pacing>().notNull(),
    scheduledAt: timestamp('scheduled_at', { withTimezone: true }),
    /** draft | scheduled | running | paused | finished | canceled */
    status: text('status').notNull().default('draft'),
    pauseReason: text('pause_reason'),
    /** Send errors in a row (a ban signal): the worker pauses the campaign at 3. */
    failuresInRow: integer('failures_in_row').notNull().default(0),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    createdByUserId: integer('created_by_user_id').references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('campaigns_client_idx').on(t.clientId, t.createdAt),
    index('campaigns_status_idx').on(t.status),
    check(
      'campaigns_status_ck',
      sql`${t.status} in ('draft', 'scheduled', 'running', 'paused', 'finished', 'canceled')`,
    ),
  ],
);

/**
 * The send queue: one row per recipient, written when the campaign starts. The worker claims a row
 * (waiting -> sending) in a transaction with FOR UPDATE SKIP LOCKED, sends, then marks it success or
 * failed: a row leaves `waiting` once, so a number is messaged at most once (unique per campaign).
 */
export const campaignRecipients = pgTable(
  'campaign_recipients',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    campaignId: integer('campaign_id')
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    customerId: integer('customer_id').references(() => customers.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    phone: text('phone').notNull(),
    /** The message as it goes (variables replaced, opt-out line). */
    text: text('text').notNull(),
    /** waiting | sending | success | failed | skipped */
    status: text('status').notNull().default('waiting'),
    reason: text('reason'),
    messageId: text('message_id'),
    /** When the send was attempted (claimed): the hourly and daily caps count these. */
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('campaign_recipients_campaign_phone_uq').on(t.campaignId, t.phone),
    index('campaign_recipients_campaign_status_idx').on(t.campaignId, t.status, t.id),
    index('campaign_recipients_client_claimed_idx').on(t.clientId, t.claimedAt),
    // The rows left `sending` (settled after a restart) are found without reading the queue.
    index('campaign_recipients_sending_idx').on(t.claimedAt).where(sql`${t.status} = 'sending'`),
    check(
      'campaign_recipients_status_ck',
      sql`${t.status} in ('waiting', 'sending', 'success', 'failed', 'skipped')`,
    ),
  ],
);

/**
 * The pacing state of a client's WhatsApp number (one instance per client): the next moment a
 * message may go and how many went since the last long pause. Locked FOR UPDATE SKIP LOCKED by the
 * worker that sends, so one number never sends two messages at once, whichever server runs it.
 */
export const campaignSenders = pgTable('campaign_senders', {
  clientId: integer('client_id')
    .primaryKey()
    .references(() => clients.id),
  nextSendAt: timestamp('next_send_at', { withTimezone: true }).notNull().defaultNow(),
  sinceBreak: integer('since_break').notNull().default(0),
});
