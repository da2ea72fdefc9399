import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helper.ts';
import { asUser, makeProduct } from '../../test/kit.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** Every CSV export of the API, with the list it downloads. */
const EXPORTS = [
  { list: '/product/client/:clientId', export: '/product/client/:clientId/export' },
  { list: '/stock-movement/client/:clientId', export: '/stock-movement/client/:clientId/export' },
  { list: '/customer/client/:clientId', export: '/customer/client/:clientId/export' },
  { list: '/sale/client/:clientId', export: '/sale/client/:clientId/export' },
  { list: '/budget', export: '/budget/export' },
  // Issue 33: a day's Pix at the bank (the date is required: a bad query is the list's 400).
  { list: '/pix/reconciliation', export: '/pix/reconciliation/export' },
  { list: '/payable', export: '/payable/export' },
];

describe('exports validate before they stream', () => {
  it('lists every export route of the API here', () => {
    const exports = t.app.routes.filter((r) => r.method === 'GET' && r.url.endsWith('/export'));
    expect(exports.map((r) => r.url.replace(/^\/v1/, '')).sort()).toEqual(
      EXPORTS.map((e) => e.export).sort(),
    );
  });

  it.each(['q=%00', 'q=a%00b', 'sort=abc', 'sort=name:sideways', 'sort=-nope'])(
    'answers ?%s with the same 400 as the list, never a 200 cut short',
    async (bad) => {
      const { client, api, auth } = await asUser(t, [1]);
      // Rows to read (a product with its stock entry), so the database runs each query in full.
      await makeProduct(t, auth, { stock: 5 });
      for (const route of EXPORTS) {
        const base = route.list.replace(':clientId', String(client.id));
        const list = await api.get(`${base}?${bad}`);
        const exported = await api.get(`${route.export.replace(':clientId', String(client.id))}?${bad}`);
        expect(exported.statusCode, `${route.export}?${bad}: ${exported.body.slice(0, 200)}`).toBe(400);
        expect(exported.headers['content-type']).toMatch(/application\/json/);
        expect(list.statusCode, `${base}?${bad}`).toBe(400);
        expect(exported.json()).toEqual(list.json());
      }
    },
  );

  it('still downloads a valid filter', async () => {
    const { client, api, auth } = await asUser(t, [1]);
    await makeProduct(t, auth, { name: 'Café Especial' });
    const res = await api.get(`/product/client/${client.id}/export?q=Caf%C3%A9&sort=name`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Café Especial');
  });
});
