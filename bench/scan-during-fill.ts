/**
 * Issue 30 item 20: a barcode scan while a new device's PDV fills its local catalog.
 *
 * The demo shop with N products (default 2,012, the clothing shop's count) on PGlite, a production
 * start. A "till" pulls GET /v1/product/changes page after page as the PDV's first sync does
 * (`--page`, default 500: the page size before the fix; the fix asks 100 a page while a scan waits
 * between pages), and a scanner asks GET /v1/product/barcode/{code} every 400 ms meanwhile. Printed:
 * the fill's time and the scans' latencies (p50, p95, max).
 * `--gate` does what the PDV's LocalCatalog does since issue 30: the fill asks no page while a scan is
 * in flight or was answered less than QUIET_MS ago (the server, one PGlite in one event loop, answers
 * a request only between the statements of another: a page of whole products holds a scan behind it).
 *
 * Usage: npx tsx bench/scan-during-fill.ts [--products 2012] [--page 500] [--gate]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fromPglite, openPglite } from '../apps/api/src/db/client.ts';
import { barcodeOf, populate } from './catalog.ts';
import { machine, startServer } from './lib.ts';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};

const n = Number(arg('products', '2012'));
const page = Number(arg('page', '500'));
const gate = process.argv.includes('--gate');
/** The catalog's QUIET_MS (apps/web/src/features/offline/catalog.ts). */
const QUIET_MS = 1000;
let scanning = false;
let lastScan = 0;

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function main() {
  console.log(machine());
  const dataDir = mkdtempSync(join(tmpdir(), 'balcao-bench-fill-'));
  try {
    const database = fromPglite(await openPglite(dataDir));
    await populate(database, n);
    await database.close();
    const server = await startServer({ env: { DATA_DIR: dataDir } });
    try {
      const login = await fetch(`${server.url}/v1/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'caixa@demo.com.br', password: 'demo1234' }),
      });
      const { token } = (await login.json()) as { token: string };
      const headers = { authorization: `Bearer ${token}` };
      // Warm: one scan and one small page (the first request of a route compiles its handler).
      await fetch(`${server.url}/v1/product/barcode/${barcodeOf(1)}`, { headers });
      await fetch(`${server.url}/v1/product/changes?afterId=0&limit=1`, { headers });

      let filling = true;
      const started = performance.now();
      const fill = (async () => {
        let afterId = 0;
        let pages = 0;
        for (;;) {
          while (gate && (scanning || performance.now() - lastScan < QUIET_MS))
            await new Promise((r) => setTimeout(r, 50));
          const res = await fetch(`${server.url}/v1/product/changes?afterId=${afterId}&limit=${page}`, {
            headers,
          });
          const body = (await res.json()) as { nextAfterId: number | null };
          pages++;
          if (body.nextAfterId === null) break;
          afterId = body.nextAfterId;
        }
        filling = false;
        return { ms: performance.now() - started, pages };
      })();
      const scans: number[] = [];
      let i = 2;
      while (filling) {
        const t = performance.now();
        scanning = true;
        const res = await fetch(`${server.url}/v1/product/barcode/${barcodeOf(i++ * 7)}`, { headers });
        await res.arrayBuffer();
        scanning = false;
        lastScan = performance.now();
        scans.push(lastScan - t);
        // A burst of scans at the till, then a pause (the next customer).
        await new Promise((r) => setTimeout(r, i % 4 === 0 ? 1500 : 400));
      }
      const done = await fill;
      const sorted = [...scans].sort((a, b) => a - b);
      console.log(
        `products ${n}, page ${page}${gate ? ', gated' : ''}: fill ${(done.ms / 1000).toFixed(1)} s in ${done.pages} pages; ` +
          `${scans.length} scans meanwhile: p50 ${pct(sorted, 50).toFixed(0)} ms, p95 ${pct(sorted, 95).toFixed(0)} ms, max ${sorted[sorted.length - 1].toFixed(0)} ms`,
      );
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
