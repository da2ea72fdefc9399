/**
 * The accountant's monthly ZIP (issue 32) for a month of BENCH_NOTES notes (default 10,000, each
 * nfeProc ~7 KB: ~70 MB of XML): peak RSS of the process while the ZIP is written to a consumer that
 * reads at BENCH_ZIP_MBPS (default 20 MB/s, a fast download), for
 *   - "before": the previous code - every XML read in one query and added to yazl as a buffer;
 *   - "after": the app's monthZip - the list first, each XML read lazily, 200 per query, piped with
 *     backpressure into the response.
 * Each in its own process (a heap once grown is not given back), a PGlite folder with the notes
 * inserted directly; the baseline RSS (app code and PGlite loaded, after a GC) is printed so the
 * growth can be read.
 *
 *   npx tsx bench/nfce-month-zip.ts
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sql } from 'drizzle-orm';
import yazl from 'yazl';
import { openDatabase } from '../apps/api/src/db/client.ts';
import type { Actor } from '../apps/api/src/lib/actor.ts';
import { monthZip } from '../apps/api/src/modules/fiscal/monthZip.ts';
import { seedDemo } from '../apps/api/src/seed.ts';
import { machine } from './lib.ts';

const NOTES = Number(process.env.BENCH_NOTES ?? 10_000);
const MBPS = Number(process.env.BENCH_ZIP_MBPS ?? 20);
const MODE = process.env.BENCH_ZIP_MODE;

if (!MODE) {
  console.log(`\n${new Date().toISOString().slice(0, 10)} · ${machine()}\n`);
  console.log(`| month ZIP, ${NOTES} notes | ZIP MB | seconds | RSS before MB | peak RSS MB | growth MB |`);
  console.log('|---|---|---|---|---|---|');
  for (const mode of ['before', 'after']) {
    const run = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', process.argv[1]], {
      env: { ...process.env, BENCH_ZIP_MODE: mode },
      encoding: 'utf8',
    });
    if (run.status !== 0) throw new Error(run.stderr);
    console.log(run.stdout.trim().split('\n').at(-1));
  }
  process.exit(0);
}

const dir = mkdtempSync(join(tmpdir(), 'balcao-bench-month-zip-'));
const database = await openDatabase({ dataDir: join(dir, 'data') });
await seedDemo(database.db);
const { rows } = (await database.db.execute(sql`select id from clients order by id limit 1`)) as unknown as {
  rows: { id: number }[];
};
const clientId = Number(rows[0].id);
// ~7 KB per nfeProc, like a 3-line NFC-e with its signature and protocol; random-ish so it does not
// compress to nothing.
await database.db.execute(sql`insert into fiscal_notes (client_id, series, number, access_key, tp_emis,
    environment, status, total_cents, xml, proc_xml, protocol, draft)
  select ${clientId}, 1, g.n, 'K' || g.n, 1, 'local', 'authorised', 1300, '',
    '<nfeProc><nNF>' || g.n || '</nNF>' || (select string_agg(md5(g.n::text || i::text), '') from generate_series(1, 220) i) || '</nfeProc>',
    '135260000000001', '{}'::jsonb
  from generate_series(1, ${NOTES}) as g(n)`);
const month = new Date(Date.now() - 3 * 3600_000).toISOString().slice(0, 7);
const actor = { clientId } as Actor;

/** The previous code's shape: all XML in one query, each added as a buffer. */
async function before(): Promise<Readable> {
  const notes = (
    (await database.db.execute(sql`select access_key, proc_xml from fiscal_notes
      where client_id = ${clientId} order by series, number`)) as unknown as {
      rows: { access_key: string; proc_xml: string }[];
    }
  ).rows;
  const zip = new yazl.ZipFile();
  for (const n of notes) zip.addBuffer(Buffer.from(n.proc_xml), `NFCe/${n.access_key}-nfce.xml`);
  zip.end();
  return Readable.from(zip.outputStream);
}

async function measure(make: () => Promise<Readable>) {
  (globalThis as { gc?: () => void }).gc?.();
  await new Promise((r) => setTimeout(r, 200));
  const base = process.memoryUsage.rss();
  let peak = base;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 20);
  const start = performance.now();
  let bytes = 0;
  const perMs = (MBPS * 1024 * 1024) / 1000;
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      // A client reading at MBPS: the chunk is "on the wire" for its size's time.
      setTimeout(done, chunk.length / perMs);
    },
  });
  await pipeline(await make(), sink);
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage.rss());
  return { base, peak, bytes, ms: performance.now() - start };
}

const mb = (b: number) => (b / 1024 / 1024).toFixed(0);
const r =
  MODE === 'before'
    ? await measure(before)
    : await measure(async () => (await monthZip(database.db, actor, month)).stream);
const name = MODE === 'before' ? 'before: one query, buffers' : 'after: streamed, 200 XML per query';
console.log(
  `| ${name} | ${mb(r.bytes)} | ${(r.ms / 1000).toFixed(1)} | ${mb(r.base)} | ${mb(r.peak)} | ${mb(r.peak - r.base)} |`,
);
await database.close();
rmSync(dir, { recursive: true, force: true });
