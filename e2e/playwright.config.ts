import { defineConfig, devices } from '@playwright/test';

const PORT = Number(process.env.E2E_PORT ?? 3100);
const DATA_DIR = process.env.E2E_DATA_DIR ?? `../.tmp/e2e-data-${PORT}`;
/** The fake ViaCEP (apps/api/test/fakes/viacep.ts) the API's CEP lookup points at: no network here. */
const CEP_PORT = Number(process.env.E2E_CEP_PORT ?? PORT + 500);
/** The fake Asaas (apps/api/test/fakes/asaas.ts) the billing gateway points at, and its webhook token. */
const ASAAS_PORT = Number(process.env.E2E_ASAAS_PORT ?? PORT + 600);
const E2E_ASAAS_URL = `http://127.0.0.1:${ASAAS_PORT}`;
const ASAAS_KEY = '$aact_e2e_key';
const ASAAS_WEBHOOK_TOKEN = 'e2e-webhook-token';
/** The fake Evolution API (apps/api/test/fakes/evolution.ts): WhatsApp instance and campaign sends. */
export const EVOLUTION_PORT = Number(process.env.E2E_EVOLUTION_PORT ?? PORT + 700);
export const EVOLUTION_KEY = 'e2e-evolution-key';
/** Numbers the fake Evolution says have WhatsApp (whatsapp.spec.ts's customers). */
export const E2E_WHATSAPP_NUMBERS = ['5511955550001', '5511955550002', '5511955550003'];
/**
 * The fake Melhor Envio (apps/api/test/fakes/freight.ts), started by shipping.spec.ts on this port: the
 * carriers' hosts are the server's environment, never a shop's setting (issue 31). Rodonaves points at
 * a port nobody listens on (its quotes fall back to the estimate table).
 */
export const MELHOR_ENVIO_PORT = Number(process.env.E2E_MELHOR_ENVIO_PORT ?? PORT + 800);
const RODONAVES_URL = `http://127.0.0.1:${PORT + 810}`;
/** The fake iFood (apps/api/test/fakes/ifood.ts), started by marketplace.spec.ts on this port (issue 35). */
export const IFOOD_PORT = Number(process.env.E2E_IFOOD_PORT ?? PORT + 900);
/** The fake Open Delivery app (apps/api/test/fakes/opendelivery.ts), "aiqfome" for the API. */
const OPEN_DELIVERY_URL = `http://127.0.0.1:${PORT + 950}`;
/**
 * The fake PSP (apps/api/test/fakes/pix-psp.ts, issue 33): API Pix v2 over mutual TLS on PORT + 920,
 * the customer's bank app (GET /pagar) on PORT + 921; its CA and the shop's client certificate in PIX_DIR.
 */
export const PIX_PORT = Number(process.env.E2E_PIX_PORT ?? PORT + 920);
export const PIX_PAY_URL = `http://127.0.0.1:${PIX_PORT + 1}`;
export const PIX_DIR = `../.tmp/e2e-pix-${PORT}`;
export const PIX_CLIENT = { id: 'Client_Id_e2e', secret: 'Client_Secret_e2e' };
/** The fake SEFAZ (apps/api/test/fakes/sefaz.ts, issue 32): HTTPS with client certificates, and its control port. */
// +910, not +900: fetch refuses port 6000 (X11) as a "bad port", and E2E_PORT 5100 + 900 is 6000.
const SEFAZ_PORT = Number(process.env.E2E_SEFAZ_PORT ?? PORT + 910);
const SEFAZ_CONTROL_URL = `http://127.0.0.1:${SEFAZ_PORT + 1}`;
const SEFAZ_CA_FILE = `.tmp/sefaz-ca-${PORT}.pem`;

/**
 * Browser tests: Debian's Chromium (no browser download here) against the built web app served by the
 * real API on a fresh PGlite with the demo shop. scripts/test.mjs builds the web app first.
 */
export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  fullyParallel: false,
  workers: 1,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  retries: process.env.CI ? 1 : 0,
  reporter: [['list']],
  use: {
    baseURL: `http://localhost:${PORT}`,
    locale: 'pt-BR',
    timezoneId: 'America/Sao_Paulo',
    trace: 'off',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: [
    {
      command: `cd .. && PORT=${CEP_PORT} node --import tsx apps/api/test/fakes/viacep-cli.ts`,
      url: `http://127.0.0.1:${CEP_PORT}/ws/01001000/json/`,
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      command: `cd .. && PORT=${ASAAS_PORT} API_KEY='${ASAAS_KEY}' WEBHOOK_TOKEN=${ASAAS_WEBHOOK_TOKEN} WEBHOOK_URL=http://localhost:${PORT}/v1/billing/webhook/asaas node --import tsx apps/api/test/fakes/asaas-cli.ts`,
      url: `http://127.0.0.1:${ASAAS_PORT}/v3/payments/x`,
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      command: `cd .. && PORT=${EVOLUTION_PORT} EVOLUTION_API_KEY=${EVOLUTION_KEY} REGISTERED=${E2E_WHATSAPP_NUMBERS.join(',')} node --import tsx apps/api/test/fakes/evolution-cli.ts`,
      url: `http://127.0.0.1:${EVOLUTION_PORT}/__fake/sent`,
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      // Before the API: it writes the CA the API trusts (PIX_CA_FILE).
      command: `cd .. && PORT=${PIX_PORT} PAY_PORT=${PIX_PORT + 1} CERT_DIR=${PIX_DIR.replace(/^\.\.\//, '')} PIX_CLIENT_ID=${PIX_CLIENT.id} PIX_CLIENT_SECRET=${PIX_CLIENT.secret} node --import tsx apps/api/test/fakes/pix-psp-cli.ts`,
      url: `${PIX_PAY_URL}/pagar`,
    },
    {
      command: `cd .. && PORT=${SEFAZ_PORT} CONTROL_PORT=${SEFAZ_PORT + 1} CA_OUT=${SEFAZ_CA_FILE} node --import tsx apps/api/test/fakes/sefaz-cli.ts`,
      url: `${SEFAZ_CONTROL_URL}/ready`,
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      command: `rm -rf ${DATA_DIR} && cd .. && SKIP_WEB_BUILD=${process.env.SKIP_WEB_BUILD ?? '0'} node scripts/start.mjs`,
      url: `http://localhost:${PORT}/v1/health`,
      reuseExistingServer: false,
      timeout: 180_000,
      env: {
        PORT: String(PORT),
        DATA_DIR: DATA_DIR.replace(/^\.\.\//, ''),
        DEMO: '1',
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
        CEP_BASE_URL: `http://127.0.0.1:${CEP_PORT}`,
        ASAAS_API_URL: E2E_ASAAS_URL,
        ASAAS_API_KEY: ASAAS_KEY,
        ASAAS_WEBHOOK_TOKEN: ASAAS_WEBHOOK_TOKEN,
        EVOLUTION_API_URL: `http://127.0.0.1:${EVOLUTION_PORT}`,
        EVOLUTION_API_KEY: EVOLUTION_KEY,
        // The browser works on localhost (the session cookie is that host's): links the server builds use it too.
        PUBLIC_URL: `http://localhost:${PORT}`,
        MELHOR_ENVIO_API_URL: `http://127.0.0.1:${MELHOR_ENVIO_PORT}/api/v2`,
        MELHOR_ENVIO_OAUTH_URL: `http://127.0.0.1:${MELHOR_ENVIO_PORT}`,
        MELHOR_ENVIO_SANDBOX_API_URL: `http://127.0.0.1:${MELHOR_ENVIO_PORT}/api/v2`,
        MELHOR_ENVIO_SANDBOX_OAUTH_URL: `http://127.0.0.1:${MELHOR_ENVIO_PORT}`,
        RODONAVES_CITY_URL: RODONAVES_URL,
        RODONAVES_QUOTE_URL: RODONAVES_URL,
        IFOOD_API_URL: `http://127.0.0.1:${IFOOD_PORT}`,
        OPEN_DELIVERY_PROVIDERS: `aiqfome=${OPEN_DELIVERY_URL}`,
        // TESTS ONLY: iFood's 30 s polling shortened so the marketplace spec waits seconds, not minutes.
        MARKETPLACE_POLL_MS: '1000',
        // The suite starts its own fake PSP (above): scripts/start.mjs must not start the demo's on 7000.
        PIX_FAKE: '0',
        PIX_CA_FILE: `${PIX_DIR.replace(/^\.\.\//, '')}/ca.pem`,
        // The fake PSP joins Conta Pix's PSP catalogue (hosts are the server's, never the shop's).
        PIX_FAKE_URL: `https://localhost:${PIX_PORT}`,
        SEFAZ_LOCAL_URL: `https://127.0.0.1:${SEFAZ_PORT}`,
        SEFAZ_CA_FILE,
        // Two cores shared by the whole suite: the fake's XSD check may take seconds; contingency is API-tested.
        SEFAZ_TIMEOUT_MS: '20000',
        // The fakes above listen on 127.0.0.1: the outbound guard allows private addresses here only.
        OUTBOUND_ALLOW_PRIVATE: 'true',
      },
    },
  ],
});
