/**
 * "Exportar todos os dados" of a big shop (issue 37: "streamed with constant memory"): for each size,
 * bench/big-shop.ts's generated shop in a PGlite data folder, the production server started on it (a
 * child process, as `npm start`), the Administrador's GET /v1/shop-export read to a file as fast as
 * the client can, and the server process's RSS sampled from /proc every 50 ms during the download.
 * The memory is flat when the peak over the baseline (the server's RSS after login, before the export)
 * does not grow with the shop's size.
 *
 *   npx tsx bench/shop-export-large.ts                          # 10,000 and 100,000 sales
 *   BENCH_SIZES=20000,200000,1000000 npx tsx bench/shop-export-large.ts
 *
 * Products are a tenth of the sales (BENCH_PRODUCTS overrides). BENCH_PORT (default 28001) is the
 * server's port.
 */
import { createWriteStream, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';
import { DEMO_PASSWORD } from '../apps/api/src/seed.ts';
import { generateShop } from './big-shop.ts';
import { machine, startServer } from './lib.ts';

const SIZES = (process.env.BENCH_SIZES ?? '10000,100000').split(',').map(Number);
const PORT = Number(process.env.BENCH_PORT ?? 28001);

const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
const rssBytes = (pid: number) =>
  Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)?.[1] ?? 0) * 1024;
function folderBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    total += entry.isDirectory() ? folderBytes(path) : statSync(path).size;
  }
  return total;
}

/** manifest.json of the ZIP at `file` (read from its central directory, not into memory). */
function manifestOf(file: string): Promise<{ tables: { name: string; rows: number }[]; files: string[] }> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error);
      zip.on('entry', (entry: yauzl.Entry) => {
        if (entry.fileName !== 'manifest.json') return zip.readEntry();
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            zip.close();
            resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
          });
        });
      });
      zip.on('end', () => reject(new Error('no manifest.json in the export')));
      zip.readEntry();
    });
  });
}

type Run = {
  sales: number;
  products: number;
  rows: number;
  saleItems: number;
  bytes: number;
  seconds: number;
  baseline: number;
  peak: number;
};
const runs: Run[] = [];
console.log(`\n${new Date().toISOString().slice(0, 10)} · ${machine()}`);
for (const sales of SIZES) {
  const products = Number(process.env.BENCH_PRODUCTS ?? Math.max(100, Math.round(sales / 10)));
  const work = mkdtempSync(join(tmpdir(), 'balcao-bench-export-'));
  const dataDir = join(work, 'data');
  try {
    let start = Date.now();
    const shop = await generateShop(dataDir, { sales, products });
    await shop.database.close();
    console.log(
      `${sales} sales, ${products} products generated in ${((Date.now() - start) / 1000).toFixed(1)} s; ` +
        `PGlite folder ${mib(folderBytes(join(dataDir, 'pglite')))} MiB`,
    );
    const server = await startServer({ port: PORT, env: { DATA_DIR: dataDir } });
    const pid = server.pid as number;
    try {
      const login = await fetch(`${server.url}/v1/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'administrador@demo.com.br', password: DEMO_PASSWORD }),
      });
      const { token } = (await login.json()) as { token: string };
      if (!token) throw new Error(`login failed: ${login.status}`);
      const baseline = rssBytes(pid);
      let peak = baseline;
      const sampler = setInterval(() => (peak = Math.max(peak, rssBytes(pid))), 50);
      start = Date.now();
      const res = await fetch(`${server.url}/v1/shop-export`, {
        headers: { authorization: `Bearer ${token}` },
      });
      if (res.status !== 200 || !res.body) throw new Error(`export: ${res.status} ${await res.text()}`);
      const file = join(work, 'export.zip');
      await pipeline(Readable.fromWeb(res.body as never), createWriteStream(file));
      const seconds = (Date.now() - start) / 1000;
      clearInterval(sampler);
      peak = Math.max(peak, rssBytes(pid));
      const manifest = await manifestOf(file);
      const rows = manifest.tables.reduce((sum, t) => sum + t.rows, 0);
      const saleItems = manifest.tables.find((t) => t.name === 'sale_items')?.rows ?? 0;
      const run = { sales, products, rows, saleItems, bytes: statSync(file).size, seconds, baseline, peak };
      runs.push(run);
      console.log(
        `  export: ${rows} rows (${saleItems} sale lines), ${mib(run.bytes)} MiB in ${seconds.toFixed(1)} s; ` +
          `server RSS ${mib(baseline)} MiB before, peak ${mib(peak)} MiB (+${mib(peak - baseline)})`,
      );
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
console.log(
  [
    '',
    '| sales | products | rows exported | ZIP | time | server RSS before | peak | peak - before |',
    '|---|---|---|---|---|---|---|---|',
    ...runs.map(
      (r) =>
        `| ${r.sales.toLocaleString('en')} | ${r.products.toLocaleString('en')} | ${r.rows.toLocaleString('en')} | ` +
        `${mib(r.bytes)} MiB | ${r.seconds.toFixed(1)} s | ${mib(r.baseline)} MiB | ${mib(r.peak)} MiB | ` +
        `+${mib(r.peak - r.baseline)} MiB |`,
    ),
  ].join('\n'),
);
