import { resolve } from 'node:path';
import { z } from 'zod';
import type { OutboundPolicy } from './lib/outbound.ts';

const envSchema = z.object({
  PORT: z.coerce.number().int().positive().default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z.string().optional(),
  DATA_DIR: z.string().default('./data'),
  API_KEY: z.string().default('balcao-public-key'),
  NODE_ENV: z.string().default('development'),
  DEMO: z.string().optional(),
  WEB_DIST: z.string().optional(),
  LOG_LEVEL: z.string().default('info'),
  TRUST_PROXY: z.string().optional(),
  CEP_BASE_URL: z.string().default('https://viacep.com.br'),
  EVOLUTION_API_URL: z.string().optional(),
  EVOLUTION_API_KEY: z.string().optional(),
  SECRETS_KEY: z.string().optional(),
  ROUTING_URL: z.string().optional(),
  GEOCODER_URL: z.string().optional(),
  MELHOR_ENVIO_USER_AGENT: z.string().optional(),
  /** Carrier hosts (issue 31 item 1): the environment's, never a shop's; defaults are the official ones. */
  MELHOR_ENVIO_API_URL: z.string().optional(),
  MELHOR_ENVIO_OAUTH_URL: z.string().optional(),
  MELHOR_ENVIO_SANDBOX_API_URL: z.string().optional(),
  MELHOR_ENVIO_SANDBOX_OAUTH_URL: z.string().optional(),
  RODONAVES_CITY_URL: z.string().optional(),
  RODONAVES_QUOTE_URL: z.string().optional(),
  /** Outgoing calls (lib/outbound.ts): allow private/loopback addresses, or only these hosts. */
  OUTBOUND_ALLOW_PRIVATE: z.string().optional(),
  OUTBOUND_ALLOW_HOSTS: z.string().optional(),
  /** Hosts allowed to negotiate legacy TLS (1.0): Rodonaves' 01wapi.rte.com.br if it needs it. */
  OUTBOUND_LEGACY_TLS_HOSTS: z.string().optional(),
  ASAAS_API_URL: z.string().optional(),
  ASAAS_API_KEY: z.string().optional(),
  ASAAS_WEBHOOK_TOKEN: z.string().optional(),
  SEFAZ_LOCAL_URL: z.string().optional(),
  SEFAZ_CA_FILE: z.string().optional(),
  SEFAZ_TIMEOUT_MS: z.string().optional(),
  /** Operator token: GET /v1/health and /v1/ready with it as Bearer answer their details. */
  OPS_TOKEN: z.string().optional(),
  /** Where Evolution posts its webhooks back (this API's public address). */
  PUBLIC_URL: z.string().optional(),
  /** S3-compatible object storage for uploaded files (several instances); unset = local disk. */
  S3_ENDPOINT: z.string().optional(),
  S3_BUCKET: z.string().optional(),
  S3_REGION: z.string().optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: z.string().optional(),
  /** iFood Merchant API's host (issue 35; the fake in tests and the demo). */
  IFOOD_API_URL: z.string().optional(),
  /** Open Delivery ordering apps the shops may use: `name=https://host,name2=https://host2`. */
  OPEN_DELIVERY_PROVIDERS: z.string().optional(),
  /**
   * TESTS AND E2E ONLY, NEVER IN PRODUCTION: the marketplace polling interval. iFood requires 30 s
   * (another interval is "consumo indevido" and gets the store closed); unset is 30 s.
   */
  MARKETPLACE_POLL_MS: z.coerce.number().int().positive().optional(),
  /** Background jobs (lib/jobs.ts): how often an instance looks for due work, and a lease override. */
  JOBS_POLL_MS: z.coerce.number().int().positive().default(1000),
  JOB_LEASE_MS: z.coerce.number().int().positive().optional(),
  /** Graceful shutdown: how long in-flight requests and the job under way may take after SIGTERM. */
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().positive().default(25_000),
  /** A PEM file of extra CAs the Pix PSP's server certificate may chain to (a sandbox, the local fake). */
  PIX_CA_FILE: z.string().optional(),
  /**
   * TESTS AND THE DEMO ONLY: the local fake PSP's root (https://localhost:7000). When set, "PSP de
   * teste (local)" joins the PSP catalogue of Conta Pix (modules/pix/catalogue.ts).
   */
  PIX_FAKE_URL: z.string().url().optional(),
  /** A name for this instance in job claims and logs (default: host, pid and a random part). */
  INSTANCE_ID: z.string().optional(),
});

/** S3-compatible storage settings (AWS S3, MinIO, Cloudflare R2, Backblaze B2...). */
export type S3Config = {
  /** Omitted for AWS itself (the SDK derives it from the region). */
  endpoint?: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** bucket in the path (http://host/bucket/key) rather than the host name: MinIO and most fakes. */
  forcePathStyle: boolean;
};

export type Config = {
  port: number;
  host: string;
  databaseUrl?: string;
  dataDir: string;
  apiKey: string;
  isProduction: boolean;
  seedDemo: boolean;
  webDist?: string;
  logLevel: string;
  /**
   * Which X-Forwarded-For hops to believe (Fastify trustProxy): false (default, the socket address is
   * the client), a hop count, or addresses/CIDRs. Trusting every hop would let a client pick its own
   * IP and escape the per-address limits.
   */
  trustProxy: boolean | number | string;
  /**
   * Every password check (login, manager approval, password change; modules/auth/limiter.ts): failed
   * attempts allowed per email and source (address or logged user) in `windowMs`, per source across
   * emails in `windowMs`, and per email from anywhere in the slower `emailWindowMs`, before 429. The
   * last two spare an email's known source (a login from it within `knownMs`).
   */
  passwordLimit: {
    perEmailAndSource: number;
    windowMs: number;
    perSource: number;
    perEmail: number;
    emailWindowMs: number;
    knownMs: number;
  };
  /** Accounts created per address in the window before 429. */
  signUpLimit: { perAddress: number; windowMs: number };
  sessionTtlMs: number;
  /** CEP lookup (ViaCEP contract). */
  cep: { baseUrl: string; timeoutMs: number };
  /** WhatsApp (Evolution API contract); no base URL = number checks are skipped (unknown). */
  whatsapp: { baseUrl?: string; apiKey: string; timeoutMs: number };
  /**
   * Freight (issue 15). Carrier hosts, the routing (OSRM contract) and geocoding (Nominatim contract)
   * services are the environment's (issue 31: never a shop's setting); a shop picks sandbox or
   * production of Melhor Envio at most. Without routing/geocoding the operator types the distance.
   */
  shipping: {
    /** Overall cap of one carrier's quote (every call it makes). */
    carrierTimeoutMs: number;
    /** Rodonaves token and city lookups, each. */
    tokenTimeoutMs: number;
    /** One quote call (Melhor Envio calculate, Rodonaves simula-cotacao). */
    quoteTimeoutMs: number;
    melhorEnvio: {
      production: { apiUrl: string; oauthUrl: string };
      sandbox: { apiUrl: string; oauthUrl: string };
    };
    rodonaves: { cityUrl: string; quoteUrl: string };
    cacheTtlMs: number;
    routingUrl?: string;
    geocoderUrl?: string;
    routingTimeoutMs: number;
    userAgent: string;
  };
  /**
   * Billing gateway (Asaas API v3 contract, docs/integrations/asaas.md): base URL (https://api.asaas.com), API key,
   * and the token Asaas sends in the asaas-access-token header of its webhooks. No URL = paying online
   * answers 503; no token = every webhook is refused.
   */
  asaas: { baseUrl?: string; apiKey: string; webhookToken: string; timeoutMs: number };
  /**
   * NFC-e (issue 32, docs/integrations/sefaz.md): the local fake SEFAZ's base URL (SEFAZ_LOCAL_URL) for
   * shops in the "local" environment, the CA file that signs SEFAZ's server certificates (SEFAZ_CA_FILE:
   * the fake's test CA, or the ICP-Brasil chain in homologação/produção) and how long an answer may take
   * before the note goes to contingency (SEFAZ_TIMEOUT_MS).
   */
  sefaz: { localUrl?: string; caFile?: string; timeoutMs: number };
  /**
   * This API's public base URL, the one source of every link the server builds (webhooks, a budget's
   * approval link); never taken from a request. Defaults to http://localhost:{port}.
   */
  publicUrl: string;
  /**
   * OPS_TOKEN: an operator's Bearer token for the details of /v1/health and /v1/ready (database kind,
   * migrations, why not ready); unset = anonymous answers only, the details go to the logs.
   */
  opsToken?: string;
  /**
   * Encrypts secrets at rest (lib/secrets.ts: carrier tokens, the WhatsApp instance key) from SECRETS_KEY;
   * outside production a development key when unset; undefined in production without it (saving a
   * secret answers 503 / the WhatsApp setup refuses).
   */
  secretsKey?: string;
  /** Uploaded files in S3-compatible storage when S3_BUCKET is set (modules/storage); else DATA_DIR. */
  s3?: S3Config;
  jobs: { pollMs: number; leaseMs?: number };
  /**
   * Marketplaces (issue 35): iFood's host, the Open Delivery apps by name, the polling interval
   * (30 s: iFood's rule; MARKETPLACE_POLL_MS only in tests) and the status outbox's pace.
   */
  marketplace: {
    ifoodUrl: string;
    openDeliveryProviders: Record<string, string>;
    pollMs: number;
    statusMs: number;
    timeoutMs: number;
  };
  /** Every outgoing call (lib/outbound.ts): which non-public addresses the operator allows. */
  outbound: OutboundPolicy;
  shutdownTimeoutMs: number;
  /** Pix API v2 (issue 33): extra CAs trusted for the PSPs' servers (PIX_CA_FILE); public CAs otherwise. */
  pix: { caPem?: string; caFile?: string; fakeUrl?: string };
  instanceId?: string;
};

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const e = envSchema.parse(env);
  const isProduction = e.NODE_ENV === 'production' || Boolean(e.DATABASE_URL);
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL || undefined,
    dataDir: resolve(e.DATA_DIR),
    apiKey: e.API_KEY,
    isProduction,
    seedDemo: e.DEMO === '1' || (!isProduction && e.DEMO !== '0'),
    webDist: e.WEB_DIST,
    logLevel: e.LOG_LEVEL,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    passwordLimit: {
      perEmailAndSource: 5,
      windowMs: 15 * 60_000,
      perSource: 20,
      perEmail: 30,
      emailWindowMs: 60 * 60_000,
      knownMs: 30 * 24 * 60 * 60_000,
    },
    signUpLimit: { perAddress: 10, windowMs: 60 * 60_000 },
    sessionTtlMs: 24 * 60 * 60_000,
    cep: { baseUrl: e.CEP_BASE_URL, timeoutMs: 5_000 },
    whatsapp: {
      baseUrl: e.EVOLUTION_API_URL || undefined,
      apiKey: e.EVOLUTION_API_KEY ?? '',
      timeoutMs: 10_000,
    },
    shipping: {
      carrierTimeoutMs: 6_000,
      tokenTimeoutMs: 2_000,
      quoteTimeoutMs: 3_000,
      melhorEnvio: {
        production: {
          apiUrl: trimUrl(e.MELHOR_ENVIO_API_URL || 'https://melhorenvio.com.br/api/v2'),
          oauthUrl: trimUrl(e.MELHOR_ENVIO_OAUTH_URL || 'https://melhorenvio.com.br'),
        },
        sandbox: {
          apiUrl: trimUrl(e.MELHOR_ENVIO_SANDBOX_API_URL || 'https://sandbox.melhorenvio.com.br/api/v2'),
          oauthUrl: trimUrl(e.MELHOR_ENVIO_SANDBOX_OAUTH_URL || 'https://sandbox.melhorenvio.com.br'),
        },
      },
      rodonaves: {
        cityUrl: trimUrl(e.RODONAVES_CITY_URL || 'https://01wapi.rte.com.br'),
        quoteUrl: trimUrl(e.RODONAVES_QUOTE_URL || 'https://quotation-apigateway.rte.com.br'),
      },
      cacheTtlMs: 10 * 60_000,
      routingUrl: e.ROUTING_URL || undefined,
      geocoderUrl: e.GEOCODER_URL || undefined,
      routingTimeoutMs: 2_000,
      userAgent: e.MELHOR_ENVIO_USER_AGENT || 'Balcao (suporte@balcao.app)',
    },
    asaas: {
      baseUrl: e.ASAAS_API_URL || undefined,
      apiKey: e.ASAAS_API_KEY ?? '',
      webhookToken: e.ASAAS_WEBHOOK_TOKEN ?? '',
      timeoutMs: 10_000,
    },
    sefaz: {
      localUrl: e.SEFAZ_LOCAL_URL || undefined,
      caFile: e.SEFAZ_CA_FILE || undefined,
      timeoutMs: Number(e.SEFAZ_TIMEOUT_MS) || 5_000,
    },
    opsToken: e.OPS_TOKEN || undefined,
    publicUrl: (e.PUBLIC_URL || `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    secretsKey: e.SECRETS_KEY || (isProduction ? undefined : 'balcao-development-secrets-key'),
    s3: e.S3_BUCKET
      ? {
          endpoint: e.S3_ENDPOINT || undefined,
          bucket: e.S3_BUCKET,
          region: e.S3_REGION || 'us-east-1',
          accessKeyId: e.S3_ACCESS_KEY_ID ?? '',
          secretAccessKey: e.S3_SECRET_ACCESS_KEY ?? '',
          forcePathStyle: ['1', 'true'].includes((e.S3_FORCE_PATH_STYLE ?? '').toLowerCase()),
        }
      : undefined,
    jobs: { pollMs: e.JOBS_POLL_MS, leaseMs: e.JOB_LEASE_MS },
    marketplace: {
      ifoodUrl: trimUrl(e.IFOOD_API_URL || 'https://merchant-api.ifood.com.br'),
      openDeliveryProviders: providerList(e.OPEN_DELIVERY_PROVIDERS),
      // 30 s is iFood's rule; a shorter interval exists for tests only and is refused in production.
      pollMs: isProduction ? 30_000 : (e.MARKETPLACE_POLL_MS ?? 30_000),
      statusMs: isProduction ? 5_000 : Math.min(5_000, e.MARKETPLACE_POLL_MS ?? 5_000),
      timeoutMs: 10_000,
    },
    outbound: {
      allowPrivate: ['1', 'true'].includes((e.OUTBOUND_ALLOW_PRIVATE ?? '').trim().toLowerCase()),
      allowHosts: hostList(e.OUTBOUND_ALLOW_HOSTS),
      legacyTlsHosts: hostList(e.OUTBOUND_LEGACY_TLS_HOSTS),
    },
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    pix: {
      caFile: e.PIX_CA_FILE || undefined,
      fakeUrl: e.PIX_FAKE_URL ? trimUrl(e.PIX_FAKE_URL) : undefined,
    },
    instanceId: e.INSTANCE_ID || undefined,
  };
}

const trimUrl = (url: string) => url.trim().replace(/\/+$/, '');
/** OPEN_DELIVERY_PROVIDERS: `name=url` pairs, comma-separated. */
function providerList(value: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of (value ?? '').split(',')) {
    const at = pair.indexOf('=');
    if (at > 0) out[pair.slice(0, at).trim()] = trimUrl(pair.slice(at + 1));
  }
  return out;
}
const hostList = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);

/** TRUST_PROXY: unset/0/false = none, a number = that many proxy hops, else addresses or CIDRs. */
function parseTrustProxy(value: string | undefined): boolean | number | string {
  const v = value?.trim() ?? '';
  if (v === '' || v === '0' || v.toLowerCase() === 'false') return false;
  if (/^\d+$/.test(v)) return Number(v);
  return v;
}

/**
 * Config for tests: nothing read from the environment but DATABASE_URL. The tests' fakes listen on
 * 127.0.0.1, so private addresses are allowed unless a test says otherwise.
 */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    ...loadConfig({ NODE_ENV: 'test', DEMO: '0', LOG_LEVEL: 'silent', OUTBOUND_ALLOW_PRIVATE: 'true' }),
    ...overrides,
  };
}
