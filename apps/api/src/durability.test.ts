import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openTestDatabase, type TestApp } from '../test/helper.ts';
import { makeProduct, makeShop } from '../test/kit.ts';
import { buildApp } from './app.ts';
import { testConfig } from './config.ts';
import { type Database, fromPglite } from './db/client.ts';

/**
 * Issue 37, faults: kill -9 durability. Sales with Idempotency-Keys are posted by several tills to a
 * real server process (apps/api/src/server.ts, as `npm start` runs it), the process is SIGKILLed at
 * a random moment, then started again on the same data; the tills send again what got no answer (as
 * the PDV's outbox does). Every acknowledged sale is there once, none twice, and the stock is exact.
 * PGlite by default; PostgreSQL when DATABASE_URL is set (CI's second API run).
 */

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const TILLS = 4;
const INITIAL_STOCK = 100_000;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

type Server = { url: string; child: ChildProcess; exited: Promise<void>; output: string[] };

async function startServer(env: Record<string, string>): Promise<Server> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/server.ts'], {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout?.on('data', (chunk) => output.push(String(chunk)));
  child.stderr?.on('data', (chunk) => output.push(String(chunk)));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const url = `http://127.0.0.1:${port}`;
  const until = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited: ${output.join('')}`);
    const ready = await fetch(`${url}/v1/ready`).then(
      (res) => res.status === 200,
      () => false,
    );
    if (ready) return { url, child, exited, output };
    if (Date.now() > until) throw new Error(`server not ready: ${output.join('')}`);
    await new Promise((done) => setTimeout(done, 100));
  }
}

describe('kill -9 while selling (issue 37)', () => {
  const onPostgres = Boolean(process.env.DATABASE_URL);
  let dataDir: string | undefined;
  let database: Database | undefined;
  let env: Record<string, string>;
  let token: string;
  let productId: number;
  let clientId: number;
  let server: Server | undefined;

  beforeAll(async () => {
    // The shop (a user with an open register, a product with stock) is written before the server
    // starts: PGlite is one process's database.
    let db: Database;
    if (onPostgres) {
      database = await openTestDatabase();
      db = database;
    } else {
      dataDir = mkdtempSync(join(tmpdir(), 'balcao-kill-'));
      cpSync(inject('pgliteTemplate'), join(dataDir, 'pglite'), { recursive: true });
      db = fromPglite(await PGlite.create(join(dataDir, 'pglite'), { extensions: { pg_trgm } }));
    }
    const app = await buildApp({ db: db.db, config: testConfig() });
    await app.ready();
    const t: TestApp = { app, database: db, close: () => app.close() };
    const shop = await makeShop(t);
    token = shop.token;
    clientId = shop.client.id;
    productId = (await makeProduct(t, shop.auth, { salePriceCents: 1000, stock: INITIAL_STOCK })).id;
    await app.close();
    if (!onPostgres) await db.close();
    env = {
      ...(onPostgres
        ? { DATABASE_URL: db.url as string }
        : { DATA_DIR: dataDir as string, DATABASE_URL: '' }),
      NODE_ENV: 'production',
      DEMO: '0',
      LOG_LEVEL: 'warn',
      WEB_DIST: resolve(root, '.tmp/no-web'),
      SECRETS_KEY: 'durability-test-secrets-key',
    };
  }, 120_000);

  afterAll(async () => {
    if (server && server.child.exitCode === null && server.child.signalCode === null) {
      server.child.kill('SIGKILL');
      await server.exited;
    }
    await database?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  const sell = (url: string, key: string) =>
    fetch(`${url}/v1/sale`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${token}`,
        'idempotency-key': key,
      },
      body: JSON.stringify({
        items: [{ productId, quantity: 1 }],
        payments: [{ method: 'pix', amountCents: 1000 }],
      }),
    });

  it('every acknowledged sale is there once and the stock is exact after a SIGKILL at a random moment', async () => {
    server = await startServer(env);
    const first = server;
    const acked = new Map<string, number>(); // key -> sale id
    const unanswered = new Set<string>();
    let killed = false;
    const till = async (n: number) => {
      for (let i = 0; !killed; i++) {
        const key = `caixa${n}-venda${i}`;
        unanswered.add(key);
        const res = await sell(first.url, key).catch(() => undefined);
        if (!res) return; // the server is gone: the sale stays in the till's queue
        const body = (await res.json().catch(() => undefined)) as { id?: number } | undefined;
        if (!body) return;
        expect([200, 201]).toContain(res.status);
        acked.set(key, body.id as number);
        unanswered.delete(key);
      }
    };
    const tills = Array.from({ length: TILLS }, (_, n) => till(n));
    // A random moment, after some sales were acknowledged.
    const delay = 500 + Math.floor(Math.random() * 1500);
    const until = Date.now() + 30_000;
    while (acked.size < 10 && Date.now() < until) await new Promise((done) => setTimeout(done, 20));
    await new Promise((done) => setTimeout(done, delay));
    first.child.kill('SIGKILL');
    killed = true;
    await first.exited;
    await Promise.all(tills);
    expect(acked.size).toBeGreaterThanOrEqual(10);

    server = await startServer(env);
    const second = server;
    // The tills send again what got no answer: written once whether or not it reached the disk.
    for (const key of unanswered) {
      const res = await sell(second.url, key);
      expect([200, 201]).toContain(res.status);
      acked.set(key, ((await res.json()) as { id: number }).id);
    }
    // An acknowledged sale sent again is the same sale (its key survived the kill).
    const [someKey, someId] = [...acked.entries()][0];
    const again = await sell(second.url, someKey);
    expect(again.status).toBe(200);
    expect(((await again.json()) as { id: number }).id).toBe(someId);

    const product = await fetch(`${second.url}/v1/product/${productId}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(((await product.json()) as { stock: number }).stock).toBe(INITIAL_STOCK - acked.size);
    second.child.kill('SIGTERM');
    await second.exited;

    // In the database: one sale per key, no other sale, each key on the sale it answered.
    const db = onPostgres
      ? (database as Database)
      : fromPglite(await PGlite.create(join(dataDir as string, 'pglite'), { extensions: { pg_trgm } }));
    try {
      const sales = (await db.db.execute(
        sql`select k.key, k.sale_id as "saleId" from sales s
            left join sale_idempotency_keys k on k.sale_id = s.id and k.client_id = s.client_id
            where s.client_id = ${clientId}`,
      )) as unknown as { rows: { key: string | null; saleId: number | null }[] };
      expect(sales.rows).toHaveLength(acked.size);
      const stored = new Map(sales.rows.map((r) => [r.key, r.saleId]));
      expect(stored).toEqual(acked);
    } finally {
      if (!onPostgres) await db.close();
    }
  }, 180_000); // two server starts (migrations on PGlite): ~40 s alone, near 90 s on a loaded machine
});
