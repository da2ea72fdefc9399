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

  it('refuses a port that is not a number', () => {
    expect(() => loadConfig({ PORT: 'abc' })).toThrow();
  });
});
