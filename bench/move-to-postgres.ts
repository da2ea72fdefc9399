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
import { moveToPostgres } from '../apps/api/src/db/moveToPostgres.ts';
import { generateShop } from './big-shop.ts';
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
  const { client } = await generateShop(dataDir, { sales: SALES, products: PRODUCTS, stock: 'low' });
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
