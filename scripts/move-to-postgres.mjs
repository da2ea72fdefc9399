#!/usr/bin/env node
// `npm run move-to-postgres -- postgres://user:password@host:5432/db`: copies the PGlite data folder
// (DATA_DIR, default ./data) into an empty PostgreSQL database (apps/api/src/move-to-postgres-cli.ts).
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const run = spawnSync(
  process.execPath,
  ['--import', 'tsx', join(root, 'apps/api/src/move-to-postgres-cli.ts'), ...process.argv.slice(2)],
  { stdio: 'inherit', env: process.env },
);
process.exit(run.status ?? 1);
