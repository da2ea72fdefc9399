/**
 * Checkout benchmark (issue 7): a 10-item sale with stock control and a coupon, POST /v1/sale through
 * the production server, at 10 and 50 concurrent clients, on PGlite and on PostgreSQL; then the same
 * transaction issued as raw SQL by this script (the database's own limit), so the API/raw ratio shows.
 *
 *   npx tsx bench/checkout.ts                      # PGlite only
 *   BENCH_PG_URL=postgres://postgres@127.0.0.1:55437/postgres npx tsx bench/checkout.ts   # + PostgreSQL
 *
 * BENCH_PG_URL is an admin URL: the script creates (and drops) its own databases there.
 */
import { randomUUID } from 'node:crypto';
import { couponDiscountCents } from '@balcao/core/coupon';
import { computeSaleTotals } from '@balcao/core/sale';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import { fromPglite, fromPostgres, migrateDatabase } from '../apps/api/src/db/client.ts';
import { ensureWebBuild, type Figures, load, machine, type Server, startServer, table } from './lib.ts';

const ITEMS = 10;
const PRICES = Array.from({ length: ITEMS }, (_, i) => 1000 + i * 137);
const COUPON_PERCENT = 5;
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONCURRENCY = [10, 50];

/** The sale's final amount: the same core functions the API uses. */
function finalAmount(): number {
  const lines = PRICES.map((unitPriceCents) => ({ unitPriceCents, quantity: 1 }));
  const subtotal = computeSaleTotals({ lines }).totalCents;
  const coupon = couponDiscountCents({ discountType: 'PERCENTAGE', discountValue: COUPON_PERCENT }, subtotal);
  return computeSaleTotals({ lines, couponDiscountCents: coupon }).finalAmountCents;
}

// ----------------------------------------------------------------------------------- through the API

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

/** Products with a large stock, a coupon, the register open; returns the checkout body and token. */
async function arrangeApi(server: Server) {
  const { token } = await api<{ token: string }>(server, '/login', null, {
    email: 'administrador@demo.com.br',
    password: 'demo1234',
  });
  const tag = Date.now().toString(36);
  const ids: number[] = [];
  for (const [i, salePriceCents] of PRICES.entries()) {
    const product = await api<{ id: number }>(server, '/product', token, {
      name: `Bench ${tag} ${i}`,
      salePriceCents,
      stock: 1_000_000,
    });
    ids.push(product.id);
  }
  const today = new Date().toISOString().slice(0, 10);
  const code = `BENCH${tag}`.toUpperCase();
  await api(server, '/coupon', token, {
    code,
    discountType: 'PERCENTAGE',
    discountValue: COUPON_PERCENT,
    startDate: today,
    endDate: '2099-12-31',
  });
  await api(server, '/cash-register/open', token, { openingAmountCents: 0 });
  const body = {
    items: ids.map((productId) => ({ productId, quantity: 1 })),
    couponCode: code,
    payments: [{ method: 'pix', amountCents: finalAmount() }],
  };
  // One sale first: it must go through (a wrong body would only measure errors).
  await api(server, '/sale', token, body);
  return { token, body };
}

async function benchApi(server: Server, label: string): Promise<Figures[]> {
  const { token, body } = await arrangeApi(server);
  const rows: Figures[] = [];
  for (const connections of CONCURRENCY) {
    rows.push(
      await load(`${label} API, ${connections} clients`, {
        url: `${server.url}/v1/sale`,
        method: 'POST',
        connections,
        duration: DURATION,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
        // Every request is a new sale attempt: its own Idempotency-Key, as the PDV sends.
        requests: [
          {
            setupRequest: (request) => ({
              ...request,
              headers: { ...request.headers, 'idempotency-key': randomUUID() },
            }),
          },
        ],
      }),
    );
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

/** Client, user, open register, 10 products, coupon: inserted directly. */
async function arrangeRaw(q: Query) {
  const doc = String(Date.now()).padStart(14, '0').slice(-14);
  const [client] = (
    await q(`insert into clients (name, document, client_type_id) values ('Bench raw', $1, 1) returning id`, [
      doc,
    ])
  ).rows;
  const clientId = Number(client.id);
  const [user] = (
    await q(
      `insert into users (client_id, name, email, password_hash, user_type_id) values ($1, 'Bench', $2, 'x', 1) returning id`,
      [clientId, `raw${doc}@bench.local`],
    )
  ).rows;
  const userId = Number(user.id);
  await q(`insert into cash_registers (client_id, user_id, opening_amount_cents) values ($1, $2, 0)`, [
    clientId,
    userId,
  ]);
  const productIds: number[] = [];
  for (const [i, price] of PRICES.entries()) {
    const [p] = (
      await q(
        `insert into products (client_id, name, sale_price_cents, stock, name_key, search_text)
         values ($1, $2, $3, 1000000, $2, $2) returning id`,
        [clientId, `raw ${i}`, price],
      )
    ).rows;
    productIds.push(Number(p.id));
  }
  const [coupon] = (
    await q(
      `insert into coupons (client_id, code, discount_type, discount_value_hundredths, start_date, end_date)
       values ($1, 'RAW', 'PERCENTAGE', $2, '2000-01-01', '2099-12-31') returning id`,
      [clientId, COUPON_PERCENT * 100],
    )
  ).rows;
  return { clientId, userId, productIds, couponId: Number(coupon.id) };
}

/**
 * The checkout's writes and locks, hand-written: idempotency key, register FOR SHARE, products FOR
 * UPDATE, one ledger insert, one stock update, coupon FOR UPDATE + uses + use, counter, sale, items,
 * payment, key -> sale.
 */
async function rawSale(
  q: Query,
  f: Awaited<ReturnType<typeof arrangeRaw>>,
  total: number,
  perProductUpdates = false,
) {
  const key = randomUUID();
  await q(
    `insert into sale_idempotency_keys (client_id, key, request_hash) values ($1, $2, 'raw') on conflict do nothing`,
    [f.clientId, key],
  );
  const [register] = (
    await q(
      `select id from cash_registers where client_id = $1 and user_id = $2 and status = 'open' for share`,
      [f.clientId, f.userId],
    )
  ).rows;
  const [{ id: saleId }] = (await q(`select nextval(pg_get_serial_sequence('sales', 'id'))::int as id`)).rows;
  const products = (
    await q(
      `select id, name, sale_price_cents, stock from products where client_id = $1 and id = any($2::int[]) order by id for update`,
      [f.clientId, f.productIds],
    )
  ).rows;
  await q(`select set_config('balcao.stock_ledger', 'on', true)`);
  await q(
    `insert into stock_movements (client_id, product_id, type, quantity, user_id, sale_id)
     select $1, id, 'sale', -1, $2, $3 from unnest($4::int[]) as id`,
    [f.clientId, f.userId, saleId, f.productIds],
  );
  if (perProductUpdates) {
    // As the stock service writes the levels today: one UPDATE per product.
    for (const id of f.productIds)
      await q(`update products set stock = stock - 1, updated_at = now() where id = $1`, [id]);
  } else {
    await q(`update products set stock = stock - 1, updated_at = now() where id = any($1::int[])`, [
      f.productIds,
    ]);
  }
  await q(`select set_config('balcao.stock_ledger', 'off', true)`);
  await q(`select id from coupons where id = $1 for update`, [f.couponId]);
  await q(`select count(*) from coupon_uses where coupon_id = $1 and canceled_at is null`, [f.couponId]);
  await q(`insert into coupon_uses (coupon_id, client_id, sale_id, discount_cents) values ($1, $2, $3, 0)`, [
    f.couponId,
    f.clientId,
    saleId,
  ]);
  const [{ last }] = (
    await q(
      `insert into sale_counters (client_id, last) values ($1, 1)
       on conflict (client_id) do update set last = sale_counters.last + 1 returning last`,
      [f.clientId],
    )
  ).rows;
  await q(
    `insert into sales (id, client_id, number, user_id, cash_register_id, status, total_items, total_quantity, total_cents,
       final_amount_cents, coupon_id, coupon_code, finished_at)
     values ($1, $2, $3, $4, $5, 'finished', $6, $7, $8, $8, $9, 'RAW', now())`,
    [saleId, f.clientId, last, f.userId, register.id, ITEMS, ITEMS, total, f.couponId],
  );
  await q(
    `insert into sale_items (sale_id, client_id, position, product_id, description, quantity, unit_price_cents,
       unit_total_cents, gross_cents, total_cents)
     select $1, $2, ord - 1, p.id, p.name, 1, p.price, p.price, p.price, p.price
     from unnest($3::int[], $4::text[], $5::int[]) with ordinality as p(id, name, price, ord)`,
    [
      saleId,
      f.clientId,
      products.map((p) => p.id),
      products.map((p) => p.name),
      products.map((p) => p.sale_price_cents),
    ],
  );
  await q(
    `insert into sale_payments (sale_id, client_id, position, method, amount_cents) values ($1, $2, 0, 'pix', $3)`,
    [saleId, f.clientId, total],
  );
  await q(`update sale_idempotency_keys set sale_id = $1 where client_id = $2 and key = $3`, [
    saleId,
    f.clientId,
    key,
  ]);
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function benchRaw(runner: Runner, label: string, perProductUpdates = false): Promise<Figures[]> {
  let fixture: Awaited<ReturnType<typeof arrangeRaw>> | undefined;
  await runner.transaction(async (q) => {
    fixture = await arrangeRaw(q);
  });
  const f = fixture!;
  const total = finalAmount();
  const rows: Figures[] = [];
  for (const connections of CONCURRENCY) {
    const latencies: number[] = [];
    let errors = 0;
    const end = Date.now() + DURATION * 1000;
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (Date.now() < end) {
          const start = performance.now();
          try {
            await runner.transaction((q) => rawSale(q, f, total, perProductUpdates));
            latencies.push(performance.now() - start);
          } catch (error) {
            errors++;
            if (errors < 3) console.error(error);
          }
        }
      }),
    );
    latencies.sort((a, b) => a - b);
    const round = (n: number) => Math.round(n * 100) / 100;
    rows.push({
      name: `${label} raw SQL${perProductUpdates ? ' (one UPDATE per product)' : ''}, ${connections} clients`,
      requests: latencies.length,
      rps: Math.round(latencies.length / DURATION),
      p50: round(percentile(latencies, 50)),
      p95: round(percentile(latencies, 95)),
      p99: round(percentile(latencies, 99)),
      errors,
    });
  }
  return rows;
}

async function pgliteRunner(): Promise<Runner> {
  const client = await PGlite.create({ extensions: { pg_trgm } });
  await migrateDatabase(fromPglite(client));
  return {
    transaction: (work) =>
      client.transaction(async (tx) => {
        await work((text, params) => tx.query(text, params) as Promise<{ rows: Record<string, unknown>[] }>);
      }),
    close: () => client.close(),
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
        await work((text, params) => client.query(text, params as unknown[]));
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
      rows.push(...(await benchRaw(lite, 'PGlite', true)));
    } finally {
      await lite.close();
    }
  }
  const admin = process.env.BENCH_PG_URL;
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
        rows.push(...(await benchRaw(runner, 'PostgreSQL', true)));
      } finally {
        await runner.close();
      }
    });
  }
  console.log(`\n${new Date().toISOString().slice(0, 10)} · ${machine()} · ${DURATION} s per run\n`);
  console.log(table(rows));
  const ratio = (engine: string, n: number) => {
    const a = rows.find((r) => r.name === `${engine} API, ${n} clients`);
    const r = rows.find((x) => x.name === `${engine} raw SQL, ${n} clients`);
    return a && r?.rps ? (a.rps / r.rps).toFixed(2) : null;
  };
  for (const engine of ['PGlite', 'PostgreSQL']) {
    for (const n of CONCURRENCY) {
      const value = ratio(engine, n);
      if (value) console.log(`${engine}, ${n} clients: API/raw sales/s = ${value}`);
    }
  }
}

await main();
