import { createServer, type Server } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeMelhorEnvio, startFakeMelhorEnvio } from '../../test/fakes/freight.ts';
import { makeServerCert, makeTestCa } from '../../test/fakes/sefazCerts.ts';
import { type FakeViaCep, startFakeViaCep } from '../../test/fakes/viacep.ts';
import { createTestApp, type TestApp } from '../../test/helper.ts';
import { asUser, expectStatus } from '../../test/kit.ts';
import { testConfig } from '../config.ts';
import {
  configureOutbound,
  isOutboundRefusal,
  isPublicAddress,
  type OutboundPolicy,
  outboundFetch,
} from './outbound.ts';

const DENY: OutboundPolicy = { allowPrivate: false, allowHosts: [], legacyTlsHosts: [] };

describe('isPublicAddress', () => {
  it('refuses private, loopback, link-local, CGNAT, metadata, unspecified and their IPv6 and mapped forms', () => {
    for (const address of [
      '127.0.0.1',
      '127.8.9.10',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.0.10',
      '100.64.0.1',
      '169.254.169.254',
      '0.0.0.0',
      '255.255.255.255',
      '224.0.0.1',
      '::',
      '::1',
      '[::1]',
      'fd00:ec2::254',
      'fc00::1',
      'fe80::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:169.254.169.254',
      '::ffff:a9fe:a9fe',
      '0:0:0:0:0:ffff:10.0.0.1',
      '64:ff9b::a9fe:a9fe',
      '2002:a9fe:a9fe::1',
      'not-an-ip',
    ])
      expect(isPublicAddress(address), address).toBe(false);
  });

  it('accepts public addresses', () => {
    for (const address of [
      '8.8.8.8',
      '200.147.67.142',
      '172.32.0.1',
      '100.128.0.1',
      '2606:4700::1111',
      '::ffff:8.8.8.8',
    ])
      expect(isPublicAddress(address), address).toBe(true);
  });
});

describe('outboundFetch', () => {
  let server: Server;
  let port: number;
  const hits: string[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      hits.push(req.url ?? '');
      if (req.url === '/redirect')
        return res.writeHead(302, { location: `http://127.0.0.1:${port}/inside` }).end();
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((done) => server.close(() => done())));

  const refused = async (promise: Promise<unknown>) => {
    const error = await promise.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error, 'the call should have been refused').not.toBeNull();
    expect(isOutboundRefusal(error)).toBe(true);
  };

  it('refuses an IP literal and a name that resolve to loopback before sending anything', async () => {
    hits.length = 0;
    await refused(outboundFetch(`http://127.0.0.1:${port}/a`, {}, DENY));
    await refused(outboundFetch(`http://[::ffff:127.0.0.1]:${port}/b`, {}, DENY));
    await refused(outboundFetch(`http://localhost:${port}/c`, {}, DENY));
    await refused(outboundFetch(`http://169.254.169.254/latest/meta-data/`, {}, DENY));
    await refused(outboundFetch('file:///etc/passwd', {}, DENY));
    expect(hits).toEqual([]);
  });

  it('lets the operator allow private addresses or named hosts, and checks every redirect hop', async () => {
    hits.length = 0;
    const all = await outboundFetch(`http://127.0.0.1:${port}/ok`, {}, { ...DENY, allowPrivate: true });
    expect(await all.json()).toEqual({ ok: true });
    const named = await outboundFetch(
      `http://localhost:${port}/ok`,
      {},
      { ...DENY, allowHosts: ['localhost'] },
    );
    expect(named.status).toBe(200);
    // localhost is allowed, the address it redirects to is not.
    await refused(
      outboundFetch(`http://localhost:${port}/redirect`, {}, { ...DENY, allowHosts: ['localhost'] }),
    );
    expect(hits).toEqual(['/ok', '/ok', '/redirect']);
  });
});

describe("legacy TLS only for the hosts the operator names (issue 31 item 14: Rodonaves' 01wapi)", () => {
  let server: HttpsServer;
  let port: number;
  let ca: string;
  beforeAll(async () => {
    const authority = makeTestCa();
    const { certPem, keyPem } = makeServerCert(authority);
    ca = authority.certPem;
    // A server that speaks TLS 1.0 only, as the old host does.
    server = createHttpsServer(
      {
        cert: certPem,
        key: keyPem,
        minVersion: 'TLSv1',
        maxVersion: 'TLSv1',
        ciphers: 'DEFAULT:@SECLEVEL=0',
      },
      (_req, res) => res.end('{"ok":true}'),
    );
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((done) => server.close(() => done())));

  it('reaches a TLS 1.0 host named in OUTBOUND_LEGACY_TLS_HOSTS; every other host keeps the modern floor', async () => {
    const local = { ...DENY, allowPrivate: true };
    const legacy = { ...local, legacyTlsHosts: ['localhost'] };
    const named = await outboundFetch(`https://localhost:${port}/`, { tls: { ca } }, legacy);
    expect(await named.json()).toEqual({ ok: true });
    // The same server by another name (not in the list): refused by the default TLS floor.
    await expect(outboundFetch(`https://127.0.0.1:${port}/`, { tls: { ca } }, legacy)).rejects.toThrow();
    // Without the setting nothing is lowered.
    await expect(outboundFetch(`https://localhost:${port}/`, { tls: { ca } }, local)).rejects.toThrow();
  });
});

describe('every outgoing call goes through the guard (no private address allowed)', () => {
  let t: TestApp;
  let me: FakeMelhorEnvio;
  let cep: FakeViaCep;
  beforeAll(async () => {
    [me, cep] = await Promise.all([startFakeMelhorEnvio(), startFakeViaCep()]);
    const base = testConfig();
    const hosts = { apiUrl: me.apiUrl, oauthUrl: me.url };
    t = await createTestApp({
      outbound: DENY,
      cep: { baseUrl: cep.url, timeoutMs: 2000 },
      shipping: { ...base.shipping, melhorEnvio: { production: hosts, sandbox: hosts } },
    });
  });
  afterAll(async () => {
    await t.close();
    await Promise.all([me.close(), cep.close()]);
    // The policy is the process's (one app, one environment): the next test files build their own
    // apps, but give back the tests' policy anyway (the API project shares modules across files).
    configureOutbound({ policy: testConfig().outbound });
  });

  it('a carrier on a loopback address is never called and the message names no address', async () => {
    const shop = await asUser(t, [1]);
    expectStatus(
      await shop.api.put('/shipping/melhor-envio', { token: me.issueToken(), originZipCode: '01001000' }),
      200,
    );
    const quote = expectStatus(
      await shop.api.post('/shipping/freight-quote', {
        carriers: ['melhor_envio'],
        toZipCode: '30130010',
        package: { heightCm: 10, widthCm: 15, lengthCm: 20, weightKg: 1 },
      }),
      200,
    );
    expect(quote.options).toMatchObject([
      { priceCents: null, error: 'Melhor Envio está fora do ar ou inacessível.' },
    ]);
    expect(me.calculations).toEqual([]);

    const lookup = await shop.api.get('/cep/01001000');
    expect(lookup.statusCode).toBe(503);
    expect(cep.requests).toEqual([]);
  });
});
