import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createClientWithUsers,
  createTestApp,
  TEST_PASSWORD,
  type TestApp,
} from '../../../test/helper.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('login', () => {
  it('answers the session data and a token for a right password, trimming email and password', async () => {
    const { email } = (await createClientWithUsers(t, [2])).users[0];
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/login',
      payload: { email: `  ${email.toUpperCase()} `, password: ` ${TEST_PASSWORD} ` },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.token).toEqual(expect.any(String));
    expect(body.user.userType).toEqual({ id: 2, name: 'Gerente' });
    expect(body.settingsChecklist).toEqual({ saleCommand: false, stockManagement: true, checkIsOpen: false });
    const me = await t.app.inject({ method: 'GET', url: '/v1/user/me', headers: bearer(body.token) });
    expect(me.statusCode).toBe(200);
    expect(me.json().user.email).toBe(email);
  });
});
