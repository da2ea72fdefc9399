import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, open, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql as dsql } from 'drizzle-orm';
import pg from 'pg';
import * as tar from 'tar';
import { type Database, fromPglite, fromPostgres, migrateDatabase, openPglite } from '../../db/client.ts';
import { exportedShop, ImportRefused, importShop } from '../shop-export/import.ts';
import { type Storage, storageFor } from '../storage/storage.ts';
import { pgProgram } from './pgTools.ts';
import { countRows } from './service.ts';

const run = promisify(execFile);

export type RestoreOptions = {
  /** A backup file: a PGlite data folder (.tar.gz) or a pg_dump custom-format file (.dump). */
  file: string;
  /** PGlite: the data folder (DATA_DIR) whose `pglite` folder is written. */
  dataDir?: string;
  /** PostgreSQL: the database to restore into (created when it does not exist). */
  databaseUrl?: string;
  /**
   * Overwrite a database that has data (PGlite: the old folder is moved aside, never deleted); for a
   * shop's backup (.zip), replace that shop's rows when the database has it (the other shops untouched).
   */
  force?: boolean;
  /** Where a shop's backup puts its files back (the server's storage: DATA_DIR/uploads or S3). */
  storage?: Storage;
  log?: (line: string) => void;
};

export class RestoreRefused extends Error {}

/** A pg_dump custom-format file starts with PGDMP (only those 5 bytes are read: a backup may be gigabytes). */
async function isPgDump(file: string): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(5);
    await handle.read(head, 0, 5, 0);
    return head.toString('latin1') === 'PGDMP';
  } finally {
    await handle.close();
  }
}

/** A ZIP (a shop's backup, its export format) starts with PK\x03\x04. */
async function isZip(file: string): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(4);
    await handle.read(head, 0, 4, 0);
    return head.equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
  } finally {
    await handle.close();
  }
}

/** Restores a backup (the Backups page's file) into an empty data folder or a new PostgreSQL database. */
export async function restoreBackup(
  options: RestoreOptions,
): Promise<{ tables: number; rows: number; target: string; clientId?: number }> {
  const log = options.log ?? console.log;
  if (!existsSync(options.file)) throw new RestoreRefused(`Arquivo não encontrado: ${options.file}`);
  if (await isZip(options.file)) return restoreShop(options, log);
  const pgDump = await isPgDump(options.file);
  if (options.databaseUrl) {
    if (!pgDump)
      throw new RestoreRefused(
        'Este arquivo é um backup do banco embutido (PGlite): restaure-o numa pasta de dados (sem DATABASE_URL) e depois use npm run move-to-postgres.',
      );
    return restorePostgres(options.file, options.databaseUrl, Boolean(options.force), log);
  }
  if (pgDump)
    throw new RestoreRefused(
      'Este arquivo é um pg_dump do PostgreSQL: informe DATABASE_URL do banco de destino.',
    );
  return restorePglite(options.file, options.dataDir ?? './data', Boolean(options.force), log);
}

async function restorePglite(file: string, dataDir: string, force: boolean, log: (line: string) => void) {
  const folder = join(dataDir, 'pglite');
  if (existsSync(folder) && readdirSync(folder).length > 0) {
    const current = await PGlite.create(folder, { extensions: { pg_trgm } });
    let rows = 0;
    try {
      rows = Object.values(
        await countRows(async (text) => (await current.query<Record<string, unknown>>(text)).rows),
      ).reduce((sum, n) => sum + n, 0);
    } finally {
      await current.close();
    }
    if (rows > 0 && !force)
      throw new RestoreRefused(
        `A pasta ${folder} já tem um banco com dados (${rows} linhas). Pare o servidor e use --force para substituí-lo (a pasta atual é guardada ao lado).`,
      );
    const aside = `${folder}.antes-da-restauracao-${Date.now()}`;
    await rename(folder, aside);
    log(`Banco atual guardado em ${aside}`);
  }
  // Extracted file by file (a large shop's backup is gigabytes: never whole in memory). Backups made by
  // PGlite's own dumpDataDir name their files from "/": node-tar makes those relative to the folder.
  await mkdir(folder, { recursive: true });
  await tar.x({ file, cwd: folder, onwarn: () => {} });
  const restored = await PGlite.create(folder, { extensions: { pg_trgm } });
  try {
    const counts = await countRows(
      async (text) => (await restored.query<Record<string, unknown>>(text)).rows,
    );
    return summary(counts, folder, log);
  } finally {
    await restored.close();
  }
}

function summary(counts: Record<string, number>, target: string, log: (line: string) => void) {
  const tables = Object.keys(counts).length;
  const rows = Object.values(counts).reduce((sum, n) => sum + n, 0);
  log(`Restaurado em ${target}: ${tables} tabelas, ${rows} linhas.`);
  return { tables, rows, target };
}

/** A client of the database at `url`, created first when it does not exist. */
async function connectOrCreate(url: string, log: (line: string) => void): Promise<pg.Client> {
  let client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
  } catch (error) {
    if ((error as { code?: string }).code !== '3D000') throw error;
    // The database does not exist: create it from the server's maintenance database.
    const name = decodeURIComponent(new URL(url).pathname.slice(1));
    const admin = new URL(url);
    admin.pathname = '/postgres';
    const maintenance = new pg.Client({ connectionString: admin.toString() });
    await maintenance.connect();
    try {
      await maintenance.query(`create database "${name.replaceAll('"', '""')}"`);
    } finally {
      await maintenance.end();
    }
    log(`Banco ${name} criado.`);
    client = new pg.Client({ connectionString: url });
    await client.connect();
  }
  return client;
}

/**
 * A shop's backup (PostgreSQL several shops share: the shop's export ZIP) restored into a database
 * (DATABASE_URL, created when missing, or DATA_DIR's embedded one), migrated first: imported as the
 * shop (`npm run import-shop`'s code: one transaction, ids drawn anew, files put back). Refused when the
 * database has that shop (its document) unless `force`, which replaces that shop's rows in the same
 * transaction; the other shops are never touched.
 */
async function restoreShop(options: RestoreOptions, log: (line: string) => void) {
  const { file } = options;
  const shop = await exportedShop(file).catch((error: Error) => {
    throw new RestoreRefused(error.message);
  });
  let target: string;
  let database: Database;
  if (options.databaseUrl) {
    await (await connectOrCreate(options.databaseUrl, log)).end();
    database = fromPostgres(options.databaseUrl, 2);
    target = options.databaseUrl.replace(/:[^:@/]*@/, ':***@');
  } else {
    const dataDir = options.dataDir ?? './data';
    database = fromPglite(await openPglite(dataDir));
    target = join(dataDir, 'pglite');
  }
  try {
    await migrateDatabase(database);
    const [found] = (
      (await database.db.execute(
        dsql`select id from clients where document = ${shop.document}`,
      )) as unknown as { rows: { id: number }[] }
    ).rows;
    if (found && !options.force)
      throw new RestoreRefused(
        `A loja ${shop.name} (documento ${shop.document}) já existe neste banco. Use --force para substituí-la pelos dados do backup (as outras lojas não são tocadas).`,
      );
    const storage = options.storage ?? storageFor({ dataDir: options.dataDir ?? './data', s3: undefined });
    const result = await importShop(database.db, storage, file, found ? { replace: found.id } : {}).catch(
      (error: Error) => {
        throw error instanceof ImportRefused ? new RestoreRefused(error.message) : error;
      },
    );
    const rows = Object.values(result.rows).reduce((sum, n) => sum + n, 0);
    log(
      `Loja ${shop.name} restaurada em ${target} (cliente ${result.clientId}): ${Object.keys(result.rows).length} tabelas, ${rows} linhas, ${result.files} arquivos.`,
    );
    return { tables: Object.keys(result.rows).length, rows, target, clientId: result.clientId };
  } finally {
    await database.close();
  }
}

async function restorePostgres(file: string, url: string, force: boolean, log: (line: string) => void) {
  const client = await connectOrCreate(url, log);
  try {
    const before = Object.values(await countRows(async (text) => (await client.query(text)).rows));
    if (before.length > 0 && !force)
      throw new RestoreRefused(
        'O banco de destino já tem tabelas. Use um banco novo, ou --force para substituir o que ele tem.',
      );
    await run(
      pgProgram('pg_restore'),
      ['--no-owner', ...(force ? ['--clean', '--if-exists'] : []), '-d', url, file],
      {
        maxBuffer: 16 * 1024 * 1024,
      },
    );
    return summary(
      await countRows(async (text) => (await client.query(text)).rows),
      url.replace(/:[^:@/]*@/, ':***@'),
      log,
    );
  } finally {
    await client.end();
  }
}
