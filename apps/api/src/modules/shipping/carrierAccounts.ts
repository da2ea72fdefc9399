import type {
  Carrier,
  FallbackRow,
  MelhorEnvioSettings,
  melhorEnvioSettingsInputSchema,
  PackageDims,
  RodonavesSettings,
  rodonavesSettingsInputSchema,
} from '@balcao/core/shipping';
import type { z } from '@balcao/core/zod';
import { and, eq } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Db, Executor } from '../../db/client.ts';
import { unavailable } from '../../errors.ts';
import type { Actor } from '../../lib/actor.ts';
import { isSameVersion } from '../../lib/pg.ts';
import type { SecretBox } from '../../lib/secrets.ts';
import { assertNotStale, versionOf } from '../../lib/version.ts';
import { carrierAccounts } from './schema.ts';

/**
 * Carrier accounts of a shop (issue 15): settings as jsonb, secrets sealed with the environment's key.
 * What the browser gets never holds a secret, only whether one is set.
 */

export const NO_SECRETS_KEY =
  'O servidor não tem a chave de criptografia (SECRETS_KEY) configurada: não é possível guardar senhas e tokens.';

export type MelhorEnvioSecrets = {
  /** The panel token pasted, or the OAuth access token. */
  accessToken?: string;
  refreshToken?: string;
  clientSecret?: string;
  connection?: 'token' | 'oauth';
};
export type RodonavesSecrets = { password?: string };

export type MelhorEnvioStored = {
  sandbox: boolean;
  originZipCode: string;
  clientId: string;
  userAgent: string;
  defaultPackage: PackageDims | null;
  services: number[];
  fallback: FallbackRow[];
};
export type RodonavesStored = {
  username: string;
  authType: 'dev' | 'prod';
  taxpayerId: string;
  originZipCode: string;
  defaultPackage: PackageDims | null;
  fallback: FallbackRow[];
};

const ME_DEFAULTS: MelhorEnvioStored = {
  sandbox: false,
  originZipCode: '',
  clientId: '',
  userAgent: '',
  defaultPackage: null,
  services: [1, 2],
  fallback: [],
};
const RTE_DEFAULTS: RodonavesStored = {
  username: '',
  authType: 'prod',
  taxpayerId: '',
  originZipCode: '',
  defaultPackage: null,
  fallback: [],
};

type Row = typeof carrierAccounts.$inferSelect;

type Account<S, K> = {
  row: Row | null;
  enabled: boolean;
  settings: S;
  secrets: K;
};

async function findRow(db: Executor, clientId: number, carrier: Carrier, lock = false) {
  const query = db
    .select()
    .from(carrierAccounts)
    .where(and(eq(carrierAccounts.clientId, clientId), eq(carrierAccounts.carrier, carrier)))
    .limit(1);
  const [row] = lock ? await query.for('update') : await query;
  return row ?? null;
}

function openSecrets<K>(box: SecretBox | null, stored: string): K {
  if (!stored || !box) return {} as K;
  try {
    return box.open<K>(stored) ?? ({} as K);
  } catch {
    // Sealed with another key (rotated without re-saving): as if none were stored.
    return {} as K;
  }
}

export async function loadAccount<S, K>(
  db: Executor,
  clientId: number,
  carrier: Carrier,
  box: SecretBox | null,
  lock = false,
): Promise<Account<S, K>> {
  const row = await findRow(db, clientId, carrier, lock);
  const defaults = (carrier === 'melhor_envio' ? ME_DEFAULTS : RTE_DEFAULTS) as S;
  // Addresses a shop could set before issue 31 are ignored (hosts are the server's configuration).
  const {
    baseUrl: _b,
    cityBaseUrl: _c,
    quoteBaseUrl: _q,
    ...stored
  } = (row?.settings ?? {}) as Record<string, unknown>;
  return {
    row,
    enabled: row?.enabled ?? false,
    settings: { ...defaults, ...(stored as Partial<S>) },
    secrets: openSecrets<K>(box, row?.secrets ?? ''),
  };
}

/** The Melhor Envio hosts (API and OAuth) of an account: the server's production or sandbox ones. */
export function melhorEnvioHosts(
  config: Config['shipping'],
  settings: Pick<MelhorEnvioStored, 'sandbox'>,
): { apiUrl: string; oauthUrl: string } {
  return settings.sandbox ? config.melhorEnvio.sandbox : config.melhorEnvio.production;
}
/** The Rodonaves hosts: the server's configuration (no sandbox host exists). */
export const rodonavesHosts = (config: Config['shipping']) => ({
  city: config.rodonaves.cityUrl,
  quote: config.rodonaves.quoteUrl,
});

export function melhorEnvioView(
  account: Account<MelhorEnvioStored, MelhorEnvioSecrets>,
): MelhorEnvioSettings {
  const { settings, secrets, row } = account;
  return {
    enabled: account.enabled,
    ...settings,
    hasToken: Boolean(secrets.accessToken),
    hasRefreshToken: Boolean(secrets.refreshToken),
    hasClientSecret: Boolean(secrets.clientSecret),
    tokenExpiresAt: row?.tokenExpiresAt?.toISOString() ?? null,
    connection: secrets.accessToken ? (secrets.connection ?? 'token') : 'none',
    updatedAt: row?.updatedAt.toISOString() ?? null,
  };
}

export function rodonavesView(account: Account<RodonavesStored, RodonavesSecrets>): RodonavesSettings {
  return {
    enabled: account.enabled,
    ...account.settings,
    hasPassword: Boolean(account.secrets.password),
    updatedAt: account.row?.updatedAt.toISOString() ?? null,
  };
}

/** Writes an account's settings and secrets; an existing one needs the version it was read on. */
async function saveAccount(
  db: Db,
  clientId: number,
  carrier: Carrier,
  box: SecretBox | null,
  change: (secrets: Record<string, unknown>) => {
    enabled: boolean;
    settings: Record<string, unknown>;
    secrets: Record<string, unknown>;
    tokenExpiresAt?: Date | null;
    secretsChanged: boolean;
  },
  updatedAt: string | undefined,
): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await findRow(tx, clientId, carrier, true);
    const current = openSecrets<Record<string, unknown>>(box, row?.secrets ?? '');
    const next = change(current);
    if (next.secretsChanged && !box) throw unavailable(NO_SECRETS_KEY);
    const hasSecrets = Object.values(next.secrets).some((v) => v !== undefined && v !== '');
    const sealed = !hasSecrets ? '' : next.secretsChanged || !row ? box!.seal(next.secrets) : row.secrets;
    const values = {
      enabled: next.enabled,
      settings: next.settings,
      secrets: sealed,
      ...(next.tokenExpiresAt !== undefined ? { tokenExpiresAt: next.tokenExpiresAt } : {}),
      updatedAt: new Date(),
    };
    if (!row) {
      await tx.insert(carrierAccounts).values({ clientId, carrier, ...values });
      return;
    }
    const version = versionOf(updatedAt);
    const updated = await tx
      .update(carrierAccounts)
      .set(values)
      .where(and(eq(carrierAccounts.id, row.id), isSameVersion(carrierAccounts.updatedAt, version)))
      .returning({ id: carrierAccounts.id });
    assertNotStale(updated);
  });
}

/** A secret field of a save: absent keeps it, '' removes it, a value replaces it. */
function secretChange(current: unknown, sent: string | undefined): { value: unknown; changed: boolean } {
  if (sent === undefined) return { value: current, changed: false };
  return { value: sent === '' ? undefined : sent, changed: true };
}

export async function saveMelhorEnvio(
  db: Db,
  actor: Actor,
  input: z.output<typeof melhorEnvioSettingsInputSchema>,
  box: SecretBox | null,
): Promise<void> {
  const { enabled, token, clientSecret, updatedAt, ...settings } = input;
  await saveAccount(
    db,
    actor.clientId,
    'melhor_envio',
    box,
    (current) => {
      const access = secretChange(current.accessToken, token);
      const secret = secretChange(current.clientSecret, clientSecret);
      const secrets: MelhorEnvioSecrets = {
        accessToken: access.value as string | undefined,
        // A pasted token replaces an OAuth connection: its refresh token no longer applies.
        refreshToken: access.changed ? undefined : (current.refreshToken as string | undefined),
        clientSecret: secret.value as string | undefined,
        connection: access.changed
          ? access.value
            ? 'token'
            : undefined
          : (current.connection as 'token' | 'oauth'),
      };
      return {
        enabled,
        settings,
        secrets,
        secretsChanged: access.changed || secret.changed,
        tokenExpiresAt: access.changed ? null : undefined,
      };
    },
    updatedAt,
  );
}

export async function saveRodonaves(
  db: Db,
  actor: Actor,
  input: z.output<typeof rodonavesSettingsInputSchema>,
  box: SecretBox | null,
): Promise<void> {
  const { enabled, password, updatedAt, ...settings } = input;
  await saveAccount(
    db,
    actor.clientId,
    'rodonaves',
    box,
    (current) => {
      const pass = secretChange(current.password, password);
      return { enabled, settings, secrets: { password: pass.value }, secretsChanged: pass.changed };
    },
    updatedAt,
  );
}

/** New OAuth tokens of Melhor Envio (authorization or refresh), sealed, with their expiry. */
export async function saveMelhorEnvioTokens(
  db: Executor,
  clientId: number,
  box: SecretBox,
  tokens: { accessToken: string; refreshToken?: string; expiresInSeconds?: number },
): Promise<void> {
  const row = await findRow(db, clientId, 'melhor_envio');
  const current = openSecrets<MelhorEnvioSecrets>(box, row?.secrets ?? '');
  const secrets: MelhorEnvioSecrets = {
    ...current,
    accessToken: tokens.accessToken,
    refreshToken: tokens.refreshToken ?? current.refreshToken,
    connection: 'oauth',
  };
  const tokenExpiresAt = tokens.expiresInSeconds
    ? new Date(Date.now() + tokens.expiresInSeconds * 1000)
    : null;
  if (!row) {
    await db
      .insert(carrierAccounts)
      .values({ clientId, carrier: 'melhor_envio', secrets: box.seal(secrets), tokenExpiresAt });
    return;
  }
  await db
    .update(carrierAccounts)
    .set({ secrets: box.seal(secrets), tokenExpiresAt, updatedAt: new Date() })
    .where(eq(carrierAccounts.id, row.id));
}

/** Records the OAuth `state` (hashed) and redirect URI of an authorization the shop started. */
export async function saveOAuthState(
  db: Executor,
  clientId: number,
  stateHash: string,
  redirectUri: string,
  expiresAt: Date,
): Promise<boolean> {
  const updated = await db
    .update(carrierAccounts)
    .set({ oauthStateHash: stateHash, oauthRedirectUri: redirectUri, oauthStateExpiresAt: expiresAt })
    .where(and(eq(carrierAccounts.clientId, clientId), eq(carrierAccounts.carrier, 'melhor_envio')))
    .returning({ id: carrierAccounts.id });
  return updated.length > 0;
}

/** Takes the OAuth state once: answers the redirect URI when it matches and has not expired. */
export async function takeOAuthState(
  db: Executor,
  clientId: number,
  stateHash: string,
): Promise<string | null> {
  const row = await findRow(db, clientId, 'melhor_envio', true);
  if (!row?.oauthStateHash) return null;
  await db
    .update(carrierAccounts)
    .set({ oauthStateHash: null, oauthRedirectUri: null, oauthStateExpiresAt: null })
    .where(eq(carrierAccounts.id, row.id));
  const valid =
    row.oauthStateHash === stateHash &&
    row.oauthStateExpiresAt !== null &&
    row.oauthStateExpiresAt > new Date();
  return valid ? row.oauthRedirectUri : null;
}
