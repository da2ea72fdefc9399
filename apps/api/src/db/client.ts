import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { preparingClient } from './prepared.ts';
import * as schema from './schema.ts';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction or the database: repositories accept either. */
export type Executor = Parameters<Parameters<Db['transaction']>[0]>[0] | Db;

export type Database = {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** PostgreSQL: the connection URL (the socket.io adapter of several instances opens its own pool). */
  url?: string;
  close: () => Promise<void>;
};

const pools = new WeakMap<Db, pg.Pool>();

export const MIGRATIONS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../drizzle');

export async function openPglite(dataDir?: string): Promise<PGlite> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  return PGlite.create(dataDir ? join(dataDir, 'pglite') : undefined, { extensions: { pg_trgm } });
}

const pglites = new WeakMap<Db, PGlite>();

/** The PGlite client under a Db (the backup module dumps its data folder); undefined on PostgreSQL. */
export function pgliteOf(db: Db): PGlite | undefined {
  return pglites.get(db);
}

/** The PostgreSQL pool under a Db (lib/copyOut.ts: COPY ... TO STDOUT takes a connection); undefined on PGlite. */
export function postgresPoolOf(db: Db): pg.Pool | undefined {
  return pools.get(db);
}

/** The PostgreSQL URL under a Db (the backup module's pg_dump); undefined on PGlite. */
export function postgresUrlOf(db: Db): string | undefined {
  return pools.get(db)?.options.connectionString;
}

export function fromPglite(client: PGlite): Database {
  // Queries inside withPreparedStatements (db/prepared.ts) run as named statements.
  const db = drizzlePglite({ client: preparingClient(client), schema }) as unknown as Db;
  pglites.set(db, client);
  return { db, kind: 'pglite', close: () => client.close() };
}

export function fromPostgres(url: string, max = 10): Database {
  const pool = new pg.Pool({ connectionString: url, max });
  // An idle connection that drops (server restart, network) must not crash the process: without a
  // listener node-postgres rethrows it. The pool replaces the connection on the next query.
  pool.on('error', (error) => console.error(`PostgreSQL idle connection error: ${error.message}`));
  const db = drizzleNodePg(pool, { schema }) as unknown as Db;
  pools.set(db, pool);
  return { db, kind: 'postgres', url, close: () => pool.end() };
}

/**
 * Runs `work` while holding a PostgreSQL advisory lock, so instances starting together migrate (and
 * seed a demo) one after the other, never at once. PGlite: one process, runs it directly.
 */
export async function withStartupLock<T>(database: Database, work: () => Promise<T>): Promise<T> {
  const pool = pools.get(database.db);
  if (!pool) return work();
  const client = await pool.connect();
  try {
    await client.query(`select pg_advisory_lock(hashtext('balcao:startup'))`);
    return await work();
  } finally {
    await client.query(`select pg_advisory_unlock(hashtext('balcao:startup'))`).catch(() => {});
    client.release();
  }
}

/**
 * `npm start` on a database a newer Balcão migrated: its journal holds a migration this code does not
 * know. Running would serve a schema the code was not written for, so the server refuses (issue 37).
 */
export class DatabaseNewerThanCode extends Error {
  constructor(readonly unknownMigrations: { hash: string; createdAt: number }[]) {
    const newest = Math.max(...unknownMigrations.map((m) => m.createdAt));
    super(
      `O banco de dados foi atualizado por uma versão mais nova do Balcão: ${unknownMigrations.length} ` +
        `migração(ões) que esta versão não conhece (a mais recente de ${new Date(newest).toISOString()}). ` +
        'Esta versão não vai rodar nele para não estragar os dados: instale a versão mais nova do Balcão ' +
        '(ou restaure um backup feito antes da atualização).',
    );
    this.name = 'DatabaseNewerThanCode';
  }
}

/** The migrations the database's journal (drizzle.__drizzle_migrations) lists that `migrationsFolder` lacks. */
export async function unknownMigrations(
  database: Database,
  migrationsFolder = MIGRATIONS_DIR,
): Promise<{ hash: string; createdAt: number }[]> {
  const exists = (await database.db.execute(
    sql`select to_regclass('drizzle.__drizzle_migrations') is not null as present`,
  )) as unknown as { rows: { present: boolean }[] };
  if (!exists.rows[0]?.present) return [];
  const known = readMigrationFiles({ migrationsFolder });
  const knownHashes = new Set(known.map((m) => m.hash));
  const knownMillis = new Set(known.map((m) => m.folderMillis));
  const applied = (await database.db.execute(
    sql`select hash, created_at from drizzle.__drizzle_migrations`,
  )) as unknown as {
    rows: { hash: string; created_at: string | number }[];
  };
  return applied.rows
    .filter((row) => !knownHashes.has(row.hash) && !knownMillis.has(Number(row.created_at)))
    .map((row) => ({ hash: row.hash, createdAt: Number(row.created_at) }));
}

/**
 * Today's migrations, in one transaction (drizzle's migrator). Refuses (DatabaseNewerThanCode) a
 * database whose journal lists a migration the code does not know.
 */
export async function migrateDatabase(database: Database, migrationsFolder = MIGRATIONS_DIR): Promise<void> {
  const newer = await unknownMigrations(database, migrationsFolder);
  if (newer.length) throw new DatabaseNewerThanCode(newer);
  const config = { migrationsFolder };
  if (database.kind === 'pglite') {
    // biome-ignore lint/suspicious/noExplicitAny: the migrator wants the concrete driver type
    await migratePglite(database.db as any, config);
  } else {
    // biome-ignore lint/suspicious/noExplicitAny: the migrator wants the concrete driver type
    await migrateNodePg(database.db as any, config);
  }
}

/** How many migrations this release has (drizzle's journal): more than applied = an upgrade is pending. */
export function migrationCount(): number {
  const journal = JSON.parse(readFileSync(join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as {
    entries: unknown[];
  };
  return journal.entries.length;
}

/**
 * PGlite under dataDir by default; a real PostgreSQL server when databaseUrl is set. Migrated;
 * `beforeMigrate` runs first, under the startup lock (the backup before an upgrade, issue 37).
 */
export async function openDatabase(options: {
  databaseUrl?: string;
  dataDir?: string;
  beforeMigrate?: (database: Database) => Promise<void>;
}): Promise<Database> {
  const database = options.databaseUrl
    ? fromPostgres(options.databaseUrl)
    : fromPglite(await openPglite(options.dataDir));
  await withStartupLock(database, async () => {
    await options.beforeMigrate?.(database);
    await migrateDatabase(database);
  });
  return database;
}
