/**
 * Issue 21: the PDV's local search in Chromium with 100,000 cached products (aims: < 20 ms p95 as
 * the operator types, barcode < 5 ms). Bundles the web app's own LocalCatalog (Dexie + MiniSearch)
 * with a generator, serves it on localhost (IndexedDB needs an origin), and runs it in Debian's
 * Chromium. No API or database: what is measured is the till's side.
 *
 *   npx tsx bench/local-search.ts            (BENCH_PRODUCTS=100000 by default)
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { build } from 'vite';
import { machine } from './lib.ts';

const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 100_000);
const here = dirname(fileURLToPath(import.meta.url));

const out = mkdtempSync(join(tmpdir(), 'balcao-local-search-'));
await build({
  configFile: false,
  logLevel: 'warn',
  build: {
    outDir: out,
    emptyOutDir: true,
    minify: true,
    lib: {
      entry: join(here, 'local-search.entry.ts'),
      formats: ['iife'],
      name: 'LocalSearchBench',
      fileName: () => 'bench.js',
    },
  },
});
const bundle = readFileSync(join(out, 'bench.js'));
const server = createServer((req, res) => {
  if (req.url === '/bench.js') {
    res.writeHead(200, { 'content-type': 'text/javascript' });
    res.end(bundle);
  } else {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><html><body><script src="/bench.js"></script></body></html>');
  }
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
});
try {
  const page = await browser.newPage();
  await page.goto(url);
  const result = await page.evaluate(
    (count) => (window as unknown as { runBench: (n: number) => Promise<unknown> }).runBench(count),
    PRODUCTS,
  );
  const r = result as {
    count: number;
    storeMs: number;
    loadMs: number;
    search: Record<string, number>;
    empty: number;
    barcode: Record<string, number>;
    missed: number;
  };
  const ms = (v: number) => v.toFixed(2);
  console.log(`\n${new Date().toISOString().slice(0, 10)} · ${machine()} · Chromium ${browser.version()}\n`);
  console.log(
    `${r.count.toLocaleString('en')} products: stored in IndexedDB in ${(r.storeMs / 1000).toFixed(1)} s, index built from IndexedDB in ${(r.loadMs / 1000).toFixed(1)} s`,
  );
  console.log('| operation | samples | p50 ms | p95 ms | p99 ms | max ms |');
  console.log('|---|---|---|---|---|---|');
  console.log(
    `| search as typed (2+ chars, 8 results) | ${r.search.n} | ${ms(r.search.p50)} | ${ms(r.search.p95)} | ${ms(r.search.p99)} | ${ms(r.search.max)} |`,
  );
  console.log(
    `| barcode lookup | ${r.barcode.n} | ${ms(r.barcode.p50)} | ${ms(r.barcode.p95)} | ${ms(r.barcode.p99)} | ${ms(r.barcode.max)} |`,
  );
  console.log(`(searches with no result: ${r.empty}; barcodes not found: ${r.missed})`);
} finally {
  await browser.close();
  server.close();
  rmSync(out, { recursive: true, force: true });
}
