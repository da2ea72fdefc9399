import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_PASSWORD } from '../test/helper.ts';
import { databaseUrlFor } from '../test/pgUrl.ts';
import { type App, buildApp } from './app.ts';
import { testConfig } from './config.ts';
import {
  type Database,
  fromPglite,
  fromPostgres,
  MIGRATIONS_DIR,
  migrateDatabase,
  openPglite,
} from './db/client.ts';
import { hashPassword } from './modules/auth/password.ts';

/**
 * Issue 37: upgrades keep every row. A database is built with the migrations of an earlier release
 * (up to 0007_sale: the first release that sold), filled with a shop written in the SQL of that time
 * (the columns those tables had then, the stock ledger as the stock service wrote it), then today's
 * migrations run on it (among them the ones that rewrite or backfill data: product counters, the
 * home summary, search words, the ledger's user). Every row of every old table must still be there
 * with its old values, and the app must work on it: log in, read, sell.
 */

const EARLIER_RELEASE = '0007_sale';

type Journal = { entries: { idx: number; tag: string }[] };

/** The migrations folder as it was at `lastTag`: its journal cut there, the later files left out. */
function migrationsUpTo(lastTag: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'balcao-earlier-migrations-'));
  const journal = JSON.parse(readFileSync(join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as Journal;
  const last = journal.entries.findIndex((e) => e.tag === lastTag);
  if (last < 0) throw new Error(`no migration ${lastTag}`);
  const entries = journal.entries.slice(0, last + 1);
  mkdirSync(join(dir, 'meta'));
  writeFileSync(join(dir, 'meta/_journal.json'), JSON.stringify({ ...journal, entries }));
  for (const e of entries) cpSync(join(MIGRATIONS_DIR, `${e.tag}.sql`), join(dir, `${e.tag}.sql`));
  return dir;
}

type Rows<T> = { rows: T[] };
const rowsOf = async <T>(database: Database, query: ReturnType<typeof sql>) =>
  ((await database.db.execute(query)) as unknown as Rows<T>).rows;

/** Every row of every table, as JSON (the columns of the schema it was written in). */
async function snapshot(database: Database): Promise<Map<string, Record<string, unknown>[]>> {
  const tables = await rowsOf<{ name: string }>(
    database,
    sql`select tablename as name from pg_tables where schemaname = 'public' order by tablename`,
  );
  const result = new Map<string, Record<string, unknown>[]>();
  for (const { name } of tables) {
    const rows = await rowsOf<{ row: Record<string, unknown> }>(
      database,
      sql.raw(`select to_jsonb(t) as row from public."${name}" t`),
    );
    result.set(
      name,
      rows.map((r) => (typeof r.row === 'string' ? JSON.parse(r.row) : r.row)),
    );
  }
  return result;
}

async function fixtureOfThatTime(database: Database) {
  const hash = await hashPassword(TEST_PASSWORD);
  const statements = [
    sql`insert into clients (id, name, document, client_type_id, phone)
        values (1001, 'Padaria Antiga', '11222333000181', 1, '5511987654321')`,
    sql`insert into users (id, client_id, name, email, password_hash, user_type_id)
        values (2001, 1001, 'Dona Antiga', 'antiga@teste.com.br', ${hash}, 1)`,
    sql`insert into customers (id, client_id, name, phone, credit_limit_cents, birth_date)
        values (3001, 1001, 'Cliente Antigo', '5511912345678', 5000, '1980-02-29')`,
    sql`insert into product_categories (id, client_id, name) values (3501, 1001, 'Salgados')`,
    // The stock ledger trigger of 0006 writes the 'initial-stock' adjustment of 40.
    sql`insert into products (id, client_id, name, sale_price_cents, cost_price_cents, stock, category_id, name_key, search_text)
        values (4001, 1001, 'Pão de queijo', 350, 120, 40, 3501, 'pao de queijo', 'pao de queijo salgados')`,
    sql`insert into coupons (id, client_id, code, discount_type, discount_value_hundredths, start_date, end_date)
        values (4501, 1001, 'ANTIGO10', 'PERCENTAGE', 1000, '2025-01-01', '2099-12-31')`,
    sql`insert into cash_registers (id, client_id, user_id, opening_amount_cents) values (5001, 1001, 2001, 10000)`,
    sql`insert into sales (id, client_id, number, user_id, customer_id, cash_register_id, status, total_items,
          total_quantity, total_cents, final_amount_cents, finished_at, created_at, updated_at)
        values (6001, 1001, 1, 2001, 3001, 5001, 'finished', 1, 2, 700, 700,
          now() - interval '1 hour', now() - interval '1 hour', now() - interval '1 hour')`,
    sql`insert into sale_items (id, sale_id, client_id, position, product_id, description, quantity,
          unit_price_cents, unit_total_cents, gross_cents, total_cents)
        values (7001, 6001, 1001, 0, 4001, 'Pão de queijo', 2, 350, 350, 700, 700)`,
    sql`insert into sale_payments (id, sale_id, client_id, position, method, amount_cents)
        values (8001, 6001, 1001, 0, 'pix', 700)`,
    sql`insert into sale_counters (client_id, last) values (1001, 1)`,
    sql`insert into sale_idempotency_keys (client_id, key, request_hash, sale_id)
        values (1001, 'venda-antiga-1', 'hash-antigo', 6001)`,
  ];
  await database.db.transaction(async (tx) => {
    for (const statement of statements) await tx.execute(statement);
    // The stock service of that time: the ledger row and the level together, marked as its own.
    await tx.execute(sql`select set_config('balcao.stock_ledger', 'on', true)`);
    await tx.execute(sql`insert into stock_movements (client_id, product_id, type, quantity, user_id, sale_id)
        values (1001, 4001, 'sale', -2, 2001, 6001)`);
    await tx.execute(sql`update products set stock = 38 where id = 4001`);
  });
  // Explicit ids above: the sequences move past them, as the app's own inserts would have.
  for (const table of ['clients', 'users', 'customers', 'product_categories', 'products', 'coupons'])
    await database.db.execute(sql.raw(`select setval(pg_get_serial_sequence('${table}', 'id'), 9000)`));
  for (const table of ['cash_registers', 'sales', 'sale_items', 'sale_payments'])
    await database.db.execute(sql.raw(`select setval(pg_get_serial_sequence('${table}', 'id'), 9000)`));
}

describe('an upgrade from an earlier release keeps every row (issue 37)', () => {
  const serverUrl = process.env.DATABASE_URL;
  const name = `balcao_upgrade_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  let earlier: string;
  let database: Database;
  let admin: Database | undefined;
  let before: Map<string, Record<string, unknown>[]>;
  let app: App;

  beforeAll(async () => {
    earlier = migrationsUpTo(EARLIER_RELEASE);
    if (serverUrl) {
      admin = fromPostgres(serverUrl, 1);
      await admin.db.execute(sql.raw(`create database ${name}`));
      database = fromPostgres(databaseUrlFor(serverUrl, name));
    } else database = fromPglite(await openPglite());
    await migrateDatabase(database, earlier);
    await fixtureOfThatTime(database);
    before = await snapshot(database);
    await migrateDatabase(database);
    app = await buildApp({ db: database.db, config: testConfig() });
    await app.ready();
  }, 180_000);

  afterAll(async () => {
    await app?.close();
    await database?.close();
    if (admin) {
      // The pool's connections close asynchronously after close(): wait for them rather than force.
      for (let attempt = 1; ; attempt++) {
        const dropped = await admin.db
          .execute(sql.raw(`drop database if exists ${name}${attempt > 50 ? ' with (force)' : ''}`))
          .then(
            () => true,
            (error: { cause?: { code?: string } }) => {
              if (error.cause?.code !== '55006' || attempt > 50) throw error;
              return false;
            },
          );
        if (dropped) break;
        await new Promise((done) => setTimeout(done, 100));
      }
      await admin.close();
    }
    rmSync(earlier, { recursive: true, force: true });
  }, 60_000);

  it('every row of every earlier table is there, with the values it had', async () => {
    const after = await snapshot(database);
    expect(before.get('sales')).toHaveLength(1);
    expect(before.get('stock_movements')).toHaveLength(2);
    const lost: string[] = [];
    for (const [table, rows] of before) {
      const now = after.get(table);
      if (!now) {
        lost.push(`${table}: the table is gone`);
        continue;
      }
      expect(now.length, `${table} row count`).toBe(rows.length);
      for (const row of rows) {
        // Same values in every column the row had then (the migrations may only add columns).
        const kept = now.some((candidate) =>
          Object.entries(row).every(
            ([column, value]) => JSON.stringify(candidate[column]) === JSON.stringify(value),
          ),
        );
        if (!kept) lost.push(`${table}: ${JSON.stringify(row)}`);
      }
    }
    expect(lost).toEqual([]);
  });

  it('the app works on it: the old user logs in, reads the old sale and product, and sells', async () => {
    const login = await app.inject({
      method: 'POST',
      url: '/v1/login',
      payload: { email: 'antiga@teste.com.br', password: TEST_PASSWORD },
    });
    expect(login.statusCode).toBe(200);
    const headers = { authorization: `Bearer ${login.json().token}` };
    const product = await app.inject({ method: 'GET', url: '/v1/product/4001', headers });
    expect(product.statusCode).toBe(200);
    expect(product.json()).toMatchObject({ name: 'Pão de queijo', stock: 38, salePriceCents: 350 });
    const sale = await app.inject({ method: 'GET', url: '/v1/sale/6001', headers });
    expect(sale.statusCode).toBe(200);
    expect(sale.json()).toMatchObject({ number: 1, finalAmountCents: 700, status: 'finished' });

    const sold = await app.inject({
      method: 'POST',
      url: '/v1/sale',
      headers,
      payload: { items: [{ productId: 4001, quantity: 1 }], payments: [{ method: 'pix', amountCents: 350 }] },
    });
    expect(sold.statusCode).toBe(201);
    expect(sold.json().number).toBe(2);
    const after = await app.inject({ method: 'GET', url: '/v1/product/4001', headers });
    expect(after.json().stock).toBe(37);
  });
});
