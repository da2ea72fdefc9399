import type { NotificationInput } from '@balcao/core/notification';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { Server } from 'socket.io';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { sessions } from '../db/schema.ts';
import { findSession } from './auth.ts';

export const channelOf = (clientId: number) => `notifications_${clientId}`;
/** Every socket of a user is in this room (not a channel anyone joins): sessionsEnded finds them here. */
const userRoom = (userId: number) => `user_${userId}`;
/** setTimeout's longest wait (about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

type Ack = (answer: { ok: boolean; message?: string }) => void;

/**
 * socket.io on the API's port. A socket needs the API key (query `key`) and a valid token
 * (`auth.token` or query `token`); it may join only its own client's channel.
 */
export function attachSocket(app: FastifyInstance, db: Db, config: Config): Server {
  const io = new Server(app.server, { path: '/socket.io', serveClient: false, connectTimeout: 20_000 });

  io.use(async (socket, next) => {
    const { key, token: queryToken } = socket.handshake.query;
    if (key !== config.apiKey) return next(new Error('Chave de API inválida'));
    const token = (socket.handshake.auth?.token as string | undefined) ?? (queryToken as string | undefined);
    const session = token ? await findSession(db, token).catch(() => null) : null;
    if (!session) return next(new Error('Sessão inválida'));
    socket.data.clientId = session.clientId;
    socket.data.userId = session.userId;
    socket.data.token = token;
    const [row] = await db
      .select({ expiresAt: sessions.expiresAt })
      .from(sessions)
      .where(eq(sessions.id, session.sessionId))
      .catch(() => []);
    socket.data.expiresAt = row?.expiresAt.getTime() ?? Date.now();
    next();
  });

  io.on('connection', (socket) => {
    // A socket lives as long as its session: it ends when the session expires (here), is logged out,
    // or its user is deactivated, deleted or changes password (sessionsEnded, called by those routes).
    void socket.join(userRoom(socket.data.userId));
    const expiry = setTimeout(
      () => socket.disconnect(true),
      Math.min(Math.max(socket.data.expiresAt - Date.now(), 0), MAX_TIMER_MS),
    );
    socket.on('disconnect', () => clearTimeout(expiry));
    const channelName = (payload: unknown) =>
      typeof payload === 'string' ? payload : (payload as { channel?: string } | null)?.channel;

    socket.on('joinChannel', async (payload: unknown, ack?: Ack) => {
      const channel = channelName(payload);
      // The token is checked again at join: a revoked session cannot subscribe.
      const session = await findSession(db, socket.data.token).catch(() => null);
      if (!session || channel !== channelOf(session.clientId)) {
        ack?.({ ok: false, message: 'Canal não permitido' });
        return;
      }
      await socket.join(channel);
      ack?.({ ok: true });
    });

    socket.on('leaveChannel', async (payload: unknown, ack?: Ack) => {
      const channel = channelName(payload);
      if (channel) await socket.leave(channel);
      ack?.({ ok: true });
    });
  });

  app.addHook('onClose', async () => {
    await io.close();
  });
  return io;
}

/** Sends a notification to every socket of a client (spec 7: newChannelMessage with JSON text). */
export function notifyWith(io: Server | null) {
  return (clientId: number, notification: NotificationInput) => {
    if (!io) return;
    const { message, alertColor = 'info' } = notification;
    const payload = { message: JSON.stringify({ message, alertColor }) };
    io.to(channelOf(clientId)).emit('newChannelMessage', payload);
  };
}

/** Sends a data-change signal to every socket of a client (event `change`, payload `{resource, id}`). */
export function changedWith(io: Server | null) {
  return (clientId: number, resource: string, id?: number) => {
    if (!io) return;
    io.to(channelOf(clientId)).emit('change', { resource, id });
  };
}

/**
 * After sessions of a user ended (logout, deactivation, deletion, password change): that user's sockets
 * whose session is gone are disconnected, so they hear nothing more; the user's live sessions keep theirs.
 */
export function sessionsEndedWith(io: Server | null, db: Db) {
  return async (userId: number): Promise<void> => {
    if (!io) return;
    const sockets = await io.in(userRoom(userId)).fetchSockets();
    for (const socket of sockets) {
      const session = await findSession(db, socket.data.token).catch(() => null);
      if (!session) socket.disconnect(true);
    }
  };
}
