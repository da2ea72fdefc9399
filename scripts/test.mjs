#!/usr/bin/env node
// `npm test`: the whole suite, in order, stopping at the first failure:
//   typecheck -> lint -> structure -> core units -> web components -> API integration -> web build -> browser end-to-end.
// TEST_SKIP=e2e,api (stage names, comma-separated) skips stages for local iteration only;
// the default runs everything. TEST_PG_URL=postgres://.../db (CI, .ci/run) adds the API suite on that
// PostgreSQL server, run beside the browser stage (which waits on a browser more than it uses the CPU);
// its output is kept in a file and printed after the browser stage's. Each stage's time is printed at
// the end, passed or not.
import { spawn, spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DEFAULT_CHROMIUM = '/usr/bin/chromium';

const STAGES = [
  {
    name: 'typecheck',
    title: 'Type check (every workspace)',
    cmd: ['npm', 'run', 'typecheck', '--workspaces', '--if-present'],
  },
  { name: 'lint', title: 'Lint and format (Biome)', cmd: ['npx', 'biome', 'check', '.'] },
  {
    name: 'structure',
    title: 'Structure (no folder loops, the module rule: docs/architecture.md)',
    cmd: ['node', 'scripts/check-structure.mjs'],
  },
  { name: 'core', title: 'Core unit tests', cmd: ['npx', 'vitest', 'run', '--project', 'core'] },
  { name: 'web', title: 'Web component tests', cmd: ['npx', 'vitest', 'run', '--project', 'web'] },
  { name: 'api', title: 'API integration tests', cmd: ['npx', 'vitest', 'run', '--project', 'api'] },
  { name: 'build', title: 'Web build', cmd: ['npm', 'run', 'build'] },
  {
    name: 'e2e',
    title: 'Browser end-to-end tests (Playwright + Chromium)',
    cmd: ['npm', 'run', 'test:e2e'],
    before: ensureChromium,
    alongside: process.env.TEST_PG_URL
      ? {
          name: 'api-pg',
          title: 'API integration tests on PostgreSQL (beside the browser stage)',
          // One worker: the browser stage keeps its share of the two cores (no timing-out page waits).
          cmd: ['npx', 'vitest', 'run', '--project', 'api', '--maxWorkers=1'],
          env: { DATABASE_URL: process.env.TEST_PG_URL },
        }
      : undefined,
  },
];
const ALL_NAMES = STAGES.flatMap((s) => [s.name, ...(s.alongside ? [s.alongside.name] : [])]);

const skip = new Set(
  (process.env.TEST_SKIP ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);
const unknown = [...skip].filter((name) => !ALL_NAMES.includes(name));
if (unknown.length) {
  fail(`TEST_SKIP names unknown stages: ${unknown.join(', ')}. Stages: ${ALL_NAMES.join(', ')}.`);
}
// The browser suite serves the web build made by the stage before; if that stage is skipped, the
// e2e server (scripts/start.mjs) rebuilds the web app when it is stale.
STAGES.find((s) => s.name === 'e2e').env = { SKIP_WEB_BUILD: skip.has('build') ? '0' : '1' };

function fail(message) {
  console.error(`\n[test] FAILED: ${message}`);
  process.exit(1);
}

function run(cmd, env = {}) {
  const result = spawnSync(cmd[0], cmd.slice(1), {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  if (result.error) return { ok: false, why: result.error.message };
  if (result.signal) return { ok: false, why: `killed by ${result.signal}` };
  return { ok: result.status === 0, why: `exit code ${result.status}` };
}

/** `run`, without blocking the event loop: what runs beside it is timed when it really ends. */
function runAsync(cmd, env = {}) {
  return new Promise((resolveRun) => {
    const child = spawn(cmd[0], cmd.slice(1), {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, ...env },
    });
    child.on('error', (error) => resolveRun({ ok: false, why: error.message }));
    child.on('exit', (code, signal) =>
      resolveRun(
        signal ? { ok: false, why: `killed by ${signal}` } : { ok: code === 0, why: `exit code ${code}` },
      ),
    );
  });
}

/**
 * Starts a stage in the background, its output into a file: `done` resolves with its result, the
 * output and its time when it ends.
 */
function start(stage) {
  const dir = mkdtempSync(join(tmpdir(), `balcao-${stage.name}-`));
  const log = join(dir, 'output.log');
  const fd = openSync(log, 'w');
  const began = Date.now();
  const child = spawn(stage.cmd[0], stage.cmd.slice(1), {
    cwd: root,
    stdio: ['ignore', fd, fd],
    env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '1', ...stage.env },
  });
  const done = new Promise((resolveDone) => {
    const finish = (result) => {
      const output = readFileSync(log, 'utf8');
      // Kept when it failed, for a look after the run.
      if (result.ok) rmSync(dir, { recursive: true, force: true });
      resolveDone({ ...result, output, seconds: (Date.now() - began) / 1000 });
    };
    child.on('error', (error) => finish({ ok: false, why: error.message }));
    child.on('exit', (code, signal) =>
      finish(
        signal ? { ok: false, why: `killed by ${signal}` } : { ok: code === 0, why: `exit code ${code}` },
      ),
    );
  });
  return { done, log };
}

function isExecutable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Chromium for Playwright: CHROMIUM_PATH, else Debian's /usr/bin/chromium (installed with apt when root). */
function ensureChromium() {
  const configured = process.env.CHROMIUM_PATH;
  if (configured) {
    if (!isExecutable(configured)) {
      fail(
        `CHROMIUM_PATH=${configured} is not an executable file. Point it at a Chromium binary or unset it.`,
      );
    }
    return { CHROMIUM_PATH: configured };
  }
  if (isExecutable(DEFAULT_CHROMIUM)) return { CHROMIUM_PATH: DEFAULT_CHROMIUM };

  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const isDebian = existsSync('/etc/debian_version');
  if (isRoot && isDebian) {
    console.log(
      `[test] Chromium not found at ${DEFAULT_CHROMIUM}: installing Debian's chromium with apt-get...`,
    );
    const aptEnv = { DEBIAN_FRONTEND: 'noninteractive' };
    const update = run(['apt-get', 'update'], aptEnv);
    const install = update.ok ? run(['apt-get', 'install', '-y', 'chromium'], aptEnv) : update;
    if (!install.ok || !isExecutable(DEFAULT_CHROMIUM)) {
      fail(
        `could not install Chromium with apt-get (${install.why}). Install it by hand or set CHROMIUM_PATH.`,
      );
    }
    return { CHROMIUM_PATH: DEFAULT_CHROMIUM };
  }
  fail(
    [
      `Chromium is needed for the browser tests and was not found at ${DEFAULT_CHROMIUM}.`,
      '  On Debian/Ubuntu install it with:  sudo apt-get update && sudo apt-get install -y chromium',
      '  Or point CHROMIUM_PATH at a Chromium/Chrome binary:  CHROMIUM_PATH=/path/to/chromium npm test',
      '  (To run the other stages only, while iterating: TEST_SKIP=e2e npm test)',
    ].join('\n'),
  );
}

const started = Date.now();
/** One row per stage for the summary: name, title, outcome, seconds. */
const rows = [];

/** The stage times at the end, passed or not: which stage costs what (bench/RESULTS.md, "Suite time"). */
function printSummary() {
  const total = (Date.now() - started) / 1000;
  const width = Math.max(...ALL_NAMES.map((name) => name.length));
  console.log('\n[test] Stage times:');
  console.log(`  ${'stage'.padEnd(width)}  ${'result'.padEnd(7)}  ${'time'.padStart(8)}  share`);
  for (const row of rows) {
    const time = row.seconds === undefined ? '' : `${row.seconds.toFixed(1)}s`;
    const share =
      row.seconds === undefined || total === 0 ? '' : `${Math.round((row.seconds / total) * 100)}%`;
    const note = row.beside ? '  (beside the stage above, not added to the total)' : '';
    console.log(
      `  ${row.name.padEnd(width)}  ${row.result.padEnd(7)}  ${time.padStart(8)}  ${share.padStart(5)}${note}`,
    );
  }
  console.log(`  ${'total'.padEnd(width)}  ${''.padEnd(7)}  ${`${total.toFixed(1)}s`.padStart(8)}`);
}

for (const stage of STAGES) {
  if (skip.has(stage.name)) {
    console.log(`\n[test] -- ${stage.title}: SKIPPED (TEST_SKIP)`);
    rows.push({ name: stage.name, result: 'skipped' });
    // What runs beside a skipped stage runs on its own.
    const alone = stage.alongside && !skip.has(stage.alongside.name) ? stage.alongside : undefined;
    if (alone) {
      console.log(`\n[test] == ${alone.title}: ${alone.cmd.join(' ')}`);
      const began = Date.now();
      const result = run(alone.cmd, alone.env);
      const seconds = (Date.now() - began) / 1000;
      rows.push({ name: alone.name, result: result.ok ? 'ok' : 'FAILED', seconds });
      if (!result.ok) {
        printSummary();
        fail(`stage "${alone.name}" (${alone.title}) failed after ${seconds.toFixed(1)}s: ${result.why}.`);
      }
    }
    continue;
  }
  const alongside = stage.alongside && !skip.has(stage.alongside.name) ? stage.alongside : undefined;
  if (stage.alongside && !alongside) {
    console.log(`\n[test] -- ${stage.alongside.title}: SKIPPED (TEST_SKIP)`);
  }
  console.log(`\n[test] == ${stage.title}: ${stage.cmd.join(' ')}`);
  const stageStart = Date.now();
  const extraEnv = { ...(stage.before ? stage.before() : {}), ...(stage.env ?? {}) };
  if (extraEnv.CHROMIUM_PATH) console.log(`[test] CHROMIUM_PATH=${extraEnv.CHROMIUM_PATH}`);
  let beside;
  if (alongside) {
    console.log(
      `[test] == ${alongside.title}, started now: ${alongside.cmd.join(' ')} (its output follows this stage's)`,
    );
    beside = start(alongside);
    console.log(`[test] (its output meanwhile: ${beside.log})`);
  }
  const result = beside ? await runAsync(stage.cmd, extraEnv) : run(stage.cmd, extraEnv);
  const seconds = (Date.now() - stageStart) / 1000;
  rows.push({ name: stage.name, result: result.ok ? 'ok' : 'FAILED', seconds });
  let besideResult;
  if (beside) {
    console.log(`\n[test] == ${alongside.title}: waiting for it to end...`);
    besideResult = await beside.done;
    console.log(`[test] == ${alongside.title}: its output\n`);
    process.stdout.write(besideResult.output);
    console.log(
      `\n[test] == ${alongside.title}: ${besideResult.ok ? 'passed' : 'FAILED'} in ${besideResult.seconds.toFixed(1)}s`,
    );
    rows.push({
      name: alongside.name,
      result: besideResult.ok ? 'ok' : 'FAILED',
      seconds: besideResult.seconds,
      beside: true,
    });
  }
  const failed = !result.ok ? stage : besideResult && !besideResult.ok ? alongside : undefined;
  if (failed) {
    for (const rest of STAGES.slice(STAGES.indexOf(stage) + 1))
      rows.push({ name: rest.name, result: 'not run' });
    printSummary();
    const why = failed === stage ? result.why : besideResult.why;
    const secs = failed === stage ? seconds : besideResult.seconds;
    fail(
      `stage "${failed.name}" (${failed.title}) failed after ${secs.toFixed(1)}s: ${why}. Command: ${failed.cmd.join(' ')}`,
    );
  }
}

printSummary();
console.log(`\n[test] All stages passed in ${((Date.now() - started) / 1000).toFixed(0)}s.`);
if (skip.size)
  console.log(
    `[test] Note: stages were skipped by TEST_SKIP (${[...skip].join(', ')}); the default runs all.`,
  );
