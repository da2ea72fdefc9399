#!/usr/bin/env node
// `npm start`: builds the web app when it is missing or older than its sources, then serves
// web + API from one process (apps/api/src/server.ts) on PORT (3000).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const distIndex = join(root, 'apps/web/dist/index.html');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

function webIsStale() {
  if (!existsSync(distIndex)) return true;
  const built = statSync(distIndex).mtimeMs;
  const sources = [
    join(root, 'apps/web/src'),
    join(root, 'apps/web/index.html'),
    join(root, 'packages/core/src'),
  ];
  return sources.some(
    (s) => existsSync(s) && (statSync(s).isDirectory() ? newestMtime(s) : statSync(s).mtimeMs) > built,
  );
}

if (process.env.SKIP_WEB_BUILD !== '1' && webIsStale()) {
  console.log('Building the web app...');
  // NODE_ENV must be production for the build: Vite honours an inherited NODE_ENV=test with a dev bundle.
  const build = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

// The demo's fake PSP (issue 33, docs/integrations/pix-api.md): started with the demo, i.e. when the
// server seeds the demo shop (the rule of seedDemo in apps/api/src/config.ts: DEMO=1, or not production
// and DEMO not 0), unless PIX_FAKE=0 or PIX_FAKE_URL names another fake (the browser suite starts its
// own); PIX_FAKE=1 forces it. It listens on 7000 (API Pix v2, mutual TLS) and 7001 (the customer's bank
// app: /pagar), its certificates in .tmp/pix (client.pem and client-key.pem go on Configurações > Conta
// Pix, PSP "PSP de teste (local)"), and the API trusts its CA. Ports taken: the server starts without it.
const e = process.env;
const production = e.NODE_ENV === 'production' || Boolean(e.DATABASE_URL);
const seedsDemo = e.DEMO === '1' || (!production && e.DEMO !== '0');
const wantsFake = e.PIX_FAKE === '1' || (e.PIX_FAKE !== '0' && seedsDemo && !e.PIX_FAKE_URL);
const env = { ...process.env };
let pixFake;
if (wantsFake) {
  const certDir = join(root, '.tmp/pix');
  pixFake = spawn(process.execPath, ['--import', 'tsx', join(root, 'apps/api/test/fakes/pix-psp-cli.ts')], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, PORT: '7000', PAY_PORT: '7001', CERT_DIR: certDir },
  });
  let up = false;
  for (let i = 0; i < 150 && !up && pixFake.exitCode === null; i++) {
    up = await fetch('http://127.0.0.1:7001/pagar').then(
      (r) => r.ok,
      () => false,
    );
    if (!up) await new Promise((r) => setTimeout(r, 100));
  }
  if (up) {
    env.PIX_CA_FILE = join(certDir, 'ca.pem');
    env.PIX_FAKE_URL = 'https://localhost:7000';
    env.OUTBOUND_ALLOW_PRIVATE ??= 'true';
    console.log(
      'Demo Pix: the fake PSP is on; pay a QR at http://localhost:7001/pagar (PIX_FAKE=0 turns it off)',
    );
  } else {
    console.warn('The demo fake PSP did not start (ports 7000/7001 taken?): the server starts without it.');
    pixFake.kill();
    pixFake = undefined;
  }
}

const server = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'apps/api/src/server.ts')], {
  cwd: root,
  stdio: 'inherit',
  env,
});
pixFake?.kill();
process.exit(server.status ?? 0);
