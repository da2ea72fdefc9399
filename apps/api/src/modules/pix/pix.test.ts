import { DEFAULT_TIME_ZONE, dateIn } from '@balcao/core/time';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { type FakePsp, makePixCerts, type PixCerts, startFakePsp } from '../../../test/fakes/pix-psp.ts';
import type { TestApp } from '../../../test/helper.ts';
import {
  type Api,
  api as apiOf,
  expectStatus,
  makeCustomer,
  makeProduct,
  makeShop,
  SE_ADDRESS,
  useTestApp,
} from '../../../test/kit.ts';
import { buildApp } from '../../app.ts';
import { configureOutbound } from '../../lib/outbound.ts';
import { PSP_CATALOGUE, pspCatalogue } from './catalogue.ts';
import { clearPspTokens } from './psp.ts';
import { pixReceived } from './schema.ts';
import { processReceivedPix, sendPixRefunds, txidOf } from './service.ts';

let t: TestApp;
let certs: PixCerts;
let psp: FakePsp;

beforeAll(async () => {
  certs = makePixCerts();
  psp = await startFakePsp({
    certs,
    // Webhooks reach the app in-process, at the path the API registered (the fake appends /pix).
    deliver: async (url, body) => {
      const res = await t.app.inject({
        method: 'POST',
        url: `${new URL(url).pathname}${new URL(url).search}`,
        headers: { 'content-type': 'application/json' },
        payload: body,
      });
      return res.statusCode;
    },
  });
});
afterAll(() => psp.close());

// The fake's CA is trusted for its server certificate (PIX_CA_FILE in a deployment); read when the
// app starts, after the certificates above were made.
useTestApp(
  {
    config: {
      get pix() {
        return { caPem: certs.caPem, fakeUrl: psp.apiUrl.replace(/\/v2$/, '') };
      },
    },
  },
  (app) => {
    t = app.t;
  },
);

beforeEach(() => {
  clearPspTokens();
  psp.webhook = { copies: 1, reverse: false, drop: false, retryMs: 20, maxAttempts: 3 };
  psp.refuseRefunds = null;
  psp.refundDelayMs = 50;
});

function accountBody(overrides: Record<string, unknown> = {}) {
  return {
    provider: 'fake',
    environment: 'production',
    clientId: psp.clientId,
    clientSecret: psp.clientSecret,
    certificate: { format: 'pem', certPem: certs.clientCertPem, keyPem: certs.clientKeyPem },
    pixKey: 'loja@exemplo.com.br',
    ...overrides,
  };
}

/** A shop with an open register, its PSP account saved and tested (webhook registered). */
async function pixShop(overrides: { clientTypeId?: number } = {}, userTypes: number[] = [1]) {
  const shop = await makeShop(t, userTypes, overrides);
  expectStatus(await shop.api.put('/pix/account', accountBody()), 200, 'account');
  const test = expectStatus(await shop.api.post('/pix/account/test'), 200, 'test');
  expect(test.ok).toBe(true);
  return shop;
}

async function charge(api: Api, attemptKey: string, amountCents: number) {
  return expectStatus(await api.post('/pix/charge', { attemptKey, amountCents }), 200, 'charge');
}

async function waitFor<T>(read: () => Promise<T>, ok: (v: T) => boolean, ms = 5000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() > until) return value;
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Where the PSP posts for a registered webhook URL: `{webhookUrl}/pix` (Efí's hmac lands in the query). */
const postPathOf = (webhookUrl: string) => {
  const target = new URL(`${webhookUrl}/pix`);
  return `${target.pathname}${target.search}`;
};

const chargeOf = async (api: Api, txid: string) => expectStatus(await api.get(`/pix/charge/${txid}`), 200);

describe('PSP account', () => {
  it('keeps the credentials sealed: no secret, id or certificate in any answer', async () => {
    const { api } = await makeShop(t);
    const saved = await api.put('/pix/account', accountBody());
    expect(saved.statusCode).toBe(200);
    const read = await api.get('/pix/account');
    for (const body of [saved.body, read.body]) {
      expect(body).not.toContain(psp.clientSecret);
      expect(body).not.toContain(psp.clientId);
      expect(body).not.toContain('BEGIN');
    }
    expect(read.json()).toMatchObject({
      configured: true,
      hasSecret: true,
      hasCertificate: true,
      clientIdHint: psp.clientId.slice(-4),
    });
  });

  it('reports in Portuguese what failed: a wrong secret, a certificate from another CA', async () => {
    const { api } = await makeShop(t);
    await api.put('/pix/account', accountBody({ clientSecret: 'errado' }));
    const wrong = expectStatus(await api.post('/pix/account/test'), 200);
    expect(wrong.ok).toBe(false);
    expect(wrong.steps[0].message).toBe('O banco recusou o Client ID ou o Client Secret (token OAuth).');
    await api.put(
      '/pix/account',
      accountBody({
        certificate: { format: 'pem', certPem: certs.strangerCertPem, keyPem: certs.strangerKeyPem },
      }),
    );
    const stranger = expectStatus(await api.post('/pix/account/test'), 200);
    expect(stranger.steps[0].message).toContain('O banco recusou a conexão segura');
  });

  it("takes the PSP's hosts from the server's catalogue: a URL from the client is refused", async () => {
    const { api } = await makeShop(t);
    const withUrl = await api.put(
      '/pix/account',
      accountBody({ apiUrl: 'https://evil.example.com/v2', tokenUrl: 'https://evil.example.com/t' }),
    );
    expect(withUrl.statusCode).toBe(400);
    expect(withUrl.body).toContain(
      'Os endereços da API Pix vêm da configuração do servidor: escolha o banco e o ambiente, sem URL',
    );
    const unknown = await api.put('/pix/account', accountBody({ provider: 'banco-do-zezinho' }));
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().message).toBe('Escolha o banco (PSP) da lista');
    const noSandbox = await api.put(
      '/pix/account',
      accountBody({ provider: 'sicoob', environment: 'sandbox' }),
    );
    expect(noSandbox.statusCode).toBe(422);
    expect(noSandbox.json().message).toBe('Este banco não oferece o ambiente escolhido');
    const bbWithoutKey = await api.put('/pix/account', accountBody({ provider: 'bb' }));
    expect(bbWithoutKey.json().message).toBe(
      'Informe a chave do aplicativo (gw-dev-app-key) do Banco do Brasil',
    );
    expect(psp.tokensIssued).toBe(0);

    const read = expectStatus(await api.get('/pix/account'), 200);
    expect(read.configured).toBe(false);
    expect(read.providers.map((p: { id: string }) => p.id)).toEqual([
      'efi',
      'itau',
      'bb',
      'sicoob',
      'inter',
      'santander',
      'fake',
    ]);
    // The page never learns a host: ids, names and environments only.
    expect(JSON.stringify(read)).not.toMatch(/https?:/);
  });

  it('an Efí-style webhook (hmac) refuses a post without the registered hmac and records nothing', async () => {
    const shop = await pixShop();
    const hook = [...psp.webhooks.values()].at(-1) ?? '';
    expect(hook).toMatch(/\/pix\?hmac=[A-Za-z0-9_-]{20,}&ignorar=$/);
    expect(expectStatus(await shop.api.get('/pix/account'), 200).webhookHmac).toBe(true);
    const c = await charge(shop.api, 'attempt-hmac-1', 900);
    const pix = (endToEndId: string) => ({
      pix: [{ endToEndId, txid: c.txid, valor: '9.00', horario: new Date().toISOString() }],
    });
    const path = postPathOf(hook);
    for (const url of [
      path.replace(/hmac=[^&]+/, 'hmac=outroSegredoQualquerAqui123'),
      path.replace(/\?.*$/, ''),
    ]) {
      const refused = await t.app.inject({
        method: 'POST',
        url,
        payload: pix('E12345678202611271200hmac00001'),
      });
      expect(refused.statusCode).toBe(401);
    }
    await processReceivedPix(t.app.ctx);
    expect((await chargeOf(shop.api, c.txid)).status).toBe('active');
    const stored = await t.app.ctx.db
      .select()
      .from(pixReceived)
      .where(eq(pixReceived.endToEndId, 'E12345678202611271200hmac00001'));
    expect(stored).toEqual([]);

    const accepted = await t.app.inject({
      method: 'POST',
      url: path,
      payload: pix('E12345678202611271200hmac00002'),
    });
    expect(accepted.statusCode).toBe(200);
    await waitFor(
      () => chargeOf(shop.api, c.txid),
      (v) => v.status === 'paid',
    );
    expect((await chargeOf(shop.api, c.txid)).endToEndId).toBe('E12345678202611271200hmac00002');
  });

  it("the request log records neither the webhook's secret path nor its hmac, nor the PSP's credentials", async () => {
    // The same API with its request log on (debug), read line by line; the shop's whole Pix flow goes
    // through it: a wrong secret tested (the PSP's refusal is logged), the account saved and tested,
    // a charge, and the bank's webhook post.
    const lines: string[] = [];
    const logged = await buildApp({
      db: t.database.db,
      config: { ...t.app.ctx.config, logLevel: 'debug' },
      logger: { write: (line) => void lines.push(line) },
    });
    onTestFinished(async () => {
      await logged.close();
      // buildApp set the outbound guard's logger to this app's: back to the file's app.
      configureOutbound({
        policy: t.app.ctx.config.outbound,
        log: (detail, message) => t.app.log.warn(detail, message),
      });
    });
    await logged.ready();
    const shop = await makeShop(t);
    const api = apiOf({ ...t, app: logged }, shop.auth);
    expectStatus(
      await api.put('/pix/account', accountBody({ clientSecret: 'segredo-errado-0123456789' })),
      200,
    );
    expect(expectStatus(await api.post('/pix/account/test'), 200).ok).toBe(false);
    expectStatus(await api.put('/pix/account', accountBody()), 200);
    expect(expectStatus(await api.post('/pix/account/test'), 200).ok).toBe(true);
    const hook = new URL([...psp.webhooks.values()].at(-1) ?? '');
    const segments = hook.pathname.split('/');
    const token = segments[segments.indexOf('webhook') + 1] ?? '';
    const hmac = hook.searchParams.get('hmac') ?? '';
    expect(token.length).toBeGreaterThan(15);
    expect(hmac.length).toBeGreaterThan(15);
    const c = await charge(api, 'attempt-log-1', 1200);
    const posted = await logged.inject({
      method: 'POST',
      url: postPathOf(hook.toString()),
      payload: {
        pix: [
          {
            endToEndId: 'E12345678202611271200logs0001',
            txid: c.txid,
            valor: '12.00',
            horario: new Date().toISOString(),
          },
        ],
      },
    });
    expect(posted.statusCode).toBe(200);
    await waitFor(
      () => chargeOf(api, c.txid),
      (v) => v.status === 'paid',
    );

    const log = lines.join('');
    expect(log).toContain('"url":"/v1/pix/webhook/<redacted>/pix?hmac=<redacted>');
    expect(log).toContain('pix-psp: unexpected answer');
    for (const secret of [
      token,
      hmac,
      psp.clientSecret,
      'segredo-errado-0123456789',
      certs.clientKeyPem.split('\n')[1],
      certs.clientCertPem.split('\n')[1],
      'BEGIN',
    ])
      expect(log).not.toContain(secret);
  });

  it('accepts the certificate as a .pfx with its passphrase', async () => {
    const { api } = await makeShop(t);
    await api.put(
      '/pix/account',
      accountBody({
        certificate: { format: 'pfx', pfxBase64: certs.clientPfxBase64, passphrase: certs.pfxPassphrase },
      }),
    );
    expect(expectStatus(await api.post('/pix/account/test'), 200).ok).toBe(true);
  });
});

describe('PSP catalogue (server configuration)', () => {
  it('names six PSPs with https hosts for production; the local fake only with PIX_FAKE_URL', () => {
    expect(PSP_CATALOGUE.map((p) => p.id)).toEqual(['efi', 'itau', 'bb', 'sicoob', 'inter', 'santander']);
    for (const p of PSP_CATALOGUE)
      for (const hosts of Object.values(p.environments))
        for (const url of [hosts.apiUrl, hosts.tokenUrl])
          expect(url).toMatch(/^https:\/\/[a-z0-9.-]+\.[a-z]+\//);
    expect(pspCatalogue({ pix: {} }).map((p) => p.id)).not.toContain('fake');
    expect(
      pspCatalogue({ pix: { fakeUrl: 'https://localhost:7000' } }).at(-1)?.environments.production,
    ).toEqual({
      apiUrl: 'https://localhost:7000/v2',
      tokenUrl: 'https://localhost:7000/oauth/token',
    });
  });
});

describe('dynamic charge', () => {
  it('is idempotent under retry: the same attempt makes one charge at the PSP', async () => {
    const { api, client } = await pixShop();
    const before = psp.cobs.size;
    const [a, b] = await Promise.all([
      charge(api, 'attempt-retry-1', 1500),
      charge(api, 'attempt-retry-1', 1500),
    ]);
    const c = await charge(api, 'attempt-retry-1', 1500);
    expect(a.txid).toBe(txidOf(client.id, 'attempt-retry-1'));
    expect(b.txid).toBe(a.txid);
    expect(c.pixCopiaECola).toBe(a.pixCopiaECola);
    expect(psp.cobs.size).toBe(before + 1);
    expect(psp.cobs.get(a.txid)?.valor.original).toBe('15.00');
    // The BR Code points at the location, not the amount.
    expect(a.pixCopiaECola).toContain(psp.cobs.get(a.txid)?.location);
    expect(a.pixCopiaECola).not.toContain('540515.00');
  });

  it('settles once when the webhook posts the Pix three times, out of order', async () => {
    const { api } = await pixShop();
    psp.webhook.copies = 3;
    psp.webhook.reverse = true;
    const c = await charge(api, 'attempt-dup-1', 2000);
    const pix = await psp.pay(c.txid);
    await psp.settled();
    const paid = await waitFor(
      () => chargeOf(api, c.txid),
      (v) => v.status === 'paid',
    );
    expect(paid).toMatchObject({ status: 'paid', endToEndId: pix.endToEndId });
    expect(psp.deliveries.filter((d) => d.body.includes(pix.endToEndId)).map((d) => d.status)).toEqual([
      200, 200, 200,
    ]);
    expect(expectStatus(await api.get('/pix/pending'), 200)).toEqual([]);
  });

  it('settles by polling GET /cob when the webhook is lost', async () => {
    const { api } = await pixShop();
    psp.webhook.drop = true;
    const c = await charge(api, 'attempt-poll-1', 990);
    const pix = await psp.pay(c.txid);
    const paid = await waitFor(
      () => chargeOf(api, c.txid),
      (v) => v.status === 'paid',
      6000,
    );
    expect(paid.endToEndId).toBe(pix.endToEndId);
  });

  it('a charge paid after it expired goes to reconciliation, with the bell', async () => {
    const { api, client } = await pixShop();
    const bell: { clientId: number; message: string }[] = [];
    const notify = t.app.ctx.notify;
    t.app.ctx.notify = (clientId, notification) => {
      bell.push({ clientId, message: notification.message });
      notify(clientId, notification);
    };
    const c = await charge(api, 'attempt-late-1', 1200);
    await psp.pay(c.txid, undefined, new Date(Date.parse(c.expiresAt) + 60_000));
    await psp.settled();
    await processReceivedPix(t.app.ctx);
    const pending = await waitFor(
      async () => expectStatus(await api.get('/pix/pending'), 200),
      (v) => v.length > 0,
    );
    expect(pending).toMatchObject([
      { amountCents: 1200, reason: 'late', reasonLabel: 'Pago depois de expirar' },
    ]);
    expect((await chargeOf(api, c.txid)).status).toBe('active');
    t.app.ctx.notify = notify;
    expect(bell).toContainEqual({
      clientId: client.id,
      message: 'Pix de R$ 12,00 para conciliar: pago depois de expirar (Vendas > Conciliação Pix).',
    });
  });

  it('a wrong amount goes to reconciliation and the sale is refused', async () => {
    const { api, auth } = await pixShop();
    const product = await makeProduct(t, auth, { salePriceCents: 3000, stock: 10 });
    const c = await charge(api, 'attempt-wrong-1', 3000);
    await psp.pay(c.txid, '20.00');
    await psp.settled();
    const pending = await waitFor(
      async () => expectStatus(await api.get('/pix/pending'), 200),
      (v) => v.length > 0,
    );
    expect(pending).toMatchObject([
      {
        amountCents: 2000,
        chargeCents: 3000,
        reason: 'wrong_amount',
        reasonLabel: 'Valor diferente da cobrança',
      },
    ]);
    const sale = await api.post(
      '/sale',
      {
        items: [{ productId: product.id, quantity: 1 }],
        payments: [{ method: 'pixQrCode', amountCents: 3000 }],
      },
      { 'idempotency-key': 'attempt-wrong-1' },
    );
    expect(sale.statusCode).toBe(422);
    expect(sale.json().message).toBe(
      'O Pix QR dinâmico ainda não foi pago: aguarde a confirmação do banco ou troque a forma de pagamento',
    );
  });

  it("another shop's txid in a webhook changes nothing", async () => {
    const shopA = await pixShop();
    const shopB = await pixShop();
    const c = await charge(shopA.api, 'attempt-tenant-1', 700);
    const [hookB] = [...psp.webhooks.entries()]
      .filter(([, url]) => url)
      .map(([, url]) => url)
      .slice(-1);
    // Shop B's webhook path receives a Pix carrying shop A's txid.
    const res = await t.app.inject({
      method: 'POST',
      url: postPathOf(hookB),
      payload: {
        pix: [
          {
            endToEndId: 'E12345678202611271200abcdef99999',
            txid: c.txid,
            valor: '7.00',
            horario: new Date().toISOString(),
          },
        ],
      },
    });
    expect(res.statusCode).toBe(200);
    await processReceivedPix(t.app.ctx);
    expect((await chargeOf(shopA.api, c.txid)).status).toBe('active');
    expect(await shopA.api.get('/pix/pending').then((r) => r.json())).toEqual([]);
    expect(await shopB.api.get('/pix/pending').then((r) => r.json())).toMatchObject([{ reason: 'unknown' }]);
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/v1/pix/webhook/naoexisteestetokenaquiok/pix',
      payload: { pix: [] },
    });
    expect(unknown.statusCode).toBe(401);
  });
});

describe('Pix QR dinâmico beyond the PDV (issue 33)', () => {
  it("a comanda's payment counts only once the bank confirmed it, once; the close's sale keeps the Pix", async () => {
    const shop = await pixShop({ clientTypeId: 6 });
    const product = await makeProduct(t, shop.auth, { salePriceCents: 3000, stock: 10 });
    const tab = expectStatus(await shop.api.post('/comanda', { people: 1 }), 201, 'open comanda');
    expectStatus(
      await shop.api.post(
        `/comanda/${tab.id}/line`,
        { productId: product.id, quantity: 1 },
        { 'idempotency-key': 'tab-line-1' },
      ),
      201,
      'line',
    );
    const due = expectStatus(await shop.api.get(`/comanda/${tab.id}`), 200).totals.remainingCents;
    const paymentKey = 'tab-pix-payment-0001';
    const body = { kind: 'amount', method: 'pixQrCode', amountCents: due };
    const headers = { 'idempotency-key': paymentKey };
    const c = await charge(shop.api, `comanda-pay:${paymentKey}`, due);

    // Not paid yet: refused, in the PDV's words, and nothing is counted.
    const early = await shop.api.post(`/comanda/${tab.id}/payment`, body, headers);
    expect(early.statusCode).toBe(422);
    expect(early.json().message).toBe(
      'O Pix QR dinâmico ainda não foi pago: aguarde a confirmação do banco ou troque a forma de pagamento',
    );
    expect(expectStatus(await shop.api.get(`/comanda/${tab.id}`), 200).totals.paidCents).toBe(0);

    // The guest pays; the webhook posts it three times, out of order: one payment, then the close.
    psp.webhook = { copies: 3, reverse: true, drop: false, retryMs: 20, maxAttempts: 3 };
    const pix = await psp.pay(c.txid);
    await psp.settled();
    await waitFor(
      () => chargeOf(shop.api, c.txid),
      (v) => v.status === 'paid',
    );
    // A payment of another amount on the same charge is refused.
    const other = await shop.api.post(
      `/comanda/${tab.id}/payment`,
      { ...body, amountCents: due - 1 },
      headers,
    );
    expect(other.json().message).toBe('O valor do Pix pago é diferente do valor da venda');
    for (let i = 0; i < 2; i++)
      expect((await shop.api.post(`/comanda/${tab.id}/payment`, body, headers)).statusCode).toBeLessThan(300);
    const paidTab = expectStatus(await shop.api.get(`/comanda/${tab.id}`), 200);
    expect(paidTab.totals).toMatchObject({ paidCents: due, remainingCents: 0 });
    expect(paidTab.payments).toHaveLength(1);

    const sale = expectStatus(
      await shop.api.post(
        `/comanda/${tab.id}/close`,
        { originSale: 'command' },
        { 'idempotency-key': 'tab-close-1' },
      ),
      201,
      'close',
    );
    expect((await chargeOf(shop.api, c.txid)).saleId).toBe(sale.id);
    expect((await chargeOf(shop.api, c.txid)).endToEndId).toBe(pix.endToEndId);
    const detail = expectStatus(await shop.api.get(`/sale/${sale.id}`), 200);
    expect(detail.payments).toMatchObject([{ method: 'pixQrCode', pixEndToEndId: pix.endToEndId }]);
  });
});

describe("the budget's approval link paid by Pix QR dinâmico (issue 33)", () => {
  const publicCall = (method: 'GET' | 'POST', path: string, payload?: Record<string, unknown>) =>
    t.app.inject({ method, url: `/v1/public/budget/${path}`, payload, remoteAddress: '10.9.1.1' });

  it('charges the approved total once under retries, records the Pix on the budget once, and the converted sale keeps it', async () => {
    const shop = await pixShop();
    const product = await makeProduct(t, shop.auth, { salePriceCents: 4200, stock: 10 });
    const customer = await makeCustomer(t, shop.auth, { name: 'Ana Pix' });
    const budget = expectStatus(
      await shop.api.post('/budget', {
        items: [{ productId: product.id, quantity: 2 }],
        customerId: customer.id,
      }),
      201,
      'budget',
    );
    const link = expectStatus(await shop.api.post(`/budget/${budget.id}/send`, { channel: 'link' }), 200);
    const token = link.link.token as string;

    // The page offers Pix; paying before approving is refused in Portuguese.
    expect(expectStatus(await publicCall('GET', `${token}/pix`), 200)).toEqual({
      offered: true,
      charge: null,
    });
    const early = await publicCall('POST', `${token}/pix`);
    expect(early.statusCode).toBe(422);
    expect(early.json().message).toBe('Aprove o orçamento para pagar com Pix.');

    expectStatus(await publicCall('POST', `${token}/answer`, { answer: 'approved' }), 200, 'approve');
    const before = psp.cobs.size;
    const [a, b] = await Promise.all([
      publicCall('POST', `${token}/pix`),
      publicCall('POST', `${token}/pix`),
    ]);
    const c = expectStatus(await publicCall('POST', `${token}/pix`), 200).charge;
    expect(expectStatus(a, 200).charge.txid).toBe(c.txid);
    expect(expectStatus(b, 200).charge.txid).toBe(c.txid);
    expect(psp.cobs.size).toBe(before + 1);
    // The budget's total, from the server (2 x 42,00).
    expect(c).toMatchObject({ status: 'active', amountCents: 8400 });
    expect(psp.cobs.get(c.txid)?.valor.original).toBe('84.00');

    // Converting before the bank confirmed: a pixQrCode payment is refused.
    const unpaid = await shop.api.post(
      `/budget/${budget.id}/convert`,
      { payments: [{ method: 'pixQrCode', amountCents: 8400 }] },
      { 'idempotency-key': 'budget-convert-unpaid' },
    );
    expect(unpaid.statusCode).toBe(422);
    expect(unpaid.json().message).toBe(
      'O Pix QR dinâmico ainda não foi pago: aguarde a confirmação do banco ou troque a forma de pagamento',
    );

    // The customer pays; the webhook posts it three times, out of order: recorded once.
    psp.webhook = { copies: 3, reverse: true, drop: false, retryMs: 20, maxAttempts: 3 };
    const pix = await psp.pay(c.txid);
    await psp.settled();
    const paid = await waitFor(
      async () => expectStatus(await publicCall('GET', `${token}/pix`), 200).charge,
      (v) => v?.status === 'paid',
    );
    expect(paid).toMatchObject({ status: 'paid', endToEndId: pix.endToEndId });
    // Paying again after it was paid shows the paid charge; no second charge at the PSP.
    expect(expectStatus(await publicCall('POST', `${token}/pix`), 200).charge.status).toBe('paid');
    expect(psp.cobs.size).toBe(before + 1);
    const settled = await t.database.db.select().from(pixReceived).where(eq(pixReceived.txid, c.txid));
    expect(settled.map((r) => r.status)).toEqual(['settled']);
    expect(expectStatus(await shop.api.get(`/budget/${budget.id}`), 200).pixPayment).toMatchObject({
      amountCents: 8400,
      endToEndId: pix.endToEndId,
    });

    // A conversion that leaves the paid Pix out is refused, so it is never lost.
    const without = await shop.api.post(
      `/budget/${budget.id}/convert`,
      { payments: [{ method: 'money', amountCents: 8400 }] },
      { 'idempotency-key': 'budget-convert-money' },
    );
    expect(without.statusCode).toBe(422);
    expect(without.json().message).toBe(
      'O cliente já pagou R$ 84,00 por Pix pelo link: inclua esse valor como Pix QR dinâmico na venda.',
    );

    // Converted with it: the sale's payment carries the endToEndId; a retry is the same sale.
    const convert = () =>
      shop.api.post(
        `/budget/${budget.id}/convert`,
        { payments: [{ method: 'pixQrCode', amountCents: 8400 }] },
        { 'idempotency-key': 'budget-convert-pix' },
      );
    const sale = expectStatus(await convert(), 201, 'convert');
    expect(sale.payments).toMatchObject([{ method: 'pixQrCode', pixEndToEndId: pix.endToEndId }]);
    expect(expectStatus(await convert(), 200).id).toBe(sale.id);
    expect((await chargeOf(shop.api, c.txid)).saleId).toBe(sale.id);
    const detail = expectStatus(await shop.api.get(`/sale/${sale.id}`), 200);
    expect(detail.payments).toMatchObject([{ method: 'pixQrCode', pixEndToEndId: pix.endToEndId }]);
    // The converted link still shows the paid Pix.
    expect(expectStatus(await publicCall('GET', `${token}/pix`), 200).charge.status).toBe('paid');
  });

  it('a budget paid on the link and canceled unconverted: its Pix goes back through devolução once, pending until DEVOLVIDO; a refusal is shown and rung, never done', async () => {
    const shop = await pixShop();
    const product = await makeProduct(t, shop.auth, { salePriceCents: 3100, stock: 10 });
    const customer = await makeCustomer(t, shop.auth, { name: 'Bia Pix' });
    const approved = async () => {
      const budget = expectStatus(
        await shop.api.post('/budget', {
          items: [{ productId: product.id, quantity: 1 }],
          customerId: customer.id,
        }),
        201,
      );
      const token = expectStatus(await shop.api.post(`/budget/${budget.id}/send`, { channel: 'link' }), 200)
        .link.token as string;
      expectStatus(await publicCall('POST', `${token}/answer`, { answer: 'approved' }), 200, 'approve');
      const charge = expectStatus(await publicCall('POST', `${token}/pix`), 200).charge;
      return { budget, token, charge };
    };
    const paidBudget = async () => {
      const b = await approved();
      const pix = await psp.pay(b.charge.txid);
      await psp.settled();
      await waitFor(
        async () => expectStatus(await publicCall('GET', `${b.token}/pix`), 200).charge,
        (v) => v?.status === 'paid',
      );
      return { ...b, pix };
    };
    const refundsOf = async (id: number) =>
      expectStatus(await shop.api.get(`/budget/${id}/pix-refunds`), 200);
    const bell: string[] = [];
    const notify = t.app.ctx.notify;
    t.app.ctx.notify = (clientId, notification) => {
      if (clientId === shop.client.id) bell.push(notification.message);
      notify(clientId, notification);
    };
    onTestFinished(() => {
      t.app.ctx.notify = notify;
    });

    // Refunded: pending first, DEVOLVIDO once the bank says so; a repeated cancel or send asks nothing more.
    // The cancel sends the refund at once (after its commit): the bank takes a second to settle it, so
    // the pending state is there to see whatever the machine's load.
    psp.refundDelayMs = 1000;
    const ok = await paidBudget();
    expect(await refundsOf(ok.budget.id)).toEqual([]);
    expectStatus(await shop.api.post(`/budget/${ok.budget.id}/cancel`, { reason: 'Cliente desistiu' }), 200);
    const pending = await refundsOf(ok.budget.id);
    expect(pending).toMatchObject([{ endToEndId: ok.pix.endToEndId, amountCents: 3100, saleId: null }]);
    expect(pending[0].status).not.toBe('DEVOLVIDO');
    const done = await waitFor(
      () => refundsOf(ok.budget.id),
      (v) => v[0]?.status === 'DEVOLVIDO',
    );
    expect(done).toMatchObject([{ status: 'DEVOLVIDO', statusLabel: 'Devolvido', amountCents: 3100 }]);
    expect((await shop.api.post(`/budget/${ok.budget.id}/cancel`, { reason: 'De novo' })).statusCode).toBe(
      409,
    );
    await sendPixRefunds(t.app.ctx);
    expect(await refundsOf(ok.budget.id)).toHaveLength(1);
    expect(psp.pix.find((p) => p.endToEndId === ok.pix.endToEndId)?.devolucoes).toHaveLength(1);

    // Refused by the bank: shown refused with its reason, and rung; never marked done.
    psp.refuseRefunds = 'Saldo insuficiente para devolução';
    const no = await paidBudget();
    expectStatus(await shop.api.post(`/budget/${no.budget.id}/cancel`, { reason: 'Cliente desistiu' }), 200);
    const refused = await waitFor(
      () => refundsOf(no.budget.id),
      (v) => v[0]?.status === 'NAO_REALIZADO',
    );
    expect(refused).toMatchObject([
      {
        status: 'NAO_REALIZADO',
        statusLabel: 'Devolução recusada pelo banco',
        reason: 'Saldo insuficiente para devolução',
      },
    ]);
    expect(bell).toContain(
      'O banco recusou a devolução de um Pix: Saldo insuficiente para devolução. Devolva ao cliente por outro meio.',
    );
    await sendPixRefunds(t.app.ctx);
    expect((await refundsOf(no.budget.id))[0].status).toBe('NAO_REALIZADO');

    // A QR left open and paid after the cancel: not the budget's, it goes to reconciliation.
    psp.refuseRefunds = null;
    const open = await approved();
    expectStatus(
      await shop.api.post(`/budget/${open.budget.id}/cancel`, { reason: 'Cliente desistiu' }),
      200,
    );
    await psp.pay(open.charge.txid);
    await psp.settled();
    const reconcile = await waitFor(
      async () => expectStatus(await shop.api.get('/pix/pending'), 200),
      (v) => v.some((p: { txid: string }) => p.txid === open.charge.txid),
    );
    expect(reconcile.find((p: { txid: string }) => p.txid === open.charge.txid)).toMatchObject({
      reason: 'removed',
      amountCents: 3100,
    });
  });

  it("a shop without a Pix account does not offer it on the budget's link", async () => {
    const { api, auth } = await makeShop(t, [1]);
    const product = await makeProduct(t, auth, { salePriceCents: 1000, stock: 10 });
    const customer = await makeCustomer(t, auth, { name: 'Bia Sem Pix' });
    const budget = expectStatus(
      await api.post('/budget', { items: [{ productId: product.id, quantity: 1 }], customerId: customer.id }),
      201,
    );
    const token = expectStatus(await api.post(`/budget/${budget.id}/send`, { channel: 'link' }), 200).link
      .token as string;
    expectStatus(await publicCall('POST', `${token}/answer`, { answer: 'approved' }), 200);
    expect(expectStatus(await publicCall('GET', `${token}/pix`), 200)).toEqual({
      offered: false,
      charge: null,
    });
    const refused = await publicCall('POST', `${token}/pix`);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe('Esta loja não recebe Pix pelo link do orçamento.');
  });
});

describe("a delivery order's Pix QR dinâmico, paid before dispatch (issue 33)", () => {
  it('a phone order with Pix is refused until the bank confirms it, then recorded once with the endToEndId', async () => {
    const shop = await pixShop();
    const product = await makeProduct(t, shop.auth, { salePriceCents: 4200, stock: 10 });
    const customer = await makeCustomer(t, shop.auth, {
      name: 'Caio Entrega',
      phone: '11987651111',
      addresses: [SE_ADDRESS],
    });
    const key = 'phone-order-pix-0001';
    const order = () =>
      shop.api.post(
        '/delivery/orders',
        {
          items: [{ productId: product.id, quantity: 1 }],
          customerId: customer.id,
          deliveryAddressId: customer.addresses[0].id,
          payments: [{ method: 'pixQrCode', amountCents: 4200 }],
        },
        { 'idempotency-key': key },
      );
    // The panel's charge of this payment (the PDV's key: attempt:payment).
    const c = await charge(shop.api, `${key}:p1`, 4200);
    const early = await order();
    expect(early.statusCode).toBe(422);
    expect(early.json().message).toBe(
      'O Pix QR dinâmico ainda não foi pago: aguarde a confirmação do banco ou troque a forma de pagamento',
    );
    expect(expectStatus(await shop.api.get('/delivery/panel'), 200).orders).toHaveLength(0);

    psp.webhook = { copies: 2, reverse: true, drop: false, retryMs: 20, maxAttempts: 3 };
    const pix = await psp.pay(c.txid);
    await psp.settled();
    await waitFor(
      () => chargeOf(shop.api, c.txid),
      (v) => v.status === 'paid',
    );
    const sale = expectStatus(await order(), 201, 'phone order');
    expect(sale.payments).toMatchObject([{ method: 'pixQrCode', pixEndToEndId: pix.endToEndId }]);
    expect(expectStatus(await order(), 200).id).toBe(sale.id);
    expect((await chargeOf(shop.api, c.txid)).saleId).toBe(sale.id);
    const panel = expectStatus(await shop.api.get('/delivery/panel'), 200);
    expect(panel.orders).toHaveLength(1);
    expect(panel.orders[0].saleId).toBe(sale.id);
  });
});

describe('a delivery order paid on delivery, switched to Pix QR dinâmico (issue 33)', () => {
  type Summary = {
    methods: { method: string; salesCents: number; expectedCents: number }[];
    movements: { type: string; amountCents: number; reason: string }[];
  };

  it('charges what the order collects (one txid under retries), turns paid by the webhook, and nothing is left to collect in cash', async () => {
    const shop = await pixShop({}, [1, 10]);
    const [admin, driver] = shop.apis;
    const driverId = shop.users[1].user.id;
    const product = await makeProduct(t, shop.auth, { salePriceCents: 5000, stock: 10 });
    const customer = await makeCustomer(t, shop.auth, {
      name: 'Dora Entrega',
      phone: '11987652222',
      addresses: [SE_ADDRESS],
    });
    const sell = async () => {
      const sale = expectStatus(
        await admin.post('/sale', {
          items: [{ productId: product.id, quantity: 1 }],
          typeOfSale: 'delivery',
          customerId: customer.id,
          deliveryAddressId: customer.addresses[0].id,
          payments: [{ method: 'paymentOnDelivery', amountCents: 5000 }],
          delivery: { onDeliveryMethod: 'money', changeForCents: 10000 },
        }),
        201,
        'delivery sale',
      );
      const panel = expectStatus(await admin.get('/delivery/panel'), 200);
      return { sale, order: panel.orders.find((o: { saleId: number }) => o.saleId === sale.id) };
    };
    const register = async (): Promise<Summary> =>
      expectStatus(await admin.get('/cash-register/current'), 200).cashRegister;
    const method = (r: Summary, m: string) => r.methods.find((x) => x.method === m);
    const one = await sell();
    const two = await sell();
    expect(one.order).toMatchObject({ collectCents: 5000, onDeliveryMethod: 'money', changeCents: 5000 });

    // The panel asks twice (a retried click): the same charge, of what the order collects.
    const first = expectStatus(await admin.post(`/delivery/orders/${one.order.id}/pix`), 200, 'pix');
    const again = expectStatus(await admin.post(`/delivery/orders/${one.order.id}/pix`), 200, 'pix again');
    expect(first).toMatchObject({ offered: true, charge: { status: 'active', amountCents: 5000 } });
    expect(again.charge.txid).toBe(first.charge.txid);
    expect(first.charge.pixCopiaECola).not.toBe('');
    // A driver charges only the orders that are with them.
    const notYours = await driver.post(`/delivery/orders/${one.order.id}/pix`);
    expect(notYours.statusCode).toBe(403);
    expect(notYours.json().message).toBe('Este pedido não está com você');

    // The PSP posts the Pix three times, out of order: settled once.
    psp.webhook = { copies: 3, reverse: true, drop: false, retryMs: 20, maxAttempts: 3 };
    const pix = await psp.pay(first.charge.txid);
    await psp.settled();
    const paid = await waitFor(
      async () => expectStatus(await admin.get(`/delivery/orders/${one.order.id}/pix`), 200),
      (v) => v.charge?.status === 'paid',
    );
    expect(paid.charge).toMatchObject({ status: 'paid', endToEndId: pix.endToEndId });
    const panel = expectStatus(await admin.get('/delivery/panel'), 200);
    const order = panel.orders.find((o: { id: number }) => o.id === one.order.id);
    expect(order).toMatchObject({
      collectCents: 5000,
      onDeliveryMethod: 'pix',
      pixEndToEndId: pix.endToEndId,
      changeCents: 0,
      changeForCents: 0,
    });
    // Paid: asking again shows the paid charge, never a second one; the sale's payment is the Pix.
    expect(expectStatus(await admin.post(`/delivery/orders/${one.order.id}/pix`), 200).charge.txid).toBe(
      first.charge.txid,
    );
    const sale = expectStatus(await admin.get(`/sale/${one.sale.id}`), 200);
    expect(sale.payments).toMatchObject([
      { method: 'pixQrCode', amountCents: 5000, pixEndToEndId: pix.endToEndId },
    ]);
    expect((await chargeOf(admin, first.charge.txid)).saleId).toBe(one.sale.id);
    // The close counts it as Pix (once); the change float that never left goes back to the register.
    const afterPix = await register();
    expect(method(afterPix, 'pixQrCode')?.salesCents).toBe(5000);
    expect(method(afterPix, 'paymentOnDelivery')?.expectedCents).toBe(5000);
    expect(afterPix.movements.filter((m) => m.type === 'deposit')).toEqual([
      expect.objectContaining({
        amountCents: 5000,
        reason: `Troco da entrega nº ${one.sale.number} paga por Pix`,
      }),
    ]);

    // Delivered: the acerto lists it as Pix, nothing to hand over; the close still counts it once.
    expectStatus(await admin.post(`/delivery/orders/${one.order.id}/assign`, { driverId }), 200);
    expectStatus(await driver.post(`/delivery/orders/${one.order.id}/pickup`), 200);
    expectStatus(await driver.post(`/delivery/orders/${one.order.id}/deliver`, { code: '2222' }), 200);
    const late = await driver.post(`/delivery/orders/${one.order.id}/pix`);
    expect(late.statusCode).toBe(200);
    const today = dateIn(DEFAULT_TIME_ZONE);
    const q = `driverId=${driverId}&from=${today}&to=${today}`;
    const preview = expectStatus(await admin.get(`/delivery/settlement/preview?${q}`), 200);
    expect(preview.lines).toMatchObject([{ onDeliveryMethod: 'pix', cashCents: 0, otherCents: 5000 }]);
    expect(preview).toMatchObject({ cashCents: 0, otherCents: 5000, toHandOverCents: 0 });
    const registerId = expectStatus(await admin.get('/cash-register/current'), 200).cashRegister.id;
    expectStatus(
      await admin.post('/delivery/settlements', {
        driverId,
        from: today,
        to: today,
        countedCents: 0,
        cashRegisterId: registerId,
        orderIds: [one.order.id],
      }),
      201,
      'acerto',
    );
    const closed = await register();
    expect(method(closed, 'pixQrCode')?.salesCents).toBe(5000);
    // The other order's cash is still to receive: the Pix one took nothing off it.
    expect(method(closed, 'paymentOnDelivery')?.expectedCents).toBe(5000);
    expect(two.order.collectCents).toBe(5000);
  });

  it("the order's driver charges at the door; an order canceled before the Pix arrives sends it to reconciliation", async () => {
    const shop = await pixShop({}, [1, 10]);
    const [admin, driver] = shop.apis;
    const driverId = shop.users[1].user.id;
    const product = await makeProduct(t, shop.auth, { salePriceCents: 3000, stock: 10 });
    const customer = await makeCustomer(t, shop.auth, {
      name: 'Eva Entrega',
      phone: '11987653333',
      addresses: [SE_ADDRESS],
    });
    const sale = expectStatus(
      await admin.post('/sale', {
        items: [{ productId: product.id, quantity: 1 }],
        typeOfSale: 'delivery',
        customerId: customer.id,
        deliveryAddressId: customer.addresses[0].id,
        payments: [{ method: 'paymentOnDelivery', amountCents: 3000 }],
        delivery: { onDeliveryMethod: 'creditCard' },
      }),
      201,
    );
    const order = expectStatus(await admin.get('/delivery/panel'), 200).orders.find(
      (o: { saleId: number }) => o.saleId === sale.id,
    );
    expectStatus(await admin.post(`/delivery/orders/${order.id}/assign`, { driverId }), 200);
    expectStatus(await driver.post(`/delivery/orders/${order.id}/pickup`), 200);
    const atDoor = expectStatus(await driver.post(`/delivery/orders/${order.id}/pix`), 200, 'driver pix');
    expect(atDoor.charge).toMatchObject({ status: 'active', amountCents: 3000 });
    expectStatus(
      await admin.post(`/delivery/orders/${order.id}/cancel`, { reason: 'Cliente desistiu' }),
      200,
      'cancel',
    );
    const closedPix = await admin.post(`/delivery/orders/${order.id}/pix`);
    expect(closedPix.statusCode).toBe(422);
    expect(closedPix.json().message).toBe('Este pedido já foi finalizado: não dá mais para cobrar por Pix');
    await psp.pay(atDoor.charge.txid);
    await psp.settled();
    const pending = await waitFor(
      async () => expectStatus(await admin.get('/pix/pending'), 200),
      (v) => v.length > 0,
    );
    expect(pending).toMatchObject([{ txid: atDoor.charge.txid, reason: 'removed', amountCents: 3000 }]);
    const after = expectStatus(await admin.get('/delivery/panel'), 200).orders.find(
      (o: { id: number }) => o.id === order.id,
    );
    expect(after ?? { pixEndToEndId: null }).toMatchObject({ pixEndToEndId: null });
  });
});

describe('sale with Pix QR dinâmico, cancel and refund', () => {
  async function paidSale(key: string) {
    const shop = await pixShop();
    const product = await makeProduct(t, shop.auth, { salePriceCents: 2500, stock: 10 });
    const c = await charge(shop.api, key, 2500);
    const pix = await psp.pay(c.txid);
    await psp.settled();
    await waitFor(
      () => chargeOf(shop.api, c.txid),
      (v) => v.status === 'paid',
    );
    const sale = expectStatus(
      await shop.api.post(
        '/sale',
        {
          items: [{ productId: product.id, quantity: 1 }],
          payments: [{ method: 'pixQrCode', amountCents: 2500 }],
        },
        { 'idempotency-key': key },
      ),
      201,
      'sale',
    );
    expect((await chargeOf(shop.api, c.txid)).saleId).toBe(sale.id);
    // The endToEndId on the sale's payment: in the checkout's answer (the PDV's receipt) and the detail.
    expect(sale.payments).toMatchObject([{ method: 'pixQrCode', pixEndToEndId: pix.endToEndId }]);
    const detail = expectStatus(await shop.api.get(`/sale/${sale.id}`), 200);
    expect(detail.payments).toMatchObject([{ method: 'pixQrCode', pixEndToEndId: pix.endToEndId }]);
    return { ...shop, sale, pix };
  }

  it('the sale records the Pix; its cancel refunds through devolução, pending until DEVOLVIDO', async () => {
    const { api, sale, pix } = await paidSale('attempt-refund-ok');
    // The cancel sends the refund at once (after its commit): the bank takes a second to settle it, so
    // the pending state is there to see whatever the machine's load.
    psp.refundDelayMs = 1000;
    expectStatus(await api.post(`/sale/${sale.id}/cancel`, { reason: 'Cliente desistiu' }), 200, 'cancel');
    const pending = expectStatus(await api.get(`/pix/refunds/${sale.id}`), 200);
    expect(pending).toHaveLength(1);
    expect(pending[0].endToEndId).toBe(pix.endToEndId);
    expect(pending[0].status).not.toBe('DEVOLVIDO');
    await sendPixRefunds(t.app.ctx);
    await new Promise((r) => setTimeout(r, psp.refundDelayMs + 20));
    await psp.settled();
    const done = await waitFor(
      async () => expectStatus(await api.get(`/pix/refunds/${sale.id}`), 200),
      (v) => v[0].status === 'DEVOLVIDO',
    );
    expect(done[0]).toMatchObject({ status: 'DEVOLVIDO', statusLabel: 'Devolvido', amountCents: 2500 });
  });

  it('a refund the PSP refuses is shown refused, never done', async () => {
    const { api, sale } = await paidSale('attempt-refund-no');
    psp.refuseRefunds = 'Saldo insuficiente para devolução';
    expectStatus(await api.post(`/sale/${sale.id}/cancel`, { reason: 'Cliente desistiu' }), 200, 'cancel');
    await sendPixRefunds(t.app.ctx);
    await new Promise((r) => setTimeout(r, psp.refundDelayMs + 20));
    await psp.settled();
    const refused = await waitFor(
      async () => expectStatus(await api.get(`/pix/refunds/${sale.id}`), 200),
      (v) => v[0].status === 'NAO_REALIZADO',
    );
    expect(refused[0]).toMatchObject({
      status: 'NAO_REALIZADO',
      statusLabel: 'Devolução recusada pelo banco',
      reason: 'Saldo insuficiente para devolução',
    });
  });

  it("the day's reconciliation lists the PSP's Pix against the sales, and exports CSV", async () => {
    const { api, pix } = await paidSale('attempt-day-1');
    const today = dateIn(DEFAULT_TIME_ZONE); // the shop's day (UTC is a day ahead from 21:00 in São Paulo)
    const day = expectStatus(await api.get(`/pix/reconciliation?date=${today}`), 200);
    expect(day.items.find((i: { endToEndId: string }) => i.endToEndId === pix.endToEndId)).toMatchObject({
      status: 'matched',
      amountCents: 2500,
    });
    const csv = await api.get(`/pix/reconciliation/export?date=${today}`);
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain(pix.endToEndId);
    expect(csv.body).toContain('Conciliado');
  });
  it("the day's reconciliation answers each of the PSP's Pix with its status: matched, unmatched (no sale), refunded; the CSV has the three", async () => {
    const shop = await pixShop();
    const product = await makeProduct(t, shop.auth, { salePriceCents: 1000, stock: 10 });
    const paid = async (key: string, cents: number) => {
      const c = await charge(shop.api, key, cents);
      const pix = await psp.pay(c.txid);
      await psp.settled();
      await waitFor(
        () => chargeOf(shop.api, c.txid),
        (v) => v.status === 'paid',
      );
      return pix;
    };
    const sell = async (key: string, cents: number) => {
      const pix = await paid(key, cents);
      const sale = expectStatus(
        await shop.api.post(
          '/sale',
          {
            items: [{ productId: product.id, quantity: cents / 1000 }],
            payments: [{ method: 'pixQrCode', amountCents: cents }],
          },
          { 'idempotency-key': key },
        ),
        201,
        'sale',
      );
      return { pix, sale };
    };
    const matched = await sell('attempt-day-matched', 2000);
    const refunded = await sell('attempt-day-refunded', 3000);
    // A Pix the bank received that no sale took (the PDV dropped it): only the PSP knows it.
    const unmatched = await paid('attempt-day-unmatched', 4000);
    expectStatus(
      await shop.api.post(`/sale/${refunded.sale.id}/cancel`, { reason: 'Cliente desistiu' }),
      200,
    );
    await sendPixRefunds(t.app.ctx);
    await new Promise((r) => setTimeout(r, psp.refundDelayMs + 20));
    await psp.settled();
    await waitFor(
      async () => expectStatus(await shop.api.get(`/pix/refunds/${refunded.sale.id}`), 200),
      (v) => v[0]?.status === 'DEVOLVIDO',
    );

    const today = dateIn(DEFAULT_TIME_ZONE);
    const day = expectStatus(await shop.api.get(`/pix/reconciliation?date=${today}`), 200);
    const row = (e2e: string) => day.items.find((i: { endToEndId: string }) => i.endToEndId === e2e);
    expect(row(matched.pix.endToEndId)).toMatchObject({
      status: 'matched',
      amountCents: 2000,
      saleId: matched.sale.id,
    });
    expect(row(unmatched.endToEndId)).toMatchObject({ status: 'unmatched', amountCents: 4000, saleId: null });
    expect(row(refunded.pix.endToEndId)).toMatchObject({ status: 'refunded', amountCents: 3000 });
    // The day's totals add each status's Pix (other shops' tests share the fake's account: at least).
    expect(day.totals.matchedCents).toBeGreaterThanOrEqual(2000);
    expect(day.totals.unmatchedCents).toBeGreaterThanOrEqual(4000);
    expect(day.totals.refundedCents).toBeGreaterThanOrEqual(3000);

    const csv = await shop.api.get(`/pix/reconciliation/export?date=${today}`);
    expect(csv.statusCode).toBe(200);
    const line = (e2e: string) => csv.body.split('\r\n').find((l) => l.includes(e2e)) ?? '';
    expect(line(matched.pix.endToEndId)).toContain(`;20,00;Conciliado;${matched.sale.id}`);
    expect(line(unmatched.endToEndId)).toMatch(/;40,00;Sem venda;$/);
    expect(line(refunded.pix.endToEndId)).toContain(';30,00;Devolvido;');
  });
});
