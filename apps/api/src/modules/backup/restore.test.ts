import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromPglite, migrateDatabase, openPglite } from '../../db/client.ts';
import { insertClient } from '../account/service.ts';
import { dumpPglite } from './service.ts';

const run = promisify(execFile);
const root = resolve(import.meta.dirname, '../../../../..');
const work = mkdtempSync(join(tmpdir(), 'balcao-restore-test-'));
const backupFile = join(work, 'backup.tar.gz');

/** `npm run restore -- FILE [--force]` as the README says (tsx scripts/restore.ts), DATA_DIR set. */
async function restore(dataDir: string, ...args: string[]) {
  try {
    const { stdout } = await run('npx', ['tsx', 'scripts/restore.ts', ...args], {
      cwd: root,
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
    });
    return { code: 0, out: stdout };
  } catch (error) {
    const e = error as { code: number; stderr: string };
    return { code: e.code, out: e.stderr };
  }
}

async function clientNames(dataDir: string) {
  const db = await PGlite.create(join(dataDir, 'pglite'), { extensions: { pg_trgm } });
  try {
    return (await db.query<{ name: string }>('select name from clients order by id')).rows.map((r) => r.name);
  } finally {
    await db.close();
  }
}

beforeAll(async () => {
  // A shop's database with a row to find, dumped as the Backups page does.
  const client = await openPglite(join(work, 'source'));
  const source = fromPglite(client);
  await migrateDatabase(source);
  await insertClient(source.db, {
    name: 'Padaria Restaurada',
    document: '11222333000181',
    clientTypeId: 1,
  } as never);
  const { file } = await dumpPglite(client);
  writeFileSync(backupFile, file);
  await source.close();
}, 120_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe.runIf(!process.env.DATABASE_URL)('npm run restore (issue 37)', () => {
  it('restores a backup into a new data folder, and refuses to overwrite it without --force', async () => {
    const target = join(work, 'new-data');
    const first = await restore(target, backupFile);
    expect(first.out).toMatch(/Restaurado em .*pglite: \d+ tabelas, \d+ linhas\./);
    expect(first.code).toBe(0);
    expect(await clientNames(target)).toEqual(['Padaria Restaurada']);

    const again = await restore(target, backupFile);
    expect(again.code).toBe(1);
    expect(again.out).toContain('já tem um banco com dados');
    expect(again.out).toContain('use --force para substituí-lo');

    const forced = await restore(target, backupFile, '--force');
    expect(forced.code).toBe(0);
    expect(await clientNames(target)).toEqual(['Padaria Restaurada']);
    // The replaced database is kept beside it, never deleted.
    expect(
      readdirSync(target).filter((name) => name.startsWith('pglite.antes-da-restauracao-')),
    ).toHaveLength(1);
  }, 120_000);
});
