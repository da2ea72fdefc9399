import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { TestProject } from 'vitest/node';
import { fromPglite, fromPostgres, migrateDatabase, openPglite } from '../src/db/client.ts';
import { databaseUrlFor } from './pgUrl.ts';

/**
 * PGlite: migrate one template database directory once; each test file opens a copy of its files
 * (helper.ts). Copying the files and opening them costs ~1 s; a fresh instance costs an initdb and the
 * migrations (~30 s), and restoring a dump of the directory (dumpDataDir/loadDataDir) ~5 s, as it
 * unpacks ~45 MB into memory before PostgreSQL starts.
 * PostgreSQL (DATABASE_URL): migrate a template database once on that server; each test file gets
 * its own database created from it (migrations write "public"-qualified references and keep their
 * journal in the "drizzle" schema, so a schema per file would not be isolated).
 */
export default async function setup(project: TestProject) {
  const url = process.env.DATABASE_URL;
  if (url) {
    const template = `balcao_tpl_${process.pid}`;
    const admin = fromPostgres(url, 1);
    await admin.db.execute(sql.raw(`DROP DATABASE IF EXISTS ${template}`));
    await admin.db.execute(sql.raw(`CREATE DATABASE ${template}`));
    const tpl = fromPostgres(databaseUrlFor(url, template), 1);
    try {
      await migrateDatabase(tpl);
    } finally {
      await tpl.close();
    }
    await admin.close();
    project.provide('pgTemplate', template);
    return async () => {
      const cleanup = fromPostgres(url, 1);
      await cleanup.db.execute(sql.raw(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`));
      await cleanup.close();
    };
  }
  // On tmpfs where there is one (a copy is ~45 MB of files written once, read by one test file).
  const root = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
  removeAbandoned(root);
  const dir = join(root, `balcao-test-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const template = join(dir, 'template');
  const client = await openPglite(template);
  await migrateDatabase(fromPglite(client));
  await client.close();
  project.provide('pgliteTemplate', join(template, 'pglite'));
  return () => rmSync(dir, { recursive: true, force: true });
}

/** Template folders of runs that were killed (their process is gone) before they cleaned up. */
function removeAbandoned(root: string) {
  for (const name of readdirSync(root)) {
    const pid = Number(/^balcao-test-(\d+)$/.exec(name)?.[1]);
    if (!pid || pid === process.pid) continue;
    try {
      process.kill(pid, 0);
    } catch {
      rmSync(join(root, name), { recursive: true, force: true });
    }
  }
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    pgTemplate: string;
  }
}
