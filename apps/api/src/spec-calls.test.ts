import { addDays } from '@balcao/core/date';
import { DEFAULT_TIME_ZONE, dateIn } from '@balcao/core/time';
import { describe, expect, it } from 'vitest';
import type { FakeEvolution } from '../test/fakes/evolution.ts';
import { createClientWithUsers, TEST_PASSWORD, type TestApp } from '../test/helper.ts';
import { useTestApp } from '../test/kit.ts';

/**
 * Section 7 of the spec ("Calls"), each call with the spec's exact payload and the answer the spec's
 * client expects (issue 31 item 5): a client written from the spec alone must work. Every call asks
 * for JSON (spec 7: "All calls go to a versioned API base and ask for a JSON Accept header").
 * The whatsapp-instance call is checked for the Administrador here; every other user type is the
 * subject of issue 31 item 6.
 */
let t: TestApp;
let evolution: FakeEvolution;
useTestApp({ evolution: true }, (app) => ({ t, evolution } = app));

const JSON_ACCEPT = { accept: 'application/json' };
const today = dateIn(DEFAULT_TIME_ZONE);

function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, token?: string, payload?: object) {
  return t.app.inject({
    method,
    url: `/v1${path}`,
    headers: { ...JSON_ACCEPT, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    payload,
  });
}

describe('spec 7: the calls after login', () => {
  it('POST /login {email, password} returns the session data the spec reads', async () => {
    const { users } = await createClientWithUsers(t, [1]);
    const res = await call('POST', '/login', undefined, { email: users[0].email, password: TEST_PASSWORD });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    // Spec 3: "The response reads user, token, whatsappInstance, shippingSettings, paymentGateway,
    // settingsChecklist"; the user carries client.id.
    for (const key of [
      'user',
      'token',
      'whatsappInstance',
      'shippingSettings',
      'paymentGateway',
      'settingsChecklist',
    ])
      expect(body).toHaveProperty(key);
    expect(body.user).toMatchObject({
      name: expect.any(String),
      userType: { id: 1 },
      client: { id: expect.any(Number), clientType: { id: expect.any(Number) } },
    });
    expect(body.user).toHaveProperty('profilePhotoWhatsapp');
    expect(body.settingsChecklist).toEqual({
      saleCommand: expect.any(Boolean),
      stockManagement: expect.any(Boolean),
      checkIsOpen: expect.any(Boolean),
    });
  });

  it('GET /whatsapp-instance/client/{clientId}: 200 gives the instance (Administrador)', async () => {
    const { client, token } = await createClientWithUsers(t, [1]);
    expect((await call('POST', '/whatsapp/instance', token)).statusCode).toBe(201);
    await evolution.scan(`balcao-${client.id}`);
    const res = await call('GET', `/whatsapp-instance/client/${client.id}`, token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ clientId: client.id, state: expect.any(String) });
  });

  it('GET /shipping-settings/client/{clientId}: 200 gives a list, for every user type', async () => {
    const userTypes = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
    const { client, users } = await createClientWithUsers(t, userTypes);
    for (const [i, user] of users.entries()) {
      const res = await call('GET', `/shipping-settings/client/${client.id}`, user.token);
      expect(res.statusCode, `user type ${userTypes[i]}`).toBe(200);
      expect(Array.isArray(res.json())).toBe(true);
    }
  });

  it('GET /settings-checklist/client/{clientId}: 200 gives the checklist, for every user type', async () => {
    const userTypes = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
    const { client, users } = await createClientWithUsers(t, userTypes);
    for (const [i, user] of users.entries()) {
      const res = await call('GET', `/settings-checklist/client/${client.id}`, user.token);
      expect(res.statusCode, `user type ${userTypes[i]}`).toBe(200);
      expect(res.json()).toEqual({
        saleCommand: expect.any(Boolean),
        stockManagement: expect.any(Boolean),
        checkIsOpen: expect.any(Boolean),
      });
    }
  });
});

describe('spec 7: the coupon calls', () => {
  it('lists, creates (201), reads, updates with the same payload (200) and deletes a coupon', async () => {
    const { client, token } = await createClientWithUsers(t, [1]);
    // Spec 7: "code, discountType, discountValue, startDate, endDate, isSingleUse, maxUsesPerUser,
    // minSaleAmount, status, client"; spec 5: the comma of a money input becomes a dot on save.
    const payload = {
      code: 'SPEC10',
      discountType: 'PERCENTAGE',
      discountValue: '10.5',
      startDate: today,
      endDate: addDays(today, 30),
      isSingleUse: false,
      maxUsesPerUser: 0,
      minSaleAmount: '0',
      status: 'active',
      client: { id: client.id },
    };

    const empty = await call('GET', `/coupon/client/${client.id}`, token);
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual([]);

    const created = await call('POST', '/coupon', token, payload);
    expect(created.statusCode).toBe(201);
    const id = created.json().id as number;
    expect(id).toEqual(expect.any(Number));

    const read = await call('GET', `/coupon/${id}`, token);
    expect(read.statusCode).toBe(200);
    const coupon = read.json();
    // "coupon fields; dates split at T"
    expect(coupon.startDate.split('T')[0]).toBe(today);
    expect(coupon.endDate.split('T')[0]).toBe(addDays(today, 30));
    expect(coupon).toMatchObject({
      code: 'SPEC10',
      discountType: 'PERCENTAGE',
      discountValue: 10.5,
      isSingleUse: false,
      maxUsesPerUser: 0,
      minSaleAmount: 0,
      status: 'active',
      client: { id: client.id },
    });

    // PUT with the same payload as the create (no updatedAt): 200.
    const updated = await call('PUT', `/coupon/${id}`, token, { ...payload, discountValue: '15' });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({ id, discountValue: 15 });
    const same = await call('PUT', `/coupon/${id}`, token, payload);
    expect(same.statusCode).toBe(200);

    const listed = await call('GET', `/coupon/client/${client.id}`, token);
    expect(listed.json()).toEqual([expect.objectContaining({ id, code: 'SPEC10', discountValue: 10.5 })]);

    const removed = await call('DELETE', `/coupon/${id}`, token);
    expect(removed.statusCode).toBe(200);
    // "list reloads after": the deleted coupon is gone.
    expect((await call('GET', `/coupon/client/${client.id}`, token)).json()).toEqual([]);
  });
});
