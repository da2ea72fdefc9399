import { execFile } from 'node:child_process';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Worker } from 'node:worker_threads';
import { gzip } from 'node:zlib';
import {
  type BACKUP_KINDS,
  BACKUP_MESSAGES,
  type Backup,
  type BackupList,
  type BackupSchedule,
  lowDiskMessage,
} from '@balcao/core/backup';
import { wallTime } from '@balcao/core/time';
import { UserType } from '@balcao/core/userTypes';
import type { PGlite } from '@electric-sql/pglite';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { AppContext } from '../../context.ts';
import { type Db, type Executor, pgliteOf, postgresUrlOf } from '../../db/client.ts';
import { clients } from '../../db/schema.ts';
import { forbidden, notFound, unavailable } from '../../errors.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { storageFor } from '../storage/storage.ts';
import { countRows } from './counts.ts';
import { backupDiskSpace } from './diskSpace.ts';
import { pgProgram } from './pgTools.ts';
import { backupsToKeep } from './retention.ts';
import { backupSchedule, backups } from './schema.ts';
import { dumpShop, perShopBackups, shopIds, verifyShopBackup } from './shopBackup.ts';
import { type FolderSnapshot, pgliteFolder, snapshotPgliteFolder } from './snapshot.ts';
import type { WorkerAnswer, WorkerJob } from './verifyWorker.ts';

const run = promisify(execFile);
const gzipAsync = promisify(gzip);

export type BackupKind = (typeof BACKUP_KINDS)[number];
type Counts = Record<string, number>;

/** DATA_DIR/backups: where every backup file is written. */
export const backupFolder = (config: Pick<Config, 'dataDir'>) => join(config.dataDir, 'backups');

/** The instance's operator: the first shop (lowest id). Only its Administrador sees the backups. */
async function operatorClientId(db: Executor): Promise<number | null> {
  const [row] = await db.select({ id: sql<number>`min(${clients.id})` }).from(clients);
  return row?.id ?? null;
}

/**
 * Tenancy (issue 37): a backup is the whole instance's database, every shop in it. Only the first
 * shop's Administrador (the operator of a self-hosted instance) may list, take or download one; the
 * Administrador of another shop of a multi-shop instance gets 403.
 */
export async function assertOperator(db: Executor, session: SessionUser): Promise<void> {
  if (session.userTypeId !== UserType.ADMIN) throw forbidden();
  if ((await operatorClientId(db)) !== session.clientId) throw forbidden(BACKUP_MESSAGES.operatorOnly);
}

/**
 * Who may list, take and download backups: the operator's Administrador; and, on a PostgreSQL several
 * shops share (per-shop backups), every shop's Administrador, for its own shop's backups.
 */
async function assertBackupAccess(db: Db, session: SessionUser): Promise<{ perShop: boolean }> {
  if (session.userTypeId !== UserType.ADMIN) throw forbidden();
  const perShop = await perShopBackups(db);
  if (!perShop) await assertOperator(db, session);
  return { perShop };
}

/** The backups a session sees: its shop's; the operator also the whole-database ones (client_id null). */
async function visibleBackups(db: Db, session: SessionUser) {
  const operator = (await operatorClientId(db)) === session.clientId;
  return operator
    ? sql`(${backups.clientId} = ${session.clientId} or ${backups.clientId} is null)`
    : sql`${backups.clientId} = ${session.clientId}`;
}

export { countRows };

/** The tables whose counts differ (the backup's own table is written after the dump: left out). */
function countDifferences(source: Counts, restored: Counts): string[] {
  const names = new Set([...Object.keys(source), ...Object.keys(restored)]);
  return [...names].filter((name) => source[name] !== restored[name]).sort();
}

/**
 * An in-memory embedded database (no folder on disk for snapshot.ts to copy) as a .tar.gz (PGlite's
 * own `dumpDataDir`, what its `clone()` uses), with every table's row count read in the same instant: the counts and the dump run inside one
 * PGlite transaction, which holds PGlite's transaction lock, so no sale commits between them. Sales wait
 * for the uncompressed copy only (memory-to-memory, well under a second for a small shop); the gzip
 * runs after, off the event loop.
 */
export async function dumpPglite(client: PGlite): Promise<{ file: Buffer; counts: Counts }> {
  let counts: Counts = {};
  let blob: Blob | undefined;
  await client.transaction(async (tx) => {
    counts = await countRows(async (text) => (await tx.query<Record<string, unknown>>(text)).rows);
    // Uncompressed inside the lock: the copy is all the sales wait for.
    blob = await client.dumpDataDir('none');
  });
  if (!blob) throw new Error('PGlite answered no dump');
  // Compressed after the lock, on libuv's thread pool: the event loop and the sales go on.
  return { file: await gzipAsync(Buffer.from(await blob.arrayBuffer())), counts };
}

/**
 * Runs the backup's PGlite work (verifyWorker.ts) in a worker thread: PGlite runs its WebAssembly on the
 * thread that calls it, so a database opened here would stop the event loop, and the sales with it, for
 * as long as the work lasts (issue 37's bench: checkout p95 during a backup several times the figure
 * without one).
 */
function inWorker(job: WorkerJob): Promise<WorkerAnswer> {
  return new Promise((resolve, reject) => {
    // The API runs its TypeScript through tsx (scripts/start.mjs): the worker registers tsx's loader
    // first (a worker does not take `--import` hooks from its options), then loads the job.
    const entry = JSON.stringify(new URL('./verifyWorker.ts', import.meta.url).href);
    const worker = new Worker(
      `import('tsx/esm/api').then(({ register }) => { register(); return import(${entry}); })`,
      { eval: true, workerData: job },
    );
    worker.once('message', (message: WorkerAnswer) => {
      if (message.error) reject(new Error(message.error));
      else resolve(message);
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`backup worker ended with code ${code}`));
    });
  });
}

let lastSnapshot: FolderSnapshot | null = null;
/** The last data-folder snapshot's figures in this process (bench/backup-large.ts reports them). */
export const lastPgliteSnapshot = () => lastSnapshot;

/**
 * A backup of a PGlite database kept in a data folder (the server's case): a consistent copy of the
 * folder taken while the sales go on (snapshot.ts: PGlite's lock held only for what changed during
 * the bulk copy), then, in a worker thread, the copy opened and counted, written as the .tar.gz and
 * the written file opened again and counted. The copy is removed after.
 */
async function backupPgliteFolder(
  client: PGlite,
  folder: string,
  backupsFolder: string,
  path: string,
): Promise<{ counts: Counts; restored: Counts }> {
  const snapshot = join(backupsFolder, '.snapshot');
  await rm(snapshot, { recursive: true, force: true }); // a crashed backup's leftover
  try {
    lastSnapshot = await snapshotPgliteFolder(client, folder, snapshot);
    const answer = await inWorker({ pack: snapshot, out: `${path}.part` });
    await rename(`${path}.part`, path);
    return { counts: answer.counts ?? {}, restored: answer.restored ?? {} };
  } finally {
    await rm(snapshot, { recursive: true, force: true });
    await rm(`${path}.part`, { force: true });
  }
}

/** pg_dump's path when the binary is installed; null otherwise (the page says so). */
async function pgDumpAvailable(): Promise<boolean> {
  try {
    await run(pgProgram('pg_dump'), ['--version']);
    return true;
  } catch {
    return false;
  }
}

/**
 * PostgreSQL: pg_dump (custom format) of the database on a snapshot exported by a REPEATABLE READ
 * transaction that also counts the rows, so counts and dump see the same instant. Verified by
 * pg_restore into a scratch database created beside it (dropped after) when the role may create one.
 */
async function dumpPostgres(url: string, path: string): Promise<{ counts: Counts; verified: Counts | null }> {
  const pg = (await import('pg')).default;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  let counts: Counts;
  try {
    await client.query('begin isolation level repeatable read read only');
    const { rows } = await client.query<{ s: string }>('select pg_export_snapshot() as s');
    counts = await countRows(async (text) => (await client.query(text)).rows);
    await run(
      pgProgram('pg_dump'),
      ['--format=custom', `--snapshot=${rows[0].s}`, '--no-owner', '-f', path, url],
      {
        maxBuffer: 16 * 1024 * 1024,
      },
    );
    await client.query('commit');
  } finally {
    await client.end();
  }
  const scratchName = `balcao_verify_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`create database ${scratchName}`);
  } catch {
    await admin.end();
    return { counts, verified: null };
  }
  try {
    const scratchUrl = new URL(url);
    scratchUrl.pathname = `/${scratchName}`;
    await run(pgProgram('pg_restore'), ['--no-owner', '-d', scratchUrl.toString(), path], {
      maxBuffer: 16 * 1024 * 1024,
    });
    const scratch = new pg.Client({ connectionString: scratchUrl.toString() });
    await scratch.connect();
    try {
      return { counts, verified: await countRows(async (text) => (await scratch.query(text)).rows) };
    } finally {
      await scratch.end();
    }
  } finally {
    await admin.query(`drop database if exists ${scratchName}`).catch(() => {});
    await admin.end();
  }
}

const stamp = (at: Date) =>
  at
    .toISOString()
    .replaceAll(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'z')
    .toLowerCase();

function toBackup(row: typeof backups.$inferSelect): Backup {
  const rows = Object.values(row.rowCounts ?? {});
  return {
    id: row.id,
    createdAt: new Date(row.createdAt).toISOString(),
    kind: row.kind as Backup['kind'],
    engine: row.engine as Backup['engine'],
    fileName: row.fileName,
    sizeBytes: row.sizeBytes,
    status: row.status as Backup['status'],
    verified: row.verified,
    tables: rows.length,
    rows: rows.reduce((sum, n) => sum + n, 0),
    uploaded: row.uploaded,
    durationMs: row.durationMs,
    error: row.error,
  };
}

/** The backup under way, per shop ('' the whole database). */
const running = new Map<string, Promise<Backup>>();
const LOW_DISK = lowDiskMessage(0, 0).slice(0, lowDiskMessage(0, 0).indexOf(':'));

/**
 * Takes one backup (one at a time in this process: a second call waits for and answers the first):
 * dump with the row counts of that instant, write under DATA_DIR/backups, verify in a scratch
 * database, copy to S3 when configured, record size and result, prune by the retention rule. A failure
 * is recorded and warned in the operator's bell; the answer is the recorded backup either way.
 */
export function takeBackup(
  ctx: Pick<AppContext, 'db' | 'config' | 'notify'>,
  kind: BackupKind,
  clientId: number | null = null,
): Promise<Backup> {
  const key = String(clientId ?? '');
  let current = running.get(key);
  if (!current) {
    current = takeOne(ctx, kind, clientId).finally(() => running.delete(key));
    running.set(key, current);
  }
  return current;
}

async function takeOne(
  ctx: Pick<AppContext, 'db' | 'config' | 'notify'>,
  kind: BackupKind,
  clientId: number | null,
): Promise<Backup> {
  return recordBackup(ctx, await produceBackup(ctx.db, ctx.config, kind, clientId));
}

/** "Fazer backup agora": the session's shop's backup when shops back up apart, else the whole database. */
export async function takeBackupFor(ctx: Pick<AppContext, 'db' | 'config' | 'notify'>, session: SessionUser) {
  const { perShop } = await assertBackupAccess(ctx.db, session);
  return takeBackup(ctx, 'manual', perShop ? session.clientId : null);
}

/** A backup written and verified, not yet recorded (before an upgrade the table may not exist yet). */
export type ProducedBackup = typeof backups.$inferInsert;

/**
 * Dumps, writes, verifies and uploads one backup; a failure is in the answer, never thrown. With a
 * `shopId` (PostgreSQL several shops share): that shop's rows and files only, as its export ZIP.
 */
export async function produceBackup(
  db: Db,
  config: Config,
  kind: BackupKind,
  shopId: number | null = null,
): Promise<ProducedBackup> {
  const started = Date.now();
  const client = pgliteOf(db);
  const url = postgresUrlOf(db);
  const oneShop = shopId !== null && !client;
  if (!client && !oneShop && !(await pgDumpAvailable())) throw unavailable(BACKUP_MESSAGES.pgDumpMissing);
  const folder = backupFolder(config);
  const fileName = oneShop
    ? `balcao-${stamp(new Date(started))}-${kind}-loja${shopId}.zip`
    : `balcao-${stamp(new Date(started))}-${kind}.${client ? 'tar.gz' : 'dump'}`;
  const path = join(folder, fileName);
  let counts: Counts = {};
  let sizeBytes = 0;
  let verified = false;
  let uploaded = false;
  let error: string | null = null;
  // Issue 37: a disk without room for the backup stops it before it fills the disk the sales need.
  const space = await backupDiskSpace(db, config.dataDir);
  if (space.low) error = space.low;
  else
    try {
      let restored: Counts | null;
      await mkdir(folder, { recursive: true });
      const onDisk = client && pgliteFolder(client);
      if (oneShop) {
        try {
          ({ counts } = await dumpShop(db, storageFor(config), shopId, `${path}.part`));
          await rename(`${path}.part`, path);
        } finally {
          await rm(`${path}.part`, { force: true });
        }
        restored = await verifyShopBackup(String(url), path, counts);
      } else if (client && onDisk) {
        ({ counts, restored } = await backupPgliteFolder(client, onDisk, folder, path));
      } else if (client) {
        // An in-memory database (no folder to copy): PGlite's own dump inside its lock.
        const dump = await dumpPglite(client);
        counts = dump.counts;
        await writeFile(`${path}.part`, dump.file);
        await rename(`${path}.part`, path);
        restored = (await inWorker({ check: path })).restored ?? {};
      } else {
        const dump = await dumpPostgres(String(url), path);
        counts = dump.counts;
        restored = dump.verified;
      }
      sizeBytes = (await stat(path)).size;
      if (restored) {
        const differ = countDifferences(counts, restored);
        if (differ.length > 0) throw new Error(`${BACKUP_MESSAGES.verifyMismatch}: ${differ.join(', ')}`);
        verified = true;
      }
      if (config.s3) {
        await storageFor(config).put(`backups/${fileName}`, await readFile(path));
        uploaded = true;
      }
    } catch (cause) {
      error = String((cause as Error)?.message ?? cause).slice(0, 2000);
    }
  return {
    clientId: oneShop ? shopId : null,
    kind,
    engine: oneShop ? 'shop' : client ? 'pglite' : 'postgres',
    fileName,
    sizeBytes,
    status: error ? 'failed' : 'ok',
    verified,
    rowCounts: counts,
    uploaded,
    durationMs: Date.now() - started,
    error,
  };
}

/** Records a produced backup: a failure warns the operator's bell, a success prunes by retention. */
export async function recordBackup(
  ctx: Pick<AppContext, 'db' | 'config' | 'notify'>,
  produced: ProducedBackup,
): Promise<Backup> {
  const { db, config } = ctx;
  const [row] = await db.insert(backups).values(produced).returning();
  const error = produced.error;
  if (error) {
    const warned = produced.clientId ?? (await operatorClientId(db));
    const message = error.startsWith(LOW_DISK) ? BACKUP_MESSAGES.lowDiskBell : BACKUP_MESSAGES.failedBell;
    if (warned) ctx.notify(warned, { message, alertColor: 'error' });
  } else {
    await pruneBackups(db, config);
  }
  return toBackup(row);
}

/** Removes the successful backups the retention rule does not keep (file, S3 copy and row). */
export async function pruneBackups(db: Db, config: Config): Promise<number[]> {
  const done = await db
    .select({
      id: backups.id,
      createdAt: backups.createdAt,
      fileName: backups.fileName,
      uploaded: backups.uploaded,
      clientId: backups.clientId,
    })
    .from(backups)
    .where(eq(backups.status, 'ok'));
  // The rule applies to each shop's backups apart (and to the whole-database ones).
  const groups = new Map<number, typeof done>();
  for (const backup of done)
    groups.set(backup.clientId ?? 0, [...(groups.get(backup.clientId ?? 0) ?? []), backup]);
  const keep = new Set([...groups.values()].flatMap((group) => [...backupsToKeep(group)]));
  const gone = done.filter((backup) => !keep.has(backup.id));
  await removeBackups(db, config, gone);
  return gone.map((backup) => backup.id);
}

/** Backups' files (the folder's and the bucket's copy) and then their rows. */
async function removeBackups(
  db: Db,
  config: Config,
  gone: { id: number; fileName: string; uploaded: boolean }[],
): Promise<void> {
  for (const backup of gone) {
    await rm(join(backupFolder(config), backup.fileName), { force: true });
    if (backup.uploaded && config.s3)
      await storageFor(config)
        .remove(`backups/${backup.fileName}`)
        .catch(() => {});
  }
  if (gone.length > 0)
    await db.delete(backups).where(
      inArray(
        backups.id,
        gone.map((backup) => backup.id),
      ),
    );
}

/**
 * LGPD's eliminação (issue 37): a deleted shop's own backups (per-shop backups on a shared PostgreSQL)
 * go with it, files and rows; answers how many. Whole-database backups are the operator's and stay.
 */
export async function removeShopBackups(db: Db, config: Config, clientId: number): Promise<number> {
  const gone = await db
    .select({ id: backups.id, fileName: backups.fileName, uploaded: backups.uploaded })
    .from(backups)
    .where(eq(backups.clientId, clientId));
  await removeBackups(db, config, gone);
  return gone.length;
}

export async function readSchedule(db: Executor): Promise<BackupSchedule> {
  const [row] = await db.select().from(backupSchedule).where(eq(backupSchedule.id, 1));
  return { enabled: row?.enabled ?? true, hour: row?.hour ?? 3 };
}

export async function saveSchedule(db: Executor, session: SessionUser, input: BackupSchedule) {
  await assertOperator(db, session);
  await db
    .insert(backupSchedule)
    .values({ id: 1, ...input })
    .onConflictDoUpdate({ target: backupSchedule.id, set: input });
  return readSchedule(db);
}

export async function listBackups(db: Db, config: Config, session: SessionUser): Promise<BackupList> {
  const { perShop } = await assertBackupAccess(db, session);
  const rows = await db
    .select()
    .from(backups)
    .where(await visibleBackups(db, session))
    .orderBy(desc(backups.createdAt), desc(backups.id))
    .limit(200);
  const cannot = !pgliteOf(db) && !perShop && !(await pgDumpAvailable());
  return {
    backups: rows.map(toBackup),
    schedule: await readSchedule(db),
    folder: backupFolder(config),
    s3: Boolean(config.s3),
    unavailable: cannot ? BACKUP_MESSAGES.pgDumpMissing : null,
    lowDisk: (await backupDiskSpace(db, config.dataDir)).low,
    perShop,
  };
}

/** A backup's file on disk, for the download. */
export async function backupFile(db: Db, config: Config, session: SessionUser, id: number) {
  await assertBackupAccess(db, session);
  const [row] = await db
    .select()
    .from(backups)
    .where(and(eq(backups.id, id), await visibleBackups(db, session)));
  if (row?.status !== 'ok') throw notFound(BACKUP_MESSAGES.notFound);
  const path = join(backupFolder(config), row.fileName);
  try {
    await stat(path);
  } catch {
    throw notFound(BACKUP_MESSAGES.fileMissing);
  }
  return { path, fileName: row.fileName, sizeBytes: row.sizeBytes };
}

/**
 * The nightly backup's check (a background job every 15 minutes): due when the schedule is on, the
 * operator shop's clock is at the set hour and no scheduled backup succeeded in the last 20 hours (a
 * failed one is tried again at the next check of the hour).
 */
export async function nightlyBackupDue(
  db: Db,
  now = new Date(),
  clientId: number | null = null,
): Promise<boolean> {
  const schedule = await readSchedule(db);
  if (!schedule.enabled) return false;
  const [operator] = await db
    .select({ timeZone: clients.timeZone })
    .from(clients)
    .orderBy(clients.id)
    .limit(1);
  const hour = new Date(wallTime(now, operator?.timeZone ?? 'America/Sao_Paulo')).getUTCHours();
  if (hour !== schedule.hour) return false;
  const [recent] = await db
    .select({ id: backups.id })
    .from(backups)
    .where(
      sql`${backups.kind} = 'scheduled' and ${backups.status} = 'ok'
        and ${clientId === null ? sql`${backups.clientId} is null` : sql`${backups.clientId} = ${clientId}`}
        and ${backups.createdAt} > ${now.toISOString()}::timestamptz - interval '20 hours'`,
    )
    .limit(1);
  return !recent;
}

const LOW_DISK_BELL_EVERY_MS = 6 * 60 * 60_000;
const lowDiskWarnedAt = new WeakMap<Db, number>();

/**
 * The backup job's tick (every 15 minutes): first the free-space check, so the operator hears of a
 * filling disk before the night's backup is due (the bell at most every 6 hours while it stays low,
 * and no backup taken); then the nightly backup when due.
 */
export async function backupTick(
  ctx: Pick<AppContext, 'db' | 'config' | 'notify'>,
  now = new Date(),
): Promise<{ backup: number } | { backups: number[] } | { lowDisk: string } | null> {
  const space = await backupDiskSpace(ctx.db, ctx.config.dataDir);
  if (space.low) {
    const last = lowDiskWarnedAt.get(ctx.db);
    if (last === undefined || now.getTime() - last >= LOW_DISK_BELL_EVERY_MS) {
      lowDiskWarnedAt.set(ctx.db, now.getTime());
      const operator = await operatorClientId(ctx.db);
      if (operator) ctx.notify(operator, { message: BACKUP_MESSAGES.lowDiskBell, alertColor: 'error' });
    }
    return { lowDisk: space.low };
  }
  lowDiskWarnedAt.delete(ctx.db);
  if (await perShopBackups(ctx.db)) {
    // Each shop's own backup, one after the other (a shop whose night's backup is done is skipped).
    const taken: number[] = [];
    for (const shop of await shopIds(ctx.db))
      if (await nightlyBackupDue(ctx.db, now, shop))
        taken.push((await takeBackup(ctx, 'scheduled', shop)).id);
    return taken.length > 0 ? { backups: taken } : null;
  }
  return (await nightlyBackupDue(ctx.db, now)) ? { backup: (await takeBackup(ctx, 'scheduled')).id } : null;
}

/** How many migrations the database has applied (0 on a new database, before drizzle made its table). */
async function appliedMigrations(db: Db): Promise<number> {
  // Two statements: a statement naming a table that does not exist fails when parsed, whatever its CASE.
  const exists = (await db.execute(
    sql`select to_regclass('drizzle.__drizzle_migrations') is not null as yes`,
  )) as unknown as { rows: { yes: boolean }[] };
  if (!exists.rows[0]?.yes) return 0;
  const result = (await db.execute(
    sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
  )) as unknown as { rows: { n: number }[] };
  return Number(result.rows[0]?.n ?? 0);
}

/**
 * Before every upgrade (issue 37): when the server starts on a database with data and migrations still
 * to run, a backup of it as it is, taken before they run. Answers the backup to record once the
 * migrations made the table (`recordBackup`), or null when nothing is pending or the database is new.
 */
export async function preUpgradeBackup(
  db: Db,
  config: Config,
  migrationCount: number,
): Promise<ProducedBackup | null> {
  const applied = await appliedMigrations(db);
  if (applied === 0 || applied >= migrationCount) return null;
  return produceBackup(db, config, 'pre-upgrade');
}
