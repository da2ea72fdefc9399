/**
 * move-to-postgres benchmark (issue 37): a generated shop in a PGlite data folder copied into an
 * empty PostgreSQL database by the command's own code (apps/api/src/db/moveToPostgres.ts), with its
 * row counts and checksums compared on both sides.
 *
 *   BENCH_PG_URL=postgres://postgres@127.0.0.1:31900/postgres npx tsx bench/move-to-postgres.ts
 *
 * BENCH_PG_URL is an admin URL: the script creates (and at the end drops) its own database. The shop:
 * the demo (migrations + seed), then BENCH_PRODUCTS products (default 10,000) and BENCH_SALES sales
 * (default 100,000; 1-5 items each, one payment each) written with SQL in PGlite with triggers off.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { fromPglite, migrateDatabase, openPglite } from '../apps/api/src/db/client.ts';
import { moveToPostgres } from '../apps/api/src/db/moveToPostgres.ts';
import { seedDemo } from '../apps/api/src/seed.ts';
import { machine } from './lib.ts';

const SALES = Number(process.env.BENCH_SALES ?? 100_000);
const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 10_000);
const adminUrl = process.env.BENCH_PG_URL;
if (!adminUrl) throw new Error('BENCH_PG_URL (an admin URL of a PostgreSQL server) is required');

const seconds = (start: number) => ((Date.now() - start) / 1000).toFixed(1);
function folderBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    total += entry.isDirectory() ? folderBytes(path) : statSync(path).size;
  }
  return total;
}

const dataDir = mkdtempSync(join(tmpdir(), 'balcao-bench-move-'));
const name = `balcao_move_bench_${Date.now()}`;
const target = new URL(adminUrl);
target.pathname = `/${name}`;
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
try {
  let start = Date.now();
  const client = await openPglite(dataDir);
  const database = fromPglite(client);
  await migrateDatabase(database);
  const { clientId } = await seedDemo(database.db);
  const [{ id: userId }] = (
    await client.query<{ id: number }>(`select id from users where email = 'administrador@demo.com.br'`)
  ).rows;
  await client.exec('set session_replication_role = replica');
  await client.exec(`
    begin;
    insert into products (client_id, name, name_key, search_text, sku, sale_price_cents, stock)
      select ${clientId}, 'Produto bench ' || g, 'produto bench ' || lpad(g::text, 6, '0'),
        'produto bench ' || g, 'BENCH-' || g, 500 + (g * 137) % 20000, (g % 50)::numeric
      from generate_series(1, ${PRODUCTS}) g;
    create temp table gen_items as
      with p as (select array_agg(id order by id) as ids, array_agg(sale_price_cents order by id) as prices
                 from products where client_id = ${clientId} and name like 'Produto bench %')
      select k, pos, p.ids[1 + ((k::bigint * 7919 + pos * 104729) % array_length(p.ids, 1))::int] as product_id,
        p.prices[1 + ((k::bigint * 7919 + pos * 104729) % array_length(p.ids, 1))::int] as price
      from generate_series(1, ${SALES}) k
      cross join lateral generate_series(1, 1 + ((k % 1000) * 7919) % 5) pos cross join p;
    create temp table gen_sales as
      select k, count(*)::int as items, sum(price)::int as amount,
        now() - ((${SALES} - k) * (interval '730 days' / ${SALES})) as at
      from gen_items group by k;
    insert into sales (client_id, number, user_id, status, total_items, total_quantity, total_cents,
        final_amount_cents, finished_at, created_at, updated_at)
      select ${clientId}, 1000 + k, ${userId}, 'finished', items, items, amount, amount, at, at, at
      from gen_sales order by k;
    insert into sale_items (sale_id, client_id, position, product_id, description, unit, quantity,
        unit_price_cents, unit_total_cents, gross_cents, total_cents)
      select s.id, ${clientId}, i.pos, i.product_id, 'Produto bench', 'un', 1, i.price, i.price, i.price, i.price
      from gen_items i join sales s on s.client_id = ${clientId} and s.number = 1000 + i.k order by i.k, i.pos;
    insert into sale_payments (sale_id, client_id, position, method, amount_cents)
      select s.id, ${clientId}, 1, 'pix', s.final_amount_cents from sales s
      where s.client_id = ${clientId} and s.number > 1000;
    commit;`);
  await client.exec('set session_replication_role = origin');
  await client.close();
  const bytes = folderBytes(dataDir);
  console.log(
    `\n${new Date().toISOString().slice(0, 10)} · ${machine()}\nshop generated in ${seconds(start)} s: ` +
      `${PRODUCTS} products, ${SALES} sales; PGlite folder ${(bytes / 1024 / 1024).toFixed(0)} MB`,
  );

  await admin.query(`create database ${name}`);
  start = Date.now();
  const result = await moveToPostgres({ dataDir, url: target.toString() });
  console.log(
    `\nmove-to-postgres: ${result.totalRows} rows in ${result.tables.length} tables, ` +
      `copied and checked in ${(result.ms / 1000).toFixed(1)} s (wall ${seconds(start)} s)\n`,
  );
  console.log('| table | rows | checksum (both sides) |\n|---|---|---|');
  for (const t of [...result.tables].sort((a, b) => b.rows - a.rows).slice(0, 8))
    console.log(`| ${t.table} | ${t.rows} | ${t.checksum} |`);
} finally {
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
  rmSync(dataDir, { recursive: true, force: true });
}
