import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { TestProject } from 'vitest/node';
import { fromPglite, fromPostgres, migrateDatabase, openPglite } from '../src/db/client.ts';
import { databaseUrlFor } from './pgUrl.ts';

/**
 * PGlite: migrate one template database once and dump it; each test file restores it into a fresh
 * in-memory instance (cheaper than migrating per file).
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
    pgTemplate: string;
  }
}
