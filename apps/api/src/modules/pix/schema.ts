import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { clients } from '../../db/schema.ts';
import { sales } from '../sale/schema.ts';

/**
 * Pix confirmed by the bank (issue 33). The shop's PSP account: which PSP of the server's catalogue
 * (modules/pix/catalogue.ts: the hosts are never the shop's) and environment, and the credentials,
 * sealed with lib/secrets.ts (client id, secret, application key and certificate never leave sealed
 * but to call the PSP). The webhook's secret path token and hmac are kept as their SHA-256 only.
 */
export const pixAccounts = pgTable(
  'pix_accounts',
  {
    clientId: integer('client_id')
      .primaryKey()
      .references(() => clients.id),
    /** A catalogue id (efi, itau, bb, sicoob, inter, santander, fake); '' = choose one again. */
    provider: text('provider').notNull().default(''),
    /** production | sandbox (homologação). */
    environment: text('environment').notNull().default('production'),
    /** secretBox: {clientId, clientSecret, appKey?}. */
    credentialsSealed: text('credentials_sealed').notNull().default(''),
    /** secretBox: {format: 'pfx', pfxBase64, passphrase} | {format: 'pem', certPem, keyPem}. */
    certificateSealed: text('certificate_sealed').notNull().default(''),
    clientIdHint: text('client_id_hint').notNull().default(''),
    pixKey: text('pix_key').notNull(),
    expiresInSeconds: integer('expires_in_seconds').notNull().default(600),
    /** SHA-256 of the token in the webhook's path (/v1/pix/webhook/{token}/pix). */
    webhookTokenHash: text('webhook_token_hash'),
    /** SHA-256 of the `hmac` query parameter registered with the webhook (PSPs with webhookAuth efi-hmac). */
    webhookHmacHash: text('webhook_hmac_hash'),
    webhookRegisteredAt: timestamp('webhook_registered_at', { withTimezone: true, mode: 'string' }),
    lastTestError: text('last_test_error'),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'string' }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('pix_accounts_webhook_token').on(t.webhookTokenHash)],
);

/**
 * A dynamic charge (PUT /cob/{txid}) of a sale attempt: the txid is derived from the client and the
 * attempt's Idempotency-Key, so a retried request finds the same row and the same charge at the PSP.
 */
export const pixCharges = pgTable(
  'pix_charges',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    txid: text('txid').notNull(),
    attemptKey: text('attempt_key').notNull(),
    amountCents: integer('amount_cents').notNull(),
    /** creating (row claimed, PSP not answered yet) | active | paid | removed */
    status: text('status').notNull().default('creating'),
    pixCopiaECola: text('pix_copia_e_cola').notNull().default(''),
    location: text('location').notNull().default(''),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'string' }).notNull(),
    endToEndId: text('end_to_end_id'),
    paidCents: integer('paid_cents'),
    paidAt: timestamp('paid_at', { withTimezone: true, mode: 'string' }),
    saleId: integer('sale_id').references(() => sales.id),
    /** The last GET /cob (the polling fallback asks the PSP at most every few seconds). */
    checkedAt: timestamp('checked_at', { withTimezone: true, mode: 'string' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'string' }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('pix_charges_txid').on(t.clientId, t.txid), index('pix_charges_sale').on(t.saleId)],
);

/**
 * Each Pix the PSP told us of (webhook or GET /cob), stored ONCE per endToEndId: a repeated or
 * reordered post inserts nothing. `status` pending until the queue processes it: settled (its
 * charge paid) or reconcile (a person must look: `reason`), resolved once someone did.
 */
export const pixReceived = pgTable(
  'pix_received',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    endToEndId: text('end_to_end_id').notNull(),
    txid: text('txid'),
    amountCents: integer('amount_cents').notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true, mode: 'string' }).notNull(),
    payerInfo: text('payer_info'),
    status: text('status').notNull().default('pending'),
    reason: text('reason'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'string' }).notNull().defaultNow(),
    processedAt: timestamp('processed_at', { withTimezone: true, mode: 'string' }),
  },
  (t) => [
    uniqueIndex('pix_received_e2e').on(t.clientId, t.endToEndId),
    index('pix_received_pending').on(t.status).where(sql`status = 'pending'`),
  ],
);

/**
 * A refund (devolução) of a canceled sale's Pix, or of a Pix paid for something canceled before it
 * became a sale (a budget's link, issue 33: `saleId` null, `chargeId` its charge): requested,
 * EM_PROCESSAMENTO, DEVOLVIDO, NAO_REALIZADO.
 */
export const pixRefunds = pgTable(
  'pix_refunds',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    saleId: integer('sale_id').references(() => sales.id),
    chargeId: integer('charge_id').references(() => pixCharges.id),
    endToEndId: text('end_to_end_id').notNull(),
    /** The devolução id we give the PSP (PUT /pix/{e2eid}/devolucao/{id}): the same on every retry. */
    refundId: text('refund_id').notNull(),
    amountCents: integer('amount_cents').notNull(),
    status: text('status').notNull().default('requested'),
    reason: text('reason'),
    payload: jsonb('payload'),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'string' }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('pix_refunds_id').on(t.clientId, t.endToEndId, t.refundId)],
);
