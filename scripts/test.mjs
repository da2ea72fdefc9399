#!/usr/bin/env node
// `npm test`: the whole suite, in order, stopping at the first failure:
//   typecheck -> lint -> structure -> core units -> web components -> API integration -> web build -> browser end-to-end.
// TEST_SKIP=e2e,api (stage names, comma-separated) skips stages for local iteration only;
// the default runs everything.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
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
  },
];

const skip = new Set(
  (process.env.TEST_SKIP ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);
const unknown = [...skip].filter((name) => !STAGES.some((s) => s.name === name));
if (unknown.length) {
  fail(
    `TEST_SKIP names unknown stages: ${unknown.join(', ')}. Stages: ${STAGES.map((s) => s.name).join(', ')}.`,
  );
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
const done = [];
for (const stage of STAGES) {
  if (skip.has(stage.name)) {
    console.log(`\n[test] -- ${stage.title}: SKIPPED (TEST_SKIP)`);
    done.push(`${stage.name}: skipped`);
    continue;
  }
  console.log(`\n[test] == ${stage.title}: ${stage.cmd.join(' ')}`);
  const stageStart = Date.now();
  const extraEnv = { ...(stage.before ? stage.before() : {}), ...(stage.env ?? {}) };
  if (extraEnv.CHROMIUM_PATH) console.log(`[test] CHROMIUM_PATH=${extraEnv.CHROMIUM_PATH}`);
  const result = run(stage.cmd, extraEnv);
  const seconds = ((Date.now() - stageStart) / 1000).toFixed(1);
  if (!result.ok) {
    fail(
      `stage "${stage.name}" (${stage.title}) failed after ${seconds}s: ${result.why}. Command: ${stage.cmd.join(' ')}`,
    );
  }
  done.push(`${stage.name}: ok (${seconds}s)`);
}

console.log(`\n[test] All stages passed in ${((Date.now() - started) / 1000).toFixed(0)}s:`);
for (const line of done) console.log(`  ${line}`);
if (skip.size)
  console.log(
    `[test] Note: stages were skipped by TEST_SKIP (${[...skip].join(', ')}); the default runs all.`,
  );
