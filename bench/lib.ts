/// <reference lib="dom" />
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { type Browser, chromium, type Page } from 'playwright-core';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Builds the production web bundle when it is missing. */
export function ensureWebBuild(): void {
  if (existsSync(join(ROOT, 'apps/web/dist/index.html')) && process.env.BENCH_REBUILD !== '1') return;
  const r = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (r.status !== 0) throw new Error('web build failed');
}

/** The code of `commit` in a temporary folder that runs like this checkout (node_modules linked). */
export function exportCommit(commit: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'balcao-bench-before-'));
  execFileSync('sh', ['-c', `git archive ${commit} | tar -x -C ${dir}`], { cwd: ROOT });
  const modules = join(dir, 'node_modules');
  mkdirSync(join(modules, '@balcao'), { recursive: true });
  for (const entry of readdirSync(join(ROOT, 'node_modules'))) {
    if (entry === '@balcao') continue;
    symlinkSync(join(ROOT, 'node_modules', entry), join(modules, entry));
  }
  // The workspace links are relative: they point into the exported code.
  for (const entry of readdirSync(join(ROOT, 'node_modules/@balcao')))
    symlinkSync(readlinkSync(join(ROOT, 'node_modules/@balcao', entry)), join(modules, '@balcao', entry));
  symlinkSync(join(ROOT, 'apps/web/dist'), join(dir, 'apps/web/dist'));
  console.log(`  ${commit} exported to ${dir}`);
  return dir;
}

export type Server = { url: string; stop: () => Promise<void>; pid?: number };

/**
 * CPU time (user + system, ms) a process has used so far, from /proc (Linux). The CPU a piece of work
 * costs moves much less than its wall time when other work shares the machine.
 */
export function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  // utime and stime are fields 14 and 15 of the line (12 and 13 after the command), in clock ticks.
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/**
 * Starts the API like production (NODE_ENV=production, web bundle served) on a fresh PGlite folder,
 * or on DATABASE_URL when given. DEMO=1 seeds the demo shop.
 */
export async function startServer(
  options: { port?: number; databaseUrl?: string; env?: Record<string, string>; root?: string } = {},
): Promise<Server> {
  // Another checkout of the code (bench/catalog.ts --before: the code before a change, same run).
  const root = options.root ?? ROOT;
  const port = options.port ?? 3300 + Math.floor(Math.random() * 500);
  const dataDir = mkdtempSync(join(tmpdir(), 'balcao-bench-'));
  const child: ChildProcess = spawn(
    process.execPath,
    [
      // BENCH_SERVER_PROF=dir writes a CPU profile of the server there (open it in Chrome DevTools).
      ...(process.env.BENCH_SERVER_PROF
        ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_SERVER_PROF}`]
        : []),
      '--import',
      'tsx',
      join(root, 'apps/api/src/server.ts'),
    ],
    {
      cwd: root,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        DEMO: '1',
        PORT: String(port),
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
        ...options.env,
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`${url}/v1/health`);
      if (res.ok) break;
    } catch {
      // not up yet
    }
    if (child.exitCode !== null) throw new Error('server exited during start');
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    pid: child.pid,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export type Figures = {
  name: string;
  requests: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  errors: number;
};

/** Runs autocannon and returns latency percentiles in ms and throughput. */
export async function load(
  name: string,
  opts: autocannon.Options & { expectStatus?: number },
): Promise<Figures> {
  const result = await autocannon({ duration: 10, connections: 10, ...opts });
  const non2xx = result.non2xx + result.errors + result.timeouts;
  const figures: Figures = {
    name,
    requests: result.requests.total,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p95:
      (result.latency as unknown as Record<string, number>).p97_5 !== undefined
        ? percentileFromHistogram(result, 95)
        : result.latency.p90,
    p99: result.latency.p99,
    errors: non2xx,
  };
  return figures;
}

function percentileFromHistogram(result: autocannon.Result, p: number): number {
  const l = result.latency as unknown as Record<string, number>;
  // autocannon reports p90 and p97_5; p95 lies between: interpolate linearly.
  return Math.round((l.p90 + ((l.p97_5 - l.p90) * (p - 90)) / 7.5) * 100) / 100;
}

export function machine(): string {
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  return `${cpus().length} cores (${cpu}), ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
}

export function table(rows: Figures[]): string {
  const head =
    '| scenario | requests | req/s | p50 ms | p95 ms | p99 ms | errors |\n|---|---|---|---|---|---|---|';
  return [
    head,
    ...rows.map(
      (r) => `| ${r.name} | ${r.requests} | ${r.rps} | ${r.p50} | ${r.p95} | ${r.p99} | ${r.errors} |`,
    ),
  ].join('\n');
}

/** Debian's Chromium (CHROMIUM_PATH), headless, for the browser benches. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}

/**
 * Logs `email` in (password demo1234) on a new page and opens the PDV with the register opened at
 * R$ 0,00; answers the page once the search field has the focus.
 */
export async function openPdv(browser: Browser, serverUrl: string, email: string): Promise<Page> {
  const page = await browser.newPage({ locale: 'pt-BR' });
  await page.goto(`${serverUrl}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Senha', { exact: true }).fill('demo1234');
  await page.getByRole('button', { name: 'Entrar' }).click();
  await page.waitForURL(/\/dashboard/);
  await page.goto(`${serverUrl}/dashboard/sale/pdv`);
  await page.getByLabel('Valor de abertura').fill('0');
  await page.getByRole('button', { name: 'Abrir caixa' }).click();
  await page.getByTestId('pdv-search').waitFor();
  await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'pdv-search');
  return page;
}
