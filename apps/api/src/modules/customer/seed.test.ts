import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClientWithUsers, createTestApp, type TestApp } from '../../../test/helper.ts';
import { seedReceivables } from '../receivable/seed.ts';
import { seedCustomers } from './seed.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('demo customers and their receivables', () => {
  it('seeds a dozen valid customers with addresses, two of them delinquent', async () => {
    const shop = await createClientWithUsers(t, [1]);
    await seedCustomers(t.database.db, shop.client.id);
    await seedReceivables(t.database.db, shop.client.id);
    const list = await t.app.inject({
      method: 'GET',
      url: `/v1/customer/client/${shop.client.id}?pageSize=100`,
      headers: shop.auth,
    });
    const { items, total } = list.json();
    expect(total).toBe(12);
    expect(items.filter((c: { defaultAddress: unknown }) => c.defaultAddress).length).toBe(11);
    const counters = await t.app.inject({
      method: 'GET',
      url: `/v1/customer/counters/client/${shop.client.id}`,
      headers: shop.auth,
    });
    expect(counters.json()).toEqual({
      userIsDelinquent: 2,
      userNotIsDelinquent: 9,
      userValidWhatsAppNumber: 8,
      userNotValidWhatsAppNumber: 1,
    });
  });
});
