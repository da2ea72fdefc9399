import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { USER_TYPE_IDS } from '@balcao/core/userTypes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createClientWithUsers, createTestApp, type TestApp } from '../../test/helper.ts';
import type { RegisteredRoute } from '../app.ts';

/**
 * Routes anyone may call without a session. A new public route must be added here on purpose:
 * the test below fails for any other route that answers without a token.
 */
const PUBLIC_ROUTES = new Set([
  'POST /v1/login',
  'POST /v1/logout',
  'POST /v1/system-client',
  'GET /v1/health',
  'HEAD /v1/health',
  // A load balancer's readiness check (issue 22).
  'GET /v1/ready',
  'HEAD /v1/ready',
  // <img> tags send no Bearer header: the random file name is the secret (product module).
  'GET /v1/product-image/:clientId/:productId/:file',
  'HEAD /v1/product-image/:clientId/:productId/:file',
  // The company logo, for the same reason (settings module).
  'GET /v1/settings/logo/:clientId/:file',
  'HEAD /v1/settings/logo/:clientId/:file',
  // A campaign's image, for the form's preview (campaign module; 128-bit random file names).
  'GET /v1/campaign-image/:clientId/:file',
  'HEAD /v1/campaign-image/:clientId/:file',
  // The billing gateway's webhook: no session, its asaas-access-token header is checked (billing module).
  'POST /v1/billing/webhook/asaas',
  // Evolution's webhook carries no session: its own token header is checked (401 otherwise, tested
  // in campaign.test.ts).
  'POST /v1/whatsapp/webhook/:instanceName',
  // The Pix PSP's webhook (issue 33): no session; the shop comes from its secret path token (401 for
  // an unknown one, tested in pix.test.ts); mutual TLS at the proxy.
  'POST /v1/pix/webhook/:token/pix',
  // A budget's approval page: its customer has no login; the random token is the key, limited per
  // address (budget module, issue 17).
  'GET /v1/public/budget/:token',
  'HEAD /v1/public/budget/:token',
  'GET /v1/public/budget/:token/pdf',
  'HEAD /v1/public/budget/:token/pdf',
  'POST /v1/public/budget/:token/answer',
  // Issue 33: the approved budget's Pix QR dinâmico and its poll (the token is the key).
  'POST /v1/public/budget/:token/pix',
  'GET /v1/public/budget/:token/pix',
  'HEAD /v1/public/budget/:token/pix',
  // The print agent's npm package (issue 36): `npx` on the printer PC fetches it with no session; it holds
  // the program and the server's PUBLIC_URL only, nothing of any shop.
  'GET /v1/printing/agent/balcao-print-agent.tgz',
  'HEAD /v1/printing/agent/balcao-print-agent.tgz',
  // A print agent swaps its pairing code for its own token: it has no session yet (printing module,
  // issue 36; a code of 8 characters from 31, valid 15 minutes, used once, limited per address).
  'POST /v1/printing/agent/pair',
  // The QR-code menu at a table (issue 35): the customer has no login; the table's random token is the
  // key, limited per table and per address (comanda module).
  'GET /v1/public/table/:token',
  'HEAD /v1/public/table/:token',
  'POST /v1/public/table/:token/order',
  'POST /v1/public/table/:token/call',
]);
const isDocs = (route: RegisteredRoute) => route.url === '/v1/docs' || route.url.startsWith('/v1/docs/');
const key = (route: RegisteredRoute) => `${route.method} ${route.url}`;

/** A concrete URL for a route pattern: every parameter gets 1, a wildcard gets a segment. */
const concrete = (url: string) => url.replace(/:[^/]+/g, '1').replace(/\*$/, 'x');

let t: TestApp;
let guarded: RegisteredRoute[];
beforeAll(async () => {
  t = await createTestApp();
  guarded = t.app.routes.filter(
    (route) => route.url.startsWith('/v1/') && !isDocs(route) && !PUBLIC_ROUTES.has(key(route)),
  );
});
afterAll(() => t.close());

const call = (route: RegisteredRoute, headers: Record<string, string> = {}) =>
  t.app.inject({ method: route.method as 'GET', url: concrete(route.url), headers });

describe('authentication on every registered route', () => {
  it('sees the routes of the modules (the list is built while routes register)', () => {
    const keys = t.app.routes.map(key);
    expect(keys).toEqual(
      expect.arrayContaining([
        'POST /v1/login',
        'GET /v1/user/me',
        'GET /v1/settings-checklist/client/:clientId',
        'GET /v1/shipping-settings/client/:clientId',
        'GET /v1/whatsapp-instance/client/:clientId',
        'POST /v1/notification',
      ]),
    );
    for (const publicRoute of PUBLIC_ROUTES) expect(keys).toContain(publicRoute);
  });

  it('declares public only the routes listed as public', () => {
    const declaredPublic = t.app.routes.filter((route) => route.access === 'public' && !isDocs(route));
    expect(declaredPublic.map(key).sort()).toEqual([...PUBLIC_ROUTES].sort());
  });

  it('answers 401 without a token on every other /v1 route', async () => {
    expect(guarded.length).toBeGreaterThan(5);
    const failures: string[] = [];
    for (const route of guarded) {
      const res = await call(route);
      if (res.statusCode !== 401) failures.push(`${key(route)} -> ${res.statusCode}`);
      else if (route.method !== 'HEAD')
        expect(res.json()).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
    }
    expect(failures).toEqual([]);
  });

  it('answers 401 with an unknown token or a malformed header on every other /v1 route', async () => {
    const failures: string[] = [];
    for (const route of guarded) {
      for (const authorization of ['Bearer token-que-nao-existe', 'Basic dXNlcjpwYXNz', 'Bearer']) {
        const res = await call(route, { authorization });
        if (res.statusCode !== 401) failures.push(`${key(route)} [${authorization}] -> ${res.statusCode}`);
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it("answers 403 on every route to the user types outside the route's access list", async () => {
    const { users } = await createClientWithUsers(t, [...USER_TYPE_IDS]);
    const tokenOf = new Map(users.map((u) => [u.user.userTypeId, u.token]));
    const failures: string[] = [];
    let checked = 0;
    for (const route of guarded) {
      const access = route.access;
      if (!Array.isArray(access)) continue;
      for (const type of USER_TYPE_IDS.filter((id) => !access.includes(id))) {
        checked++;
        const res = await call(route, bearer(tokenOf.get(type)!));
        if (res.statusCode !== 403) failures.push(`${key(route)} as type ${type} -> ${res.statusCode}`);
      }
    }
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThan(0);
    // About 1,000 requests one after another (every route for every type it refuses): a few seconds
    // alone, longer beside the other files on a busy 2-core machine.
  }, 120_000);
});

/** One raw HTTP request with the request line's target exactly as given (inject would normalise it). */
function rawRequest(port: number, method: string, target: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path: target, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('access decided by the matched route, whatever the spelling of its path', () => {
  it('answers 401 without a token on every other route, path-encoded or in absolute form', async () => {
    const listening = await createTestApp();
    try {
      await listening.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = listening.app.server.address() as AddressInfo;
      const failures: string[] = [];
      for (const route of guarded) {
        const path = concrete(route.url);
        // `/%761/...` is `/v1/...` once the router decodes it; the absolute form carries a host.
        for (const target of [`/%76${path.slice(2)}`, `http://localhost${path}`]) {
          const status = await rawRequest(port, route.method, target);
          if (status !== 401) failures.push(`${route.method} ${target} -> ${status}`);
        }
      }
      expect(failures).toEqual([]);
    } finally {
      await listening.close();
    }
  });
});

describe('tenancy', () => {
  const CLIENT_READS = ['whatsapp-instance', 'shipping-settings', 'settings-checklist'];

  it("answers 404 to reads of another client's settings and 200 to one's own", async () => {
    const mine = await createClientWithUsers(t, [1, 4]);
    const other = await createClientWithUsers(t, [1]);
    for (const resource of CLIENT_READS) {
      for (const token of [mine.users[0].token, mine.users[1].token]) {
        const own = await t.app.inject({
          method: 'GET',
          url: `/v1/${resource}/client/${mine.client.id}`,
          headers: bearer(token),
        });
        expect(own.statusCode, resource).toBe(200);
        const foreign = await t.app.inject({
          method: 'GET',
          url: `/v1/${resource}/client/${other.client.id}`,
          headers: bearer(token),
        });
        expect(foreign.statusCode, resource).toBe(404);
        expect(foreign.json()).toMatchObject({ statusCode: 404, error: 'Not Found' });
        expect(foreign.body).not.toContain(other.client.name);
        const missing = await t.app.inject({
          method: 'GET',
          url: `/v1/${resource}/client/999999999`,
          headers: bearer(token),
        });
        expect(missing.statusCode, resource).toBe(404);
      }
    }
  });

  it('answers the own client data in each read', async () => {
    const mine = await createClientWithUsers(t, [1], { clientTypeId: 6 });
    const get = (resource: string) =>
      t.app.inject({ method: 'GET', url: `/v1/${resource}/client/${mine.client.id}`, headers: mine.auth });
    expect((await get('settings-checklist')).json()).toEqual({
      saleCommand: true,
      stockManagement: true,
      checkIsOpen: false,
    });
    const shipping = (await get('shipping-settings')).json();
    expect(Array.isArray(shipping)).toBe(true);
    for (const rule of shipping) expect(rule.clientId).toBe(mine.client.id);
    expect((await get('whatsapp-instance')).json().clientId).toBe(mine.client.id);
  });

  it('answers 400, not 500, to a clientId that is not a positive integer', async () => {
    const mine = await createClientWithUsers(t, [1]);
    for (const resource of CLIENT_READS) {
      for (const bad of ['abc', '-1', '0', '1.5', '%20', '1;DROP', '99999999999999999999']) {
        const res = await t.app.inject({
          method: 'GET',
          url: `/v1/${resource}/client/${bad}`,
          headers: mine.auth,
        });
        expect(res.statusCode, `${resource}/${bad}`).toBe(400);
        expect(res.json()).toMatchObject({ statusCode: 400, message: expect.any(String) });
      }
    }
  });
});

describe('authorization by user type', () => {
  it('lets an Administrador send a notification and refuses a Caixa with 403', async () => {
    const { users } = await createClientWithUsers(t, [1, 4]);
    const payload = { message: 'Reunião às 18h', alertColor: 'warning' };
    const admin = await t.app.inject({
      method: 'POST',
      url: '/v1/notification',
      headers: bearer(users[0].token),
      payload,
    });
    expect(admin.statusCode).toBe(200);
    const cashier = await t.app.inject({
      method: 'POST',
      url: '/v1/notification',
      headers: bearer(users[1].token),
      payload,
    });
    expect(cashier.statusCode).toBe(403);
    expect(cashier.json()).toEqual({
      statusCode: 403,
      error: 'Forbidden',
      code: 'forbidden',
      message: 'Você não tem permissão para esta ação',
    });
  });
});
