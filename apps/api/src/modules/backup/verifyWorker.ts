import { readFile, writeFile } from 'node:fs/promises';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
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
 * A snapshot of the data folder (snapshot.ts) opened here (the WAL replayed as after a crash), its rows
 * counted (the counts of the instant it was taken), checkpointed so the backup opens without a replay,
 * written as PGlite's own .tar.gz (`dumpDataDir`, what `loadDataDir` and `npm run restore` read), then
 * the written file checked like any backup.
 */
async function pack(dir: string, out: string): Promise<WorkerAnswer> {
  const snapshot = await PGlite.create(dir, { extensions: { pg_trgm } });
  let counts: Counts;
  try {
    counts = await count(snapshot);
    await snapshot.exec('checkpoint');
    const dump = await snapshot.dumpDataDir('gzip');
    await writeFile(out, new Uint8Array(await dump.arrayBuffer()));
  } finally {
    await snapshot.close();
  }
  return { counts, restored: await check(out) };
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
