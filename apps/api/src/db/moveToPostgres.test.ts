import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/helper.ts';
import { makeProduct, makeSale, makeShop } from '../../test/kit.ts';
import { databaseUrlFor } from '../../test/pgUrl.ts';
import { buildApp } from '../app.ts';
import { testConfig } from '../config.ts';
import { seedDemo } from '../seed.ts';
import { type Database, fromPglite, fromPostgres, migrateDatabase, openPglite } from './client.ts';
import { MoveError, moveToPostgres } from './moveToPostgres.ts';

/**
 * Issue 37: `npm run move-to-postgres -- postgres://...` copies a PGlite data folder into an empty
 * PostgreSQL database and the shop runs there with nothing lost. Needs a PostgreSQL server
 * (DATABASE_URL, as CI's second API run sets it); skipped on PGlite-only runs.
 */

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
const serverUrl = process.env.DATABASE_URL;

async function appOn(database: Database): Promise<TestApp> {
  const app = await buildApp({ db: database.db, config: testConfig() });
  await app.ready();
  return { app, database, close: async () => app.close() };
}

const countsOf = async (database: Database) => {
  const rows = (await database.db.execute(
    sql.raw(`select
      (select count(*) from sales)::int as sales,
      (select count(*) from sale_items)::int as items,
      (select count(*) from stock_movements)::int as movements,
      (select count(*) from products)::int as products,
      (select coalesce(max(id), 0) from sales)::int as "maxSaleId"`),
  )) as unknown as {
    rows: { sales: number; items: number; movements: number; products: number; maxSaleId: number }[];
  };
  return rows.rows[0];
};

describe.skipIf(!serverUrl)('move-to-postgres (issue 37)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'balcao-move-'));
  const target = `balcao_move_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const url = serverUrl ? databaseUrlFor(serverUrl, target) : '';
  let admin: Database;
  let before: Awaited<ReturnType<typeof countsOf>>;
  let productId: number;
  let shopToken: string;

  beforeAll(async () => {
    // A shop on PGlite: the demo, and a sale that moved stock (the ledger trigger wrote its rows).
    const source = fromPglite(await openPglite(dataDir));
    await migrateDatabase(source);
    await seedDemo(source.db);
    const t = await appOn(source);
    const shop = await makeShop(t);
    shopToken = shop.token;
    productId = (await makeProduct(t, shop.auth, { salePriceCents: 1000, stock: 20 })).id;
    await makeSale(t, shop.auth, {
      items: [{ productId, quantity: 3 }],
      payments: [{ method: 'pix', amountCents: 3000 }],
    });
    before = await countsOf(source);
    await t.close();
    await source.close();
    admin = fromPostgres(serverUrl as string, 1);
    await admin.db.execute(sql.raw(`create database ${target}`));
  }, 180_000);

  afterAll(async () => {
    await admin?.db.execute(sql.raw(`drop database if exists ${target} with (force)`));
    await admin?.close();
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('copies every row (checked on both sides), prints the DATABASE_URL line, and the shop sells there', async () => {
    const run = spawnSync(process.execPath, ['scripts/move-to-postgres.mjs', url], {
      cwd: root,
      env: { ...process.env, DATA_DIR: dataDir },
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/Tudo conferido: \d+ tabelas, \d+ linhas iguais nos dois lados/);
    expect(run.stdout).toContain(`Para o Balcão usar o PostgreSQL, inicie-o com:\n\n  DATABASE_URL=${url}\n`);
    expect(run.stdout).toMatch(/ {2}stock_movements +\d+ linhas {2}checksum [0-9a-f]+/);

    const moved = fromPostgres(url);
    try {
      // The ledger trigger did not fire again during the copy: the same movements, not twice as many.
      expect(await countsOf(moved)).toEqual(before);
      const t = await appOn(moved);
      try {
        const auth = { authorization: `Bearer ${shopToken}` };
        const product = await t.app.inject({ method: 'GET', url: `/v1/product/${productId}`, headers: auth });
        expect(product.json().stock).toBe(17);
        // Sequences past the highest ids: a new sale and a new product get new ids, no duplicate key.
        const sale = await makeSale(t, auth, {
          items: [{ productId, quantity: 1 }],
          payments: [{ method: 'pix', amountCents: 1000 }],
        });
        expect(sale.id).toBeGreaterThan(before.maxSaleId);
        await makeProduct(t, auth);
        const after = await t.app.inject({ method: 'GET', url: `/v1/product/${productId}`, headers: auth });
        expect(after.json().stock).toBe(16);
      } finally {
        await t.close();
      }
    } finally {
      await moved.close();
    }
  }, 120_000);

  it('refuses a database that is not empty, saying so', async () => {
    const refusal = await moveToPostgres({ dataDir, url }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(MoveError);
    expect((refusal as Error).message).toMatch(
      /^O banco de destino não está vazio \(\d+ tabelas, visões ou sequências\)\. O Balcão só copia para um banco vazio, para não misturar dados: crie um banco novo \(createdb\) e tente de novo\.$/,
    );
  }, 60_000);
});
