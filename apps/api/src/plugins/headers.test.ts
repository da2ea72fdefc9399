import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_PASSWORD, type TestApp } from '../../test/helper.ts';
import { asUser, login } from '../../test/kit.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const directives = (csp: string) =>
  new Map(
    csp.split(';').map((part) => {
      const [name, ...values] = part.trim().split(/\s+/);
      return [name, values.join(' ')];
    }),
  );

describe('security headers', () => {
  it('sends a CSP that only trusts the own origin, refuses framing and sniffing', async () => {
    const { api } = await asUser(t, [1]);
    const res = await api.get('/user/me');
    expect(res.statusCode).toBe(200);
    const csp = directives(String(res.headers['content-security-policy']));
    expect(csp.get('default-src')).toBe("'self'");
    expect(csp.get('script-src')).toBe("'self'");
    expect(csp.get('frame-ancestors')).toBe("'none'");
    expect(csp.get('object-src')).toBe("'none'");
    expect(csp.get('base-uri')).toBe("'self'");
    expect(csp.has('upgrade-insecure-requests')).toBe(false);
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('sends them on errors and unknown routes too', async () => {
    for (const res of [await t.app.inject({ url: '/v1/user/me' }), await t.app.inject({ url: '/v1/nada' })]) {
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(String(res.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
    }
  });

  it('never lets personal data be cached: no-store on API answers and downloads', async () => {
    const { api, client, users } = await asUser(t, [1]);
    const answers = [
      await login(t, users[0].email, TEST_PASSWORD),
      await api.get('/user/me'),
      await api.get(`/customer/client/${client.id}`),
      await api.get(`/customer/client/${client.id}/export`),
      await api.get(`/sale/client/${client.id}/export`),
      await api.get(`/product/client/${client.id}/export`),
      await api.get('/customer/999999'),
    ];
    for (const res of answers) {
      expect(res.headers['cache-control'], res.body.slice(0, 80)).toBe('no-store');
    }
  });
});
