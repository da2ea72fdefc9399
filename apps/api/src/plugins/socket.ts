import { setTimeout as sleep } from 'node:timers/promises';
import type { NotificationInput } from '@balcao/core/notification';
import { createAdapter } from '@socket.io/postgres-adapter';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { Server } from 'socket.io';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { sessions } from '../db/schema.ts';
import { findSession } from './auth.ts';

const channelOf = (clientId: number) => `notifications_${clientId}`;
/** The channel every open screen of a shop joins (notifications, changes, the agent's scale). */
export const shopChannel = channelOf;
/** Every socket of a user is in this room (not a channel anyone joins): sessionsEnded finds them here. */
const userRoom = (userId: number) => `user_${userId}`;
/** setTimeout's longest wait (about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

type Ack = (answer: { ok: boolean; message?: string }) => void;

/** Sent to the other instances after sessions ended (sessionsEnded): each checks its own sockets. */
const SESSIONS_ENDED = 'balcao:sessionsEnded';

/**
 * Several API instances (issue 22): socket.io's PostgreSQL adapter carries what one instance emits
 * (notify, changed, a print job to a station on another instance, fetchSockets) to the others over
 * LISTEN/NOTIFY on the app's own database, so no second engine (Redis) is needed. It has a pool of
 * its own: one connection stays LISTENing, the others send NOTIFY. Without it (PGlite, one process)
 * socket.io keeps its in-memory adapter.
 */
function usePostgresAdapter(app: FastifyInstance, io: Server, url: string) {
  const pool = new pg.Pool({ connectionString: url, max: 3 });
  pool.on('error', (error) => app.log.warn({ err: error }, 'socket.io adapter connection error'));
  io.adapter(
    createAdapter(pool, {
      errorHandler: (error) => app.log.warn({ err: error }, 'socket.io adapter error'),
      // An instance that died without saying so is forgotten after heartbeatTimeout; until then a
      // fetchSockets waits for it (connectedStations bounds that wait).
      heartbeatInterval: 2_000,
      heartbeatTimeout: 6_000,
    }),
  );
  return pool;
}

/**
 * socket.io on the API's port. A socket needs the API key (query `key`) and a valid token
 * (`auth.token` or query `token`); it may join only its own client's channel. With `clusterUrl` (the
 * PostgreSQL database every instance shares) events reach sockets on every instance.
 */
export function attachSocket(app: FastifyInstance, db: Db, config: Config, clusterUrl?: string): Server {
  const io = new Server(app.server, { path: '/socket.io', serveClient: false, connectTimeout: 20_000 });
  const adapterPool = clusterUrl ? usePostgresAdapter(app, io, clusterUrl) : null;
  if (adapterPool) {
    // The adapter opens its LISTEN connection in the background; socket.io's close releases it only
    // once it is there, so an app closed right after it started (a test, a failed boot) would wait
    // on it forever. Ready means listening (or 5 s without the database: the adapter keeps retrying).
    const pubSub = () => (io.of('/').adapter as unknown as { client?: { client?: unknown } }).client;
    app.addHook('onReady', async () => {
      for (let waited = 0; !pubSub()?.client && waited < 5_000; waited += 20) await sleep(20);
    });
  }
  if (adapterPool)
    io.on(SESSIONS_ENDED, (userId: number) => {
      endGoneSessions(io, db, userId).catch((error) =>
        app.log.warn({ err: error }, 'sessionsEnded check failed'),
      );
    });

  io.use(async (socket, next) => {
    const { key, token: queryToken } = socket.handshake.query;
    if (key !== config.apiKey) return next(new Error('Chave de API inválida'));
    // A print agent (issue 36) has its own token, not a session: the printing module's middleware,
    // registered after this one, checks it (and refuses the socket when it is not a live agent's).
    if (typeof socket.handshake.auth?.agentToken === 'string') {
      socket.data.agentToken = socket.handshake.auth.agentToken;
      return next();
    }
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
    // A print agent's socket joins no user room and no channel (the printing module runs it).
    if (socket.data.agentToken) return;
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

  // Shutdown: the sockets' connections are closed first (a closed transport, not a server disconnect,
  // so clients reconnect at once, through the load balancer to another instance) while in-flight HTTP
  // requests still finish; the socket.io server and its adapter close after them.
  app.addHook('preClose', async () => {
    io.engine.close();
  });
  app.addHook('onClose', async () => {
    await io.close();
    // Bounded: a connection the adapter is still acquiring (the database gone) never comes back.
    if (adapterPool) await Promise.race([adapterPool.end(), sleep(3_000)]);
  });
  return io;
}

/** Disconnects this instance's sockets of a user whose session is gone. */
async function endGoneSessions(io: Server, db: Db, userId: number): Promise<void> {
  const sockets = await io.local.in(userRoom(userId)).fetchSockets();
  for (const socket of sockets) {
    const session = await findSession(db, socket.data.token).catch(() => null);
    if (!session) socket.disconnect(true);
  }
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
 * This instance's sockets before answering; the other instances are told (serverSideEmit) and check
 * theirs, so an instance that died never holds up a logout.
 */
export function sessionsEndedWith(io: Server | null, db: Db, clustered = false) {
  return async (userId: number): Promise<void> => {
    if (!io) return;
    if (clustered) io.serverSideEmit(SESSIONS_ENDED, userId);
    await endGoneSessions(io, db, userId);
  };
}
