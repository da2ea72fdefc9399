import { copyFileSync, lstatSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { copyFile, lstat, mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';

/**
 * How far before the first pass's start a file's change still counts as "during" it: a file's ctime
 * comes from the kernel's coarse clock, which lags the wall clock by a tick (a few ms); two seconds is
 * far beyond that and costs only the files written in those two seconds, copied again.
 */
const CLOCK_MARGIN_MS = 2000;
/** Files copied at once in the first pass (libuv's thread pool has 4 threads, shared with the app). */
const PARALLEL_COPIES = 2;

type Copied = { ino: number; size: number };
export type FolderSnapshot = {
  /** Bytes of the whole copy. */
  bytes: number;
  /** Bytes copied again inside PGlite's lock (what changed while the first pass ran). */
  lockedBytes: number;
  /** How long PGlite's lock was held, ms: the only time the sales waited for the backup. */
  lockedMs: number;
};

/** The folder's files (paths relative to `root`), each folder made under `copyTo` first (empty ones too: PostgreSQL needs them). */
async function* filesOf(root: string, copyTo: string, dir = ''): AsyncGenerator<string> {
  await mkdir(join(copyTo, dir), { recursive: true });
  for (const entry of await readdir(join(root, dir), { withFileTypes: true })) {
    const path = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) yield* filesOf(root, copyTo, path);
    else if (entry.isFile()) yield path;
  }
}

function filesOfSync(root: string, copyTo: string | null, dir = '', out: string[] = []): string[] {
  if (copyTo) mkdirSync(join(copyTo, dir), { recursive: true });
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) filesOfSync(root, copyTo, path, out);
    else if (entry.isFile()) out.push(path);
  }
  return out;
}

/**
 * A consistent copy of a PGlite data folder taken while the shop keeps selling (issue 37): the same
 * files PGlite's own `dumpDataDir` reads inside its query lock, but the lock is held only for what
 * changed during the bulk copy.
 *
 * 1. Without the lock, every file is copied (in-kernel `copyFile`, off the event loop), each one's inode
 *    and size noted before it is read. Sales go on and may write files meanwhile.
 * 2. Inside PGlite's query lock (no statement runs, so no file of the folder is written; PGlite has no
 *    background processes), the folder is listed again and every file that is new, has another inode or
 *    size, or was changed (ctime: writes, truncations and renames) since just before step 1 began, is
 *    copied again; files that are gone are removed from the copy.
 *
 * The result is the folder's exact content at one instant between two statements, what a crash at that
 * instant would leave: opening it replays the WAL like any restart (an open transaction is rolled back).
 * The sales wait only for step 2: the WAL segment being written and the few table files PGlite wrote
 * back in those seconds, instead of the whole database.
 */
export async function snapshotPgliteFolder(
  client: PGlite,
  source: string,
  target: string,
  { clockMarginMs = CLOCK_MARGIN_MS } = {},
): Promise<FolderSnapshot> {
  const began = Date.now();
  const copied = new Map<string, Copied>();
  let bytes = 0;
  const pending = new Set<Promise<void>>();
  let failure: unknown;
  for await (const file of filesOf(source, target)) {
    const task = (async () => {
      try {
        const before = await lstat(join(source, file));
        await copyFile(join(source, file), join(target, file));
        copied.set(file, { ino: before.ino, size: before.size });
      } catch (error) {
        // Removed by PGlite since it was listed: the second pass settles it.
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') failure ??= error;
      }
    })();
    pending.add(task);
    task.finally(() => pending.delete(task)).catch(() => {});
    if (pending.size >= PARALLEL_COPIES) await Promise.race(pending);
  }
  await Promise.all(pending);
  if (failure) throw failure;

  let lockedBytes = 0;
  let lockedMs = 0;
  const since = began - clockMarginMs;
  await client._runExclusiveQuery(async () => {
    const locked = performance.now();
    const now = new Set(filesOfSync(source, target));
    for (const file of now) {
      const stat = lstatSync(join(source, file));
      const was = copied.get(file);
      if (
        was &&
        was.ino === stat.ino &&
        was.size === stat.size &&
        stat.ctimeMs < since &&
        stat.mtimeMs < since
      )
        continue;
      copyFileSync(join(source, file), join(target, file));
      lockedBytes += stat.size;
    }
    for (const file of copied.keys()) if (!now.has(file)) rmSync(join(target, file), { force: true });
    lockedMs = performance.now() - locked;
  });
  for (const file of filesOfSync(target, null)) bytes += lstatSync(join(target, file)).size;
  return { bytes, lockedBytes, lockedMs };
}

/** A PGlite client's data folder on disk, or null when it lives in memory (nothing to copy). */
export function pgliteFolder(client: PGlite): string | null {
  const dir = client.dataDir;
  if (!dir || dir.includes('://')) return null;
  return dir;
}
