import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

describe('config from the environment', () => {
  it('defaults to PGlite in ./data on port 3000, seeding the demo outside production', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.dataDir).toMatch(/\/data$/);
    expect(config.isProduction).toBe(false);
    expect(config.seedDemo).toBe(true);
    expect(config.trustProxy).toBe(false);
  });

  it('seeds nothing in production (NODE_ENV=production or DATABASE_URL) unless DEMO=1', () => {
    expect(loadConfig({ NODE_ENV: 'production' }).seedDemo).toBe(false);
    expect(loadConfig({ DATABASE_URL: 'postgres://x@localhost/db' }).seedDemo).toBe(false);
    expect(loadConfig({ DATABASE_URL: 'postgres://x@localhost/db' }).isProduction).toBe(true);
    expect(loadConfig({ NODE_ENV: 'production', DEMO: '1' }).seedDemo).toBe(true);
    expect(loadConfig({ DEMO: '0' }).seedDemo).toBe(false);
  });

  it('reads PORT, DATA_DIR, API_KEY and TRUST_PROXY', () => {
    const config = loadConfig({ PORT: '8080', DATA_DIR: '/tmp/balcao', API_KEY: 'k', TRUST_PROXY: '2' });
    expect(config).toMatchObject({ port: 8080, dataDir: '/tmp/balcao', apiKey: 'k', trustProxy: 2 });
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).trustProxy).toBe('10.0.0.0/8, 127.0.0.1');
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
  });

  it('stores files in S3-compatible storage only when S3_BUCKET is set', () => {
    expect(loadConfig({}).s3).toBeUndefined();
    expect(loadConfig({ S3_ENDPOINT: 'http://minio:9000' }).s3).toBeUndefined();
    expect(
      loadConfig({
        S3_ENDPOINT: 'http://minio:9000',
        S3_BUCKET: 'balcao',
        S3_ACCESS_KEY_ID: 'id',
        S3_SECRET_ACCESS_KEY: 'secret',
        S3_FORCE_PATH_STYLE: 'true',
      }).s3,
    ).toEqual({
      endpoint: 'http://minio:9000',
      bucket: 'balcao',
      region: 'us-east-1',
      accessKeyId: 'id',
      secretAccessKey: 'secret',
      forcePathStyle: true,
    });
    expect(loadConfig({ S3_BUCKET: 'b', S3_REGION: 'sa-east-1' }).s3).toMatchObject({
      endpoint: undefined,
      region: 'sa-east-1',
      forcePathStyle: false,
    });
  });

  it('reads the shutdown timeout and the background job settings', () => {
    expect(loadConfig({})).toMatchObject({ shutdownTimeoutMs: 25_000, jobs: { pollMs: 1000 } });
    expect(
      loadConfig({
        SHUTDOWN_TIMEOUT_MS: '5000',
        JOBS_POLL_MS: '200',
        JOB_LEASE_MS: '3000',
        INSTANCE_ID: 'a',
      }),
    ).toMatchObject({ shutdownTimeoutMs: 5000, jobs: { pollMs: 200, leaseMs: 3000 }, instanceId: 'a' });
  });

  it('polls the marketplaces every 30 s; a shorter interval only outside production (issue 35)', () => {
    expect(loadConfig({}).marketplace).toMatchObject({
      ifoodUrl: 'https://merchant-api.ifood.com.br',
      openDeliveryProviders: {},
      pollMs: 30_000,
    });
    expect(
      loadConfig({
        MARKETPLACE_POLL_MS: '1000',
        OPEN_DELIVERY_PROVIDERS: 'aiqfome=https://od.aiqfome.com/, keeta = https://keeta.example',
      }).marketplace,
    ).toMatchObject({
      pollMs: 1000,
      openDeliveryProviders: { aiqfome: 'https://od.aiqfome.com', keeta: 'https://keeta.example' },
    });
    expect(loadConfig({ NODE_ENV: 'production', MARKETPLACE_POLL_MS: '1000' }).marketplace.pollMs).toBe(
      30_000,
    );
  });

  it("takes the carriers' hosts and the outbound policy from the environment, official hosts by default (issue 31)", () => {
    const defaults = loadConfig({});
    expect(defaults.shipping.melhorEnvio).toEqual({
      production: { apiUrl: 'https://melhorenvio.com.br/api/v2', oauthUrl: 'https://melhorenvio.com.br' },
      sandbox: {
        apiUrl: 'https://sandbox.melhorenvio.com.br/api/v2',
        oauthUrl: 'https://sandbox.melhorenvio.com.br',
      },
    });
    expect(defaults.shipping.rodonaves).toEqual({
      cityUrl: 'https://01wapi.rte.com.br',
      quoteUrl: 'https://quotation-apigateway.rte.com.br',
    });
    // Private addresses are refused unless the operator says otherwise; legacy TLS is never on by itself.
    expect(defaults.outbound).toEqual({ allowPrivate: false, allowHosts: [], legacyTlsHosts: [] });
    const custom = loadConfig({
      MELHOR_ENVIO_API_URL: 'https://proxy.example/me/api/v2/',
      MELHOR_ENVIO_OAUTH_URL: 'https://auth.example',
      RODONAVES_CITY_URL: 'https://rte-city.example',
      OUTBOUND_ALLOW_PRIVATE: 'true',
      OUTBOUND_ALLOW_HOSTS: 'OSRM.internal, evolution.internal',
      OUTBOUND_LEGACY_TLS_HOSTS: '01wapi.rte.com.br',
    });
    // The OAuth host is its own setting, not derived from the API base.
    expect(custom.shipping.melhorEnvio.production).toEqual({
      apiUrl: 'https://proxy.example/me/api/v2',
      oauthUrl: 'https://auth.example',
    });
    expect(custom.shipping.rodonaves.cityUrl).toBe('https://rte-city.example');
    expect(custom.outbound).toEqual({
      allowPrivate: true,
      allowHosts: ['osrm.internal', 'evolution.internal'],
      legacyTlsHosts: ['01wapi.rte.com.br'],
    });
  });

  it('refuses a port that is not a number', () => {
    expect(() => loadConfig({ PORT: 'abc' })).toThrow();
  });
});
