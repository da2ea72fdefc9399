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

/** Catch-up copies without the lock, at most, before the locked one (see below). */
const CATCH_UP_ROUNDS = 2;
/** What is left small enough to copy inside the lock without another round. */
const LOCKED_COPY_BUDGET_BYTES = 48 * 1024 * 1024;

type Copied = { ino: number; size: number };

/** The copy of a file is still its content: same inode and size, and not changed (ctime) since `since`. */
const unchanged = (
  was: Copied | undefined,
  now: { ino: number; size: number; ctimeMs: number; mtimeMs: number },
  since: number,
) =>
  Boolean(was && was.ino === now.ino && was.size === now.size && now.ctimeMs < since && now.mtimeMs < since);
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
 * 2. Still without the lock, up to two catch-up rounds copy again what changed since the previous round
 *    began (a page written back into a 1 GB table file makes the whole file stale), until what is left
 *    fits a small budget.
 * 3. Inside PGlite's query lock (no statement runs, so no file of the folder is written; PGlite has no
 *    background processes), the folder is listed again and every file that is new, has another inode or
 *    size, or was changed (ctime: writes, truncations and renames) since just before step 1 began, is
 *    copied again; files that are gone are removed from the copy.
 *
 * The result is the folder's exact content at one instant between two statements, what a crash at that
 * instant would leave: opening it replays the WAL like any restart (an open transaction is rolled back).
 * The sales wait only for step 3: the WAL segment being written and the few table files PGlite wrote
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
  /** Copies files (inode and size noted before each is read), a few at a time, off the event loop. */
  async function copyAll(files: AsyncIterable<string> | Iterable<string>) {
    const pending = new Set<Promise<void>>();
    let failure: unknown;
    for await (const file of files) {
      const task = (async () => {
        try {
          const before = await lstat(join(source, file));
          await copyFile(join(source, file), join(target, file));
          copied.set(file, { ino: before.ino, size: before.size });
        } catch (error) {
          // Removed by PGlite since it was listed: the locked pass settles it.
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT') failure ??= error;
        }
      })();
      pending.add(task);
      task.finally(() => pending.delete(task)).catch(() => {});
      if (pending.size >= PARALLEL_COPIES) await Promise.race(pending);
    }
    await Promise.all(pending);
    if (failure) throw failure;
  }
  await copyAll(filesOf(source, target));

  // Catch-up rounds, still without the lock: a page PGlite wrote back into a 1 GB table file during the
  // copy makes the whole file stale, and at 1,000,000 sales that was ~470 MB to copy inside the lock.
  // Each round copies again what changed since the previous one began, so what is left for the lock
  // is what changed during the last, short round.
  let since = began - clockMarginMs;
  for (let round = 0; round < CATCH_UP_ROUNDS; round++) {
    const roundBegan = Date.now();
    const stale: string[] = [];
    let staleBytes = 0;
    for await (const file of filesOf(source, target)) {
      const stat = await lstat(join(source, file)).catch(() => null);
      if (stat && !unchanged(copied.get(file), stat, since)) {
        stale.push(file);
        staleBytes += stat.size;
      }
    }
    if (staleBytes <= LOCKED_COPY_BUDGET_BYTES) break;
    await copyAll(stale);
    since = roundBegan - clockMarginMs;
  }

  let lockedBytes = 0;
  let lockedMs = 0;
  await client._runExclusiveQuery(async () => {
    const locked = performance.now();
    const now = new Set(filesOfSync(source, target));
    for (const file of now) {
      const stat = lstatSync(join(source, file));
      const was = copied.get(file);
      if (unchanged(was, stat, since)) continue;
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
