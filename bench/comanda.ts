/**
 * Comandas benchmark (issue 16), against a production start with the demo shop (a Lanchonete):
 * - add-line: 20 concurrent waiters appending lines (POST /v1/comanda/:id/line, each with its own
 *   Idempotency-Key) to 10 open tabs for BENCH_DURATION seconds; p95 must stay under 50 ms;
 * - board: 200 open tabs, the board page in Chromium: time from the click on the menu item to the first
 *   frame painted with 200 cards (target < 200 ms), on a first visit (page reloaded: the board's code
 *   is not in memory yet) and on a return visit (the board opened again in the same app session).
 *
 *   npx tsx bench/comanda.ts                                        # PGlite
 *   BENCH_PG_URL=postgres://postgres@127.0.0.1:55499/balcao_h16 npx tsx bench/comanda.ts
 *   BENCH_PARTS=board BENCH_BEFORE=<commit> npx tsx bench/comanda.ts  # the board, that commit and this code
 *
 * BENCH_PG_URL names a database the script may empty (its public and drizzle schemas are dropped).
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { chromium } from 'playwright-core';
import { ensureWebBuild, type Figures, load, machine, ROOT, type Server, startServer, table } from './lib.ts';

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const WAITERS = 20;
const TABS = 10;
const BOARD_TABS = 200;
const BOARD_RUNS = Number(process.env.BENCH_BOARD_RUNS ?? 7);
const DEMO_PASSWORD = 'demo1234';
/** The demo users that may use comandas (NOT_MKT): their sessions are the waiters' phones. */
const SLUGS = [
  'administrador',
  'gerente',
  'vendedor',
  'caixa',
  'garcom',
  'estoquista',
  'financeiro',
  'atendente',
];

async function api<T>(
  server: Server,
  path: string,
  token: string | null,
  body?: unknown,
  method?: string,
): Promise<T> {
  const res = await fetch(`${server.url}/v1${path}`, {
    method: method ?? (body === undefined ? 'GET' : 'POST'),
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

async function tokens(server: Server): Promise<string[]> {
  const out: string[] = [];
  for (const slug of SLUGS) {
    const res = await fetch(`${server.url}/v1/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: `${slug}@demo.com.br`, password: DEMO_PASSWORD }),
    });
    if (res.ok) out.push(((await res.json()) as { token: string }).token);
  }
  if (out.length === 0) throw new Error('no demo user could log in');
  return out;
}

/**
 * `rate` null: every waiter sends its next line the moment the last is answered (saturation: p95 is
 * about 20 x the service time on PGlite's one connection). A number: the 20 waiters together send
 * that many lines per second (a rush at the pass: 40/s is each waiter adding a line every 0.5 s).
 */
async function addLine(server: Server, engine: string, rate: number | null): Promise<Figures> {
  const sessions = await tokens(server);
  const admin = sessions[0];
  const product = await api<{ id: number }>(server, '/product', admin, {
    name: 'X-Bench',
    salePriceCents: 1500,
  });
  const tabs: number[] = [];
  for (let i = 0; i < TABS; i++)
    tabs.push((await api<{ id: number }>(server, '/comanda', admin, { people: 2 })).id);
  const body = JSON.stringify({ productId: product.id, quantity: 1, notes: 'sem cebola' });
  let n = 0;
  const scenario = rate === null ? 'back to back' : `${rate} lines/s together`;
  const figures = await load(`${engine}: add a line, ${WAITERS} waiters on ${TABS} tabs, ${scenario}`, {
    url: server.url,
    connections: WAITERS,
    ...(rate === null ? {} : { overallRate: rate }),
    duration: DURATION,
    requests: [
      {
        method: 'POST',
        setupRequest: (req) => {
          n++;
          return {
            ...req,
            path: `/v1/comanda/${tabs[n % TABS]}/line`,
            headers: {
              'content-type': 'application/json',
              authorization: `Bearer ${sessions[n % sessions.length]}`,
              'idempotency-key': randomUUID(),
            },
            body,
          };
        },
      },
    ],
  });
  // Every 201 is a line: the tabs hold exactly as many lines as the requests that succeeded.
  let lines = 0;
  for (const id of tabs)
    lines += (await api<{ lines: unknown[] }>(server, `/comanda/${id}`, admin)).lines.length;
  console.log(
    `${engine}: ${lines} lines on ${TABS} tabs after ${figures.requests} requests (${figures.errors} errors)`,
  );
  return figures;
}

/** 200 open tabs with a line each on `server` (the demo shop's open tabs count). */
async function seedBoard(server: Server) {
  const [admin] = await tokens(server);
  const open = (await api<{ tabs: unknown[] }>(server, '/comanda', admin)).tabs.length;
  const product = await api<{ id: number }>(server, '/product', admin, {
    name: 'Suco Bench',
    salePriceCents: 800,
  });
  for (let i = open; i < BOARD_TABS; i++) {
    const tab = await api<{ id: number }>(server, '/comanda', admin, {
      people: 2,
      tableLabel: String(i + 1),
    });
    await api(server, `/comanda/${tab.id}/line`, admin, { productId: product.id, quantity: 1 });
  }
}

type BoardRun = { total: number; fetch: number };

/**
 * A Caixa's browser on `server`: logged in, the board's code fetched once (the service worker holds
 * it). `visit('first')` reloads /dashboard (a fresh page: the board's code is not in memory, its
 * chunks come from the cache) and clicks "Comandas"; `visit('return')` is the board opened again in
 * the same app session (from "Início", the code already in memory). Each is timed from the click to
 * the first frame painted with 200 cards (requestAnimationFrame, then a task after that frame).
 */
async function boardBrowser(server: Server) {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox'],
  });
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${server.url}/login`);
  await page.getByLabel('Email').fill('caixa@demo.com.br');
  await page.getByLabel('Senha', { exact: true }).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await page.waitForURL((url) => !url.pathname.endsWith('/login'));
  await page.goto(`${server.url}/dashboard/sale/command`);
  await page.waitForFunction(
    (n) => document.querySelectorAll('[data-testid^="comanda-"]').length >= n,
    BOARD_TABS,
  );
  const clickToBoard = async (): Promise<BoardRun> =>
    // A string, not a function: tsx's helpers do not exist in the page.
    (await page.evaluate(`(async () => {
      performance.clearResourceTimings();
      const start = performance.now();
      document.querySelector('a[href="/dashboard/sale/command"]').click();
      await new Promise((resolve) => {
        function check() {
          if (document.querySelectorAll('[data-testid^="comanda-"]:not([data-testid="comanda-board"])').length >= ${BOARD_TABS})
            requestAnimationFrame(() => setTimeout(resolve, 0));
          else requestAnimationFrame(check);
        }
        check();
      });
      const total = performance.now() - start;
      const request = performance.getEntriesByType('resource').find((e) => /\\/v1\\/comanda(\\?|$)/.test(e.name));
      return { total, fetch: request ? request.duration : 0 };
    })()`)) as BoardRun;
  return {
    async visit(kind: 'first' | 'return'): Promise<BoardRun> {
      if (kind === 'first') await page.goto(`${server.url}/dashboard`);
      else await page.locator('a[href="/dashboard"]').first().click();
      await page.waitForURL((url) => url.pathname === '/dashboard');
      await page.locator('a[href="/dashboard/sale/command"]').first().waitFor();
      await page.waitForTimeout(1000);
      return clickToBoard();
    },
    close: () => browser.close(),
  };
}

const median = (runs: BoardRun[]) => [...runs].sort((a, b) => a.total - b.total)[Math.floor(runs.length / 2)];

/**
 * The board on each server (this code, and the code of BENCH_BEFORE when given), visits alternating
 * between them so a change of the machine's load hits both alike; median of BOARD_RUNS each.
 */
async function board(servers: { label: string; server: Server }[], engine: string): Promise<string[]> {
  for (const { server } of servers) await seedBoard(server);
  const browsers = [];
  for (const { server } of servers) browsers.push(await boardBrowser(server));
  try {
    const rows: string[] = [];
    for (const kind of ['first', 'return'] as const) {
      const runs = servers.map((): BoardRun[] => []);
      for (let i = 0; i < BOARD_RUNS; i++)
        for (let k = 0; k < servers.length; k++) runs[k].push(await browsers[k].visit(kind));
      servers.forEach(({ label }, k) => {
        const m = median(runs[k]);
        rows.push(
          `| ${engine} | ${label} | ${kind === 'first' ? 'first visit (page reloaded)' : 'return visit (code in memory)'} | ${BOARD_TABS} | ${m.total.toFixed(0)} | ${m.fetch.toFixed(0)} | ${(m.total - m.fetch).toFixed(0)} |`,
        );
      });
    }
    return rows;
  } finally {
    for (const b of browsers) await b.close();
  }
}

/** The code of `commit` in a temporary folder (node_modules linked), its web app built there. */
function exportCommit(commit: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'balcao-bench-before-'));
  execFileSync('sh', ['-c', `git archive ${commit} | tar -x -C ${dir}`], { cwd: ROOT });
  const modules = join(dir, 'node_modules');
  mkdirSync(join(modules, '@balcao'), { recursive: true });
  for (const entry of readdirSync(join(ROOT, 'node_modules'))) {
    if (entry !== '@balcao') symlinkSync(join(ROOT, 'node_modules', entry), join(modules, entry));
  }
  for (const entry of readdirSync(join(ROOT, 'node_modules/@balcao')))
    symlinkSync(readlinkSync(join(ROOT, 'node_modules/@balcao', entry)), join(modules, '@balcao', entry));
  execFileSync('npx', ['vite', 'build', '--logLevel', 'warn'], {
    cwd: join(dir, 'apps/web'),
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  console.log(`  ${commit} exported and built in ${dir}`);
  return dir;
}

async function emptyDatabase(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(
    'drop schema if exists public cascade; drop schema if exists drizzle cascade; create schema public',
  );
  await client.end();
}

/** BENCH_PARTS=add-line,board (default both). */
const parts = (process.env.BENCH_PARTS ?? 'add-line,board').split(',');
ensureWebBuild();
const rows: Figures[] = [];
const boards: string[] = [];
/** BENCH_BEFORE=<commit>: the board also on that commit's code, in the same run. */
const BEFORE = process.env.BENCH_BEFORE ?? '';
const beforeRoot = BEFORE && parts.includes('board') ? exportCommit(BEFORE) : '';
for (const engine of ['PGlite', 'PostgreSQL']) {
  const url = process.env.BENCH_PG_URL;
  if (engine === 'PostgreSQL') {
    if (!url) continue;
    await emptyDatabase(url);
  }
  const server = await startServer(engine === 'PostgreSQL' ? { databaseUrl: url } : {});
  try {
    if (parts.includes('add-line')) {
      rows.push(await addLine(server, engine, 40));
      rows.push(await addLine(server, engine, null));
    }
    if (parts.includes('board')) {
      const servers = [{ label: 'this code', server }];
      // The code before runs on PGlite only (a second PostgreSQL database would need emptying too).
      const before = beforeRoot && engine === 'PGlite';
      if (before)
        servers.unshift({
          label: `before (${BEFORE.slice(0, 7)})`,
          server: await startServer({ root: beforeRoot }),
        });
      try {
        boards.push(...(await board(servers, engine)));
      } finally {
        if (before) await servers[0].server.stop();
      }
    }
  } finally {
    await server.stop();
  }
}
if (beforeRoot) rmSync(beforeRoot, { recursive: true, force: true });
console.log(`\n${new Date().toISOString().slice(0, 10)} · ${machine()} · ${DURATION} s per run\n`);
console.log(table(rows));
console.log(
  '\n| engine | code | visit | open tabs | click to 200 cards painted ms | GET /v1/comanda ms | rest ms |\n|---|---|---|---|---|---|---|',
);
for (const b of boards) console.log(b);
