import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/helper.ts';
import { insertClient } from '../modules/account/service.ts';
import { type Database, migrateDatabase } from './client.ts';

/**
 * Issue 37: "migrations that rewrite data run in a transaction and are idempotent". The app's migrations
 * (drizzle's journal, applied by `migrateDatabase` at every start) plus one more that rewrites every
 * shop's name: failing midway it leaves the rows and the journal as they were; once it works it is
 * applied once, and a second start does not apply it again.
 */
const drizzleFolder = resolve(dirname(fileURLToPath(import.meta.url)), '../../drizzle');
const work = mkdtempSync(join(tmpdir(), 'balcao-migration-test-'));
const folder = join(work, 'drizzle');
const TAG = '9999_rename_shops';

function writeMigration(statements: string[]) {
  writeFileSync(join(folder, `${TAG}.sql`), statements.join('\n--> statement-breakpoint\n'));
}

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
  cpSync(drizzleFolder, folder, { recursive: true });
  const journalPath = join(folder, 'meta/_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as {
    entries: { idx: number; version: string; when: number; tag: string; breakpoints: boolean }[];
  };
  const last = journal.entries[journal.entries.length - 1];
  journal.entries.push({
    idx: last.idx + 1,
    version: last.version,
    when: last.when + 1,
    tag: TAG,
    breakpoints: true,
  });
  writeFileSync(journalPath, JSON.stringify(journal, null, 2));
  await insertClient(database.db, {
    name: 'Mercearia Antiga',
    document: '11222333000181',
    clientTypeId: 1,
  } as never);
});
afterAll(async () => {
  await database?.close();
  rmSync(work, { recursive: true, force: true });
});

const names = async () =>
  (
    (await database.db.execute(sql`select name from clients order by id`)) as unknown as {
      rows: { name: string }[];
    }
  ).rows.map((row) => row.name);
const applied = async () =>
  Number(
    (
      (await database.db.execute(
        sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
      )) as unknown as {
        rows: { n: number }[];
      }
    ).rows[0].n,
  );

describe('a migration that rewrites data (issue 37)', () => {
  it('fails whole: the rows and the journal stay as they were', async () => {
    const before = await names();
    const journal = await applied();
    writeMigration([`UPDATE "clients" SET "name" = "name" || ' (migrada)'`, 'SELECT 1 / 0']);
    await expect(migrateDatabase(database, folder)).rejects.toThrow();
    expect(await names()).toEqual(before);
    expect(await applied()).toBe(journal);
  });

  it('once it works it is applied once, and the next start does not apply it again', async () => {
    const before = await names();
    const journal = await applied();
    writeMigration([`UPDATE "clients" SET "name" = "name" || ' (migrada)'`]);
    await migrateDatabase(database, folder);
    await migrateDatabase(database, folder);
    expect(await names()).toEqual(before.map((name) => `${name} (migrada)`));
    expect(before).toContain('Mercearia Antiga');
    expect(await applied()).toBe(journal + 1);
  });
});
