import { readdir, stat, statfs } from 'node:fs/promises';
import { join } from 'node:path';
import { lowDiskMessage } from '@balcao/core/backup';
import { desc, eq, sql } from 'drizzle-orm';
import { type Db, pgliteOf } from '../../db/client.ts';
import { backups } from './schema.ts';
import { pgliteFolder } from './snapshot.ts';

/** What the check needs of `fs.statfs`: blocks free to an unprivileged user and the block size. */
export type StatfsReader = (path: string) => Promise<{ bavail: number | bigint; bsize: number | bigint }>;

/** Room left for the shop's own writes (sales, WAL, uploads) after a backup: 200 MiB. */
export const BACKUP_DISK_MARGIN_BYTES = 200 * 1024 * 1024;

let reader: StatfsReader = (path) => statfs(path);

/** Tests inject the disk's answer (a full disk cannot be made on every machine); answers the previous. */
export function useStatfsReader(next: StatfsReader): StatfsReader {
  const previous = reader;
  reader = next;
  return previous;
}

export type DiskSpace = { freeBytes: number; neededBytes: number; low: string | null };

/**
 * The size a backup is expected to take: the last successful one's, or, before the first one (or
 * before the migrations made the backups table), the database's own size.
 */
async function expectedBackupBytes(db: Db): Promise<number> {
  const exists = (await db.execute(sql`select to_regclass('backups') is not null as yes`)) as unknown as {
    rows: { yes: boolean }[];
  };
  if (exists.rows[0]?.yes) {
    const [last] = await db
      .select({ size: backups.sizeBytes })
      .from(backups)
      .where(eq(backups.status, 'ok'))
      .orderBy(desc(backups.createdAt), desc(backups.id))
      .limit(1);
    if (last) return last.size;
  }
  const size = (await db.execute(
    sql`select pg_database_size(current_database())::bigint as n`,
  )) as unknown as {
    rows: { n: string | number }[];
  };
  return Number(size.rows[0]?.n ?? 0);
}

/** The bytes of a folder's files (a file removed while it is read counts nothing). */
export async function folderBytes(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += await folderBytes(path);
    else if (entry.isFile()) total += (await stat(path).catch(() => ({ size: 0 }))).size;
  }
  return total;
}

/**
 * The free-space check before a backup and on the backup job's timer (issue 37): DATA_DIR's disk must
 * hold the next backup twice (the file and its verification's working copy, or a backup that grew),
 * the copy of PGlite's data folder the backup is made from (snapshot.ts; removed after), plus
 * `BACKUP_DISK_MARGIN_BYTES`, so a backup never takes the last space the sales need. `low` is the
 * Portuguese reason when it does not.
 */
export async function backupDiskSpace(db: Db, dataDir: string): Promise<DiskSpace> {
  let stats: Awaited<ReturnType<StatfsReader>>;
  try {
    stats = await reader(dataDir);
  } catch {
    // A disk that cannot be read is not called full: the backup itself reports what fails.
    return { freeBytes: Number.NaN, neededBytes: Number.NaN, low: null };
  }
  const freeBytes = Number(stats.bavail) * Number(stats.bsize);
  const client = pgliteOf(db);
  const folder = client && pgliteFolder(client);
  const snapshotBytes = folder ? await folderBytes(folder) : 0;
  const neededBytes = (await expectedBackupBytes(db)) * 2 + snapshotBytes + BACKUP_DISK_MARGIN_BYTES;
  return {
    freeBytes,
    neededBytes,
    low: freeBytes < neededBytes ? lowDiskMessage(freeBytes, neededBytes) : null,
  };
}
