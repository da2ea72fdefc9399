import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/helper.ts';
import { makeProduct, makeShop } from '../test/kit.ts';
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
