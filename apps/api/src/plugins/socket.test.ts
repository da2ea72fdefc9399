import { eq } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { describe, expect, it } from 'vitest';
import { bearer, TEST_PASSWORD, type TestApp } from '../../test/helper.ts';
import {
  api,
  asUser,
  joinChannel,
  login,
  makeProduct,
  makeSale,
  makeShop,
  nextChange,
  nextMessage,
  type SocketClients,
  socketOutcome,
  useTestApp,
} from '../../test/kit.ts';
import { sessions } from '../db/schema.ts';

const API_KEY = 'chave-de-teste';

let t: TestApp;
let sockets: SocketClients;
useTestApp({ config: { apiKey: API_KEY }, sockets: true }, (app) => ({ t, sockets } = app));

describe('socket connection', () => {
  it('refuses a socket without the API key or with a wrong one', async () => {
    const { token } = await asUser(t, [1]);
    expect(await socketOutcome(sockets.open({ token }))).toBe('refused: Chave de API inválida');
    expect(await socketOutcome(sockets.open({ key: 'outra-chave', token }))).toBe(
      'refused: Chave de API inválida',
    );
  });

  it('refuses a socket without a token, with an unknown one or with a revoked one', async () => {
    const { token } = await asUser(t, [1]);
    expect(await socketOutcome(sockets.open({ key: API_KEY }))).toBe('refused: Sessão inválida');
    expect(await socketOutcome(sockets.open({ key: API_KEY, token: 'inventado' }))).toBe(
      'refused: Sessão inválida',
    );
    await api(t, bearer(token)).post('/logout');
    expect(await socketOutcome(sockets.open({ key: API_KEY, token }))).toBe('refused: Sessão inválida');
  });

  it('accepts the API key with a valid token in auth or in the query', async () => {
    const { token } = await asUser(t, [3]);
    await sockets.connected({ key: API_KEY, token });
    await sockets.connected({ key: API_KEY, queryToken: token });
  });
});

describe('channels', () => {
  it("refuses joining another client's channel and accepts the own one", async () => {
    const mine = await asUser(t, [5]);
    const other = await asUser(t, [1]);
    const socket = await sockets.connected({ key: API_KEY, token: mine.token });
    expect(await joinChannel(socket, `notifications_${other.client.id}`)).toEqual({
      ok: false,
      message: 'Canal não permitido',
    });
    expect((await joinChannel(socket, 'qualquer-coisa')).ok).toBe(false);
    expect((await joinChannel(socket, { channel: `notifications_${other.client.id}` })).ok).toBe(false);
    expect((await joinChannel(socket, null)).ok).toBe(false);
    expect(await joinChannel(socket, `notifications_${mine.client.id}`)).toEqual({ ok: true });
    expect(await joinChannel(socket, { channel: `notifications_${mine.client.id}` })).toEqual({ ok: true });
  });

  it('refuses a join after the session was revoked', async () => {
    const mine = await asUser(t, [1]);
    const socket = await sockets.connected({ key: API_KEY, token: mine.token });
    // Straight in the table (a logout would also close the socket, see below).
    await t.database.db.delete(sessions).where(eq(sessions.userId, mine.users[0].user.id));
    expect((await joinChannel(socket, `notifications_${mine.client.id}`)).ok).toBe(false);
  });

  it("delivers notify() to the client's joined sockets only, as newChannelMessage with JSON text", async () => {
    const mine = await asUser(t, [1, 4]);
    const other = await asUser(t, [1]);
    const joined = await sockets.connected({ key: API_KEY, token: mine.users[1].token });
    expect((await joinChannel(joined, `notifications_${mine.client.id}`)).ok).toBe(true);
    const notJoined = await sockets.connected({ key: API_KEY, token: mine.users[0].token });
    const otherClient = await sockets.connected({ key: API_KEY, token: other.token });
    expect((await joinChannel(otherClient, `notifications_${other.client.id}`)).ok).toBe(true);
    // A refused join must not subscribe either.
    await joinChannel(otherClient, `notifications_${mine.client.id}`);

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
    const mine = await asUser(t, [2]);
    const socket = await sockets.connected({ key: API_KEY, token: mine.token });
    expect((await joinChannel(socket, `notifications_${mine.client.id}`)).ok).toBe(true);

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
    const res = await mine.api.post('/notification', { message: 'Reunião às 18h', alertColor: 'success' });
    expect(res.statusCode).toBe(200);
    expect(JSON.parse(((await second) as { message: string }).message)).toEqual({
      message: 'Reunião às 18h',
      alertColor: 'success',
    });
  });

  it('stops delivering after leaveChannel', async () => {
    const mine = await asUser(t, [1]);
    const socket = await sockets.connected({ key: API_KEY, token: mine.token });
    const channel = `notifications_${mine.client.id}`;
    expect((await joinChannel(socket, channel)).ok).toBe(true);
    expect(await socket.timeout(5000).emitWithAck('leaveChannel', channel)).toEqual({ ok: true });
    const missed = nextMessage(socket, 1000);
    t.app.ctx.notify(mine.client.id, { message: 'Ninguém ouve' });
    expect(await missed).toBe('nothing');
  });
});

describe('data changes', () => {
  it("signals a checkout to the shop's other tills as change {resource: 'sale', id}; another shop hears nothing", async () => {
    const shop = await makeShop(t, [1, 4]);
    const other = await asUser(t, [1]);
    const otherTill = await sockets.connected({ key: API_KEY, token: shop.users[1].token });
    expect((await joinChannel(otherTill, `notifications_${shop.client.id}`)).ok).toBe(true);
    const otherShop = await sockets.connected({ key: API_KEY, token: other.token });
    expect((await joinChannel(otherShop, `notifications_${other.client.id}`)).ok).toBe(true);

    const product = await makeProduct(t, shop.auth, { name: 'Café', salePriceCents: 1500, stock: 10 });

    const heard = nextChange(otherTill, 'sale', 5000);
    const missed = nextChange(otherShop, null, 1500);
    const sale = await makeSale(t, shop.auth, {
      items: [{ productId: product.id, quantity: 1 }],
      payments: [{ method: 'pix', amountCents: 1500 }],
    });
    expect(await heard).toEqual({ resource: 'sale', id: sale.id });
    expect(await missed).toBe('nothing');
  });
});

/** Resolves with the disconnect reason, or 'still connected' after the wait. */
function disconnection(socket: Socket, waitMs = 3000): Promise<string> {
  if (socket.disconnected) return Promise.resolve('already disconnected');
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve('still connected'), waitMs);
    socket.once('disconnect', (reason) => {
      clearTimeout(timer);
      resolve(reason);
    });
  });
}

describe('sockets end with their session', () => {
  /** A joined socket of `token`, in its client's channel. */
  const joined = async (token: string, clientId: number) => {
    const socket = await sockets.connected({ key: API_KEY, token });
    expect((await joinChannel(socket, `notifications_${clientId}`)).ok).toBe(true);
    return socket;
  };

  it('closes the socket of a session that logs out, and it hears nothing more; other sessions stay', async () => {
    const shop = await asUser(t, [1]);
    const second = (await login(t, shop.users[0].email, TEST_PASSWORD)).json().token as string;
    const socket = await joined(shop.token, shop.client.id);
    const other = await joined(second, shop.client.id);
    const closed = disconnection(socket);
    await shop.api.post('/logout');
    expect(await closed).toBe('io server disconnect');
    const heard = nextMessage(other, 3000);
    const missed = nextMessage(socket, 500);
    t.app.ctx.notify(shop.client.id, { message: 'Depois do logout' });
    expect(await missed).toBe('nothing');
    expect(await heard).toEqual({ message: expect.any(String) });
  });

  it('closes every socket of a user who is deactivated', async () => {
    const shop = await asUser(t, [1, 4]);
    const cashier = shop.users[1];
    const socket = await joined(cashier.token, shop.client.id);
    const adminSocket = await joined(shop.token, shop.client.id);
    const staff = (await shop.api.get(`/user/${cashier.user.id}`)).json();
    const closed = disconnection(socket);
    const res = await shop.api.put(`/user/${cashier.user.id}`, {
      name: staff.name,
      email: staff.email,
      userTypeId: staff.userType.id,
      active: false,
      updatedAt: staff.updatedAt,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await closed).toBe('io server disconnect');
    expect(await disconnection(adminSocket, 300)).toBe('still connected');
  });

  it("closes the user's other sessions' sockets on a password change; the changing session's stays", async () => {
    const shop = await asUser(t, [4]);
    const other = (await login(t, shop.users[0].email, TEST_PASSWORD)).json().token as string;
    const otherSocket = await joined(other, shop.client.id);
    const ownSocket = await joined(shop.token, shop.client.id);
    const closed = disconnection(otherSocket);
    const res = await shop.api.post('/user/me/password', {
      currentPassword: TEST_PASSWORD,
      newPassword: 'uma-senha-nova-1',
      confirmation: 'uma-senha-nova-1',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await closed).toBe('io server disconnect');
    expect(await disconnection(ownSocket, 300)).toBe('still connected');
  });

  it('closes the sockets of a deleted user', async () => {
    const shop = await asUser(t, [1, 6]);
    const socket = await joined(shop.users[1].token, shop.client.id);
    const closed = disconnection(socket);
    expect((await shop.api.delete(`/user/${shop.users[1].user.id}`)).statusCode).toBe(200);
    expect(await closed).toBe('io server disconnect');
  });

  it('closes a socket when its session expires', async () => {
    const shop = await asUser(t, [1]);
    await t.database.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() + 800) })
      .where(eq(sessions.userId, shop.users[0].user.id));
    const socket = await joined(shop.token, shop.client.id);
    expect(await disconnection(socket, 4000)).toBe('io server disconnect');
  });
});
