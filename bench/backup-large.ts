/**
 * Backup of a large shop (issue 37): a generated shop in a PGlite data folder, the app's own backup
 * (PGlite's dumpDataDir with the row counts of the same instant, verified in a scratch database),
 * then `npm run restore`'s code into a new folder, checked by row counts; and the checkout's p95
 * (POST /v1/sale, 3 items, through the app in this process, which is where the server takes its
 * backups) while the backup runs, against the same load without it.
 *
 *   npx tsx bench/backup-large.ts                                   # small: 20,000 sales, 2,000 products
 *   BENCH_SALES=1000000 BENCH_PRODUCTS=100000 npx tsx bench/backup-large.ts   # the issue's size
 *
 * BENCH_TILLS (default 4) tills, each starting a sale every 1/BENCH_RATE s (default 0.5 a second; 0 =
 * back to back), sell during BENCH_SECONDS (default 5) for the baseline, and for as long as the backup
 * takes. The shop is bench/big-shop.ts's generateShop (SQL with triggers off, stock high enough that no
 * sale is refused).
 */
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../apps/api/src/app.ts';
import { loadConfig } from '../apps/api/src/config.ts';
import { restoreBackup } from '../apps/api/src/modules/backup/restore.ts';
import { lastPgliteSnapshot, takeBackup } from '../apps/api/src/modules/backup/service.ts';
import { DEMO_PASSWORD } from '../apps/api/src/seed.ts';
import { generateShop } from './big-shop.ts';
import { machine } from './lib.ts';

const SALES = Number(process.env.BENCH_SALES ?? 20_000);
const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 2_000);
const TILLS = Number(process.env.BENCH_TILLS ?? 4);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
/** Sales a second each till starts (a busy counter: one every 2 s); 0 = back to back (closed loop). */
const RATE = Number(process.env.BENCH_RATE ?? 0.5);

const seconds = (start: number) => ((Date.now() - start) / 1000).toFixed(1);
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
function folderBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    total += entry.isDirectory() ? folderBytes(path) : statSync(path).size;
  }
  return total;
}
const percentile = (sorted: number[], p: number) =>
  sorted.length === 0
    ? Number.NaN
    : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

const work = mkdtempSync(join(tmpdir(), 'balcao-bench-backup-'));
const dataDir = join(work, 'data');
try {
  // 1. The shop.
  let start = Date.now();
  const { client, database, clientId } = await generateShop(dataDir, { sales: SALES, products: PRODUCTS });
  console.log(
    `\n${new Date().toISOString().slice(0, 10)} · ${machine()}\nshop generated in ${seconds(start)} s: ` +
      `${PRODUCTS} products, ${SALES} sales; PGlite folder ${mb(folderBytes(join(dataDir, 'pglite')))} MB`,
  );

  // 2. The app in this process, as server.ts builds it.
  const config = { ...loadConfig({ ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' }), dataDir };
  const app = await buildApp({ db: database.db, config });
  await app.ready();
  const login = await app.inject({
    method: 'POST',
    url: '/v1/login',
    payload: { email: 'administrador@demo.com.br', password: DEMO_PASSWORD },
  });
  const token = login.json().token as string;
  if (!token) throw new Error(`login failed: ${login.body}`);
  const headers = { authorization: `Bearer ${token}` };
  const open = await app.inject({
    method: 'POST',
    url: '/v1/cash-register/open',
    headers,
    payload: { openingAmountCents: 0 },
  });
  if (open.statusCode !== 201 && open.statusCode !== 422) throw new Error(`open register: ${open.body}`);
  const products = (
    await client.query<{ id: number; price: number }>(
      `select id, sale_price_cents as price from products where client_id = ${clientId} and name like 'Produto bench %' order by id limit 500`,
    )
  ).rows;

  let failed = 0;
  let n = 0;
  async function sell(): Promise<number> {
    const picked = [0, 1, 2].map(() => products[(n++ * 7919) % products.length]);
    const total = picked.reduce((sum, p) => sum + p.price, 0);
    const began = performance.now();
    const res = await app.inject({
      method: 'POST',
      url: '/v1/sale',
      headers,
      payload: {
        items: picked.map((p) => ({ productId: p.id, quantity: 1 })),
        payments: [{ method: 'pix', amountCents: total }],
      },
    });
    if (res.statusCode !== 201) {
      if (failed++ === 0) console.log(`first refused sale: ${res.statusCode} ${res.body.slice(0, 300)}`);
    }
    return performance.now() - began;
  }
  /** TILLS tills selling until `until` resolves (or the time is up): every sale's latency in ms. */
  async function tills(until: Promise<unknown> | number): Promise<number[]> {
    const latencies: number[] = [];
    let done = false;
    if (typeof until === 'number') setTimeout(() => (done = true), until);
    else until.finally(() => (done = true));
    await Promise.all(
      Array.from({ length: TILLS }, async () => {
        while (!done) {
          const began = performance.now();
          latencies.push(await sell());
          const wait = RATE > 0 ? 1000 / RATE - (performance.now() - began) : 0;
          if (wait > 0 && !done) await new Promise((resolve) => setTimeout(resolve, wait));
        }
      }),
    );
    return latencies.sort((a, b) => a - b);
  }

  // 3. A backup alone (nothing else running), then the checkout without a backup and during one.
  const log = (line: string) => process.env.BENCH_VERBOSE && console.log(line);
  start = Date.now();
  log('backup alone');
  const alone = await takeBackup({ db: database.db, config, notify: () => {} }, 'manual');
  const aloneSeconds = seconds(start);
  const aloneSnapshot = lastPgliteSnapshot();
  if (alone.status !== 'ok') throw new Error(`backup failed: ${alone.error}`);
  log(`backup alone: ${aloneSeconds} s; selling (warm-up)`);
  await tills(1000); // warm-up
  const baseline = await tills(SECONDS * 1000);
  log(`baseline: ${baseline.length} sales; backup while selling`);
  start = Date.now();
  const backupRun = takeBackup({ db: database.db, config, notify: () => {} }, 'manual');
  const ticker = setInterval(() => log(`  ${n} sales so far, ${failed} refused`), 5000);
  const during = await tills(backupRun);
  clearInterval(ticker);
  const backup = await backupRun;
  const backupSeconds = seconds(start);
  const duringSnapshot = lastPgliteSnapshot();
  if (backup.status !== 'ok') throw new Error(`backup failed: ${backup.error}`);

  // 4. Restore into a new data folder (npm run restore's code), then its row counts.
  start = Date.now();
  const restored = await restoreBackup({
    file: join(dataDir, 'backups', backup.fileName),
    dataDir: join(work, 'restored'),
    log: () => {},
  });
  const restoreSeconds = seconds(start);
  const matches = restored.rows === backup.rows && restored.tables === backup.tables;

  const row = (label: string, l: number[]) =>
    `| ${label} | ${l.length} | ${percentile(l, 50).toFixed(1)} | ${percentile(l, 95).toFixed(1)} | ${percentile(l, 99).toFixed(1)} |`;
  const report = [
    '',
    `backup alone: ${mb(alone.sizeBytes)} MB, ${alone.tables} tables, ${alone.rows} rows, verified=${alone.verified}, ${aloneSeconds} s`,
    `backup while ${TILLS} tills sell: ${mb(backup.sizeBytes)} MB, verified=${backup.verified}, ${backupSeconds} s`,
    ...(
      [
        ['alone', aloneSnapshot],
        ['while selling', duringSnapshot],
      ] as const
    ).map(
      ([label, s]) =>
        `  folder snapshot ${label}: ${s ? `${mb(s.bytes)} MB copied, ${mb(s.lockedBytes)} MB of it again inside PGlite's lock, lock held ${s.lockedMs.toFixed(0)} ms` : 'none (in-memory dump)'}`,
    ),
    `restore into a new folder: ${restoreSeconds} s, ${restored.tables} tables, ${restored.rows} rows, ` +
      `counts ${matches ? 'equal to the backup' : 'DIFFERENT from the backup'}`,
    '',
    `checkout (POST /v1/sale, 3 items, ${TILLS} tills, ${RATE > 0 ? `${RATE} sales/s each` : 'back to back'}; ms):`,
    '',
    '| | sales | p50 | p95 | p99 |',
    '|---|---|---|---|---|',
    row('without a backup', baseline),
    row('during the backup', during),
    '',
    `p95 during / without: ${(percentile(during, 95) / percentile(baseline, 95)).toFixed(2)}x (target: within 1.5x); refused sales: ${failed}`,
  ].join('\n');
  console.log(report);
  if (process.env.BENCH_OUT) writeFileSync(process.env.BENCH_OUT, report);
  await app.close();
  await database.close();
  if (!matches) process.exitCode = 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
