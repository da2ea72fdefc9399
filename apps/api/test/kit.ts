import type { AddressInfo } from 'node:net';
import { withCheckDigit } from '@balcao/core/barcode';
import { addDays } from '@balcao/core/date';
import type { Sale } from '@balcao/core/sale';
import { DEFAULT_TIME_ZONE, dateIn } from '@balcao/core/time';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { Config } from '../src/config.ts';
import { type FakeEvolution, startFakeEvolution } from './fakes/evolution.ts';
import { bearer, createClientWithUsers, createTestApp, type TestApp } from './helper.ts';

/**
 * The API test kit: one request helper (`api`, plus `login` and `me` for sessions), one factory
 * per resource, each with overrides (`makeShop` is a user with an open register, ready to sell),
 * and socket.io clients. Test files build on these instead of declaring their own
 * (docs/architecture.md, "How to add a domain").
 */

export type Headers = Record<string, string>;
type Payload = Record<string, unknown> | unknown[];
type Response = Awaited<ReturnType<TestApp['app']['inject']>>;

/** Requests under /v1 with the given headers (usually a Bearer session): `api(t, auth).get('/product/1')`. */
export function api(t: TestApp, headers: Headers = {}) {
  const send = (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: Payload,
    extra: Headers = {},
  ) =>
    t.app.inject({ method, url: `/v1${url}`, headers: { ...headers, ...extra }, payload: payload as object });
  return {
    get: (url: string, extra?: Headers) => send('GET', url, undefined, extra),
    post: (url: string, payload?: Payload, extra?: Headers) => send('POST', url, payload, extra),
    put: (url: string, payload?: Payload, extra?: Headers) => send('PUT', url, payload, extra),
    delete: (url: string, extra?: Headers) => send('DELETE', url, undefined, extra),
  };
}

export type Api = ReturnType<typeof api>;

/**
 * POST /v1/login without a session, from `remoteAddress` (the login limits count by it): 10.0.0.1
 * unless given, so a test's failed attempts never block the factories' logins (from 127.0.0.1).
 */
export function login(
  t: TestApp,
  email: string,
  password: string,
  remoteAddress = '10.0.0.1',
  headers: Headers = {},
) {
  return t.app.inject({
    method: 'POST',
    url: '/v1/login',
    payload: { email, password },
    remoteAddress,
    headers,
  });
}

/** GET /v1/user/me with the session token: the session's user, or 401 once it is gone. */
export const me = (t: TestApp, token: string) => api(t, bearer(token)).get('/user/me');

/** The answer's JSON when its status is the expected one; otherwise the test fails with the body. */
// biome-ignore lint/suspicious/noExplicitAny: answers are read loosely, as res.json() is
export function expectStatus<T = any>(res: Response, status: number, what = 'request'): T {
  if (res.statusCode !== status)
    throw new Error(`${what}: expected ${status}, got ${res.statusCode} ${res.body}`);
  return res.json() as T;
}

/**
 * A new client with one logged-in user per type (default an Administrador): the client, the users
 * (with tokens), the first user's `auth` headers and an `api` for each user, first user first.
 */
export async function asUser(
  t: TestApp,
  userTypeIds: number[] = [1],
  overrides: { clientTypeId?: number; active?: boolean } = {},
) {
  const shop = await createClientWithUsers(t, userTypeIds, overrides);
  const apis = shop.users.map((u) => api(t, bearer(u.token)));
  return { ...shop, api: apis[0], apis };
}

let seq = 0;
const uniq = () => `${process.pid % 1000}${Date.now() % 100_000}${++seq}`;

/** A code or name not used before in this test process: `uniqueCode('DUP')` -> "DUP4128831". */
export const uniqueCode = (prefix = 'CUPOM') => `${prefix}${uniq()}`;

/** A valid EAN-13 not used before in this test process (internal-use prefix 2). */
export function newEan13(): string {
  seq++;
  return withCheckDigit(`2${String(process.pid % 10000).padStart(4, '0')}${String(seq).padStart(7, '0')}`);
}

/** POST /v1/product (201), a plain product at R$ 10,00 unless overridden. */
export async function makeProduct(t: TestApp, headers: Headers, overrides: Payload = {}) {
  const res = await api(t, headers).post('/product', {
    name: `Produto ${uniq()}`,
    salePriceCents: 1000,
    ...overrides,
  });
  return expectStatus(res, 201, 'product factory');
}

/** A coupon's form body: 10% for 30 days from today, no limits, active. */
export function couponBody(overrides: Record<string, unknown> = {}) {
  const today = dateIn(DEFAULT_TIME_ZONE);
  return {
    code: uniqueCode(),
    discountType: 'PERCENTAGE',
    discountValue: 10,
    startDate: today,
    endDate: addDays(today, 30),
    isSingleUse: false,
    maxUsesPerUser: 0,
    minSaleAmount: 0,
    status: 'active',
    ...overrides,
  };
}

/** POST /v1/coupon (201) with `couponBody(overrides)`. */
export async function makeCoupon(t: TestApp, headers: Headers, overrides: Record<string, unknown> = {}) {
  return expectStatus(await api(t, headers).post('/coupon', couponBody(overrides)), 201, 'coupon factory');
}

/** POST /v1/customer (201): Maria da Silva with R$ 500,00 of credit unless overridden. */
export async function makeCustomer(t: TestApp, headers: Headers, overrides: Record<string, unknown> = {}) {
  const res = await api(t, headers).post('/customer', {
    name: 'Maria da Silva',
    creditLimitCents: 50000,
    ...overrides,
  });
  return expectStatus(res, 201, 'customer factory');
}

/** POST /v1/cash-register/open (201) for the session's user. */
export async function openRegister(t: TestApp, headers: Headers, openingAmountCents = 10000) {
  const res = await api(t, headers).post('/cash-register/open', { openingAmountCents });
  return expectStatus(res, 201, 'open register');
}

/** `asUser` whose first user has an open register (R$ 100,00 of opening): a shop ready to sell. */
export async function makeShop(
  t: TestApp,
  userTypeIds: number[] = [1],
  overrides: { clientTypeId?: number; active?: boolean } = {},
) {
  const shop = await asUser(t, userTypeIds, overrides);
  await openRegister(t, shop.auth);
  return shop;
}

/** POST /v1/sale (201) with the given body (items, payments, customer, ...); the sale answered. */
export async function makeSale(t: TestApp, headers: Headers, body: Record<string, unknown>) {
  const res = await api(t, headers).post('/sale', body);
  return expectStatus<Sale>(res, 201, 'sale factory');
}

/** POST /v1/sale/simple (201): "Serviço" for R$ 10,00 paid in pix unless overridden. */
export async function makeSimpleSale(t: TestApp, headers: Headers, overrides: Record<string, unknown> = {}) {
  const res = await api(t, headers).post('/sale/simple', {
    description: 'Serviço',
    valueCents: 1000,
    payments: [{ method: 'pix', amountCents: 1000 }],
    ...overrides,
  });
  return expectStatus<Sale>(res, 201, 'quick sale factory');
}

export type SocketOptions = { key?: string; token?: string; queryToken?: string };

/**
 * Starts the app on a free local port for socket.io clients: `open` one (API key in the query,
 * token in auth or in the query), `connected` waits for its connection, `disconnectAll` (afterEach)
 * closes every socket opened.
 */
export async function listenForSockets(t: TestApp) {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const opened: Socket[] = [];
  const open = ({ key, token, queryToken }: SocketOptions): Socket => {
    const query: Record<string, string> = {};
    if (key !== undefined) query.key = key;
    if (queryToken !== undefined) query.token = queryToken;
    const socket = connect(baseUrl, {
      path: '/socket.io',
      query,
      auth: token === undefined ? {} : { token },
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
    });
    opened.push(socket);
    return socket;
  };
  return {
    open,
    async connected(options: SocketOptions): Promise<Socket> {
      const socket = open(options);
      const result = await socketOutcome(socket);
      if (result !== 'connected') throw new Error(`socket: expected connected, got ${result}`);
      return socket;
    },
    disconnectAll() {
      for (const socket of opened.splice(0)) socket.disconnect();
    },
  };
}

export type SocketClients = Awaited<ReturnType<typeof listenForSockets>>;

/** What `useTestApp` hands over: `sockets` only when asked for `sockets`, `evolution` only for `evolution`. */
export type FileApp = { t: TestApp; sockets: SocketClients; evolution: FakeEvolution };

/**
 * A test file's app, started before its tests and closed after them (call it at the file's top):
 * `apiKey` and the other config overrides; `sockets` to listen for socket.io clients (each test's
 * clients are disconnected after it); `evolution` to start a fake Evolution API first (no instances,
 * no registered numbers) whose webhooks reach the app in-process. `ready` takes the app into the
 * file's own variables: `useTestApp({ apiKey: API_KEY, sockets: true }, (app) => ({ t, sockets } = app))`.
 */
export function useTestApp(
  options: { config?: Partial<Config>; sockets?: boolean; evolution?: boolean },
  ready: (app: FileApp) => unknown,
) {
  const app = {} as FileApp;
  beforeAll(async () => {
    let config = options.config ?? {};
    if (options.evolution) {
      app.evolution = await startFakeEvolution({
        instances: [],
        registered: [],
        // Evolution's create waits 5 s before answering; the same wait, kept short here.
        createDelayMs: 20,
        // Webhooks reach the app in-process, at the path the API gave Evolution.
        deliver: async (url, headers, body) => {
          await app.t.app.inject({
            method: 'POST',
            url: new URL(url).pathname,
            headers,
            payload: body as object,
          });
        },
      });
      const { url: baseUrl, apiKey } = app.evolution;
      config = { ...config, whatsapp: { baseUrl, apiKey, timeoutMs: 2000 } };
    }
    app.t = await createTestApp(config);
    if (options.sockets) app.sockets = await listenForSockets(app.t);
    ready(app);
  });
  if (options.sockets) afterEach(() => app.sockets.disconnectAll());
  afterAll(async () => {
    await app.t?.close();
    await app.evolution?.close();
  });
}

/** Resolves 'connected' or the server's refusal ('refused: <message>'). */
export function socketOutcome(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    socket.once('connect', () => resolve('connected'));
    socket.once('connect_error', (error) => resolve(`refused: ${error.message}`));
  });
}

/** joinChannel with its acknowledgement. */
export const joinChannel = (socket: Socket, channel: unknown) =>
  socket.timeout(5000).emitWithAck('joinChannel', channel) as Promise<{ ok: boolean; message?: string }>;

/** The next newChannelMessage, or 'nothing' if none arrives within the wait. */
export function nextMessage(socket: Socket, waitMs = 400): Promise<unknown> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      socket.off('newChannelMessage', onMessage);
      resolve('nothing');
    }, waitMs);
    const onMessage = (payload: unknown) => {
      clearTimeout(timer);
      resolve(payload);
    };
    socket.once('newChannelMessage', onMessage);
  });
}

/** Every newChannelMessage received during `ms`, its JSON text parsed. */
export function collectMessages(
  socket: Socket,
  ms: number,
): Promise<{ message: string; alertColor: string }[]> {
  const received: { message: string; alertColor: string }[] = [];
  const onMessage = (payload: { message: string }) => received.push(JSON.parse(payload.message));
  socket.on('newChannelMessage', onMessage);
  return new Promise((resolve) =>
    setTimeout(() => {
      socket.off('newChannelMessage', onMessage);
      resolve(received);
    }, ms),
  );
}

/** The first `change` event about `resource` (any resource when null), or 'nothing' within the wait. */
export function nextChange(socket: Socket, resource: string | null, waitMs: number): Promise<unknown> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      socket.off('change', onChange);
      resolve('nothing');
    }, waitMs);
    const onChange = (payload: { resource: string }) => {
      if (resource !== null && payload.resource !== resource) return;
      clearTimeout(timer);
      socket.off('change', onChange);
      resolve(payload);
    };
    socket.on('change', onChange);
  });
}

/** A customer's delivery address: the one the fake ViaCEP answers for 01001-000 (test/fakes/viacep.ts). */
export const SE_ADDRESS = {
  zipCode: '01001000',
  street: 'Praça da Sé',
  number: '100',
  neighborhood: 'Centro',
  city: 'São Paulo',
  state: 'SP',
};

/** A PUT /v1/printing/settings body: one 80 mm printer, "caixa", no sectors, no automatic receipt. */
export const ONE_PRINTER_SETTINGS = {
  profiles: [
    { key: 'caixa', name: 'Caixa', paperWidth: 80, columns: 48, codePage: 'PC860', copies: 1, cut: true },
  ],
  sectors: [],
  receipt: { autoPrint: false, profileKey: null },
};
