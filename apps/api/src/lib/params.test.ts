import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helper.ts';
import { asUser } from '../../test/kit.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const RESOURCES = ['product', 'product-category', 'product-brand', 'product-additional', 'coupon', 'user'];

describe('id path parameters', () => {
  it('answer 400 with a Portuguese message to ids that are not plain positive decimal integers', async () => {
    const shop = await asUser(t);
    for (const resource of RESOURCES) {
      for (const bad of ['0x10', '1e2', '-1', '01', '0', '1.5', '+5', 'abc', '2147483648']) {
        const res = await shop.api.get(`/${resource}/${bad}`);
        expect(res.statusCode, `${resource}/${bad}`).toBe(400);
        expect(res.json(), `${resource}/${bad}`).toMatchObject({
          code: 'validation',
          message: 'Identificador inválido',
        });
      }
      const missing = await shop.api.get(`/${resource}/2147483647`);
      expect(missing.statusCode, resource).toBe(404);
      expect(missing.json().code, resource).toBe('not_found');
    }
  });

  it('answer 400 to a client id that is not a plain positive decimal integer', async () => {
    const shop = await asUser(t);
    for (const bad of ['0x10', '1e2', '-1', '01']) {
      const res = await shop.api.get(`/product/client/${bad}`);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().message, bad).toBe('Cliente inválido');
    }
  });
});
