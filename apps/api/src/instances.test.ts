import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PRINT_JOB_EVENT, PRINT_STATION_EVENT, type PrintJob } from '@balcao/core/printing';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import sharp from 'sharp';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeS3, startFakeS3 } from '../test/fakes/s3.ts';
import { makeCnpj, openTestDatabase, TEST_PASSWORD } from '../test/helper.ts';
import { ONE_PRINTER_SETTINGS } from '../test/kit.ts';
import type { Database } from './db/client.ts';
import { scheduledJobs, users } from './db/schema.ts';
import { insertClient } from './modules/account/service.ts';
import { TOO_MANY_LOGINS } from './modules/auth/limiter.ts';
import { hashPassword } from './modules/auth/password.ts';

/**
 * Issue 22: two API processes (apps/api/src/server.ts, as production starts it) on one PostgreSQL
 * database behave as one. Needs a PostgreSQL server (DATABASE_URL; CI's step 3); skipped on PGlite.
 */

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const API_KEY = 'balcao-public-key';

type Instance = {
  name: string;
  url: string;
  port: number;
  process: ChildProcess;
  output: string[];
  exited: Promise<number | null>;
};

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** Polls `check` until it answers something truthy, or fails after `timeoutMs`. */
async function waitFor<T>(
  what: string,
  check: () => Promise<T>,
  timeoutMs = 20_000,
): Promise<NonNullable<T>> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value) return value as NonNullable<T>;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

async function startInstance(name: string, env: Record<string, string>): Promise<Instance> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/server.ts'], {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', INSTANCE_ID: name },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout?.on('data', (chunk) => output.push(String(chunk)));
  child.stderr?.on('data', (chunk) => output.push(String(chunk)));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  const instance = { name, url: `http://127.0.0.1:${port}`, port, process: child, output, exited };
  await waitFor(
    `instance ${name} ready`,
    async () => {
      if (child.exitCode !== null) throw new Error(`instance ${name} exited: ${output.join('')}`);
      return (await fetch(`${instance.url}/v1/ready`)).status === 200;
    },
    60_000,
  ).catch((error) => {
    throw new Error(`${error.message}\n${output.join('')}`);
  });
  return instance;
}

const post = (instance: Instance, path: string, body: unknown, token?: string) =>
  fetch(`${instance.url}/v1${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });

function socketTo(instance: Instance, token: string): Promise<Socket> {
  const socket = connect(instance.url, {
    path: '/socket.io',
    query: { key: API_KEY },
    auth: { token },
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
  });
  return new Promise((done, fail) => {
    socket.once('connect', () => done(socket));
    socket.once('connect_error', fail);
  });
}

function nextEvent<T = unknown>(socket: Socket, event: string, timeoutMs = 10_000): Promise<T> {
  return new Promise((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`no ${event} within ${timeoutMs} ms`)), timeoutMs);
    socket.once(event, (payload: T) => {
      clearTimeout(timer);
      done(payload);
    });
  });
}

const hasPostgres = Boolean(process.env.DATABASE_URL);

/**
 * Backends of the test database waiting for a lock (the query text is not reliable: a statement that
 * waits while it is being parsed still shows the previous one).
 */
const LOCK_WAITERS = `select count(*)::int as n from pg_stat_activity
  where datname = current_database() and wait_event_type = 'Lock'`;

describe.skipIf(!hasPostgres)('two API instances on one PostgreSQL (issue 22)', () => {
  let database: Database;
  let s3: FakeS3;
  let a: Instance;
  let b: Instance;
  let clientId: number;
  let email: string;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    database = await openTestDatabase();
    s3 = await startFakeS3({ buckets: ['balcao'] });
    const env = {
      DATABASE_URL: database.url as string,
      NODE_ENV: 'production',
      DEMO: '0',
      LOG_LEVEL: 'warn',
      WEB_DIST: resolve(root, '.tmp/no-web'),
      SECRETS_KEY: 'instances-test-secrets-key',
      S3_ENDPOINT: s3.url,
      S3_BUCKET: 'balcao',
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'fake-access-key',
      S3_SECRET_ACCESS_KEY: 'fake-secret-key',
      S3_FORCE_PATH_STYLE: 'true',
      JOBS_POLL_MS: '200',
      JOB_LEASE_MS: '3000',
      SHUTDOWN_TIMEOUT_MS: '20000',
    };
    [a, b] = await Promise.all([startInstance('A', env), startInstance('B', env)]);

    const client = await insertClient(database.db, {
      name: 'Loja Duas Instâncias',
      document: makeCnpj(String(Date.now())),
      clientTypeId: 1,
      phone: '5511987654321',
    });
    clientId = client.id;
    email = `dono${Date.now()}@teste.com.br`;
    await database.db.insert(users).values({
      clientId,
      name: 'Dona da Loja',
      email,
      passwordHash: await hashPassword(TEST_PASSWORD),
      userTypeId: 1,
    });
  }, 120_000);

  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    for (const instance of [a, b]) {
      if (instance && instance.process.exitCode === null && instance.process.signalCode === null) {
        instance.process.kill('SIGKILL');
        await instance.exited;
      }
    }
    await s3?.close();
    await database?.close();
  }, 60_000);

  const login = async (instance: Instance, password = TEST_PASSWORD) =>
    post(instance, '/login', { email, password });
  const tokenFrom = async (instance: Instance) => {
    const res = await login(instance);
    expect(res.status).toBe(200);
    return ((await res.json()) as { token: string }).token;
  };

  it('a notification produced through A reaches a socket connected to B', async () => {
    const token = await tokenFrom(a);
    const onB = await socketTo(b, token);
    sockets.push(onB);
    const joined = await onB.timeout(5000).emitWithAck('joinChannel', `notifications_${clientId}`);
    expect(joined).toEqual({ ok: true });

    const message = nextEvent<{ message: string }>(onB, 'newChannelMessage');
    const sent = await post(a, '/notification', { message: 'Reunião às 18h', alertColor: 'warning' }, token);
    expect(sent.status).toBe(200);
    expect(JSON.parse((await message).message)).toEqual({ message: 'Reunião às 18h', alertColor: 'warning' });
  });

  it('a print job queued through A goes to the print station connected to B, once', async () => {
    const token = await tokenFrom(a);
    const put = await fetch(`${a.url}/v1/printing/settings`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(ONE_PRINTER_SETTINGS),
    });
    expect(put.status).toBe(200);
    const profileId = ((await put.json()) as { profiles: { id: number }[] }).profiles[0].id;
    const stationOnB = await socketTo(b, token);
    const watcherOnA = await socketTo(a, token);
    sockets.push(stationOnB, watcherOnA);
    expect(await watcherOnA.timeout(5000).emitWithAck('joinChannel', `notifications_${clientId}`)).toEqual({
      ok: true,
    });
    const joined = await stationOnB.timeout(5000).emitWithAck(PRINT_STATION_EVENT, {
      name: 'Balcão 2',
      profileIds: [profileId],
    });
    expect(joined).toMatchObject({ ok: true });
    const received: PrintJob[] = [];
    stationOnB.on(PRINT_JOB_EVENT, (job: PrintJob) => received.push(job));

    // A lists B's station (fetchSockets across instances).
    const stations = await fetch(`${a.url}/v1/printing/stations`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(stations.status).toBe(200);
    expect(await stations.json()).toEqual([
      expect.objectContaining({ name: 'Balcão 2', profileIds: [profileId] }),
    ]);

    const change = nextEvent<{ resource: string; id: number }>(watcherOnA, 'change');
    const queued = await post(
      a,
      '/printing/job',
      {
        profileId,
        kind: 'document',
        payload: { title: 'Pedido 12', lines: ['1 Café'] },
        idempotencyKey: 'pedido-12',
      },
      token,
    );
    expect(queued.status).toBe(201);
    const job = (await queued.json()) as { id: number; status: string; stationName: string | null };
    expect(job).toMatchObject({ status: 'sent', stationName: 'Balcão 2' });
    expect(await change).toMatchObject({ resource: 'print-job' });
    await waitFor('the job on the station', async () => received.length > 0);
    await sleep(500);
    expect(received.map((r) => r.id)).toEqual([job.id]);
    expect(received[0].payload).toEqual({ title: 'Pedido 12', lines: ['1 Café'] });
  });

  it("logging out through A disconnects that session's socket on B, not the live session's", async () => {
    const ending = await tokenFrom(a);
    const staying = await tokenFrom(b);
    const endingSocket = await socketTo(b, ending);
    const stayingSocket = await socketTo(a, staying);
    const stayingOnB = await socketTo(b, staying);
    sockets.push(endingSocket, stayingSocket, stayingOnB);
    const reason = nextEvent<string>(endingSocket, 'disconnect');
    const out = await fetch(`${a.url}/v1/logout`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ending}` },
    });
    expect(out.status).toBeLessThan(300);
    expect(await reason).toBe('io server disconnect');
    await sleep(500);
    expect(stayingSocket.connected).toBe(true);
    expect(stayingOnB.connected).toBe(true);
  });

  it('the login limit counts attempts sent to both instances', async () => {
    const statuses: number[] = [];
    for (const instance of [a, b, a, b, a]) statuses.push((await login(instance, 'senha-errada')).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401]);
    for (const instance of [b, a]) {
      const refused = await login(instance, 'senha-errada');
      expect(refused.status).toBe(429);
      expect(((await refused.json()) as { message: string }).message).toBe(TOO_MANY_LOGINS);
    }
    // Even the right password waits now, on either instance.
    expect((await login(b)).status).toBe(429);
    await database.db.execute(sql`delete from rate_limits`);
  });

  it('an image uploaded through A is served by B (S3-compatible storage)', async () => {
    const token = await tokenFrom(a);
    const product = (await (
      await post(a, '/product', { name: 'Bolo de milho', salePriceCents: 1200 }, token)
    ).json()) as {
      id: number;
    };
    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#2a6' } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append('file', new Blob([png], { type: 'image/png' }), 'bolo.png');
    const uploaded = await fetch(`${a.url}/v1/product/${product.id}/image`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    expect(uploaded.status).toBe(201);
    const image = (await uploaded.json()) as { url: string; thumbUrl: string };
    expect(
      [...(s3.buckets.get('balcao')?.keys() ?? [])].some((key) => key.startsWith(`product/${clientId}/`)),
    ).toBe(true);

    const served = await fetch(`${b.url}${image.url}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/webp');
    const meta = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 64, 48]);
  });

  it('a job claimed by one instance that dies mid-job is finished by the other, exactly once', async () => {
    const purge = 'idempotency-key-purge';
    await database.db.execute(sql`insert into sale_idempotency_keys (client_id, key, request_hash, created_at) values
      (${clientId}, 'antiga-1', 'h', now() - interval '9 days'),
      (${clientId}, 'antiga-2', 'h', now() - interval '20 days'),
      (${clientId}, 'recente', 'h', now() - interval '1 day')`);
    const before = await waitFor('the purge run at start', async () => {
      const [row] = await database.db.select().from(scheduledJobs).where(eq(scheduledJobs.name, purge));
      return row && row.runs >= 1 && !row.lockedBy ? row : null;
    });

    // Whoever claims the purge blocks on this lock in the middle of its DELETE.
    const blocker = new pg.Client({ connectionString: database.url });
    await blocker.connect();
    try {
      await blocker.query('begin');
      await blocker.query('lock table sale_idempotency_keys in share mode');
      await database.db
        .update(scheduledJobs)
        .set({ runAt: new Date(Date.now() - 1000) })
        .where(eq(scheduledJobs.name, purge));
      const claimer = await waitFor('a claim', async () => {
        const [row] = await database.db.select().from(scheduledJobs).where(eq(scheduledJobs.name, purge));
        return row?.lockedBy ?? null;
      });
      await waitFor('the claimer blocked mid-job', async () => {
        const { rows } = await blocker.query(LOCK_WAITERS);
        return rows[0].n === 1;
      });
      const [dying, survivor] = claimer === a.name ? [a, b] : [b, a];
      dying.process.kill('SIGKILL');
      await dying.exited;
      await blocker.query('commit');

      const after = await waitFor(
        'the survivor to finish the job',
        async () => {
          const [row] = await database.db.select().from(scheduledJobs).where(eq(scheduledJobs.name, purge));
          return row && row.runs > before.runs && !row.lockedBy ? row : null;
        },
        30_000,
      );
      expect(after.runs).toBe(before.runs + 1);
      expect(after.lastFinishedBy).toBe(survivor.name);
      // The dead instance's DELETE rolled back: the survivor deleted both old keys itself.
      expect(after.lastResult).toEqual({ purged: 2 });
      const { rows } = await blocker.query('select key from sale_idempotency_keys where client_id = $1', [
        clientId,
      ]);
      expect(rows.map((r: { key: string }) => r.key)).toEqual(['recente']);
      await sleep(1500);
      const [settled] = await database.db.select().from(scheduledJobs).where(eq(scheduledJobs.name, purge));
      expect(settled.runs).toBe(after.runs);
    } finally {
      await blocker.query('rollback').catch(() => {});
      await blocker.end();
    }
  }, 90_000);

  it('SIGTERM: the request in flight finishes, sockets are told to reconnect, leases are given back', async () => {
    const survivor = a.process.exitCode === null && a.process.signalCode === null ? a : b;
    const token = await tokenFrom(survivor);
    const socket = await socketTo(survivor, token);
    sockets.push(socket);
    const blocker = new pg.Client({ connectionString: database.url });
    await blocker.connect();
    try {
      await blocker.query('begin');
      await blocker.query('lock table rate_limits in exclusive mode');
      const inFlight = login(survivor);
      await waitFor('the login blocked in flight', async () => {
        const { rows } = await blocker.query(LOCK_WAITERS);
        return rows[0].n === 1;
      });
      const reason = nextEvent<string>(socket, 'disconnect');
      survivor.process.kill('SIGTERM');
      // A closed transport (the client reconnects by itself), not a server disconnect.
      expect(await reason).toBe('transport close');
      await sleep(300);
      await blocker.query('commit');
      expect((await inFlight).status).toBe(200);
      const code = await survivor.exited;
      if (code !== 0) console.log(survivor.output.join('').slice(-3000));
      expect(code).toBe(0);
      const held = await database.db
        .select()
        .from(scheduledJobs)
        .where(eq(scheduledJobs.lockedBy, survivor.name));
      expect(held).toEqual([]);
    } finally {
      await blocker.query('rollback').catch(() => {});
      await blocker.end();
    }
  }, 60_000);
});
