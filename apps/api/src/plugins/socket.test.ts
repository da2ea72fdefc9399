import type { AddressInfo } from 'node:net';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createClientWithUsers, createTestApp, type TestApp } from '../../test/helper.ts';

const API_KEY = 'chave-de-teste';

let t: TestApp;
let baseUrl: string;
const opened: Socket[] = [];

beforeAll(async () => {
  t = await createTestApp({ apiKey: API_KEY });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterEach(() => {
  for (const socket of opened.splice(0)) socket.disconnect();
});
afterAll(() => t.close());

type Options = { key?: string; token?: string; queryToken?: string };

function open({ key, token, queryToken }: Options): Socket {
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
}

/** Resolves 'connected' or the server's refusal message. */
function outcome(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    socket.once('connect', () => resolve('connected'));
    socket.once('connect_error', (error) => resolve(`refused: ${error.message}`));
  });
}

async function connected(options: Options): Promise<Socket> {
  const socket = open(options);
  expect(await outcome(socket)).toBe('connected');
  return socket;
}

const join = (socket: Socket, channel: unknown) =>
  socket.timeout(5000).emitWithAck('joinChannel', channel) as Promise<{ ok: boolean; message?: string }>;

/** The next newChannelMessage, or 'nothing' if none arrives within the wait. */
function nextMessage(socket: Socket, waitMs = 400): Promise<unknown> {
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

describe('socket connection', () => {
  it('refuses a socket without the API key or with a wrong one', async () => {
    const { token } = await createClientWithUsers(t, [1]);
    expect(await outcome(open({ token }))).toBe('refused: Chave de API inválida');
    expect(await outcome(open({ key: 'outra-chave', token }))).toBe('refused: Chave de API inválida');
  });

  it('refuses a socket without a token, with an unknown one or with a revoked one', async () => {
    const { token } = await createClientWithUsers(t, [1]);
    expect(await outcome(open({ key: API_KEY }))).toBe('refused: Sessão inválida');
    expect(await outcome(open({ key: API_KEY, token: 'inventado' }))).toBe('refused: Sessão inválida');
    await t.app.inject({ method: 'POST', url: '/v1/logout', headers: bearer(token) });
    expect(await outcome(open({ key: API_KEY, token }))).toBe('refused: Sessão inválida');
  });

  it('accepts the API key with a valid token in auth or in the query', async () => {
    const { token } = await createClientWithUsers(t, [3]);
    await connected({ key: API_KEY, token });
    await connected({ key: API_KEY, queryToken: token });
  });
});

describe('channels', () => {
  it("refuses joining another client's channel and accepts the own one", async () => {
    const mine = await createClientWithUsers(t, [5]);
    const other = await createClientWithUsers(t, [1]);
    const socket = await connected({ key: API_KEY, token: mine.token });
    expect(await join(socket, `notifications_${other.client.id}`)).toEqual({
      ok: false,
      message: 'Canal não permitido',
    });
    expect((await join(socket, 'qualquer-coisa')).ok).toBe(false);
    expect((await join(socket, { channel: `notifications_${other.client.id}` })).ok).toBe(false);
    expect((await join(socket, null)).ok).toBe(false);
    expect(await join(socket, `notifications_${mine.client.id}`)).toEqual({ ok: true });
    expect(await join(socket, { channel: `notifications_${mine.client.id}` })).toEqual({ ok: true });
  });

  it('refuses a join after the session was revoked', async () => {
    const mine = await createClientWithUsers(t, [1]);
    const socket = await connected({ key: API_KEY, token: mine.token });
    await t.app.inject({ method: 'POST', url: '/v1/logout', headers: mine.auth });
    expect((await join(socket, `notifications_${mine.client.id}`)).ok).toBe(false);
  });

  it("delivers notify() to the client's joined sockets only, as newChannelMessage with JSON text", async () => {
    const mine = await createClientWithUsers(t, [1, 4]);
    const other = await createClientWithUsers(t, [1]);
    const joined = await connected({ key: API_KEY, token: mine.users[1].token });
    expect((await join(joined, `notifications_${mine.client.id}`)).ok).toBe(true);
    const notJoined = await connected({ key: API_KEY, token: mine.users[0].token });
    const otherClient = await connected({ key: API_KEY, token: other.token });
    expect((await join(otherClient, `notifications_${other.client.id}`)).ok).toBe(true);
    // A refused join must not subscribe either.
    await join(otherClient, `notifications_${mine.client.id}`);

    const received = nextMessage(joined, 5000);
    const missedByUnjoined = nextMessage(notJoined, 1500);
    const missedByOther = nextMessage(otherClient, 1500);
    t.app.ctx.notify(mine.client.id, { message: 'Estoque baixo: Café', alertColor: 'warning' });

    const payload = (await received) as { message: string };
    expect(payload).toEqual({ message: expect.any(String) });
    expect(JSON.parse(payload.message)).toEqual({ message: 'Estoque baixo: Café', alertColor: 'warning' });
    expect(await missedByUnjoined).toBe('nothing');
    expect(await missedByOther).toBe('nothing');
  });

  it('defaults alertColor to info, and POST /v1/notification reaches the channel', async () => {
    const mine = await createClientWithUsers(t, [2]);
    const socket = await connected({ key: API_KEY, token: mine.token });
    expect((await join(socket, `notifications_${mine.client.id}`)).ok).toBe(true);

    const first = nextMessage(socket, 5000);
    t.app.ctx.notify(mine.client.id, { message: 'Olá' });
    expect(JSON.parse(((await first) as { message: string }).message)).toEqual({
      message: 'Olá',
      alertColor: 'info',
    });
    const explicitUndefined = nextMessage(socket, 5000);
    t.app.ctx.notify(mine.client.id, { message: 'Sem cor', alertColor: undefined });
    expect(JSON.parse(((await explicitUndefined) as { message: string }).message)).toEqual({
      message: 'Sem cor',
      alertColor: 'info',
    });

    const second = nextMessage(socket, 5000);
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/notification',
      headers: mine.auth,
      payload: { message: 'Reunião às 18h', alertColor: 'success' },
    });
    expect(res.statusCode).toBe(200);
    expect(JSON.parse(((await second) as { message: string }).message)).toEqual({
      message: 'Reunião às 18h',
      alertColor: 'success',
    });
  });

  it('stops delivering after leaveChannel', async () => {
    const mine = await createClientWithUsers(t, [1]);
    const socket = await connected({ key: API_KEY, token: mine.token });
    const channel = `notifications_${mine.client.id}`;
    expect((await join(socket, channel)).ok).toBe(true);
    expect(await socket.timeout(5000).emitWithAck('leaveChannel', channel)).toEqual({ ok: true });
    const missed = nextMessage(socket, 1000);
    t.app.ctx.notify(mine.client.id, { message: 'Ninguém ouve' });
    expect(await missed).toBe('nothing');
  });
});

describe('data changes', () => {
  /** The first `change` event about `resource` (any resource when null), or 'nothing' within the wait. */
  function nextChange(socket: Socket, resource: string | null, waitMs: number): Promise<unknown> {
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

  it("signals a checkout to the shop's other tills as change {resource: 'sale', id}; another shop hears nothing", async () => {
    const shop = await createClientWithUsers(t, [1, 4]);
    const other = await createClientWithUsers(t, [1]);
    const otherTill = await connected({ key: API_KEY, token: shop.users[1].token });
    expect((await join(otherTill, `notifications_${shop.client.id}`)).ok).toBe(true);
    const otherShop = await connected({ key: API_KEY, token: other.token });
    expect((await join(otherShop, `notifications_${other.client.id}`)).ok).toBe(true);

    const inject = (url: string, payload: object) =>
      t.app.inject({ method: 'POST', url: `/v1${url}`, headers: shop.auth, payload });
    const product = await inject('/product', { name: 'Café', salePriceCents: 1500, stock: 10 });
    expect(product.statusCode, product.body).toBe(201);
    expect((await inject('/cash-register/open', { openingAmountCents: 0 })).statusCode).toBe(201);

    const heard = nextChange(otherTill, 'sale', 5000);
    const missed = nextChange(otherShop, null, 1500);
    const sale = await inject('/sale', {
      items: [{ productId: product.json().id, quantity: 1 }],
      payments: [{ method: 'pix', amountCents: 1500 }],
    });
    expect(sale.statusCode, sale.body).toBe(201);
    expect(await heard).toEqual({ resource: 'sale', id: sale.json().id });
    expect(await missed).toBe('nothing');
  });
});
