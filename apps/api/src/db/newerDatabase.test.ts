import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openTestDatabase } from '../../test/helper.ts';
import { type Database, DatabaseNewerThanCode, fromPglite, migrateDatabase } from './client.ts';

/**
 * Issue 37: `npm start` on a database a newer Balcão migrated (a migration in the journal table the
 * code does not know) refuses with a clear message instead of running.
 */

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
const FUTURE_MILLIS = Date.UTC(2099, 0, 1);
const addFutureMigration = (database: Database) =>
  database.db.execute(
    sql`insert into drizzle.__drizzle_migrations (hash, created_at) values ('migracao-do-futuro', ${FUTURE_MILLIS})`,
  );

describe('a database newer than the code (issue 37)', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => {
    await database?.close();
  });

  it('migrating it refuses, naming the unknown migration, and changes nothing', async () => {
    await migrateDatabase(database); // up to date: nothing to do, no refusal
    await addFutureMigration(database);
    const refusal = await migrateDatabase(database).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(DatabaseNewerThanCode);
    expect((refusal as Error).message).toBe(
      'O banco de dados foi atualizado por uma versão mais nova do Balcão: 1 migração(ões) que esta ' +
        'versão não conhece (a mais recente de 2099-01-01T00:00:00.000Z). Esta versão não vai rodar nele ' +
        'para não estragar os dados: instale a versão mais nova do Balcão (ou restaure um backup feito ' +
        'antes da atualização).',
    );
  });

  it('the server process does not start on it: exit code 1 and the message, no stack trace', async () => {
    const env: Record<string, string> = {
      ...(process.env as Record<string, string>),
      NODE_ENV: 'production',
      DEMO: '0',
      PORT: '1', // never listened on: the start stops before
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      WEB_DIST: resolve(root, '.tmp/no-web'),
      SECRETS_KEY: 'newer-database-test-key',
    };
    let dataDir: string | undefined;
    if (database.url) env.DATABASE_URL = database.url;
    else {
      // PGlite: a data folder of its own (the database above is open in this process).
      dataDir = mkdtempSync(join(tmpdir(), 'balcao-newer-'));
      cpSync(inject('pgliteTemplate'), join(dataDir, 'pglite'), { recursive: true });
      const copy = fromPglite(await PGlite.create(join(dataDir, 'pglite'), { extensions: { pg_trgm } }));
      await addFutureMigration(copy);
      await copy.close();
      env.DATA_DIR = dataDir;
      delete env.DATABASE_URL;
    }
    let child: ReturnType<typeof spawn> | undefined;
    try {
      child = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/server.ts'], {
        cwd: root,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout?.on('data', (chunk) => {
        output += String(chunk);
      });
      child.stderr?.on('data', (chunk) => {
        output += String(chunk);
      });
      const started = child;
      const code = await new Promise<number | null>((done) => started.once('exit', (c) => done(c)));
      expect(code).toBe(1);
      expect(output).toContain(
        'Balcão não iniciou. O banco de dados foi atualizado por uma versão mais nova do Balcão',
      );
      expect(output).not.toContain('    at ');
      expect(output).not.toContain('Balcão on http');
    } finally {
      // Old code would have started serving: never leave it running.
      if (child && child.exitCode === null) child.kill('SIGKILL');
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
