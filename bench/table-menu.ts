/**
 * The QR-code menu's first load on a phone (issue 35: "first load < 1.5 s on a throttled 4G profile in
 * Chromium"), against a production start with the demo shop (a Lanchonete):
 * a table's QR link (/mesa/{token}) opened in a fresh Chromium context (empty cache, no service worker
 * yet) at 390 x 844, the network throttled through the DevTools protocol to DevTools' "Slow 4G" profile
 * as Lighthouse's mobile run uses it (150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up); time from the
 * navigation to the first product's "Adicionar" button visible, and the bytes that crossed the network
 * by then (encoded, as transferred).
 *
 *   npx tsx bench/table-menu.ts            # BENCH_RUNS=7 by default
 */
import { chromium } from 'playwright-core';
import { ensureWebBuild, machine, startServer } from './lib.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const PROFILE = {
  latency: 150,
  downloadThroughput: (1.6 * 1024 * 1024) / 8,
  uploadThroughput: (750 * 1024) / 8,
};

ensureWebBuild();
const server = await startServer();
try {
  const login = await fetch(`${server.url}/v1/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'administrador@demo.com.br', password: 'demo1234' }),
  });
  const { token } = (await login.json()) as { token: string };
  const qrRes = await fetch(`${server.url}/v1/comanda/table-qr`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ tableLabel: '1' }),
  });
  if (!qrRes.ok) throw new Error(`table-qr: ${qrRes.status} ${await qrRes.text()}`);
  const qr = (await qrRes.json()) as { path: string };

  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });
  const runs: { ms: number; bytes: number; requests: number; byType: Record<string, number> }[] = [];
  try {
    for (let run = 0; run < RUNS; run++) {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true });
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
      await cdp.send('Network.emulateNetworkConditions', { offline: false, ...PROFILE });
      let bytes = 0;
      let requests = 0;
      const typeOf = new Map<string, string>();
      const byType: Record<string, number> = {};
      cdp.on('Network.responseReceived', (e: { requestId: string; type: string }) =>
        typeOf.set(e.requestId, e.type),
      );
      cdp.on('Network.loadingFinished', (e: { requestId: string; encodedDataLength: number }) => {
        bytes += e.encodedDataLength;
        requests++;
        const type = typeOf.get(e.requestId) ?? 'Other';
        byType[type] = (byType[type] ?? 0) + e.encodedDataLength;
      });
      const started = performance.now();
      await page.goto(`${server.url}${qr.path}`, { waitUntil: 'commit' });
      await page
        .getByRole('button', { name: /^Adicionar / })
        .first()
        .waitFor({ state: 'visible' });
      runs.push({ ms: Math.round(performance.now() - started), bytes, requests, byType: { ...byType } });
      await context.close();
    }
  } finally {
    await browser.close();
  }
  const sorted = runs.map((r) => r.ms).sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  const worst = sorted[sorted.length - 1];
  const kb = (b: number) => (b / 1024).toFixed(1);
  console.log(`\n${new Date().toISOString().slice(0, 10)} · ${machine()} · PGlite · ${RUNS} cold loads\n`);
  console.log('| run | ms to the menu | KB transferred | requests |\n|---|---|---|---|');
  for (const [i, r] of runs.entries()) console.log(`| ${i + 1} | ${r.ms} | ${kb(r.bytes)} | ${r.requests} |`);
  console.log(
    `\nby type (first run): ${Object.entries(runs[0].byType)
      .map(([type, b]) => `${type} ${kb(b)} KB`)
      .join(', ')}`,
  );
  console.log(
    `\nmedian ${median} ms, worst ${worst} ms (target < 1500 ms); ${kb(runs[0].bytes)} KB on the first`,
  );
} finally {
  await server.stop();
}
