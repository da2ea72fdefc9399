import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BACKUP_MESSAGES, type Backup, type BackupList } from '@balcao/core/backup';
import type { NotificationInput } from '@balcao/core/notification';
import { DEFAULT_TIME_ZONE, formatInZone } from '@balcao/core/time';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeS3 } from '../../../test/fakes/s3.ts';
import { createTestApp, type TestApp } from '../../../test/helper.ts';
import { asUser, expectStatus, makeShop, makeSimpleSale } from '../../../test/kit.ts';
import { fromPglite, migrationCount, pgliteOf } from '../../db/client.ts';
import { backgroundJobs } from '../../jobs.ts';
import { BACKUP_DISK_MARGIN_BYTES, backupDiskSpace, folderBytes, useStatfsReader } from './diskSpace.ts';
import { RestoreRefused, restoreBackup } from './restore.ts';
import { backupsToKeep } from './retention.ts';
import { backups } from './schema.ts';
import { nightlyBackupDue, preUpgradeBackup, pruneBackups, recordBackup, takeBackup } from './service.ts';

const onPglite = !process.env.DATABASE_URL;
const dataDir = mkdtempSync(join(tmpdir(), 'balcao-backup-test-'));
let t: TestApp;
let operator: Awaited<ReturnType<typeof makeShop>>;
beforeAll(async () => {
  t = await createTestApp({ dataDir });
  // The first shop of the instance is its operator's (a fresh test database has no shop yet).
  operator = await makeShop(t, [1, 3]);
});
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe.runIf(onPglite)('backups of the embedded database (issue 37)', { timeout: 90_000 }, () => {
  it('takes a backup while the shop sells: listed, verified by row counts, downloadable, and it restores', async () => {
    const before = await makeSimpleSale(t, operator.auth, { description: 'Antes do backup' });
    // Sales go on while the backup runs: none fails, and the backup's counts are one instant's.
    const [taken, ...sales] = await Promise.all([
      operator.api.post('/backup'),
      ...Array.from({ length: 5 }, (_, i) =>
        operator.api.post('/sale/simple', {
          description: `Durante ${i}`,
          valueCents: 1000,
          payments: [{ method: 'pix', amountCents: 1000 }],
        }),
      ),
    ]);
    for (const sale of sales) expect(sale.statusCode).toBe(201);
    const backup = expectStatus<Backup>(taken, 201, 'backup');
    expect(backup).toMatchObject({
      status: 'ok',
      verified: true,
      kind: 'manual',
      engine: 'pglite',
      error: null,
    });
    expect(backup.sizeBytes).toBeGreaterThan(1000);
    expect(backup.tables).toBeGreaterThan(30);
    expect(backup.fileName).toMatch(/^balcao-\d{8}t\d{6}z-manual\.tar\.gz$/);

    const list = expectStatus<BackupList>(await operator.api.get('/backup'), 200, 'list');
    expect(list.backups[0]).toEqual(backup);
    expect(list.schedule).toEqual({ enabled: true, hour: 3 });
    expect(list.folder).toBe(join(dataDir, 'backups'));
    expect(list.unavailable).toBeNull();
    expect(list.perShop).toBe(false);

    const file = await t.app.inject({
      method: 'GET',
      url: `/v1/backup/${backup.id}/file`,
      headers: operator.auth,
    });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toBe(`attachment; filename="${backup.fileName}"`);
    expect(file.rawPayload.length).toBe(backup.sizeBytes);
    expect([...file.rawPayload.subarray(0, 2)]).toEqual([0x1f, 0x8b]);

    // The downloaded file opens as a database holding the sale made before it.
    const restored = await PGlite.create({
      loadDataDir: new Blob([new Uint8Array(file.rawPayload)]),
      extensions: { pg_trgm },
    });
    try {
      const { rows } = await restored.query<{ n: number }>(
        'select count(*)::int as n from sales where id = $1',
        [before.id],
      );
      expect(rows[0].n).toBe(1);
    } finally {
      await restored.close();
    }
  });

  it('with S3 configured, the backup is also copied to the bucket', async () => {
    const fake = await startFakeS3({ buckets: ['balcao'] });
    try {
      const s3 = {
        endpoint: fake.url,
        bucket: 'balcao',
        region: 'us-east-1',
        accessKeyId: 'fake-access-key',
        secretAccessKey: 'fake-secret-key',
        forcePathStyle: true,
      };
      const backup = await takeBackup(
        { db: t.database.db, config: { ...t.app.ctx.config, dataDir, s3 }, notify: () => {} },
        'manual',
      );
      expect(backup).toMatchObject({ status: 'ok', verified: true, uploaded: true });
      expect(fake.buckets.get('balcao')?.get(`backups/${backup.fileName}`)?.body.length).toBe(
        backup.sizeBytes,
      );
    } finally {
      await fake.close();
    }
  });

  it('a failed backup is recorded as failed and warns the operator in the bell', async () => {
    const bell: { clientId: number; notification: NotificationInput }[] = [];
    const notify = (clientId: number, notification: NotificationInput) => {
      bell.push({ clientId, notification });
    };
    // The data folder is a file: the backups folder cannot be made under it.
    const broken = join(dataDir, 'not-a-folder');
    writeFileSync(broken, 'a file where the data folder should be');
    const backup = await takeBackup(
      { db: t.database.db, config: { ...t.app.ctx.config, dataDir: broken }, notify },
      'scheduled',
    );
    expect(backup.status).toBe('failed');
    expect(backup.verified).toBe(false);
    expect(backup.error).toMatch(/EEXIST|ENOTDIR/);
    expect(bell).toEqual([
      {
        clientId: operator.client.id,
        notification: {
          message: 'O backup automático falhou. Veja Configurações > Backups.',
          alertColor: 'error',
        },
      },
    ]);
    const list = expectStatus<BackupList>(await operator.api.get('/backup'), 200, 'list');
    expect(list.backups[0]).toMatchObject({ id: backup.id, status: 'failed', verified: false });
  });
});

describe.runIf(!onPglite)('backups on PostgreSQL: pg_dump, verified, restored (issue 37)', () => {
  it('takes a pg_dump while the shop sells, verified by pg_restore; npm run restore puts it in a new database', async () => {
    const before = await makeSimpleSale(t, operator.auth, { description: 'Antes do backup' });
    const [taken, ...sales] = await Promise.all([
      operator.api.post('/backup'),
      ...Array.from({ length: 3 }, (_, i) =>
        operator.api.post('/sale/simple', {
          description: `Durante ${i}`,
          valueCents: 1000,
          payments: [{ method: 'pix', amountCents: 1000 }],
        }),
      ),
    ]);
    for (const sale of sales) expect(sale.statusCode).toBe(201);
    const backup = expectStatus<Backup>(taken, 201, 'backup');
    expect(backup).toMatchObject({ status: 'ok', verified: true, engine: 'postgres', error: null });
    expect(backup.fileName).toMatch(/^balcao-\d{8}t\d{6}z-manual\.dump$/);
    expect(backup.tables).toBeGreaterThan(30);
    const file = await t.app.inject({
      method: 'GET',
      url: `/v1/backup/${backup.id}/file`,
      headers: operator.auth,
    });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.subarray(0, 5).toString('latin1')).toBe('PGDMP');

    // Restored into a database that does not exist yet (created), holding the sale made before.
    const base = new URL(String(process.env.DATABASE_URL));
    const target = new URL(base);
    target.pathname = `/balcao_restored_${Date.now().toString(36)}`;
    const path = join(dataDir, 'backups', backup.fileName);
    const pg = (await import('pg')).default;
    try {
      const restored = await restoreBackup({ file: path, databaseUrl: target.toString(), log: () => {} });
      expect(restored.tables).toBe(backup.tables);
      const client = new pg.Client({ connectionString: target.toString() });
      await client.connect();
      try {
        const { rows } = await client.query('select count(*)::int as n from sales where id = $1', [
          before.id,
        ]);
        expect(rows[0].n).toBe(1);
      } finally {
        await client.end();
      }
      // A database with data is not overwritten without --force.
      await expect(
        restoreBackup({ file: path, databaseUrl: target.toString(), log: () => {} }),
      ).rejects.toThrow(
        new RestoreRefused(
          'O banco de destino já tem tabelas. Use um banco novo, ou --force para substituir o que ele tem.',
        ),
      );
    } finally {
      const admin = new pg.Client({ connectionString: base.toString() });
      await admin.connect();
      await admin.query(`drop database if exists ${target.pathname.slice(1)} with (force)`);
      await admin.end();
    }
  }, 120_000);
});

describe.runIf(!onPglite)('per-shop backups on a PostgreSQL several shops share (issue 37)', () => {
  it("each shop's backup holds its rows only, verified in a scratch database, listed on its page only; npm run restore puts it in a database without that shop", async () => {
    // A second shop in the database: from now on each shop backs up its own rows.
    const other = await makeShop(t, [1, 3]);
    await makeSimpleSale(t, other.auth, { description: 'Venda da segunda loja' });
    await makeSimpleSale(t, operator.auth, { description: 'Venda do operador' });
    const [taken, ...sales] = await Promise.all([
      other.api.post('/backup'),
      ...Array.from({ length: 3 }, (_, i) =>
        other.api.post('/sale/simple', {
          description: `Durante ${i}`,
          valueCents: 1000,
          payments: [{ method: 'pix', amountCents: 1000 }],
        }),
      ),
    ]);
    for (const sale of sales) expect(sale.statusCode).toBe(201);
    const backup = expectStatus<Backup>(taken, 201, 'shop backup');
    expect(backup).toMatchObject({
      status: 'ok',
      verified: true,
      engine: 'shop',
      kind: 'manual',
      error: null,
    });
    expect(backup.fileName).toMatch(
      new RegExp(`^balcao-\\d{8}t\\d{6}z-manual-loja${other.client.id}\\.zip$`),
    );

    // Listed on that shop's page only; another shop's Administrador neither sees nor downloads it.
    const otherList = expectStatus<BackupList>(await other.api.get('/backup'), 200, 'other list');
    expect(otherList.backups.map((b) => b.id)).toEqual([backup.id]);
    expect(otherList.unavailable).toBeNull();
    expect(otherList.perShop).toBe(true);
    const operatorList = expectStatus<BackupList>(await operator.api.get('/backup'), 200, 'operator list');
    expect(operatorList.backups.map((b) => b.id)).not.toContain(backup.id);
    const stolen = await t.app.inject({
      method: 'GET',
      url: `/v1/backup/${backup.id}/file`,
      headers: operator.auth,
    });
    expect(stolen.statusCode).toBe(404);
    expect(stolen.json().message).toBe('Backup não encontrado');
    const file = await t.app.inject({
      method: 'GET',
      url: `/v1/backup/${backup.id}/file`,
      headers: other.auth,
    });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/zip');
    expect(file.rawPayload.length).toBe(backup.sizeBytes);

    // The file holds this shop's rows only: restored into a new database, one shop, its sales.
    const base = new URL(String(process.env.DATABASE_URL));
    const target = new URL(base);
    target.pathname = `/balcao_shop_restored_${Date.now().toString(36)}`;
    const path = join(dataDir, 'backups', backup.fileName);
    const pg = (await import('pg')).default;
    const client = new pg.Client({ connectionString: target.toString() });
    try {
      const restored = await restoreBackup({ file: path, databaseUrl: target.toString(), log: () => {} });
      await client.connect();
      const read = async () => {
        const { rows } = await client.query(
          `select (select count(*)::int from clients) as shops,
             (select string_agg(description, ', ' order by description) from sale_items) as sold`,
        );
        return rows[0];
      };
      // The second shop's sale is there, the operator's is not (the sales during the backup may be).
      const first = await read();
      expect(first.shops).toBe(1);
      expect(first.sold).toContain('Venda da segunda loja');
      expect(first.sold).not.toContain('Venda do operador');
      expect(restored.rows).toBe(backup.rows);

      // Into a database that has the shop: refused, unless --force (which replaces that shop's rows).
      const { rows: shops } = await client.query('select name, document from clients');
      await expect(
        restoreBackup({ file: path, databaseUrl: target.toString(), log: () => {} }),
      ).rejects.toThrow(
        new RestoreRefused(
          `A loja ${shops[0].name} (documento ${shops[0].document}) já existe neste banco. Use --force para substituí-la pelos dados do backup (as outras lojas não são tocadas).`,
        ),
      );
      await restoreBackup({ file: path, databaseUrl: target.toString(), force: true, log: () => {} });
      expect(await read()).toEqual(first);
      // The server's own database has both shops: the restore is refused there too.
      await expect(
        restoreBackup({ file: path, databaseUrl: String(t.database.url), log: () => {} }),
      ).rejects.toThrow(RestoreRefused);
    } finally {
      await client.end().catch(() => {});
      const admin = new pg.Client({ connectionString: base.toString() });
      await admin.connect();
      await admin.query(`drop database if exists ${target.pathname.slice(1)} with (force)`);
      await admin.end();
    }

    // The nightly job backs up every shop apart.
    const hourNow = Number(formatInZone(new Date(), DEFAULT_TIME_ZONE, 'time').slice(0, 2));
    await operator.api.put('/backup/schedule', { enabled: true, hour: hourNow });
    const [job] = backgroundJobs(t.app.ctx).filter((j) => j.name === 'backup-nightly');
    const night = (await job.run(t.database.db)) as { backups: number[] };
    expect(night.backups.length).toBeGreaterThanOrEqual(2);
    const after = expectStatus<BackupList>(await other.api.get('/backup'), 200, 'other list after the night');
    expect(after.backups[0]).toMatchObject({
      kind: 'scheduled',
      engine: 'shop',
      status: 'ok',
      verified: true,
    });
    expect(after.backups.map((b) => b.id).sort()).toEqual(
      after.backups
        .map((b) => b.id)
        .filter((id) => night.backups.includes(id) || id === backup.id)
        .sort(),
    );
    expect(await job.run(t.database.db)).toBeNull();
    await operator.api.put('/backup/schedule', { enabled: true, hour: 3 });
  }, 180_000);
});

describe.runIf(onPglite)('the backup before an upgrade', { timeout: 90_000 }, () => {
  it('is taken when migrations are pending, recorded once they ran; none when the database is current', async () => {
    const db = t.database.db;
    const config = { ...t.app.ctx.config, dataDir };
    expect(await preUpgradeBackup(db, config, migrationCount())).toBeNull();
    // The next release has one migration more than this database applied.
    const produced = await preUpgradeBackup(db, config, migrationCount() + 1);
    expect(produced).toMatchObject({ kind: 'pre-upgrade', status: 'ok', verified: true, error: null });
    const backup = await recordBackup({ db, config, notify: () => {} }, produced as never);
    expect(backup).toMatchObject({ kind: 'pre-upgrade', status: 'ok', verified: true });
    const list = expectStatus<BackupList>(await operator.api.get('/backup'), 200, 'list');
    expect(list.backups.map((b) => b.id)).toContain(backup.id);
  });
});

describe.runIf(onPglite)('the nightly job and the pruning', { timeout: 90_000 }, () => {
  it('the backup-nightly job takes one scheduled backup at the set hour, then none until the next night', async () => {
    const hourNow = Number(formatInZone(new Date(), DEFAULT_TIME_ZONE, 'time').slice(0, 2));
    await operator.api.put('/backup/schedule', { enabled: true, hour: hourNow });
    const [job] = backgroundJobs(t.app.ctx).filter((j) => j.name === 'backup-nightly');
    const first = (await job.run(t.database.db)) as { backup: number };
    const list = expectStatus<BackupList>(await operator.api.get('/backup'), 200, 'list');
    expect(list.backups.find((b) => b.id === first.backup)).toMatchObject({
      kind: 'scheduled',
      status: 'ok',
      verified: true,
    });
    expect(await job.run(t.database.db)).toBeNull();
    await operator.api.put('/backup/schedule', { enabled: false, hour: hourNow });
    await t.database.db.delete(backups).where(eq(backups.id, first.backup));
    expect(await job.run(t.database.db)).toBeNull();
    await operator.api.put('/backup/schedule', { enabled: true, hour: 3 });
  });

  it('removes the files and rows the retention rule does not keep, and keeps the failed rows', async () => {
    const folder = join(dataDir, 'backups');
    mkdirSync(folder, { recursive: true });
    await t.database.db.delete(backups);
    // Ten backups, one a day at noon UTC, the newest ten days ago; and a failed one.
    const rows = await t.database.db
      .insert(backups)
      .values([
        ...Array.from({ length: 10 }, (_, i) => ({
          createdAt: new Date(Date.UTC(2026, 10, 17 - i, 12)).toISOString(),
          kind: 'scheduled',
          engine: 'pglite',
          fileName: `old-${i}.tar.gz`,
          status: 'ok',
        })),
        {
          kind: 'scheduled',
          engine: 'pglite',
          fileName: 'failed.tar.gz',
          status: 'failed',
          error: 'disco cheio',
        },
      ])
      .returning();
    for (const row of rows) writeFileSync(join(folder, row.fileName), 'x');
    const removed = await pruneBackups(t.database.db, { ...t.app.ctx.config, dataDir });
    // Kept: 7 daily (the 17th to the 11th); weekly, the newest of the weeks of Mon 16th (17th), Mon 9th
    // (15th) and Mon 2nd (8th); monthly, November's (17th). Pruned: the 10th and the 9th.
    expect(removed.map((id) => rows.find((r) => r.id === id)?.fileName).sort()).toEqual([
      'old-7.tar.gz',
      'old-8.tar.gz',
    ]);
    expect(readdirSync(folder)).not.toContain('old-7.tar.gz');
    expect(readdirSync(folder)).not.toContain('old-8.tar.gz');
    expect(readdirSync(folder)).toContain('old-9.tar.gz');
    expect(readdirSync(folder)).toContain('failed.tar.gz');
    const left = await t.database.db.select({ id: backups.id }).from(backups);
    expect(left).toHaveLength(9);
  });
});

describe('the backup before an upgrade, on a new database', { timeout: 90_000 }, () => {
  it('is not taken: nothing to keep (and the check does not fail on the missing migrations table)', async () => {
    const empty = fromPglite(await PGlite.create({ extensions: { pg_trgm } }));
    try {
      expect(await preUpgradeBackup(empty.db, { ...t.app.ctx.config, dataDir }, migrationCount())).toBeNull();
    } finally {
      await empty.close();
    }
  });
});

describe("free space on the data folder's disk (issue 37)", () => {
  const MB = 1024 * 1024;
  /** A disk with `free` bytes available, in 4 KiB blocks, as fs.statfs answers. */
  const diskWith = (free: number) => async () => ({ bavail: BigInt(Math.floor(free / 4096)), bsize: 4096 });

  it('a backup is not taken when the disk cannot hold it: failed with the reason, a bell warning, no file', async () => {
    const bell: NotificationInput[] = [];
    mkdirSync(join(dataDir, 'backups'), { recursive: true });
    const before = readdirSync(join(dataDir, 'backups'), { withFileTypes: true }).length;
    const previous = useStatfsReader(diskWith(50 * MB));
    try {
      const backup = await takeBackup(
        { db: t.database.db, config: { ...t.app.ctx.config, dataDir }, notify: (_, n) => bell.push(n) },
        'manual',
      );
      expect(backup.status).toBe('failed');
      expect(backup.sizeBytes).toBe(0);
      expect(backup.error).toMatch(
        /^Pouco espaço em disco: 50,0 MB livres, o backup precisa de [\d,]+ MB\. Os backups ficam suspensos até que haja espaço; libere espaço no disco do servidor\.$/,
      );
      expect(bell).toEqual([
        {
          message:
            'Pouco espaço em disco no servidor: os backups foram suspensos. Libere espaço no disco. Veja Configurações > Backups.',
          alertColor: 'error',
        },
      ]);
      expect(readdirSync(join(dataDir, 'backups'), { withFileTypes: true })).toHaveLength(before);
      const list = expectStatus<BackupList>(await operator.api.get('/backup'), 200, 'list');
      expect(list.lowDisk).toBe(backup.error);
    } finally {
      useStatfsReader(previous);
    }
    const list = expectStatus<BackupList>(await operator.api.get('/backup'), 200, 'list');
    expect(list.lowDisk).toBeNull();
  });

  it.runIf(onPglite)("counts the copy of PGlite's data folder the backup is made from", async () => {
    const previous = useStatfsReader(diskWith(100 * 1024 * MB));
    try {
      const folder = pgliteOf(t.database.db)?.dataDir as string;
      const [last] = await t.database.db
        .select({ size: backups.sizeBytes })
        .from(backups)
        .where(eq(backups.status, 'ok'))
        .orderBy(desc(backups.createdAt), desc(backups.id))
        .limit(1);
      const expected = last
        ? last.size
        : Number(
            (
              (await t.database.db.execute(
                sql`select pg_database_size(current_database())::bigint as n`,
              )) as unknown as {
                rows: { n: string }[];
              }
            ).rows[0].n,
          );
      const space = await backupDiskSpace(t.database.db, dataDir);
      const copy = space.neededBytes - BACKUP_DISK_MARGIN_BYTES - expected * 2;
      // The folder's size as it is now (the WAL may have grown by a little since).
      const size = await folderBytes(folder);
      expect(copy).toBeGreaterThan(size * 0.9);
      expect(copy).toBeLessThanOrEqual(size * 1.1);
    } finally {
      useStatfsReader(previous);
    }
  });

  it("the job's timer warns before the nightly hour, once while the disk stays low, and takes no backup", async () => {
    const bell: { clientId: number; notification: NotificationInput }[] = [];
    const ctx = { ...t.app.ctx, config: { ...t.app.ctx.config, dataDir } };
    const [job] = backgroundJobs({
      ...ctx,
      notify: (clientId, notification) => bell.push({ clientId, notification }),
    }).filter((j) => j.name === 'backup-nightly');
    const rowsBefore = (await t.database.db.select({ id: backups.id }).from(backups)).length;
    // The disk has room for the backups so far, but not for the next one plus the margin.
    const previous = useStatfsReader(diskWith(150 * MB));
    try {
      const first = (await job.run(t.database.db)) as { lowDisk: string };
      expect(first.lowDisk).toMatch(/^Pouco espaço em disco: 150 MB livres/);
      expect(await job.run(t.database.db)).toEqual(first);
      expect(bell).toEqual([
        {
          clientId: operator.client.id,
          notification: {
            message:
              'Pouco espaço em disco no servidor: os backups foram suspensos. Libere espaço no disco. Veja Configurações > Backups.',
            alertColor: 'error',
          },
        },
      ]);
      expect(await t.database.db.select({ id: backups.id }).from(backups)).toHaveLength(rowsBefore);
    } finally {
      useStatfsReader(previous);
    }
    // Space again: the check passes and the job goes back to the nightly schedule (not due now).
    useStatfsReader(diskWith(100 * 1024 * MB));
    try {
      await operator.api.put('/backup/schedule', { enabled: false, hour: 3 });
      expect(await job.run(t.database.db)).toBeNull();
    } finally {
      useStatfsReader(previous);
      await operator.api.put('/backup/schedule', { enabled: true, hour: 3 });
    }
  });
});

describe('who may see the backups', () => {
  it('a seller gets 403; the Administrador of another shop gets 403 with the reason (on PostgreSQL, its own list)', async () => {
    const seller = operator.apis[1];
    expect((await seller.get('/backup')).statusCode).toBe(403);
    expect((await seller.post('/backup')).statusCode).toBe(403);

    const otherShop = await asUser(t, [1]);
    const refused = [
      await otherShop.api.get('/backup/1/file'),
      await otherShop.api.put('/backup/schedule', { enabled: false, hour: 2 }),
    ];
    if (onPglite) refused.push(await otherShop.api.get('/backup'), await otherShop.api.post('/backup'));
    else {
      // Shops sharing a PostgreSQL back up apart: another shop's Administrador sees its own list only.
      const own = expectStatus<BackupList>(await otherShop.api.get('/backup'), 200, 'own list');
      expect(own.backups.every((b) => b.engine === 'shop')).toBe(true);
    }
    for (const res of refused) {
      expect(res.statusCode).toBe(onPglite || res !== refused[0] ? 403 : 404);
      expect(res.json().message).toBe(
        onPglite || res !== refused[0] ? BACKUP_MESSAGES.operatorOnly : BACKUP_MESSAGES.notFound,
      );
    }
  });

  it('the operator sets the nightly hour; a wrong hour is a 400 in Portuguese', async () => {
    const saved = await operator.api.put('/backup/schedule', { enabled: true, hour: 2 });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ enabled: true, hour: 2 });
    const wrong = await operator.api.put('/backup/schedule', { enabled: true, hour: 24 });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.body).toContain('Informe uma hora entre 0 e 23');
    // Due at 2 h on the shop's clock (São Paulo, UTC-3): 05:xx UTC, not at 04:xx.
    expect(await nightlyBackupDue(t.database.db, new Date('2026-11-27T05:10:00Z'))).toBe(true);
    expect(await nightlyBackupDue(t.database.db, new Date('2026-11-27T04:10:00Z'))).toBe(false);
    await operator.api.put('/backup/schedule', { enabled: true, hour: 3 });
  });
});

describe('retention: 7 daily, 4 weekly, 12 monthly', () => {
  const at = (iso: string, id: number) => ({ id, createdAt: iso });
  it('keeps the newest of each of the last 7 days, 4 weeks and 12 months, and nothing else', () => {
    const backups = [];
    let id = 0;
    // Two backups a day for 400 days, ending Friday 2026-11-27.
    for (let day = 0; day < 400; day++) {
      const date = new Date(Date.UTC(2026, 10, 27) - day * 86_400_000).toISOString().slice(0, 10);
      backups.push(at(`${date}T03:00:00Z`, ++id), at(`${date}T15:00:00Z`, ++id));
    }
    const keep = backupsToKeep(backups);
    const kept = backups.filter((b) => keep.has(b.id)).map((b) => b.createdAt);
    expect(kept).toEqual([
      // daily: the newest of the last 7 days
      '2026-11-27T15:00:00Z',
      '2026-11-26T15:00:00Z',
      '2026-11-25T15:00:00Z',
      '2026-11-24T15:00:00Z',
      '2026-11-23T15:00:00Z',
      '2026-11-22T15:00:00Z', // also the newest of the week of 2026-11-16
      '2026-11-21T15:00:00Z',
      '2026-11-15T15:00:00Z', // week of 2026-11-09
      '2026-11-08T15:00:00Z', // week of 2026-11-02
      '2026-10-31T15:00:00Z', // monthly from here: the last day of each month
      '2026-09-30T15:00:00Z',
      '2026-08-31T15:00:00Z',
      '2026-07-31T15:00:00Z',
      '2026-06-30T15:00:00Z',
      '2026-05-31T15:00:00Z',
      '2026-04-30T15:00:00Z',
      '2026-03-31T15:00:00Z',
      '2026-02-28T15:00:00Z',
      '2026-01-31T15:00:00Z',
      '2025-12-31T15:00:00Z',
    ]);
  });

  it('keeps everything while there are fewer backups than the rule holds', () => {
    const keep = backupsToKeep([at('2026-11-27T03:00:00Z', 1), at('2026-11-26T03:00:00Z', 2)]);
    expect([...keep].sort()).toEqual([1, 2]);
  });
});
