import { resolve } from 'node:path';
import { z } from 'zod';

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
  /** Where Evolution posts its webhooks back (this API's public address). */
  PUBLIC_URL: z.string().optional(),
  /** Key that encrypts secrets at rest (the WhatsApp instance key); required in production. */
  APP_SECRET: z.string().optional(),
});

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
   * IP and escape the per-IP login limit.
   */
  trustProxy: boolean | number | string;
  /** Login rate limits: failures allowed in the window before 429. */
  loginLimit: { perIp: number; perEmail: number; windowMs: number };
  sessionTtlMs: number;
  /** CEP lookup (ViaCEP contract). */
  cep: { baseUrl: string; timeoutMs: number };
  /** WhatsApp (Evolution API contract); no base URL = number checks are skipped (unknown). */
  whatsapp: { baseUrl?: string; apiKey: string; timeoutMs: number };
  /** This API's public base URL (webhooks); defaults to http://localhost:{port}. */
  publicUrl: string;
  /** Encrypts secrets at rest; undefined in production without APP_SECRET (the WhatsApp setup refuses). */
  appSecret?: string;
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
    loginLimit: { perIp: 30, perEmail: 5, windowMs: 15 * 60_000 },
    sessionTtlMs: 24 * 60 * 60_000,
    cep: { baseUrl: e.CEP_BASE_URL, timeoutMs: 5_000 },
    whatsapp: {
      baseUrl: e.EVOLUTION_API_URL || undefined,
      apiKey: e.EVOLUTION_API_KEY ?? '',
      timeoutMs: 10_000,
    },
    publicUrl: (e.PUBLIC_URL || `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    appSecret: e.APP_SECRET || (isProduction ? undefined : 'balcao-development-secret'),
  };
}

/** TRUST_PROXY: unset/0/false = none, a number = that many proxy hops, else addresses or CIDRs. */
function parseTrustProxy(value: string | undefined): boolean | number | string {
  const v = value?.trim() ?? '';
  if (v === '' || v === '0' || v.toLowerCase() === 'false') return false;
  if (/^\d+$/.test(v)) return Number(v);
  return v;
}

/** Config for tests: nothing read from the environment but DATABASE_URL. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return { ...loadConfig({ NODE_ENV: 'test', DEMO: '0', LOG_LEVEL: 'silent' }), ...overrides };
}
