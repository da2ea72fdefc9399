/**
 * Home benchmark (issue 13): GET /v1/home for one client with 1,000,000 sales on PostgreSQL.
 *
 *   BENCH_PG_URL=postgres://postgres@127.0.0.1:55520/postgres npx tsx bench/home.ts
 *
 * BENCH_PG_URL is an admin URL: the script creates (and at the end drops) its own database. The
 * production server starts on it (migrations + demo shop), then the script loads into the demo client
 * BENCH_SALES sales (default 1,000,000) over the last 730 days, 1-5 items each from BENCH_PRODUCTS
 * products (default 5,000, popular ones more often), one payment each (crediário sales with 3
 * installments), 2% canceled, written in time order with triggers off and the summary rebuilt after,
 * as a migration of old data would. Then it measures:
 * - the home's data: `homeOf` called in-process BENCH_SAMPLES times (default 200), one after another;
 * - GET /v1/home through the server with autocannon (10 connections, 10 s) as the Administrador;
 * - the JS /login downloads (the home's charts must stay out of it).
 * BENCH_KEEP=1 keeps the database (its name is printed); BENCH_DB=<name> measures a kept one again
 * (no load).
 */
import { loadavg } from 'node:os';
import pg from 'pg';
import { fromPostgres } from '../apps/api/src/db/client.ts';
import { homeOf } from '../apps/api/src/modules/home/service.ts';
import { rebuildSaleSummary } from '../apps/api/src/modules/sale/summary.ts';
import { loginJsBytes } from './auth.ts';
import { ensureWebBuild, load, machine, startServer, table } from './lib.ts';

const SALES = Number(process.env.BENCH_SALES ?? 1_000_000);
const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 5_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 200);
const DAYS = 730;
const adminUrl = process.env.BENCH_PG_URL;
if (!adminUrl) throw new Error('BENCH_PG_URL (an admin URL of a PostgreSQL server) is required');

const reuse = process.env.BENCH_DB;
const name = reuse ?? `balcao_home_${Date.now()}`;
const url = new URL(adminUrl);
url.pathname = `/${name}`;
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
if (!reuse) await admin.query(`create database ${name}`);

const ms = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

ensureWebBuild();
const server = await startServer({ databaseUrl: url.toString() });
const client = new pg.Client({ connectionString: url.toString() });
await client.connect();
try {
  const [{ id: clientId }] = (
    await client.query(`select c.id from clients c join users u on u.client_id = c.id
      where u.email = 'administrador@demo.com.br'`)
  ).rows;
  const [{ id: userId }] = (
    await client.query(`select id from users where email = 'administrador@demo.com.br'`)
  ).rows;
  console.log(`\n${new Date().toISOString().slice(0, 10)} · ${machine()} · database ${name}`);

  if (!reuse) await loadSales(clientId, userId);
  const database = fromPostgres(url.toString(), 10);

  // The home's data in-process (the service the route calls), one call after another.
  const session = { sessionId: 0, userId, clientId, userTypeId: 1 as const, saleCommand: false };
  for (let i = 0; i < 10; i++) await homeOf(database.db, session);
  const times: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const t0 = process.hrtime.bigint();
    await homeOf(database.db, session);
    times.push(ms(t0));
  }
  times.sort((a, b) => a - b);
  const home = await homeOf(database.db, session);
  console.log(
    `\nhomeOf (in-process, ${SAMPLES} calls): p50 ${percentile(times, 50).toFixed(1)} ms · p95 ${percentile(times, 95).toFixed(1)} ms · p99 ${percentile(times, 99).toFixed(1)} ms · max ${times.at(-1)?.toFixed(1)} ms`,
  );
  console.log(
    `today ${home.sales?.today.salesCount} sales, month ${home.sales?.month.salesCount} sales, ${home.sales?.topProducts.length} best sellers, ${home.lowStock?.count} low stock, ${home.receivables?.overdue.count} overdue installments`,
  );
  await database.close();

  const login = await fetch(`${server.url}/v1/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'administrador@demo.com.br', password: 'demo1234' }),
  });
  const { token } = (await login.json()) as { token: string };
  const rows = [];
  for (const connections of [1, 10]) {
    rows.push(
      await load(`GET /v1/home, ${connections} connection${connections > 1 ? 's' : ''}`, {
        url: `${server.url}/v1/home`,
        headers: { authorization: `Bearer ${token}` },
        connections,
      }),
    );
  }
  console.log(`\n${table(rows)}`);
  console.log(
    `load average during the run: ${loadavg()
      .map((n) => n.toFixed(1))
      .join(' ')}`,
  );
  const js = await loginJsBytes(server);
  console.log(
    `\n/login downloads ${js.files.length} JS files, ${(js.gzipBytes / 1024).toFixed(1)} KB gzipped (budget 150 KB)`,
  );
} finally {
  await client.end();
  await server.stop();
  if (!process.env.BENCH_KEEP) await admin.query(`drop database ${name} with (force)`);
  await admin.end();
}

/** Loads the products, sales, items, payments and installments, then rebuilds the summary (see top). */
async function loadSales(clientId: number, userId: number) {
  let start = process.hrtime.bigint();
  // Products: copies of a demo product with their own name, codes and price (the counters' triggers on).
  const columns = (
    await client.query(`select column_name from information_schema.columns
      where table_name = 'products' and column_name not in ('id') order by ordinal_position`)
  ).rows.map((r) => r.column_name as string);
  const replaced: Record<string, string> = {
    name: `'Produto bench ' || g`,
    name_key: `'produto bench ' || lpad(g::text, 6, '0')`,
    search_text: `'produto bench ' || g || ' bench-' || g`,
    sku: `'BENCH-' || g`,
    barcode: `null`,
    sale_price_cents: `500 + (g * 137) % 20000`,
    stock: `(g % 50)::numeric`,
    min_stock: `5`,
  };
  await client.query(
    `insert into products (${columns.join(', ')})
     select ${columns.map((c) => replaced[c] ?? `p.${c}`).join(', ')}
     from generate_series(1, ${PRODUCTS}) g,
       (select * from products where client_id = ${clientId} and product_type = 'simple' order by id limit 1) p`,
  );
  const customerIds = (
    await client.query(`select id from customers where client_id = ${clientId} order by id`)
  ).rows.map((r) => r.id as number);
  console.log(`${PRODUCTS} products in ${ms(start).toFixed(0)} ms`);

  start = process.hrtime.bigint();
  await client.query('set session_replication_role = replica');
  await client.query('begin');
  const [{ base }] = (
    await client.query(`select coalesce(max(number), 0) as base from sales where client_id = ${clientId}`)
  ).rows;
  // The lines first: sale k (1..SALES) has 1-5 items, drawn with a bias to the first products.
  await client.query(`create temp table gen_items as
    with p as (select array_agg(id order by id) as ids, array_agg(sale_price_cents order by id) as prices
               from products where client_id = ${clientId} and name like 'Produto bench %')
    select k, pos, p.ids[idx] as product_id, p.prices[idx] as price
    from generate_series(1, ${SALES}) k
    cross join lateral generate_series(1, 1 + ((k % 1000) * 7919) % 5) pos
    cross join p
    cross join lateral (select 1 + floor(power(random(), 3) * array_length(p.ids, 1))::int + 0 * pos as idx) r`);
  await client.query(`create temp table gen_sales as
    select k, count(*)::int as items, sum(price)::int as amount,
      now() - ((${SALES} - k) * (interval '${DAYS} days' / ${SALES})) as at,
      case when k % 50 = 0 then 'canceled' when k % 33 = 0 then 'creditShop'
           else (array['money','pix','debitCard','creditCard','pix'])[1 + k % 5] end as kind
    from gen_items group by k`);
  await client.query(`insert into sales (client_id, number, user_id, customer_id, status, type_of_sale,
      origin_sale, total_items, total_quantity, total_cents, final_amount_cents, canceled_at,
      cancel_reason, canceled_by_user_id, finished_at, created_at, updated_at)
    select ${clientId}, ${base} + k, ${userId},
      case when kind = 'creditShop' then (array[${customerIds.join(',')}])[1 + k % ${customerIds.length}] end,
      case when kind = 'canceled' then 'canceled'
           when kind = 'creditShop' and at > now() - interval '90 days' then 'pending' else 'finished' end,
      'store', 'pdv', items, items, amount, amount,
      case when kind = 'canceled' then at end, case when kind = 'canceled' then 'Bench' end,
      case when kind = 'canceled' then ${userId} end,
      case when kind <> 'canceled' then at end, at, at
    from gen_sales order by k`);
  await client.query(`create temp table sale_ids as
    select s.id, g.k, g.kind, g.amount, g.at, s.customer_id, s.status from gen_sales g
    join sales s on s.client_id = ${clientId} and s.number = ${base} + g.k`);
  await client.query(`insert into sale_items (sale_id, client_id, position, product_id, description, unit,
      quantity, unit_price_cents, unit_total_cents, gross_cents, total_cents)
    select s.id, ${clientId}, i.pos, i.product_id, 'Produto bench', 'un', 1, i.price, i.price, i.price, i.price
    from gen_items i join sale_ids s on s.k = i.k order by i.k, i.pos`);
  await client.query(`insert into sale_payments (sale_id, client_id, position, method, amount_cents,
      number_installments, due_date, first_installment)
    select id, ${clientId}, 1, case when kind = 'canceled' then 'pix' else kind end, amount,
      case when kind = 'creditShop' then 3 else 1 end,
      case when kind = 'creditShop' then (at + interval '30 days')::date end,
      case when kind = 'creditShop' then 1 end
    from sale_ids order by k`);
  await client.query(`insert into receivables (client_id, customer_id, sale_id, installment, amount_cents,
      due_date, paid_at, status, created_at, updated_at)
    select ${clientId}, customer_id, id, n, amount / 3 + case when n = 1 then amount % 3 else 0 end,
      (at + n * interval '30 days')::date,
      case when status = 'finished' then at + n * interval '30 days' end,
      case when status = 'finished' then 'finished' else 'pending' end, at, at
    from sale_ids cross join generate_series(1, 3) n where kind = 'creditShop'`);
  await client.query(`update sale_counters set last = (select max(number) from sales where client_id = ${clientId})
    where client_id = ${clientId}`);
  await client.query('commit');
  await client.query('set session_replication_role = origin');
  const counts = (
    await client.query(`select (select count(*) from sales where client_id = ${clientId}) as sales,
      (select count(*) from sale_items where client_id = ${clientId}) as items,
      (select count(*) from receivables where client_id = ${clientId}) as receivables`)
  ).rows[0];
  console.log(
    `loaded ${counts.sales} sales, ${counts.items} items, ${counts.receivables} installments in ${(ms(start) / 1000).toFixed(0)} s`,
  );

  start = process.hrtime.bigint();
  const database = fromPostgres(url.toString(), 2);
  await database.db.transaction((tx) => rebuildSaleSummary(tx, clientId));
  await database.close();
  console.log(`daily summary rebuilt in ${(ms(start) / 1000).toFixed(1)} s`);
  await client.query('vacuum analyze');
}
