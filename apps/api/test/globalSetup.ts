import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { fromPglite, migrateDatabase, openPglite } from '../src/db/client.ts';

/**
 * PGlite: migrate one template database once and dump it; each test file restores it into a fresh
 * in-memory instance (cheaper than migrating per file). With DATABASE_URL, tests use that server.
 */
export default async function setup(project: TestProject) {
  if (process.env.DATABASE_URL) return;
  const dir = join(tmpdir(), `balcao-test-template-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const client = await openPglite();
  await migrateDatabase(fromPglite(client));
  const dump = await client.dumpDataDir('none');
  const file = join(dir, 'template.tar');
  const { writeFileSync } = await import('node:fs');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await client.close();
  project.provide('pgliteTemplate', file);
  return () => rmSync(dir, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
  }
}
