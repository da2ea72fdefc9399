/**
 * Checkout benchmark (issue 7): a 10-item sale with stock control and a coupon, POST /v1/sale through
 * the production server, at 10 and 50 concurrent clients, on PGlite and on PostgreSQL; then the same
 * transaction issued as raw SQL by this script (the database's own limit), so the API/raw ratio shows.
 * Two scenarios (BENCH_SCENARIOS=tills,hot): every client its own till selling 10 of 500 products at
 * random, and the worst case of one operator selling the same 10 products on every client.
 *
 *   npx tsx bench/checkout.ts                      # PGlite only
 *   BENCH_PG_URL=postgres://postgres@127.0.0.1:55437/postgres npx tsx bench/checkout.ts   # + PostgreSQL
 *   BENCH_PG_URL='postgres://postgres@localhost/postgres?host=/run/postgresql' ...        # Unix socket
 *
 * BENCH_PG_URL is an admin URL: the script creates (and drops) its own databases there; the API and the
 * raw SQL reach them the same way (TCP or socket). BENCH_PARTS=pglite-api,pglite-raw,pg-api,pg-raw
 * picks parts; BENCH_DURATION (s), BENCH_CATALOG (products) change the run; BENCH_SERVER_PROF=dir
 * writes a CPU profile of the server; BENCH_RAW_PREPARED=1 sends the raw SQL as named prepared
 * statements (parsed once per connection, PGlite through the API's own db/prepared.ts: the database's
 * best case). BENCH_BEFORE=<commit> also runs the API of that commit (exported to a temporary
 * folder) right before this code's, on the same engine, so before and after share the run.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { couponDiscountCents } from '@balcao/core/coupon';
import { computeSaleTotals } from '@balcao/core/sale';
import { DEFAULT_TIME_ZONE, dateIn } from '@balcao/core/time';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import { fromPglite, fromPostgres, migrateDatabase } from '../apps/api/src/db/client.ts';
import { preparingClient, withPreparedStatements } from '../apps/api/src/db/prepared.ts';
import {
  cpuMsOf,
  ensureWebBuild,
  exportCommit,
  type Figures,
  load,
  machine,
  type Server,
  startServer,
  table,
} from './lib.ts';

const ITEMS = 10;
/** Products of the realistic scenario: each sale takes 10 of them at random. */
const CATALOG = Number(process.env.BENCH_CATALOG ?? 500);
const COUPON_PERCENT = 5;
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONCURRENCY = [10, 50];
const TILLS = Math.max(...CONCURRENCY);

/**
 * - tills: every client is its own till (a Caixa user with an open register), each sale is 10 products
 *   drawn at random from a 500-product catalog, with the shop's 5% coupon (no use limit), as a busy
 *   shop (or several) works;
 * - hot: the worst case: one operator, every sale the same 10 products, every sale waiting for the
 *   previous one's row locks on them (the figures of the first runs).
 */
type Scenario = 'tills' | 'hot';
const SCENARIOS = (process.env.BENCH_SCENARIOS ?? 'tills,hot').split(',') as Scenario[];

const priceOf = (i: number) => 1000 + ((i * 137) % 9000);

/** The sale's final amount: the same core functions the API uses. */
function finalAmount(prices: number[]): number {
  const lines = prices.map((unitPriceCents) => ({ unitPriceCents, quantity: 1 }));
  const subtotal = computeSaleTotals({ lines }).totalCents;
  const coupon = couponDiscountCents({ discountType: 'PERCENTAGE', discountValue: COUPON_PERCENT }, subtotal);
  return computeSaleTotals({ lines, couponDiscountCents: coupon }).finalAmountCents;
}

/** 10 distinct indexes of the catalog, sorted (hot: always the first 10). */
function pick(scenario: Scenario): number[] {
  if (scenario === 'hot') return Array.from({ length: ITEMS }, (_, i) => i);
  const chosen = new Set<number>();
  while (chosen.size < ITEMS) chosen.add(Math.floor(Math.random() * CATALOG));
  return [...chosen];
}

// ----------------------------------------------------------------------------------- through the API

/**
 * CPU ms per sale of each row: the server process's (API) or this script's (raw SQL) CPU time over
 * the row, divided by the sales. On PGlite that is all of a sale's work (the database runs in the
 * process); on PostgreSQL the database's own processes are left out. It moves much less than sales/s
 * when other work shares the machine: raw CPU / API CPU is the API/raw a quiet machine would show
 * on PGlite (one thread does everything).
 */
const cpuPerSale = new Map<string, number>();

async function api<T>(server: Server, path: string, token: string | null, body?: unknown): Promise<T> {
  const res = await fetch(`${server.url}/v1${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

type ApiFixture = { admin: string; tills: string[]; productIds: number[]; code: string };

/** The catalog with a large stock, the coupon, the admin's and TILLS cashiers' registers open. */
async function arrangeApi(server: Server): Promise<ApiFixture> {
  const { token: admin } = await api<{ token: string }>(server, '/login', null, {
    email: 'administrador@demo.com.br',
    password: 'demo1234',
  });
  const tag = Date.now().toString(36);
  const productIds: number[] = [];
  for (let i = 0; i < CATALOG; i++) {
    const product = await api<{ id: number }>(server, '/product', admin, {
      name: `Bench ${tag} ${i}`,
      salePriceCents: priceOf(i),
      stock: 1_000_000,
    });
    productIds.push(product.id);
  }
  const today = dateIn(DEFAULT_TIME_ZONE); // the demo shop's day: the coupon is judged by it
  const code = `BENCH${tag}`.toUpperCase();
  await api(server, '/coupon', admin, {
    code,
    discountType: 'PERCENTAGE',
    discountValue: COUPON_PERCENT,
    startDate: today,
    endDate: '2099-12-31',
  });
  await api(server, '/cash-register/open', admin, { openingAmountCents: 0 });
  const tills: string[] = [];
  for (let i = 0; i < TILLS; i++) {
    const email = `caixa${i}.${tag}@bench.local`;
    await api(server, '/user', admin, {
      name: `Caixa ${i}`,
      email,
      userTypeId: 4,
      active: true,
      password: 'bench1234',
      passwordConfirmation: 'bench1234',
    });
    const { token } = await api<{ token: string }>(server, '/login', null, { email, password: 'bench1234' });
    await api(server, '/cash-register/open', token, { openingAmountCents: 0 });
    tills.push(token);
  }
  return { admin, tills, productIds, code };
}

function saleBody(f: ApiFixture, scenario: Scenario): string {
  const chosen = pick(scenario);
  return JSON.stringify({
    items: chosen.map((i) => ({ productId: f.productIds[i], quantity: 1 })),
    couponCode: f.code,
    payments: [{ method: 'pix', amountCents: finalAmount(chosen.map(priceOf)) }],
  });
}

async function benchApi(server: Server, label: string): Promise<Figures[]> {
  const f = await arrangeApi(server);
  // One sale first: it must go through (a wrong body would only measure errors).
  await api(server, '/sale', f.admin, JSON.parse(saleBody(f, 'tills')));
  const rows: Figures[] = [];
  for (const scenario of SCENARIOS) {
    for (const connections of CONCURRENCY) {
      let client = 0;
      const cpuBefore = server.pid ? cpuMsOf(server.pid) : 0;
      rows.push(
        await load(`${label} API, ${scenario}, ${connections} clients`, {
          url: `${server.url}/v1/sale`,
          method: 'POST',
          connections,
          duration: DURATION,
          // Each connection is one till (its operator's token); hot: all of them the admin.
          setupClient: (c) => {
            const token = scenario === 'hot' ? f.admin : f.tills[client++ % f.tills.length];
            c.setRequests([
              {
                // Every request is a new sale attempt with its own Idempotency-Key, as the PDV sends.
                setupRequest: (request) => ({
                  ...request,
                  headers: {
                    'content-type': 'application/json',
                    authorization: `Bearer ${token}`,
                    'idempotency-key': randomUUID(),
                  },
                  body: saleBody(f, scenario),
                }),
              },
            ]);
          },
        }),
      );
      const row = rows[rows.length - 1];
      if (server.pid && row.requests > 0)
        cpuPerSale.set(row.name, (cpuMsOf(server.pid) - cpuBefore) / row.requests);
    }
  }
  // Requests autocannon left in flight finish before the server is stopped.
  await new Promise((done) => setTimeout(done, 2000));
  return rows;
}

// ----------------------------------------------------------------------------------- raw SQL

type Query = (text: string, params?: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;
type Runner = {
  transaction: (work: (q: Query) => Promise<void>) => Promise<void>;
  close: () => Promise<void>;
};

/** Client, admin + TILLS users with open registers, the catalog, the coupon: inserted directly. */
async function arrangeRaw(q: Query) {
  const doc = String(Date.now()).padStart(14, '0').slice(-14);
  const [client] = (
    await q(`insert into clients (name, document, client_type_id) values ('Bench raw', $1, 1) returning id`, [
      doc,
    ])
  ).rows;
  const clientId = Number(client.id);
  const userIds: number[] = [];
  for (let i = 0; i <= TILLS; i++) {
    const [user] = (
      await q(
        `insert into users (client_id, name, email, password_hash, user_type_id) values ($1, $2, $3, 'x', $4) returning id`,
        [clientId, `Caixa ${i}`, `raw${i}.${doc}@bench.local`, i === 0 ? 1 : 4],
      )
    ).rows;
    userIds.push(Number(user.id));
    await q(`insert into cash_registers (client_id, user_id, opening_amount_cents) values ($1, $2, 0)`, [
      clientId,
      user.id,
    ]);
  }
  const productIds: number[] = [];
  for (let i = 0; i < CATALOG; i++) {
    const [p] = (
      await q(
        `insert into products (client_id, name, sale_price_cents, stock, name_key, search_text)
         values ($1, $2, $3, 1000000, $2, $2) returning id`,
        [clientId, `raw ${i}`, priceOf(i)],
      )
    ).rows;
    productIds.push(Number(p.id));
  }
  await q(
    `insert into coupons (client_id, code, discount_type, discount_value_hundredths, start_date, end_date)
     values ($1, 'RAW', 'PERCENTAGE', $2, '2000-01-01', '2099-12-31')`,
    [clientId, COUPON_PERCENT * 100],
  );
  return { clientId, admin: userIds[0], tills: userIds.slice(1), productIds };
}

/**
 * The checkout's statements in the API's order, hand-written (apps/api sale/record.ts, recordSale):
 * idempotency key claimed by the read of the register FOR SHARE with the stock settings, operator,
 * new id and receipt settings; catalog read; coupon read; sale (placeholder number) + items +
 * payment + key -> sale in one statement; products locked by id (and the ledger flag); ledger rows +
 * levels + the budget reservations held of them in one statement; counter numbering the sale +
 * coupon use in one statement. With BEGIN and COMMIT: 9 round trips.
 */
async function rawSale(
  q: Query,
  f: Awaited<ReturnType<typeof arrangeRaw>>,
  userId: number,
  chosen: number[],
) {
  const key = randomUUID();
  const ids = chosen.map((i) => f.productIds[i]);
  const [register] = (
    await q(
      `with claim as (insert into sale_idempotency_keys (client_id, key, request_hash) values ($1, $3, 'raw')
         on conflict do nothing returning key)
       select r.id, c.stock_management, coalesce(s.allow_negative_stock, false) as allow_negative, u.name,
         nextval(pg_get_serial_sequence('sales', 'id'))::int as sale_id, (select count(*) from claim)::int as claimed,
         (now() at time zone c.time_zone)::date::text as today,
         (select json_build_object('profileId', pp.id, 'paperWidth', pp.paper_width, 'shopName', pc.name)
          from printing_settings ps join printer_profiles pp on pp.id = ps.receipt_profile_id and pp.deleted_at is null
          join clients pc on pc.id = ps.client_id where ps.client_id = $1 and ps.auto_print_receipt) as receipt
       from cash_registers r join clients c on c.id = r.client_id join users u on u.id = r.user_id
       left join stock_settings s on s.client_id = r.client_id
       where r.client_id = $1 and r.user_id = $2 and r.status = 'open' limit 1 for share of r`,
      [f.clientId, userId, key],
    )
  ).rows;
  const saleId = Number(register.sale_id);
  const products = (
    await q(
      `select id, name, sku, barcode, unit, product_type, sale_price_cents, active,
         exists (select 1 from product_variants v where v.product_id = products.id) as has_variants
       from products where client_id = $1 and id = any($2::int[])`,
      [f.clientId, ids],
    )
  ).rows;
  const [coupon] = (
    await q(
      `select *, (now() at time zone (select time_zone from clients where id = $1))::date::text as shop_today
       from coupons where client_id = $1 and lower(code) = 'raw' and status <> 'deleted' limit 1`,
      [f.clientId],
    )
  ).rows;
  const total = finalAmount(chosen.map(priceOf));
  const items = products.map((p, position) => ({
    sale_id: saleId,
    client_id: f.clientId,
    position,
    product_id: p.id,
    description: p.name,
    quantity: 1,
    unit_price_cents: p.sale_price_cents,
    unit_total_cents: p.sale_price_cents,
    gross_cents: p.sale_price_cents,
    total_cents: p.sale_price_cents,
  }));
  const itemColumns = Object.keys(items[0]).join(', ');
  await q(
    `with
       s as (insert into sales (id, client_id, number, user_id, cash_register_id, status, total_items, total_quantity,
               total_cents, final_amount_cents, coupon_id, coupon_code, finished_at)
             values ($1, $2, -$1::int, $3, $4, 'finished', $5, $6, $7, $7, $8, 'RAW', now()) returning id),
       i as (insert into sale_items (${itemColumns}) select ${itemColumns}
             from jsonb_populate_recordset(null::sale_items, $9::jsonb) returning id, position),
       p as (insert into sale_payments (sale_id, client_id, position, method, amount_cents)
             values ($1, $2, 0, 'pix', $7) returning id, position),
       k as (update sale_idempotency_keys set sale_id = $1 where client_id = $2 and key = $10 returning key)
     select (select json_agg(id order by position) from i) as items,
            (select json_agg(id order by position) from p) as payments`,
    [saleId, f.clientId, userId, register.id, ITEMS, ITEMS, total, coupon.id, JSON.stringify(items), key],
  );
  const locked = (
    await q(
      `select id, name, unit, stock, min_stock, cost_price_cents, stock_control,
         exists (select 1 from product_variants v where v.product_id = products.id) as has_variants,
         set_config('balcao.stock_ledger', 'on', true)
       from products where client_id = $1 and id = any($2::int[]) order by id for no key update of products`,
      [f.clientId, ids],
    )
  ).rows;
  await q(
    `with
       m as (insert into stock_movements (client_id, product_id, type, quantity, user_id, sale_id)
             select $1, id, 'sale', -1, $2, $3 from unnest($4::int[]) as id returning id),
       product_levels as (update products set stock = v.stock
             from unnest($4::int[], $5::numeric[]) as v(id, stock)
             where products.id = v.id and products.client_id = $1)
     select m.*, (select json_agg(r) from (
         select product_id, coalesce(variant_id, 0) as variant_id, sum(quantity)::text as reserved
         from stock_reservations where client_id = $1 and released_at is null and expires_at > now()
           and (product_id, coalesce(variant_id, 0)) in (select id, 0 from unnest($4::int[]) as id)
         group by product_id, variant_id) r) as reserved
     from m order by id`,
    [f.clientId, userId, saleId, locked.map((p) => p.id), locked.map((p) => String(Number(p.stock) - 1))],
  );
  await q(
    `with counter as (
       insert into sale_counters (client_id, last) values ($1, 1)
       on conflict (client_id) do update set last = sale_counters.last + 1 returning last),
     coupon_use as (insert into coupon_uses (coupon_id, client_id, sale_id, discount_cents) values ($3, $1, $2, 0))
     update sales set number = counter.last from counter where sales.id = $2 returning sales.number`,
    [f.clientId, saleId, coupon.id],
  );
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function benchRaw(runner: Runner, label: string): Promise<Figures[]> {
  let fixture: Awaited<ReturnType<typeof arrangeRaw>> | undefined;
  await runner.transaction(async (q) => {
    fixture = await arrangeRaw(q);
  });
  const f = fixture!;
  const rows: Figures[] = [];
  for (const scenario of SCENARIOS) {
    for (const connections of CONCURRENCY) {
      const latencies: number[] = [];
      let errors = 0;
      const cpuBefore = process.cpuUsage();
      const end = Date.now() + DURATION * 1000;
      await Promise.all(
        Array.from({ length: connections }, async (_, client) => {
          const userId = scenario === 'hot' ? f.admin : f.tills[client % f.tills.length];
          while (Date.now() < end) {
            const start = performance.now();
            try {
              await runner.transaction((q) => rawSale(q, f, userId, pick(scenario)));
              latencies.push(performance.now() - start);
            } catch (error) {
              errors++;
              if (errors < 3) console.error(error);
            }
          }
        }),
      );
      const cpu = process.cpuUsage(cpuBefore);
      const name = `${label} raw SQL, ${scenario}, ${connections} clients`;
      if (latencies.length > 0) cpuPerSale.set(name, (cpu.user + cpu.system) / 1000 / latencies.length);
      latencies.sort((a, b) => a - b);
      const round = (n: number) => Math.round(n * 100) / 100;
      rows.push({
        name,
        requests: latencies.length,
        rps: Math.round(latencies.length / DURATION),
        p50: round(percentile(latencies, 50)),
        p95: round(percentile(latencies, 95)),
        p99: round(percentile(latencies, 99)),
        errors,
      });
    }
  }
  return rows;
}

/** PGlite in a folder on disk, as the server keeps it (not in memory). */
async function pgliteRunner(): Promise<Runner> {
  const dataDir = mkdtempSync(join(tmpdir(), 'balcao-bench-raw-'));
  const client = await PGlite.create(dataDir, { extensions: { pg_trgm } });
  await migrateDatabase(fromPglite(client));
  // BENCH_RAW_PREPARED: the statements as named prepared statements, the way the API sends them.
  const prepared = process.env.BENCH_RAW_PREPARED ? preparingClient(client) : null;
  const run = (work: (q: Query) => Promise<void>) =>
    (prepared ?? client).transaction(async (tx) => {
      await work((text, params) => tx.query(text, params) as Promise<{ rows: Record<string, unknown>[] }>);
    });
  return {
    transaction: (work) => (prepared ? withPreparedStatements(() => run(work)) : run(work)),
    close: async () => {
      await client.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function postgresRunner(url: string, max: number): Promise<Runner> {
  const database = fromPostgres(url, 1);
  await migrateDatabase(database);
  await database.close();
  const pool = new pg.Pool({ connectionString: url, max });
  // An idle connection ended by the server (the database dropped at the end) is not an error here.
  pool.on('error', () => undefined);
  return {
    transaction: async (work) => {
      const client = await pool.connect();
      try {
        await client.query('begin');
        await work((text, params) =>
          process.env.BENCH_RAW_PREPARED
            ? client.query({
                name: createHash('sha1').update(text).digest('hex'),
                text,
                values: params as unknown[],
              })
            : client.query(text, params as unknown[]),
        );
        await client.query('commit');
      } catch (error) {
        await client.query('rollback').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

function databaseUrl(admin: string, name: string): string {
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return url.toString();
}

async function withDatabase<T>(admin: string, work: (url: string) => Promise<T>): Promise<T> {
  const name = `balcao_bench_${process.pid}_${Math.random().toString(36).slice(2, 7)}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`create database ${name}`);
  try {
    return await work(databaseUrl(admin, name));
  } finally {
    await client.query(`drop database if exists ${name} with (force)`);
    await client.end();
  }
}

/** BENCH_PARTS=pglite-api,pglite-raw,pg-api,pg-raw (default: all that can run). */
const parts = (process.env.BENCH_PARTS ?? 'pglite-api,pglite-raw,pg-api,pg-raw').split(',');

async function main() {
  ensureWebBuild();
  const rows: Figures[] = [];
  const before = process.env.BENCH_BEFORE;
  const beforeRoot = before ? exportCommit(before) : undefined;
  const beforeLabel = (engine: string) => `${engine} before (${before?.slice(0, 7)})`;
  if (beforeRoot && parts.includes('pglite-api')) {
    const server = await startServer({ root: beforeRoot });
    try {
      rows.push(...(await benchApi(server, beforeLabel('PGlite'))));
    } finally {
      await server.stop();
    }
  }
  if (parts.includes('pglite-api')) {
    const server = await startServer();
    try {
      rows.push(...(await benchApi(server, 'PGlite')));
    } finally {
      await server.stop();
    }
  }
  if (parts.includes('pglite-raw')) {
    const lite = await pgliteRunner();
    try {
      rows.push(...(await benchRaw(lite, 'PGlite')));
    } finally {
      await lite.close();
    }
  }
  const admin = process.env.BENCH_PG_URL;
  if (admin && beforeRoot && parts.includes('pg-api')) {
    await withDatabase(admin, async (url) => {
      const pgServer = await startServer({ databaseUrl: url, root: beforeRoot });
      try {
        rows.push(...(await benchApi(pgServer, beforeLabel('PostgreSQL'))));
      } finally {
        await pgServer.stop();
      }
    });
  }
  if (admin && parts.includes('pg-api')) {
    await withDatabase(admin, async (url) => {
      const pgServer = await startServer({ databaseUrl: url });
      try {
        rows.push(...(await benchApi(pgServer, 'PostgreSQL')));
      } finally {
        await pgServer.stop();
      }
    });
  }
  if (admin && parts.includes('pg-raw')) {
    await withDatabase(admin, async (url) => {
      // The API's pool holds 10 connections (apps/api db client); the raw run gets the same.
      const runner = await postgresRunner(url, 10);
      try {
        rows.push(...(await benchRaw(runner, 'PostgreSQL')));
      } finally {
        await runner.close();
      }
    });
  }
  if (beforeRoot) rmSync(beforeRoot, { recursive: true, force: true });
  console.log(`\n${new Date().toISOString().slice(0, 10)} · ${machine()} · ${DURATION} s per run\n`);
  console.log(table(rows));
  console.log('\n| scenario | CPU ms per sale |\n|---|---|');
  for (const row of rows) {
    const cpu = cpuPerSale.get(row.name);
    if (cpu !== undefined) console.log(`| ${row.name} | ${cpu.toFixed(2)} |`);
  }
  for (const engine of ['PGlite', 'PostgreSQL']) {
    for (const api of before ? [beforeLabel(engine), engine] : [engine]) {
      for (const scenario of SCENARIOS) {
        for (const n of CONCURRENCY) {
          const a = rows.find((r) => r.name === `${api} API, ${scenario}, ${n} clients`);
          const r = rows.find((x) => x.name === `${engine} raw SQL, ${scenario}, ${n} clients`);
          const cpuA = a && cpuPerSale.get(a.name);
          const cpuR = r && cpuPerSale.get(r.name);
          const byCpu =
            engine === 'PGlite' && cpuA && cpuR ? `, raw/API CPU per sale = ${(cpuR / cpuA).toFixed(2)}` : '';
          if (a && r?.rps)
            console.log(
              `${api}, ${scenario}, ${n} clients: API/raw sales/s = ${(a.rps / r.rps).toFixed(2)}${byCpu}`,
            );
        }
      }
    }
  }
}

await main();
