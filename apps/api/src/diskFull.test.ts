import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/helper.ts';
import { makeProduct, makeShop } from '../test/kit.ts';
import { buildApp } from './app.ts';
import { testConfig } from './config.ts';
import { fromPglite } from './db/client.ts';
import { DISK_FULL_MESSAGE, isDiskFull } from './errors.ts';
import { sales } from './modules/sale/schema.ts';

/**
 * Issue 37, faults: a write the disk cannot take. The error is injected inside the database (a
 * trigger raising SQLSTATE 53100 disk_full in the middle of the checkout's transaction, the error a
 * full disk gives PostgreSQL and PGlite alike), so it travels the real driver and error handler.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const FILL_DISK = [
  sql.raw(`create or replace function test_disk_full() returns trigger language plpgsql as $$
  begin
    raise exception 'could not extend file "base/5/16384": No space left on device'
      using errcode = 'disk_full', hint = 'Check free disk space.';
  end $$`),
  sql.raw(`create trigger test_disk_full before insert on sale_payments
    for each row execute function test_disk_full()`),
];
const FREE_DISK = sql.raw('drop trigger test_disk_full on sale_payments');

describe('disk full (issue 37)', () => {
  it('a sale that cannot be written answers 503 in Portuguese, keeps nothing, and sells once space returns', async () => {
    const { auth, api, client } = await makeShop(t);
    const p = await makeProduct(t, auth, { salePriceCents: 1000, stock: 10 });
    const body = {
      items: [{ productId: p.id, quantity: 2 }],
      payments: [{ method: 'pix', amountCents: 2000 }],
    };
    const key = { 'idempotency-key': `disco-cheio-${Date.now()}` };

    for (const statement of FILL_DISK) await t.database.db.execute(statement);
    const refused = await api.post('/sale', body, key);
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toMatchObject({
      statusCode: 503,
      code: 'unavailable',
      message:
        'Sem espaço em disco no servidor: a operação não foi gravada. Libere espaço no disco e tente novamente.',
    });
    expect(refused.headers['retry-after']).toBe('30');
    // Nothing half-written: no sale, no stock taken, the key not burnt.
    const none = await t.database.db.select().from(sales).where(eq(sales.clientId, client.id));
    expect(none).toHaveLength(0);
    expect((await api.get(`/product/${p.id}`)).json().stock).toBe(10);
    // The server stays up.
    expect((await api.get(`/product/${p.id}`)).statusCode).toBe(200);

    await t.database.db.execute(FREE_DISK);
    const sold = await api.post('/sale', body, key);
    expect(sold.statusCode).toBe(201);
    expect((await api.get(`/product/${p.id}`)).json().stock).toBe(8);
    const one = await t.database.db.select().from(sales).where(eq(sales.clientId, client.id));
    expect(one).toHaveLength(1);
  });

  it('knows a full disk from the engine, from Node and from a driver that only says so in its text', () => {
    expect(isDiskFull({ code: '53100' })).toBe(true);
    expect(isDiskFull(Object.assign(new Error('write failed'), { cause: { code: '53100' } }))).toBe(true);
    expect(
      isDiskFull(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' })),
    ).toBe(true);
    expect(isDiskFull(new Error('RuntimeError: could not write block 7: No space left on device'))).toBe(
      true,
    );
    expect(isDiskFull({ code: '23505' })).toBe(false);
    expect(isDiskFull(new Error('boom'))).toBe(false);
    expect(DISK_FULL_MESSAGE).toMatch(/^Sem espaço em disco/);
  });
});

/** A size-limited tmpfs mounted at `dir` (root only); false where the machine does not allow it. */
function mountTmpfs(dir: string, megabytes: number): boolean {
  if (process.getuid?.() !== 0) return false;
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${megabytes}m`, 'tmpfs', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('a real full disk under PGlite (issue 37; a size-limited tmpfs, root only)', () => {
  it('the sale is refused with the 503, nothing is kept, and it sells once space returns', async (ctx) => {
    if (process.env.DATABASE_URL) return ctx.skip('PGlite only: the PostgreSQL server keeps its own disk');
    const dir = mkdtempSync(join(tmpdir(), 'balcao-full-'));
    // The migrated template is ~45 MB; 30 MB more leaves room for the shop, then a file takes the rest.
    if (!mountTmpfs(dir, 80)) {
      rmSync(dir, { recursive: true, force: true });
      return ctx.skip(
        'mounting a tmpfs needs root here (mount -t tmpfs): the trigger test above covers the API',
      );
    }
    let full: TestApp | undefined;
    try {
      cpSync(inject('pgliteTemplate'), join(dir, 'pglite'), { recursive: true });
      const database = fromPglite(await PGlite.create(join(dir, 'pglite'), { extensions: { pg_trgm } }));
      const app = await buildApp({ db: database.db, config: testConfig() });
      await app.ready();
      full = {
        app,
        database,
        close: async () => {
          await app.close();
          await database.close();
        },
      };
      const { auth, api, client } = await makeShop(full);
      const p = await makeProduct(full, auth, { salePriceCents: 1000, stock: 1000 });
      const body = {
        items: [{ productId: p.id, quantity: 1 }],
        payments: [{ method: 'pix', amountCents: 1000 }],
      };
      try {
        execFileSync('dd', ['if=/dev/zero', `of=${join(dir, 'filler')}`, 'bs=1M'], { stdio: 'ignore' });
      } catch {
        // dd stops at "No space left on device": the disk is full.
      }
      // Sales until the disk refuses one (the first write that must grow a file).
      let sold = 0;
      let refusedKey: string | undefined;
      for (let i = 0; i < 300 && !refusedKey; i++) {
        const key = `disco-cheio-tmpfs-${i}`;
        const res = await api.post('/sale', body, { 'idempotency-key': key });
        if (res.statusCode === 201) sold++;
        else {
          expect(res.statusCode, res.body).toBe(503);
          expect(res.json().message).toBe(DISK_FULL_MESSAGE);
          refusedKey = key;
        }
      }
      expect(refusedKey).toBeDefined();
      rmSync(join(dir, 'filler'));
      // Space is back: the same process answers, the refused sale was not kept, and it sells now.
      const count = async () =>
        (await full?.database.db.select().from(sales).where(eq(sales.clientId, client.id)))?.length;
      expect(await count()).toBe(sold);
      expect((await api.get(`/product/${p.id}`)).json().stock).toBe(1000 - sold);
      const retried = await api.post('/sale', body, { 'idempotency-key': refusedKey as string });
      expect(retried.statusCode).toBe(201);
      expect(await count()).toBe(sold + 1);
      expect((await api.get(`/product/${p.id}`)).json().stock).toBe(1000 - sold - 1);
    } finally {
      await full?.close().catch(() => {});
      execFileSync('umount', [dir], { stdio: 'ignore' });
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
