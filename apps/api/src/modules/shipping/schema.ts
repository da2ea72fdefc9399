import { sql } from 'drizzle-orm';
import {
  boolean,
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
import { clients } from '../../db/schema.ts';

type FeeRow = { name: string; feeCents: number; timeMinutes: number };
type CepFeeRow = { from: string; to: string; feeCents: number; timeMinutes: number };
type TierRow = { upToKm: number; feeCents: number; timeMinutes: number };
type CepRange = { from: string; to: string };
type DriverRow = { name: string; feeCents: number };

/**
 * A delivery rule set of a client (issue 15): several per shop, one default. The session reads them
 * through the shipping service (`GET /v1/shipping-settings/client/{clientId}`). Lists of rows are
 * jsonb: they are edited and read whole with their rule set, never queried one by one.
 */
export const shippingSettings = pgTable(
  'shipping_settings',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    name: text('name').notNull(),
    originZipCode: text('origin_zip_code').notNull().default(''),
    /** fixed | neighborhood | cep_range | distance */
    feeMode: text('fee_mode').notNull().default('fixed'),
    fixedPriceCents: integer('fixed_price_cents').notNull().default(0),
    neighborhoods: jsonb('neighborhoods').$type<FeeRow[]>().notNull().default([]),
    cepRanges: jsonb('cep_ranges').$type<CepFeeRow[]>().notNull().default([]),
    distanceTiers: jsonb('distance_tiers').$type<TierRow[]>().notNull().default([]),
    freeAboveCents: integer('free_above_cents').notNull().default(0),
    minOrderCents: integer('min_order_cents').notNull().default(0),
    deliveryTimeMinutes: integer('delivery_time_minutes').notNull().default(60),
    notServedNeighborhoods: jsonb('not_served_neighborhoods').$type<string[]>().notNull().default([]),
    notServedCepRanges: jsonb('not_served_cep_ranges').$type<CepRange[]>().notNull().default([]),
    notServedMessage: text('not_served_message').notNull().default(''),
    /** fixed | per_km | neighborhood */
    driverFeeMode: text('driver_fee_mode').notNull().default('fixed'),
    driverFixedCents: integer('driver_fixed_cents').notNull().default(0),
    driverPerKmCents: integer('driver_per_km_cents').notNull().default(0),
    driverNeighborhoods: jsonb('driver_neighborhoods').$type<DriverRow[]>().notNull().default([]),
    active: boolean('active').notNull().default(true),
    isDefault: boolean('is_default').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('shipping_settings_client_idx').on(t.clientId),
    // One default per client: a race between two saves cannot leave two.
    uniqueIndex('shipping_settings_default_uq').on(t.clientId).where(sql`${t.isDefault}`),
    check(
      'shipping_settings_fee_mode_ck',
      sql`${t.feeMode} in ('fixed', 'neighborhood', 'cep_range', 'distance')`,
    ),
    check(
      'shipping_settings_driver_fee_mode_ck',
      sql`${t.driverFeeMode} in ('fixed', 'per_km', 'neighborhood')`,
    ),
  ],
);

/**
 * A client's account at a carrier (Melhor Envio, Rodonaves): its settings (no secret) as jsonb and its
 * secrets (tokens, client secret, password) encrypted at rest (`lib/secrets.ts`, key from the
 * environment), never answered.
 */
export const carrierAccounts = pgTable(
  'carrier_accounts',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    /** melhor_envio | rodonaves */
    carrier: text('carrier').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    settings: jsonb('settings').$type<Record<string, unknown>>().notNull().default({}),
    /** Encrypted JSON of the secrets; '' = none. */
    secrets: text('secrets').notNull().default(''),
    tokenExpiresAt: timestamp('token_expires_at', { withTimezone: true }),
    /** Hash of the OAuth2 `state` sent to the carrier, checked once on return. */
    oauthStateHash: text('oauth_state_hash'),
    oauthRedirectUri: text('oauth_redirect_uri'),
    oauthStateExpiresAt: timestamp('oauth_state_expires_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('carrier_accounts_client_carrier_uq').on(t.clientId, t.carrier),
    check('carrier_accounts_carrier_ck', sql`${t.carrier} in ('melhor_envio', 'rodonaves')`),
  ],
);
