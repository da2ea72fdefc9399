/**
 * Comandas benchmark (issue 16), against a production start with the demo shop (a Lanchonete):
 * - add-line: 20 concurrent waiters appending lines (POST /v1/comanda/:id/line, each with its own
 *   Idempotency-Key) to 10 open tabs for BENCH_DURATION seconds; p95 must stay under 50 ms;
 * - board: 200 open tabs of 5 lines each (a shop of its own), the board page in Chromium: time from the click on the menu item to the first
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
import http from 'node:http';
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

/** p-th percentile (nearest rank) of latencies in ms, 2 decimals. */
function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  const i = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return Math.round(sorted[i] * 100) / 100;
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

type Arranged = { sessions: string[]; admin: string; tabs: number[]; body: string };

async function arrange(server: Server): Promise<Arranged> {
  const sessions = await tokens(server);
  const admin = sessions[0];
  const product = await api<{ id: number }>(server, '/product', admin, {
    name: `X-Bench ${randomUUID().slice(0, 6)}`,
    salePriceCents: 1500,
  });
  const tabs: number[] = [];
  for (let i = 0; i < TABS; i++)
    tabs.push((await api<{ id: number }>(server, '/comanda', admin, { people: 2 })).id);
  const body = JSON.stringify({ productId: product.id, quantity: 1, notes: 'sem cebola' });
  return { sessions, admin, tabs, body };
}

/**
 * Every answered add is a line: the tabs hold exactly as many lines as the 201s. autocannon stops
 * counting with up to `inFlight` requests still under way (their lines land, their answers are not
 * counted).
 */
async function checkLines(
  server: Server,
  engine: string,
  arranged: Arranged,
  figures: Figures,
  inFlight = 0,
) {
  let lines = 0;
  for (const id of arranged.tabs)
    lines += (await api<{ lines: unknown[] }>(server, `/comanda/${id}`, arranged.admin)).lines.length;
  const ok = figures.requests - figures.errors;
  const kept = lines >= ok && lines <= ok + inFlight;
  console.log(
    `${engine}: ${lines} lines on ${TABS} tabs after ${figures.requests} requests (${figures.errors} errors)${kept ? '' : ` MISMATCH: ${ok} answered 201`}`,
  );
  if (!kept) process.exitCode = 1;
}

/**
 * The waiters' phones, each its own keep-alive connection (undici's pool per waiter), each add with
 * its own Idempotency-Key. `rush`: every waiter adds a line, then "thinks" a random time
 * (exponential, mean `thinkMs`) before the next, as a waiter punches an order item by item; 20
 * waiters thinking 0.5 s send about 40 lines/s together, ten times a full house at dinner.
 * `together`: rounds in which all 20 tap "adicionar" in the same millisecond (the worst instant of
 * a rush), one round every `thinkMs`.
 */
async function waiters(
  server: Server,
  engine: string,
  mode: 'rush' | 'together',
  thinkMs: number,
): Promise<Figures> {
  const arranged = await arrange(server);
  const { sessions, tabs, body } = arranged;
  const latencies: number[] = [];
  let errors = 0;
  const agents = Array.from({ length: WAITERS }, () => new http.Agent({ keepAlive: true, maxSockets: 1 }));
  const add = async (w: number, n: number) => {
    const start = performance.now();
    const status = await new Promise<number>((done, fail) => {
      const req = http.request(
        `${server.url}/v1/comanda/${tabs[(w + n) % TABS]}/line`,
        {
          method: 'POST',
          agent: agents[w],
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            authorization: `Bearer ${sessions[w % sessions.length]}`,
            'idempotency-key': randomUUID(),
          },
        },
        (res) => {
          res.resume();
          res.on('end', () => done(res.statusCode ?? 0));
        },
      );
      req.on('error', fail);
      req.end(body);
    });
    latencies.push(performance.now() - start);
    if (status !== 201) errors++;
  };
  // Warm every waiter's connection (not counted).
  await Promise.all(agents.map((_, w) => add(w, 0)));
  latencies.length = 0;
  errors = 0;
  const warm = WAITERS;
  const started = performance.now();
  const end = started + DURATION * 1000;
  if (mode === 'rush') {
    await Promise.all(
      agents.map(async (_, w) => {
        for (let n = 1; ; n++) {
          await sleep(-Math.log(1 - Math.random()) * thinkMs);
          if (performance.now() >= end) return;
          await add(w, n);
        }
      }),
    );
  } else {
    for (let n = 1; performance.now() < end; n++) {
      const round = performance.now();
      await Promise.all(agents.map((_, w) => add(w, n)));
      await sleep(Math.max(0, thinkMs - (performance.now() - round)));
    }
  }
  const seconds = (performance.now() - started) / 1000;
  for (const a of agents) a.destroy();
  latencies.sort((a, b) => a - b);
  const scenario =
    mode === 'rush'
      ? `each adds a line every ${thinkMs / 1000} s on average`
      : `all ${WAITERS} tap at once, every ${thinkMs / 1000} s`;
  const figures: Figures = {
    name: `${engine}: ${WAITERS} waiters on ${TABS} tabs, ${scenario}`,
    requests: latencies.length,
    rps: Math.round(latencies.length / seconds),
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    errors,
  };
  // The warm-up adds are lines too.
  await checkLines(server, engine, arranged, { ...figures, requests: figures.requests + warm });
  return figures;
}

/** Saturation: every waiter sends its next line the moment the last is answered (autocannon). */
async function backToBack(server: Server, engine: string): Promise<Figures> {
  const arranged = await arrange(server);
  const { sessions, tabs, body } = arranged;
  let n = 0;
  const figures = await load(`${engine}: ${WAITERS} waiters on ${TABS} tabs, back to back (saturation)`, {
    url: server.url,
    connections: WAITERS,
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
  await checkLines(server, engine, arranged, figures, WAITERS);
  return figures;
}

/**
 * 200 open tabs on `server` (the demo shop's open tabs count), each with a table's order: five
 * lines of three products (two beers, a burger with a note, two juices), 1,000 lines in all.
 */
async function seedBoard(server: Server) {
  const [admin] = await tokens(server);
  const open = (await api<{ tabs: unknown[] }>(server, '/comanda', admin)).tabs.length;
  const product = async (name: string, salePriceCents: number) =>
    (await api<{ id: number }>(server, '/product', admin, { name, salePriceCents })).id;
  const beer = await product('Cerveja Bench', 1200);
  const burger = await product('X-Bench', 2500);
  const juice = await product('Suco Bench', 800);
  const order = [
    { productId: beer, quantity: 1 },
    { productId: beer, quantity: 1 },
    { productId: burger, quantity: 1, notes: 'sem cebola' },
    { productId: juice, quantity: 1 },
    { productId: juice, quantity: 1 },
  ];
  for (let i = open; i < BOARD_TABS; i++) {
    const tab = await api<{ id: number }>(server, '/comanda', admin, {
      people: 2,
      tableLabel: String(i + 1),
    });
    for (const line of order) await api(server, `/comanda/${tab.id}/line`, admin, line);
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
  if (parts.includes('add-line')) {
    const server = await startServer(engine === 'PostgreSQL' ? { databaseUrl: url } : {});
    try {
      rows.push(await waiters(server, engine, 'rush', 500));
      rows.push(await waiters(server, engine, 'together', 500));
      rows.push(await backToBack(server, engine));
    } finally {
      await server.stop();
    }
  }
  if (!parts.includes('board')) continue;
  // The board on a shop of its own: the add-line runs leave 10 tabs with thousands of lines each.
  if (engine === 'PostgreSQL' && url) await emptyDatabase(url);
  const server = await startServer(engine === 'PostgreSQL' ? { databaseUrl: url } : {});
  try {
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
