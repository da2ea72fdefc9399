import { readFile } from 'node:fs/promises';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { countRows } from './counts.ts';

/**
 * The backup's check, off the API's thread (service.ts `countPgliteDump`): the written file opened as
 * a scratch PGlite database and every table's rows counted, answered to the parent as `{ counts }` or
 * `{ error }`.
 */
async function check(path: string) {
  const file = await readFile(path);
  const scratch = await PGlite.create({
    loadDataDir: new Blob([new Uint8Array(file)]),
    extensions: { pg_trgm },
  });
  try {
    return await countRows(async (text) => (await scratch.query<Record<string, unknown>>(text)).rows);
  } finally {
    await scratch.close();
  }
}

check((workerData as { path: string }).path).then(
  (counts) => parentPort?.postMessage({ counts }),
  (error) => parentPort?.postMessage({ error: String((error as Error)?.message ?? error) }),
);
