#!/usr/bin/env node
// `npm run import-shop -- FILE` (issue 37): imports a shop's export ZIP into this Balcão as a new shop
// (apps/api/src/import-shop-cli.ts), on DATA_DIR's embedded database or DATABASE_URL.
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const run = spawnSync(
  process.execPath,
  ['--import', 'tsx', join(root, 'apps/api/src/import-shop-cli.ts'), ...process.argv.slice(2)],
  { cwd: root, stdio: 'inherit', env: { ...process.env, INIT_CWD: process.env.INIT_CWD ?? process.cwd() } },
);
process.exit(run.status ?? 1);
