import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type FakeMelhorEnvio,
  type FakeRodonaves,
  type FakeRouting,
  RTE_NOT_SERVED,
  RTE_USER,
  startFakeMelhorEnvio,
  startFakeRodonaves,
  startFakeRouting,
} from '../../../test/fakes/freight.ts';
import { createTestApp, type TestApp } from '../../../test/helper.ts';
import { type Api, asUser, expectStatus, makeProduct } from '../../../test/kit.ts';
import { testConfig } from '../../config.ts';
import { backgroundJobs } from '../../jobs.ts';
import { secretBox } from '../../lib/secrets.ts';
import { saveMelhorEnvioTokens } from './carrierAccounts.ts';
import { carrierAccounts } from './schema.ts';
import { ME_RECONNECT_WARNING } from './tokenRefresh.ts';

let t: TestApp;
let me: FakeMelhorEnvio;
let rte: FakeRodonaves;
let routing: FakeRouting;
const TIMEOUT_MS = 1000;

beforeAll(async () => {
  [me, rte, routing] = await Promise.all([startFakeMelhorEnvio(), startFakeRodonaves(), startFakeRouting()]);
  const base = testConfig().shipping;
  t = await createTestApp({
    publicUrl: 'https://loja.balcao.test',
    shipping: {
      ...base,
      carrierTimeoutMs: TIMEOUT_MS,
      tokenTimeoutMs: 500,
      quoteTimeoutMs: 800,
      routingTimeoutMs: 500,
      // The carriers' hosts are the server's configuration (issue 31): here, the fakes.
      melhorEnvio: {
        production: { apiUrl: me.apiUrl, oauthUrl: me.url },
        sandbox: { apiUrl: me.apiUrl, oauthUrl: me.url },
      },
      rodonaves: { cityUrl: rte.cityUrl, quoteUrl: rte.quoteUrl },
      routingUrl: routing.url,
      geocoderUrl: routing.url,
    },
  });
});
afterAll(async () => {
  await t.close();
  await Promise.all([me.close(), rte.close(), routing.close()]);
});
beforeEach(() => {
  me.mode = 'ok';
  rte.mode = 'ok';
  rte.delays = { token: 0, city: 0, quote: 0 };
  routing.mode = 'ok';
});

const ruleBody = (overrides: Record<string, unknown> = {}) => ({
  name: 'Entrega por bairro',
  feeMode: 'neighborhood',
  neighborhoods: [
    { name: 'Centro', feeCents: 500, timeMinutes: 30 },
    { name: 'Jardim América', feeCents: 900 },
  ],
  notServedNeighborhoods: ['Ilha Distante'],
  freeAboveCents: 20000,
  minOrderCents: 1500,
  driverFeeMode: 'neighborhood',
  driverNeighborhoods: [{ name: 'Centro', feeCents: 300 }],
  isDefault: true,
  ...overrides,
});

describe('own delivery rule sets', () => {
  it('creates, reads, updates and deletes rule sets; one default; the session list keeps its contract', async () => {
    const shop = await asUser(t, [1]);
    const list0 = expectStatus(await shop.api.get(`/shipping-settings/client/${shop.client.id}`), 200);
    expect(list0).toMatchObject([{ name: 'Entrega padrão', isDefault: true }]);
    const first = list0[0];
    // The session's first fields are still there.
    for (const field of [
      'id',
      'clientId',
      'name',
      'originZipCode',
      'fixedPriceCents',
      'freeAboveCents',
      'deliveryTimeMinutes',
      'active',
    ])
      expect(first).toHaveProperty(field);

    const created = expectStatus(await shop.api.post('/shipping-settings', ruleBody()), 201);
    expect(created).toMatchObject({
      name: 'Entrega por bairro',
      feeMode: 'neighborhood',
      neighborhoods: [
        { name: 'Centro', feeCents: 500, timeMinutes: 30 },
        { name: 'Jardim América', feeCents: 900, timeMinutes: 0 },
      ],
      isDefault: true,
      clientId: shop.client.id,
    });
    const list1 = expectStatus(await shop.api.get(`/shipping-settings/client/${shop.client.id}`), 200);
    expect(list1.map((r: { isDefault: boolean }) => r.isDefault)).toEqual([false, true]);

    const stale = await shop.api.put(
      `/shipping-settings/${created.id}`,
      ruleBody({ updatedAt: first.updatedAt }),
    );
    expect(stale.statusCode).toBe(409);
    const noVersion = await shop.api.put(`/shipping-settings/${created.id}`, ruleBody());
    expect(noVersion.statusCode).toBe(400);
    const updated = expectStatus(
      await shop.api.put(
        `/shipping-settings/${created.id}`,
        ruleBody({ name: 'Bairros', active: false, updatedAt: created.updatedAt }),
      ),
      200,
    );
    // Switched off: no longer the default; the other active rule set takes it.
    expect(updated).toMatchObject({ name: 'Bairros', active: false, isDefault: false });
    const list2 = expectStatus(await shop.api.get(`/shipping-settings/client/${shop.client.id}`), 200);
    expect(list2.map((r: { isDefault: boolean }) => r.isDefault)).toEqual([true, false]);

    expect(expectStatus(await shop.api.delete(`/shipping-settings/${created.id}`), 200)).toEqual({
      id: created.id,
    });
    expect((await shop.api.get(`/shipping-settings/${created.id}`)).statusCode).toBe(404);
  });

  it('refuses a rule set without the rows of its mode, with the message under the field', async () => {
    const shop = await asUser(t, [1]);
    const res = await shop.api.post('/shipping-settings', ruleBody({ neighborhoods: [] }));
    expect(res.statusCode).toBe(400);
    expect(res.json().issues).toContainEqual({
      path: 'neighborhoods',
      message: 'Cadastre ao menos um bairro com a taxa',
    });
  });

  it("keeps shops apart: another shop's rule set is 404 and its list is not readable", async () => {
    const a = await asUser(t, [1]);
    const b = await asUser(t, [1]);
    const created = expectStatus(await a.api.post('/shipping-settings', ruleBody()), 201);
    expect((await b.api.get(`/shipping-settings/${created.id}`)).statusCode).toBe(404);
    expect(
      (await b.api.put(`/shipping-settings/${created.id}`, ruleBody({ updatedAt: created.updatedAt })))
        .statusCode,
    ).toBe(404);
    expect((await b.api.delete(`/shipping-settings/${created.id}`)).statusCode).toBe(404);
    expect((await b.api.get(`/shipping-settings/client/${a.client.id}`)).statusCode).toBe(404);
    const quote = expectStatus(
      await b.api.post('/shipping/delivery-quote', { settingId: created.id, subtotalCents: 5000 }),
      404,
    );
    expect(quote.message).toBe('Regra de entrega não encontrada');
  });

  it('opens the pages to SHIPPING and writing to Administrador and Gerente only', async () => {
    // 1 Administrador, 6 Estoquista (reads), 8 Atendente (reads), 9 Marketing (no shipping pages), 5 Garçom.
    const shop = await asUser(t, [1, 6, 8, 9, 5]);
    const [admin, stock, clerk, marketing, waiter] = shop.apis;
    const created = expectStatus(await admin.post('/shipping-settings', ruleBody()), 201);
    expect((await stock.get(`/shipping-settings/${created.id}`)).statusCode).toBe(200);
    expect((await clerk.get('/shipping/melhor-envio')).statusCode).toBe(200);
    expect((await marketing.get(`/shipping-settings/${created.id}`)).statusCode).toBe(403);
    expect((await waiter.get('/shipping/rodonaves')).statusCode).toBe(403);
    expect((await stock.post('/shipping-settings', ruleBody())).statusCode).toBe(403);
    expect((await clerk.put('/shipping/rodonaves', { username: 'x' })).statusCode).toBe(403);
    // The quote is the counter's: the clerk quotes; the stock clerk and the garçom (issue 30) do not.
    expect(
      (
        await clerk.post('/shipping/delivery-quote', {
          subtotalCents: 5000,
          address: { neighborhood: 'Centro' },
        })
      ).statusCode,
    ).toBe(200);
    expect((await waiter.post('/shipping/delivery-quote', { subtotalCents: 5000 })).statusCode).toBe(403);
    expect((await stock.post('/shipping/delivery-quote', { subtotalCents: 5000 })).statusCode).toBe(403);
  });
});

describe('own delivery quote', () => {
  it('answers the fee of the address with the reason, the driver fee, or why it is not served', async () => {
    const shop = await asUser(t, [1]);
    expectStatus(await shop.api.post('/shipping-settings', ruleBody()), 201);
    const quote = (subtotalCents: number, neighborhood: string) =>
      shop.api.post('/shipping/delivery-quote', {
        subtotalCents,
        address: { neighborhood, zipCode: '01001000' },
      });
    expect(expectStatus(await quote(5000, 'centro'), 200)).toMatchObject({
      ok: true,
      code: 'ok',
      feeCents: 500,
      timeMinutes: 30,
      reason: 'Bairro Centro: R$ 5,00',
      driverFeeCents: 300,
      settingName: 'Entrega por bairro',
    });
    expect(expectStatus(await quote(25000, 'Centro'), 200)).toMatchObject({
      ok: true,
      feeCents: 0,
      free: true,
      reason: 'Grátis acima de R$ 200,00 (Bairro Centro: R$ 5,00)',
    });
    expect(expectStatus(await quote(5000, 'Ilha Distante'), 200)).toMatchObject({
      ok: false,
      code: 'not_served',
      feeCents: null,
      reason: 'Não entregamos neste endereço: bairro Ilha Distante',
    });
    expect(expectStatus(await quote(1000, 'Centro'), 200)).toMatchObject({
      ok: false,
      code: 'below_minimum',
      reason: 'Pedido mínimo para entrega: R$ 15,00',
    });
  });

  it('measures the distance with the routing service; when it cannot answer, the operator types it', async () => {
    const shop = await asUser(t, [1]);
    const rules = expectStatus(
      await shop.api.post('/shipping-settings', {
        name: 'Por km',
        feeMode: 'distance',
        originZipCode: '01001-000',
        distanceTiers: [
          { upToKm: 2, feeCents: 400 },
          { upToKm: 5, feeCents: 799, timeMinutes: 50 },
        ],
        driverFeeMode: 'per_km',
        driverPerKmCents: 150,
      }),
      201,
    );
    const address = {
      zipCode: '01310-100',
      street: 'Av. Paulista',
      number: '1000',
      neighborhood: 'Bela Vista',
      city: 'São Paulo',
      state: 'SP',
    };
    // Fake: 01001000 (-23.55, -46.63) to 01310100 (-23.56, -46.65) = 3 km.
    const measured = expectStatus(
      await shop.api.post('/shipping/delivery-quote', { settingId: rules.id, subtotalCents: 5000, address }),
      200,
    );
    expect(measured).toMatchObject({
      ok: true,
      feeCents: 799,
      timeMinutes: 50,
      distanceKm: 3,
      distanceSource: 'routing',
      reason: 'Até 5 km (3 km): R$ 7,99',
      driverFeeCents: 450,
    });

    routing.mode = 'down';
    const unknown = expectStatus(
      await shop.api.post('/shipping/delivery-quote', {
        settingId: rules.id,
        subtotalCents: 5000,
        address: { ...address, zipCode: '04001000', street: 'Outra' },
      }),
      200,
    );
    expect(unknown).toMatchObject({
      ok: false,
      code: 'distance_required',
      reason: 'Não foi possível calcular a distância. Informe a distância em km.',
    });
    const typed = expectStatus(
      await shop.api.post('/shipping/delivery-quote', {
        settingId: rules.id,
        subtotalCents: 5000,
        address,
        distanceKm: 1.5,
      }),
      200,
    );
    expect(typed).toMatchObject({ ok: true, feeCents: 400, distanceKm: 1.5, distanceSource: 'typed' });
  });
});

const box = { heightCm: 10, widthCm: 15, lengthCm: 20, weightKg: 1 };

/** POST /v1/shipping/freight-quote of `box` to `toZipCode` by one carrier (`extra` on top): the 200 answer. */
const quoteBox = async (
  shopApi: Api,
  carrier: string,
  toZipCode: string,
  extra: Record<string, unknown> = {},
) =>
  expectStatus(
    await shopApi.post('/shipping/freight-quote', { carriers: [carrier], toZipCode, package: box, ...extra }),
    200,
  );
const meSettings = (overrides: Record<string, unknown> = {}) => ({
  originZipCode: '01001-000',
  userAgent: 'Balcao Teste (dev@balcao.test)',
  services: [1, 2, 3],
  fallback: [{ from: '30000000', to: '39999999', upToKg: 5, priceCents: 4590, days: 6 }],
  ...overrides,
});

/** PUT the Melhor Envio settings with the version read just before. */
async function saveMe(api: Api, body: Record<string, unknown>) {
  const current = expectStatus(await api.get('/shipping/melhor-envio'), 200);
  return expectStatus(
    await api.put('/shipping/melhor-envio', { ...body, updatedAt: current.updatedAt ?? undefined }),
    200,
  );
}

describe('Melhor Envio', () => {
  it('quotes every service with the panel price and range, per-service errors, and never answers a secret', async () => {
    const shop = await asUser(t, [1]);
    const token = me.issueToken();
    const saved = await saveMe(
      shop.api,
      meSettings({ token, clientId: me.clientId, clientSecret: 'um-segredo' }),
    );
    expect(saved).toMatchObject({
      hasToken: true,
      hasClientSecret: true,
      connection: 'token',
      tokenExpiresAt: null,
    });
    expect(JSON.stringify(saved)).not.toContain(token);
    expect(JSON.stringify(saved)).not.toContain('um-segredo');
    // Sealed at rest.
    const [row] = await t.database.db
      .select()
      .from(carrierAccounts)
      .where(eq(carrierAccounts.clientId, shop.client.id));
    expect(row.secrets).not.toContain(token);
    expect(row.secrets).not.toContain('um-segredo');

    const quote = await quoteBox(shop.api, 'melhor_envio', '30130-010', { invoiceValueCents: 10000 });
    expect(quote).toMatchObject({ fromZipCode: '01001000', toZipCode: '30130010', weightKg: 1 });
    // PAC: (10 + 5 + 3) * 1.1 = 19.80; custom range 6..8.
    expect(quote.options).toContainEqual({
      carrier: 'melhor_envio',
      serviceId: '1',
      serviceName: 'PAC',
      companyName: 'Correios',
      companyPicture: 'https://example.test/correios.png',
      priceCents: 1980,
      deliveryMinDays: 6,
      deliveryMaxDays: 8,
      estimate: false,
      error: null,
    });
    expect(quote.options).toHaveLength(3);
    const sent = me.calculations.at(-1)!;
    expect(sent.authorization).toBe(`Bearer ${token}`);
    expect(sent.userAgent).toBe('Balcao Teste (dev@balcao.test)');
    expect(sent.body).toMatchObject({
      from: { postal_code: '01001000' },
      to: { postal_code: '30130010' },
      services: '1,2,3',
      package: { height: 10, width: 15, length: 20, weight: 1 },
    });
    expect(sent.body).not.toHaveProperty('products');

    // A far destination: Jadlog answers its error, Correios still price.
    const far = await quoteBox(shop.api, 'melhor_envio', '69900970');
    expect(far.options.find((o: { serviceId: string }) => o.serviceId === '3')).toMatchObject({
      priceCents: null,
      error: 'Transportadora não atende este trecho.',
    });
    expect(far.options.find((o: { serviceId: string }) => o.serviceId === '2').priceCents).toBeGreaterThan(0);

    const read = await shop.api.get('/shipping/melhor-envio');
    expect(read.body).not.toContain(token);
  });

  it('quotes products of the catalog with their weight and dimensions, and answers the same quote from the cache', async () => {
    const shop = await asUser(t, [1]);
    await saveMe(shop.api, meSettings({ token: me.issueToken() }));
    const product = await makeProduct(t, shop.auth, {
      weightKg: 0.5,
      heightCm: 4,
      widthCm: 11,
      lengthCm: 16,
      salePriceCents: 2500,
    });
    const bare = await makeProduct(t, shop.auth, { name: 'Sem medidas' });
    const body = {
      carriers: ['melhor_envio'],
      toZipCode: '80010010',
      products: [{ productId: product.id, quantity: 3 }],
    };
    const before = me.calculations.length;
    const first = expectStatus(await shop.api.post('/shipping/freight-quote', body), 200);
    expect(first.weightKg).toBe(1.5);
    expect(me.calculations.at(-1)!.body.products).toEqual([
      {
        id: String(product.id),
        width: 11,
        height: 4,
        length: 16,
        weight: 0.5,
        insurance_value: 25,
        quantity: 3,
      },
    ]);
    const second = expectStatus(await shop.api.post('/shipping/freight-quote', body), 200);
    expect(second).toEqual(first);
    expect(me.calculations.length).toBe(before + 1);

    const missing = await shop.api.post('/shipping/freight-quote', {
      ...body,
      products: [{ productId: bare.id, quantity: 1 }],
    });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().message).toBe(
      'O produto "Sem medidas" não tem peso e medidas. Cadastre peso (kg), altura, largura e comprimento (cm) no produto.',
    );
  });

  it('connects with OAuth2 (state checked once), refreshes an expired token once and retries', async () => {
    const shop = await asUser(t, [1]);
    await saveMe(shop.api, meSettings({ clientId: me.clientId, clientSecret: me.clientSecret }));
    const redirectUri = 'https://loja.balcao.test/dashboard/settings/melhor-envio/settings';
    // The return address is PUBLIC_URL's: one the client sends is ignored (issue 31 item 2).
    const forged = expectStatus(
      await shop.api.post('/shipping/melhor-envio/authorize', { redirectUri: 'https://evil.test/x' }),
      200,
    );
    expect(new URL(forged.url).searchParams.get('redirect_uri')).toBe(redirectUri);
    const { url } = expectStatus(
      await shop.api.post('/shipping/melhor-envio/authorize', { redirectUri }),
      200,
    );
    const authorize = new URL(url);
    expect(authorize.origin + authorize.pathname).toBe(`${me.url}/oauth/authorize`);
    expect(Object.fromEntries(authorize.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: me.clientId,
      redirect_uri: redirectUri,
      scope: 'shipping-calculate',
    });
    // The "user" approves: the fake redirects back with a code and the state.
    const back = await fetch(url, { redirect: 'manual' });
    const location = new URL(back.headers.get('location')!);
    const code = location.searchParams.get('code')!;
    const state = location.searchParams.get('state')!;
    expect(state).toBe(authorize.searchParams.get('state'));

    const wrong = await shop.api.post('/shipping/melhor-envio/callback', { code, state: 'outro' });
    expect(wrong.statusCode).toBe(422);
    // The state was taken by the wrong try: start again.
    const again = expectStatus(await shop.api.post('/shipping/melhor-envio/authorize', { redirectUri }), 200);
    const back2 = new URL((await fetch(again.url, { redirect: 'manual' })).headers.get('location')!);
    const connected = expectStatus(
      await shop.api.post('/shipping/melhor-envio/callback', {
        code: back2.searchParams.get('code'),
        state: back2.searchParams.get('state'),
      }),
      200,
    );
    expect(connected).toMatchObject({ connection: 'oauth', hasToken: true, hasRefreshToken: true });
    const days = (Date.parse(connected.tokenExpiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29);
    expect(JSON.stringify(connected)).not.toMatch(/[0-9a-f]{32}/);

    // The access token stops working: 401, refresh once, retry with the new token.
    const lastAuth = () => me.calculations.at(-1)!.authorization;
    const body = { carriers: ['melhor_envio'], toZipCode: '30130010', package: { ...box, weightKg: 2 } };
    expectStatus(await shop.api.post('/shipping/freight-quote', body), 200);
    const oldToken = lastAuth().replace('Bearer ', '');
    me.revoke(oldToken);
    const refreshesBefore = me.tokenRequests.filter((f) => f.grant_type === 'refresh_token').length;
    const calcsBefore = me.calculations.length;
    const quote = expectStatus(
      await shop.api.post('/shipping/freight-quote', { ...body, invoiceValueCents: 1 }),
      200,
    );
    expect(
      quote.options.every((o: { estimate: boolean; priceCents: number }) => !o.estimate && o.priceCents > 0),
    ).toBe(true);
    expect(me.tokenRequests.filter((f) => f.grant_type === 'refresh_token').length).toBe(refreshesBefore + 1);
    expect(me.calculations.length).toBe(calcsBefore + 2);
    expect(lastAuth()).not.toBe(`Bearer ${oldToken}`);

    // Access and refresh tokens revoked: the shop must authorize again; the table gives an estimate.
    me.revokeAll();
    const revoked = expectStatus(
      await shop.api.post('/shipping/freight-quote', { ...body, invoiceValueCents: 2 }),
      200,
    );
    expect(revoked.options).toEqual([
      expect.objectContaining({
        priceCents: 4590,
        estimate: true,
        error:
          'O acesso ao Melhor Envio expirou e não foi possível renová-lo. Conecte novamente em Configurações > Melhor Envio. Valor estimado pela tabela da loja.',
      }),
    ]);
  });

  it('answers a carrier that is down or slow from the fallback table as an estimate, within the timeout', async () => {
    const shop = await asUser(t, [1]);
    await saveMe(shop.api, meSettings({ token: me.issueToken() }));
    for (const mode of ['down', 'slow'] as const) {
      me.mode = mode;
      const started = Date.now();
      const res = await shop.api.post('/shipping/freight-quote', {
        carriers: ['melhor_envio'],
        toZipCode: '30130010',
        package: { ...box, weightKg: mode === 'down' ? 3 : 4 },
      });
      const elapsed = Date.now() - started;
      const quote = expectStatus(res, 200);
      expect(quote.options).toEqual([
        {
          carrier: 'melhor_envio',
          serviceId: 'melhor_envio-fallback',
          serviceName: 'Melhor Envio',
          companyName: 'Melhor Envio',
          companyPicture: null,
          priceCents: 4590,
          deliveryMinDays: 6,
          deliveryMaxDays: 6,
          estimate: true,
          error:
            mode === 'down'
              ? 'O Melhor Envio está indisponível no momento. Valor estimado pela tabela da loja.'
              : 'Melhor Envio não respondeu a tempo. Valor estimado pela tabela da loja.',
        },
      ]);
      // Answered at the deadline, not when the slow carrier would have (5 s).
      expect(elapsed).toBeLessThan(TIMEOUT_MS + 1500);
    }
    // Outside the table: the error alone, never a 500.
    me.mode = 'down';
    const outside = await quoteBox(shop.api, 'melhor_envio', '80010010');
    expect(outside.options).toMatchObject([
      { priceCents: null, estimate: false, error: 'O Melhor Envio está indisponível no momento.' },
    ]);
  });

  it("never takes an address from the shop: a baseUrl sent is dropped and the server's host is called (SSRF)", async () => {
    const shop = await asUser(t, [1]);
    const saved = await saveMe(
      shop.api,
      meSettings({ token: me.issueToken(), baseUrl: 'http://169.254.169.254/latest/meta-data' }),
    );
    expect(saved).not.toHaveProperty('baseUrl');
    const [row] = await t.database.db
      .select()
      .from(carrierAccounts)
      .where(eq(carrierAccounts.clientId, shop.client.id));
    expect(JSON.stringify(row.settings)).not.toContain('169.254');
    const before = me.calculations.length;
    const quote = await quoteBox(shop.api, 'melhor_envio', '30130010', { invoiceValueCents: 777 });
    expect(quote.options[0]).toMatchObject({ estimate: false, error: null });
    expect(me.calculations.length).toBe(before + 1);
  });

  it('refreshes OAuth tokens in the background before they end, and warns in the bell once when it cannot', async () => {
    const shop = await asUser(t, [1]);
    await saveMe(shop.api, meSettings({ clientId: me.clientId, clientSecret: me.clientSecret }));
    const box = secretBox(t.app.ctx.config.secretsKey!);
    const pair = me.issueOAuth();
    // Connected 27 days ago: the access token ends in 3 days.
    await saveMelhorEnvioTokens(t.database.db, shop.client.id, box, {
      ...pair,
      expiresInSeconds: 3 * 86_400,
    });
    const notes: { clientId: number; message: string; alertColor?: string }[] = [];
    const ctx = {
      ...t.app.ctx,
      notify: (clientId: number, n: { message: string; alertColor?: string }) =>
        notes.push({ clientId, ...n }),
    };
    const [job] = backgroundJobs(ctx).filter((j) => j.name === 'melhor-envio-token-refresh');
    const before = me.tokenRequests.length;
    await job.run(t.database.db);
    expect(me.tokenRequests.slice(before)).toEqual([
      expect.objectContaining({ grant_type: 'refresh_token', refresh_token: pair.refreshToken }),
    ]);
    const renewed = expectStatus(await shop.api.get('/shipping/melhor-envio'), 200);
    expect((Date.parse(renewed.tokenExpiresAt) - Date.now()) / 86_400_000).toBeGreaterThan(29);
    const mine = () => notes.filter((n) => n.clientId === shop.client.id);
    expect(mine()).toEqual([]);

    // The refresh token no longer works and the access token ends in 2 days: the bell says what to do.
    me.revokeAll();
    const soon = () =>
      t.database.db
        .update(carrierAccounts)
        .set({ tokenExpiresAt: new Date(Date.now() + 2 * 86_400_000) })
        .where(eq(carrierAccounts.clientId, shop.client.id));
    await soon();
    await job.run(t.database.db);
    expect(mine()).toEqual([
      { clientId: shop.client.id, message: ME_RECONNECT_WARNING, alertColor: 'warning' },
    ]);
    expect(expectStatus(await shop.api.get('/shipping/melhor-envio'), 200)).toMatchObject({
      hasRefreshToken: false,
    });
    // Said once: the next runs have nothing to refresh.
    await job.run(t.database.db);
    expect(mine()).toHaveLength(1);
  });

  it('explains a shop that has not connected', async () => {
    const shop = await asUser(t, [1]);
    const quote = await quoteBox(shop.api, 'melhor_envio', '30130010', { fromZipCode: '01001000' });
    expect(quote.options).toMatchObject([
      { priceCents: null, error: 'Melhor Envio não conectado. Configure em Configurações > Melhor Envio.' },
    ]);
  });
});

const rteSettings = (overrides: Record<string, unknown> = {}) => ({
  username: RTE_USER.username,
  password: RTE_USER.password,
  authType: 'dev',
  taxpayerId: '11.222.333/0001-81',
  originZipCode: '01001000',
  fallback: [{ from: '06000001', to: '06299999', upToKg: 6, priceCents: 15932, days: 3 }],
  ...overrides,
});

describe('Rodonaves', () => {
  it('quotes with a token per host, renews a denied token once and retries, never answers the password', async () => {
    const shop = await asUser(t, [1]);
    const current = expectStatus(await shop.api.get('/shipping/rodonaves'), 200);
    expect(current).toMatchObject({ hasPassword: false, updatedAt: null });
    const saved = expectStatus(await shop.api.put('/shipping/rodonaves', rteSettings()), 200);
    expect(saved).toMatchObject({
      hasPassword: true,
      taxpayerId: '11222333000181',
      username: RTE_USER.username,
    });
    expect(JSON.stringify(saved)).not.toContain(RTE_USER.password);

    rte.tokenRequests.length = 0;
    const body = {
      carriers: ['rodonaves'],
      toZipCode: '30130010',
      package: { ...box, weightKg: 10 },
      invoiceValueCents: 100000,
    };
    const quote = expectStatus(await shop.api.post('/shipping/freight-quote', body), 200);
    // R$ 80 + 4,50 * 10 + 0,3% of R$ 1.000 = R$ 128,00.
    expect(quote.options).toEqual([
      {
        carrier: 'rodonaves',
        serviceId: 'rodonaves',
        serviceName: 'Rodoviário',
        companyName: 'Rodonaves',
        companyPicture: null,
        priceCents: 12800,
        deliveryMinDays: 4,
        deliveryMaxDays: 4,
        estimate: false,
        error: null,
      },
    ]);
    expect(rte.tokenRequests.map((r) => r.host).sort()).toEqual(['city', 'quote']);
    expect(rte.tokenRequests[0].form).toMatchObject({
      grant_type: 'password',
      username: RTE_USER.username,
      auth_type: 'dev',
    });
    expect(rte.quotes.at(-1)).toMatchObject({
      OriginZipCode: '01001000',
      OriginCityId: 9668,
      DestinationCityId: 2754,
      TotalWeight: 10,
      EletronicInvoiceValue: 1000,
      CustomerTaxIdRegistration: '11222333000181',
      Packs: [{ AmountPackages: 1, Weight: 10, Length: 20, Height: 10, Width: 15 }],
    });

    // Tokens expire: "Authorization has been denied" -> one new token per host, the request once more.
    rte.expireTokens();
    rte.tokenRequests.length = 0;
    const renewed = expectStatus(
      await shop.api.post('/shipping/freight-quote', { ...body, invoiceValueCents: 0 }),
      200,
    );
    expect(renewed.options[0]).toMatchObject({ priceCents: 12500, estimate: false });
    expect(rte.tokenRequests.map((r) => r.host).sort()).toEqual(['city', 'quote']);
  });

  it('explains an unknown CEP and wrong credentials; falls back to the table when down', async () => {
    const shop = await asUser(t, [1]);
    expectStatus(await shop.api.put('/shipping/rodonaves', rteSettings()), 200);
    const unknown = await quoteBox(shop.api, 'rodonaves', '99999999');
    expect(unknown.options).toMatchObject([
      { priceCents: null, error: 'A Rodonaves não encontrou o CEP 99999-999.' },
    ]);

    rte.mode = 'down';
    const down = await quoteBox(shop.api, 'rodonaves', '06010000');
    expect(down.options).toMatchObject([
      {
        priceCents: 15932,
        estimate: true,
        error: 'A Rodonaves está indisponível no momento. Valor estimado pela tabela da loja.',
      },
    ]);
    rte.mode = 'ok';

    const current = expectStatus(await shop.api.get('/shipping/rodonaves'), 200);
    expectStatus(
      await shop.api.put(
        '/shipping/rodonaves',
        rteSettings({ password: 'errada', fallback: [], updatedAt: current.updatedAt }),
      ),
      200,
    );
    const denied = await quoteBox(shop.api, 'rodonaves', '30130010');
    expect(denied.options).toMatchObject([
      {
        priceCents: null,
        // Our words only: what the carrier wrote goes to the log.
        error: 'A Rodonaves recusou o usuário e a senha.',
      },
    ]);
  });

  it('never takes the hosts from the shop: cityBaseUrl and quoteBaseUrl are dropped (SSRF)', async () => {
    const shop = await asUser(t, [1]);
    const saved = expectStatus(
      await shop.api.put(
        '/shipping/rodonaves',
        rteSettings({ cityBaseUrl: 'http://127.0.0.1:1/', quoteBaseUrl: 'http://[::1]:2/' }),
      ),
      200,
    );
    expect(saved).not.toHaveProperty('cityBaseUrl');
    expect(saved).not.toHaveProperty('quoteBaseUrl');
    const quote = await quoteBox(shop.api, 'rodonaves', '30130010', { invoiceValueCents: 555 });
    expect(quote.options[0]).toMatchObject({ estimate: false, error: null, deliveryMinDays: 4 });
  });

  it('answers "not served" for CityAttended false and "RTE não atende CEP", never an estimate; the token is reused', async () => {
    const shop = await asUser(t, [1]);
    expectStatus(
      await shop.api.put(
        '/shipping/rodonaves',
        rteSettings({
          fallback: [{ from: '69000000', to: '69999999', upToKg: 50, priceCents: 9900, days: 9 }],
        }),
      ),
      200,
    );
    rte.tokenRequests.length = 0;
    const attended = await quoteBox(shop.api, 'rodonaves', '69900-970');
    expect(attended.options).toMatchObject([
      { priceCents: null, estimate: false, error: 'A Rodonaves não atende o CEP 69900-970.' },
    ]);
    const region = await quoteBox(shop.api, 'rodonaves', RTE_NOT_SERVED[0]);
    expect(region.options).toMatchObject([
      { priceCents: null, estimate: false, error: 'A Rodonaves não atende o CEP 69301-000.' },
    ]);
    // One token for the city host, cached for the next lookups (it lives ~1 h).
    expect(rte.tokenRequests.map((r) => r.host)).toEqual(['city']);
    const served = await quoteBox(shop.api, 'rodonaves', '80010010');
    expect(served.options[0]).toMatchObject({ estimate: false, error: null });
    expect(rte.tokenRequests.map((r) => r.host)).toEqual(['city', 'quote']);
  });

  it('gives each call its own budget (token and city ~2 s, quote up to 3 s) inside the overall cap', async () => {
    // The default timing of the server, with the fake's calls as slow as the real service's.
    const defaults = testConfig().shipping;
    const app = await createTestApp({
      shipping: { ...defaults, rodonaves: { cityUrl: rte.cityUrl, quoteUrl: rte.quoteUrl } },
    });
    try {
      const shop = await asUser(app, [1]);
      expectStatus(await shop.api.put('/shipping/rodonaves', rteSettings()), 200);
      rte.delays = { token: 400, city: 400, quote: 1800 };
      const started = Date.now();
      const quote = await quoteBox(shop.api, 'rodonaves', '80010010');
      // Token + two cities + token + quote = 3.4 s: past one shared 3 s deadline, within each budget.
      expect(Date.now() - started).toBeGreaterThan(3000);
      expect(quote.options).toMatchObject([{ estimate: false, error: null, deliveryMinDays: 4 }]);
    } finally {
      rte.delays = { token: 0, city: 0, quote: 0 };
      await app.close();
    }
  });

  it('quotes both carriers in parallel in one answer', async () => {
    const shop = await asUser(t, [1]);
    await saveMe(shop.api, meSettings({ token: me.issueToken(), services: [1] }));
    expectStatus(await shop.api.put('/shipping/rodonaves', rteSettings()), 200);
    me.mode = 'slow';
    rte.mode = 'slow';
    const meBefore = me.arrivals.length;
    const rteBefore = rte.tokenRequests.length;
    const quote = expectStatus(
      await shop.api.post('/shipping/freight-quote', {
        toZipCode: '30130010',
        package: { ...box, weightKg: 1.5 },
      }),
      200,
    );
    // Both were asked at the same time, not one after the other's deadline.
    expect(Math.abs(me.arrivals[meBefore] - rte.tokenRequests[rteBefore].at)).toBeLessThan(TIMEOUT_MS / 2);
    expect(quote.options.map((o: { carrier: string }) => o.carrier)).toEqual(['melhor_envio', 'rodonaves']);
  });
});
