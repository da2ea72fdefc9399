import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import * as tar from 'tar';
import { countRows } from './counts.ts';

type Counts = Record<string, number>;
/** `check`: count a written backup's rows. `pack`: also write the backup from a data-folder snapshot first. */
export type WorkerJob = { check: string } | { pack: string; out: string };
export type WorkerAnswer = { counts?: Counts; restored?: Counts; error?: string };

const count = async (db: PGlite) =>
  countRows(async (text) => (await db.query<Record<string, unknown>>(text)).rows);

/** A backup file opened as a scratch in-memory database: its rows counted. */
async function check(path: string): Promise<Counts> {
  const file = await readFile(path);
  const scratch = await PGlite.create({
    loadDataDir: new Blob([new Uint8Array(file)]),
    extensions: { pg_trgm },
  });
  try {
    return await count(scratch);
  } finally {
    await scratch.close();
  }
}

/**
 * A snapshot of the data folder (snapshot.ts) turned into the backup, on disk all the way (a large shop's
 * folder is gigabytes: nothing of it is held in memory):
 * 1. opened here (the WAL replayed as after a restart), its rows counted (the counts of the instant it
 *    was taken) and closed (a clean shutdown: the backup opens without a replay);
 * 2. written as a .tar.gz of the folder's files (the layout of PGlite's `dumpDataDir`, which
 *    `loadDataDir` and `npm run restore` read), streamed by node-tar;
 * 3. the snapshot removed, the written file extracted in its place, opened and counted again (the
 *    check), and removed.
 */
async function pack(dir: string, out: string): Promise<WorkerAnswer> {
  const snapshot = await PGlite.create(dir, { extensions: { pg_trgm } });
  let counts: Counts;
  try {
    counts = await count(snapshot);
  } finally {
    await snapshot.close();
  }
  await tar.c({ gzip: true, portable: true, cwd: dir, file: out }, await readdir(dir));
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  try {
    await tar.x({ file: out, cwd: dir });
    const restored = await PGlite.create(dir, { extensions: { pg_trgm } });
    try {
      return { counts, restored: await count(restored) };
    } finally {
      await restored.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The backup's work that runs PGlite (WebAssembly, on the thread that calls it), off the API's thread
 * (service.ts `inWorker`): answered to the parent as `{ counts, restored }` or `{ error }`.
 */
const job = workerData as WorkerJob;
('pack' in job ? pack(job.pack, job.out) : check(job.check).then((restored) => ({ restored }))).then(
  (answer) => parentPort?.postMessage(answer),
  (error) => parentPort?.postMessage({ error: String((error as Error)?.message ?? error) }),
);
