import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, describe, expect, it } from 'vitest';
import { snapshotPgliteFolder } from './snapshot.ts';

const work = mkdtempSync(join(tmpdir(), 'balcao-snapshot-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the data-folder snapshot a backup starts from (issue 37)', () => {
  it('lets writes commit while it copies, holds the lock only for what changed, and opens as one instant', async () => {
    const db = await PGlite.create(join(work, 'live'));
    // A ledger and its running total: a copy torn between two commits would show them apart.
    await db.exec(`
      create table ledger (id serial primary key, amount int not null, note text not null);
      create table total (id int primary key, n int not null, amount int not null);
      insert into ledger (amount, note) select g % 97, repeat(md5(g::text), 8) from generate_series(1, 60000) g;
      insert into total select 1, count(*), sum(amount) from ledger;
      checkpoint;`);
    // A till writing one sale every 20 ms until the copy is done.
    let written = 0;
    let copying = true;
    let warmedUp: () => void = () => {};
    const warm = new Promise<void>((resolve) => (warmedUp = resolve));
    const writer = (async () => {
      while (copying) {
        await db.transaction(async (tx) => {
          const amount = 1 + (written % 50);
          await tx.query('insert into ledger (amount, note) values ($1, $2)', [amount, 'durante a cópia']);
          await tx.query('update total set n = n + 1, amount = amount + $1 where id = 1', [amount]);
        });
        if (++written === 20) warmedUp();
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    let snapshot: Awaited<ReturnType<typeof snapshotPgliteFolder>>;
    let before = 0;
    try {
      // The fill's files are older than the copy's clock margin by the time 20 sales are in.
      await warm;
      before = written;
      snapshot = await snapshotPgliteFolder(db, join(work, 'live'), join(work, 'copy'), {
        clockMarginMs: 50,
      });
    } finally {
      copying = false;
      await writer;
    }
    const live = (await db.query<{ n: number }>('select count(*)::int as n from ledger')).rows[0].n;
    await db.close();

    expect(written).toBeGreaterThan(before);
    // Only what the writes touched was copied inside the lock, not the whole folder.
    expect(snapshot.bytes).toBeGreaterThan(20 * 1024 * 1024);
    expect(snapshot.lockedBytes).toBeLessThan(snapshot.bytes / 2);

    const copy = await PGlite.create(join(work, 'copy'));
    try {
      const { rows } = await copy.query<{ rows: number; sum: number; n: number; total: number }>(
        `select (select count(*)::int from ledger) as rows, (select sum(amount)::int from ledger) as sum,
          n, amount as total from total`,
      );
      // One instant: the total matches the ledger, with every write committed before the lock.
      expect(rows[0].n).toBe(rows[0].rows);
      expect(rows[0].total).toBe(rows[0].sum);
      expect(rows[0].rows).toBeGreaterThanOrEqual(60000);
      expect(rows[0].rows).toBeLessThanOrEqual(live);
    } finally {
      await copy.close();
    }
  }, 120_000);
});
