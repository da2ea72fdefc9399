import { createHash, randomBytes } from 'node:crypto';
import { normalizeCep } from '@balcao/core/cep';
import {
  CARRIER_LABELS,
  type Carrier,
  type FallbackRow,
  type FreightOption,
  type FreightQuote,
  fallbackQuote,
  type freightQuoteInputSchema,
  type PackageDims,
  totalWeightKg,
} from '@balcao/core/shipping';
import type { z } from '@balcao/core/zod';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { unavailable, unprocessable } from '../../errors.ts';
import type { Actor } from '../../lib/actor.ts';
import type { SecretBox } from '../../lib/secrets.ts';
import { productDimensions } from '../product/dimensions.ts';
import {
  loadAccount,
  type MelhorEnvioSecrets,
  type MelhorEnvioStored,
  melhorEnvioHosts,
  NO_SECRETS_KEY,
  type RodonavesSecrets,
  type RodonavesStored,
  rodonavesHosts,
  saveMelhorEnvioTokens,
  saveOAuthState,
  takeOAuthState,
} from './carrierAccounts.ts';
import { CarrierError } from './carrierHttp.ts';
import { type MelhorEnvioItem, melhorEnvioCalculate, melhorEnvioToken } from './melhorEnvio.ts';
import { type RodonavesPack, rodonavesQuote, type TokenCache } from './rodonaves.ts';
import { findDefaultRuleSet } from './service.ts';

/**
 * Carrier quotes (issue 15): every carrier asked in parallel, each within its deadline (3 s), identical
 * quotes cached for minutes, and a carrier that fails answered from its fallback table as an
 * "estimativa" with the reason. A carrier error never becomes a 500.
 */

type FreightDeps = {
  config: Config['shipping'];
  box: SecretBox | null;
};

/** What lives for the process: the quote cache, the Rodonaves tokens, the refreshes under way. */
type FreightState = {
  cache: Map<string, { at: number; options: FreightOption[] }>;
  rodonavesTokens: TokenCache;
  refreshing: Map<number, Promise<string | null>>;
};

export function freightState(): FreightState {
  return { cache: new Map(), rodonavesTokens: new Map(), refreshing: new Map() };
}

type Input = z.output<typeof freightQuoteInputSchema>;

type Items = { items: (MelhorEnvioItem & { name: string })[]; package: PackageDims | null; weightKg: number };

const PRODUCT_WITHOUT_DIMENSIONS = (name: string) =>
  `O produto "${name}" não tem peso e medidas. Cadastre peso (kg), altura, largura e comprimento (cm) no produto.`;

async function itemsOf(db: Db, actor: Actor, input: Input, fallbackPackage: PackageDims | null) {
  if (input.products?.length) {
    const ids = [...new Set(input.products.map((p) => p.productId))];
    const found = new Map((await productDimensions(db, actor, ids)).map((p) => [p.id, p]));
    const items = input.products.map((line, index) => {
      const product = found.get(line.productId);
      if (!product)
        throw unprocessable('Produto não encontrado', [
          { path: `products.${index}.productId`, message: 'Produto não encontrado' },
        ]);
      const { weightKg, heightCm, widthCm, lengthCm } = product;
      if (!weightKg || !heightCm || !widthCm || !lengthCm) {
        const message = PRODUCT_WITHOUT_DIMENSIONS(product.name);
        throw unprocessable(message, [{ path: `products.${index}.productId`, message }]);
      }
      return {
        id: String(product.id),
        name: product.name,
        weightKg,
        heightCm,
        widthCm,
        lengthCm,
        unitValueCents: product.salePriceCents,
        quantity: line.quantity,
      };
    });
    return { items, package: null, weightKg: totalWeightKg(items) } satisfies Items;
  }
  const pack = input.package ?? fallbackPackage;
  if (!pack) {
    const message = 'Informe as medidas da caixa ou escolha produtos do catálogo';
    throw unprocessable(message, [{ path: 'package', message }]);
  }
  return { items: [], package: pack, weightKg: pack.weightKg } satisfies Items;
}

function cacheKey(clientId: number, carrier: Carrier, parts: unknown): string {
  return `${clientId}:${carrier}:${createHash('sha256').update(JSON.stringify(parts)).digest('hex')}`;
}

/** Forgets a client's cached quotes of a carrier (its settings changed). */
export function forgetQuotes(state: FreightState, clientId: number, carrier: Carrier): void {
  const prefix = `${clientId}:${carrier}:`;
  for (const key of state.cache.keys()) if (key.startsWith(prefix)) state.cache.delete(key);
  if (carrier === 'rodonaves')
    for (const key of state.rodonavesTokens.keys())
      if (key.startsWith(`${clientId}|`)) state.rodonavesTokens.delete(key);
}

function estimateOrError(
  carrier: Carrier,
  fallback: FallbackRow[],
  toZipCode: string,
  weightKg: number,
  error: CarrierError,
): FreightOption[] {
  const base = {
    carrier,
    serviceId: `${carrier}-fallback`,
    serviceName: CARRIER_LABELS[carrier],
    companyName: CARRIER_LABELS[carrier],
    companyPicture: null,
  };
  const estimate =
    error.kind === 'rejected' || error.kind === 'not_configured' || error.kind === 'not_served'
      ? null
      : fallbackQuote(fallback, toZipCode, weightKg);
  if (estimate)
    return [
      {
        ...base,
        priceCents: estimate.priceCents,
        deliveryMinDays: estimate.days,
        deliveryMaxDays: estimate.days,
        estimate: true,
        error: `${error.message} Valor estimado pela tabela da loja.`,
      },
    ];
  return [
    {
      ...base,
      priceCents: null,
      deliveryMinDays: null,
      deliveryMaxDays: null,
      estimate: false,
      error: error.message,
    },
  ];
}

/** Refreshes a Melhor Envio OAuth token once per client at a time; null when it cannot. */
async function refreshMelhorEnvio(
  db: Db,
  clientId: number,
  settings: MelhorEnvioStored,
  secrets: MelhorEnvioSecrets,
  deps: FreightDeps,
  state: FreightState,
  signal: AbortSignal,
): Promise<string | null> {
  const running = state.refreshing.get(clientId);
  if (running) return running;
  const work = (async () => {
    if (!secrets.refreshToken || !settings.clientId || !secrets.clientSecret || !deps.box) return null;
    try {
      const tokens = await melhorEnvioToken(
        melhorEnvioHosts(deps.config, settings).oauthUrl,
        settings.userAgent || deps.config.userAgent,
        {
          grant_type: 'refresh_token',
          refresh_token: secrets.refreshToken,
          client_id: settings.clientId,
          client_secret: secrets.clientSecret,
        },
        AbortSignal.any([signal, AbortSignal.timeout(deps.config.tokenTimeoutMs)]),
      );
      await saveMelhorEnvioTokens(db, clientId, deps.box, tokens);
      return tokens.accessToken;
    } catch (error) {
      if (error instanceof CarrierError) return null;
      throw error;
    }
  })();
  state.refreshing.set(clientId, work);
  try {
    return await work;
  } finally {
    state.refreshing.delete(clientId);
  }
}

const ME_NOT_CONNECTED = 'Melhor Envio não conectado. Configure em Configurações > Melhor Envio.';
const ME_REAUTHORIZE =
  'O acesso ao Melhor Envio expirou e não foi possível renová-lo. Conecte novamente em Configurações > Melhor Envio.';
const RTE_NOT_CONFIGURED =
  'Rodonaves não configurada. Informe usuário, senha e CNPJ nas configurações da Rodonaves.';
/** Refresh an OAuth token this long before it expires. */
const REFRESH_BEFORE_MS = 24 * 60 * 60_000;

/** What a carrier's quote works with: the request, the shop's origin and the quote's deadline (`signal`). */
type CarrierCall = {
  db: Db;
  actor: Actor;
  input: Input;
  deps: FreightDeps;
  state: FreightState;
  signal: AbortSignal;
  shopOrigin: string;
};
type CarrierQuote = { options: FreightOption[]; from: string; weightKg: number };
/** Each carrier's stored settings and secrets. */
type StoredOf = { melhor_envio: MelhorEnvioStored; rodonaves: RodonavesStored };
type SecretsOf = { melhor_envio: MelhorEnvioSecrets; rodonaves: RodonavesSecrets };

/**
 * The carrier's account for a quote, and where the quote goes from (the request's origin, else the
 * account's, else the shop's) and to.
 */
async function quoteAccount<C extends Carrier>(call: CarrierCall, carrier: C) {
  const account = await loadAccount<StoredOf[C], SecretsOf[C]>(
    call.db,
    call.actor.clientId,
    carrier,
    call.deps.box,
  );
  const from = call.input.fromZipCode || account.settings.originZipCode || call.shopOrigin;
  return {
    account,
    settings: account.settings,
    secrets: account.secrets,
    from,
    toZipCode: call.input.toZipCode,
  };
}

async function quoteMelhorEnvio(call: CarrierCall): Promise<CarrierQuote> {
  const { db, actor, input, deps, state, signal } = call;
  const { account, settings, secrets, from, toZipCode } = await quoteAccount(call, 'melhor_envio');
  const fail = (error: CarrierError, weightKg: number) => ({
    options: estimateOrError('melhor_envio', settings.fallback, toZipCode, weightKg, error),
    from,
    weightKg,
  });
  const items = await itemsOf(db, actor, input, settings.defaultPackage);
  if (!account.enabled || !secrets.accessToken)
    return fail(new CarrierError('not_configured', ME_NOT_CONNECTED), items.weightKg);
  if (!from) return fail(new CarrierError('not_configured', 'Informe o CEP de origem.'), items.weightKg);
  const request = {
    fromZipCode: from,
    toZipCode,
    services: settings.services.length ? settings.services : [1, 2],
    products: items.items.length ? items.items.map(({ name: _name, ...item }) => item) : undefined,
    package: items.package ?? undefined,
    insuranceCents: input.invoiceValueCents,
  };
  const base = melhorEnvioHosts(deps.config, settings).apiUrl;
  const key = cacheKey(actor.clientId, 'melhor_envio', [base, request]);
  const hit = state.cache.get(key);
  if (hit && Date.now() - hit.at < deps.config.cacheTtlMs)
    return { options: hit.options, from, weightKg: items.weightKg };

  const userAgent = settings.userAgent || deps.config.userAgent;
  try {
    let token = secrets.accessToken;
    const expiresAt = account.row?.tokenExpiresAt?.getTime();
    if (expiresAt && expiresAt - Date.now() < REFRESH_BEFORE_MS) {
      token = (await refreshMelhorEnvio(db, actor.clientId, settings, secrets, deps, state, signal)) ?? token;
    }
    let options: FreightOption[];
    try {
      options = await melhorEnvioCalculate(base, token, userAgent, request, quoteSignal(deps, signal));
    } catch (error) {
      if (!(error instanceof CarrierError) || error.kind !== 'auth') throw error;
      // 401: refresh, then retry once; a second refusal means the shop must authorize again.
      const refreshed = await refreshMelhorEnvio(db, actor.clientId, settings, secrets, deps, state, signal);
      if (!refreshed) throw new CarrierError('auth', ME_REAUTHORIZE);
      try {
        options = await melhorEnvioCalculate(base, refreshed, userAgent, request, quoteSignal(deps, signal));
      } catch (retryError) {
        if (retryError instanceof CarrierError && retryError.kind === 'auth')
          throw new CarrierError('auth', ME_REAUTHORIZE);
        throw retryError;
      }
    }
    state.cache.set(key, { at: Date.now(), options });
    pruneCache(state, deps.config.cacheTtlMs);
    return { options, from, weightKg: items.weightKg };
  } catch (error) {
    if (error instanceof CarrierError) return fail(error, items.weightKg);
    throw error;
  }
}

function packsOf(items: Items): RodonavesPack[] {
  if (items.package)
    return [
      {
        amount: 1,
        weightKg: items.package.weightKg,
        lengthCm: items.package.lengthCm,
        heightCm: items.package.heightCm,
        widthCm: items.package.widthCm,
      },
    ];
  return items.items.map((i) => ({
    amount: i.quantity,
    weightKg: i.weightKg,
    lengthCm: i.lengthCm,
    heightCm: i.heightCm,
    widthCm: i.widthCm,
  }));
}

async function quoteRodonaves(call: CarrierCall): Promise<CarrierQuote> {
  const { db, actor, input, deps, state, signal } = call;
  const { account, settings, secrets, from, toZipCode } = await quoteAccount(call, 'rodonaves');
  const items = await itemsOf(db, actor, input, settings.defaultPackage);
  const fail = (error: CarrierError) => ({
    options: estimateOrError('rodonaves', settings.fallback, toZipCode, items.weightKg, error),
    from,
    weightKg: items.weightKg,
  });
  if (!account.enabled || !settings.username || !secrets.password || !settings.taxpayerId)
    return fail(new CarrierError('not_configured', RTE_NOT_CONFIGURED));
  if (!from) return fail(new CarrierError('not_configured', 'Informe o CEP de origem.'));
  const hosts = rodonavesHosts(deps.config);
  const request = {
    fromZipCode: from,
    toZipCode,
    taxpayerId: settings.taxpayerId,
    invoiceValueCents: input.invoiceValueCents,
    packs: packsOf(items),
  };
  const key = cacheKey(actor.clientId, 'rodonaves', [hosts, request]);
  const hit = state.cache.get(key);
  if (hit && Date.now() - hit.at < deps.config.cacheTtlMs)
    return { options: hit.options, from, weightKg: items.weightKg };
  try {
    const options = await rodonavesQuote({
      hosts,
      credentials: { username: settings.username, password: secrets.password, authType: settings.authType },
      request,
      cache: state.rodonavesTokens,
      clientId: actor.clientId,
      budgets: { tokenMs: deps.config.tokenTimeoutMs, quoteMs: deps.config.quoteTimeoutMs },
      signal,
    });
    state.cache.set(key, { at: Date.now(), options });
    pruneCache(state, deps.config.cacheTtlMs);
    return { options, from, weightKg: items.weightKg };
  } catch (error) {
    if (error instanceof CarrierError) return fail(error);
    throw error;
  }
}

function pruneCache(state: FreightState, ttlMs: number) {
  if (state.cache.size < 2000) return;
  const now = Date.now();
  for (const [key, entry] of state.cache) if (now - entry.at >= ttlMs) state.cache.delete(key);
  while (state.cache.size >= 2000) state.cache.delete(state.cache.keys().next().value as string);
}

/** One quote call's own budget inside the carrier's overall deadline. */
const quoteSignal = (deps: FreightDeps, signal: AbortSignal) =>
  AbortSignal.any([signal, AbortSignal.timeout(deps.config.quoteTimeoutMs)]);

/**
 * Quotes the carriers asked, in parallel, each within `carrierTimeoutMs` overall (each call inside
 * it has its own budget: token and city lookups `tokenTimeoutMs`, a quote `quoteTimeoutMs`). The origin is the CEP sent,
 * else the carrier's origin, else the shop's default rule set's.
 */
export async function quoteFreight(
  db: Db,
  actor: Actor,
  input: Input,
  deps: FreightDeps,
  state: FreightState,
): Promise<FreightQuote> {
  const shopOrigin = (await findDefaultRuleSet(db, actor.clientId))?.originZipCode ?? '';
  const carriers = [...new Set(input.carriers)];
  const results = await Promise.all(
    carriers.map((carrier) => {
      const call = {
        db,
        actor,
        input,
        deps,
        state,
        signal: AbortSignal.timeout(deps.config.carrierTimeoutMs),
        shopOrigin,
      };
      return carrier === 'melhor_envio' ? quoteMelhorEnvio(call) : quoteRodonaves(call);
    }),
  );
  return {
    fromZipCode: results[0]?.from ?? '',
    toZipCode: normalizeCep(input.toZipCode),
    weightKg: results[0]?.weightKg ?? 0,
    options: results.flatMap((r) => r.options),
  };
}

// ---------------------------------------------------------------------------------------------------
// Melhor Envio OAuth2 (authorization code)

export const OAUTH_PATH = '/dashboard/settings/melhor-envio/settings';
const hashState = (state: string) => createHash('sha256').update(state).digest('hex');

/**
 * Starts an authorization: a `state` kept (hashed) for 10 minutes and the authorize URL to open. The
 * redirect goes back to the settings page of the shop's own web address.
 */
export async function startMelhorEnvioOAuth(
  db: Db,
  actor: Actor,
  redirectUri: string,
  deps: FreightDeps,
): Promise<{ url: string }> {
  let parsed: URL;
  try {
    parsed = new URL(redirectUri);
  } catch {
    throw unprocessable('Endereço de retorno inválido');
  }
  if (!/^https?:$/.test(parsed.protocol) || parsed.pathname !== OAUTH_PATH || parsed.search || parsed.hash)
    throw unprocessable('Endereço de retorno inválido');
  const account = await loadAccount<MelhorEnvioStored, MelhorEnvioSecrets>(
    db,
    actor.clientId,
    'melhor_envio',
    deps.box,
  );
  if (!account.row || !account.settings.clientId || !account.secrets.clientSecret)
    throw unprocessable('Salve o Client ID e o Client Secret do aplicativo Melhor Envio antes de conectar.');
  const state = randomBytes(24).toString('base64url');
  await saveOAuthState(db, actor.clientId, hashState(state), redirectUri, new Date(Date.now() + 10 * 60_000));
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: account.settings.clientId,
    redirect_uri: redirectUri,
    scope: 'shipping-calculate',
    state,
  });
  return { url: `${melhorEnvioHosts(deps.config, account.settings).oauthUrl}/oauth/authorize?${query}` };
}

/** Finishes an authorization: checks the `state` once, trades the code for tokens and keeps them sealed. */
export async function finishMelhorEnvioOAuth(
  db: Db,
  actor: Actor,
  input: { code: string; state: string },
  deps: FreightDeps,
): Promise<void> {
  if (!deps.box) throw unavailable(NO_SECRETS_KEY);
  const redirectUri = await takeOAuthState(db, actor.clientId, hashState(input.state));
  if (!redirectUri)
    throw unprocessable(
      'A autorização expirou ou não foi pedida por esta loja. Clique em Conectar novamente.',
    );
  const account = await loadAccount<MelhorEnvioStored, MelhorEnvioSecrets>(
    db,
    actor.clientId,
    'melhor_envio',
    deps.box,
  );
  try {
    const tokens = await melhorEnvioToken(
      melhorEnvioHosts(deps.config, account.settings).oauthUrl,
      account.settings.userAgent || deps.config.userAgent,
      {
        grant_type: 'authorization_code',
        client_id: account.settings.clientId,
        client_secret: account.secrets.clientSecret ?? '',
        redirect_uri: redirectUri,
        code: input.code,
      },
      AbortSignal.timeout(deps.config.carrierTimeoutMs),
    );
    await saveMelhorEnvioTokens(db, actor.clientId, deps.box, tokens);
  } catch (error) {
    if (error instanceof CarrierError)
      throw error.kind === 'unavailable' ? unavailable(error.message) : unprocessable(error.message);
    throw error;
  }
}
