import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

/** A system client: one shop/company (the tenant). */
export const clients = pgTable(
  'clients',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    /** CPF or CNPJ, normalized (digits, or upper-case alphanumeric CNPJ). */
    document: text('document').notNull(),
    clientTypeId: integer('client_type_id').notNull(),
    phone: text('phone').notNull().default(''),
    saleCommand: boolean('sale_command').notNull().default(false),
    stockManagement: boolean('stock_management').notNull().default(true),
    checkIsOpen: boolean('check_is_open').notNull().default(false),
    timeZone: text('time_zone').notNull().default('America/Sao_Paulo'),
    /** Storage key of the company logo (settings module), shown in the top bar and on receipts. */
    logoKey: text('logo_key'),
    /**
     * The weighed-item label layout of the shop's scale (issue 36, core scale/weighedLabel.ts):
     * off, or prefix 2 + product code (4-6 digits) + weight (g) or total price (cents); and the
     * scale's rounding, which the sale's line totals of weighed products follow.
     */
    scaleLabelEnabled: boolean('scale_label_enabled').notNull().default(false),
    scaleCodeLength: integer('scale_code_length').notNull().default(5),
    scaleLabelContent: text('scale_label_content').notNull().default('price'),
    scaleRounding: text('scale_rounding').notNull().default('round'),
    ...timestamps,
  },
  (t) => [uniqueIndex('clients_document_uq').on(t.document)],
);

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    name: text('name').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    userTypeId: integer('user_type_id').notNull(),
    active: boolean('active').notNull().default(true),
    profilePhotoWhatsapp: text('profile_photo_whatsapp'),
    ...timestamps,
  },
  (t) => [uniqueIndex('users_email_uq').on(sql`lower(${t.email})`), index('users_client_idx').on(t.clientId)],
);

export const sessions = pgTable(
  'sessions',
  {
    id: serial('id').primaryKey(),
    tokenHash: text('token_hash').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('sessions_token_hash_uq').on(t.tokenHash), index('sessions_user_idx').on(t.userId)],
);

/**
 * Attempts counted per key in a fixed window (modules/auth/limiter.ts): password checks and sign-ups.
 * In the database so every API instance shares them; a row whose window ended starts over.
 */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').primaryKey(),
    hits: integer('hits').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('rate_limits_expires_idx').on(t.expiresAt)],
);

/**
 * Periodic background work shared by every API instance (lib/jobs.ts): one row per job, claimed by
 * one instance at a time with a lease (`locked_by` until `locked_until`); a claim whose instance died
 * expires and another instance runs the job. `run_at` is when it is next due.
 */
export const scheduledJobs = pgTable('scheduled_jobs', {
  name: text('name').primaryKey(),
  runAt: timestamp('run_at', { withTimezone: true }).notNull().defaultNow(),
  lockedBy: text('locked_by'),
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
  runs: integer('runs').notNull().default(0),
  lastStartedAt: timestamp('last_started_at', { withTimezone: true }),
  lastFinishedAt: timestamp('last_finished_at', { withTimezone: true }),
  lastFinishedBy: text('last_finished_by'),
  lastResult: jsonb('last_result'),
  lastError: text('last_error'),
});

/** The client's WhatsApp (Evolution API) instance. */
export const whatsappInstances = pgTable(
  'whatsapp_instances',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    instanceName: text('instance_name').notNull(),
    /** Evolution API connection state: open, connecting or close. */
    state: text('state').notNull().default('close'),
    phone: text('phone').notNull().default(''),
    /** The instance token Evolution issued, AES-256-GCM encrypted (lib/secrets.ts); null = not created. */
    instanceKey: text('instance_key'),
    /** SHA-256 of the token Evolution sends back in the webhook's header. */
    webhookTokenHash: text('webhook_token_hash'),
    profileName: text('profile_name'),
    profilePictureUrl: text('profile_picture_url'),
    /** The number being warmed up (issue 19) and when it first connected: its daily cap ramps up from then. */
    warmupPhone: text('warmup_phone'),
    warmupStartedAt: timestamp('warmup_started_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [uniqueIndex('whatsapp_instances_client_uq').on(t.clientId)],
);

/** Payment settings of a client: the static Pix key and merchant data for the BR Code. */
export const paymentGateways = pgTable(
  'payment_gateways',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    provider: text('provider').notNull().default('pix'),
    pixKey: text('pix_key').notNull().default(''),
    merchantName: text('merchant_name').notNull().default(''),
    merchantCity: text('merchant_city').notNull().default(''),
    active: boolean('active').notNull().default(true),
    ...timestamps,
  },
  (t) => [uniqueIndex('payment_gateways_client_uq').on(t.clientId)],
);
