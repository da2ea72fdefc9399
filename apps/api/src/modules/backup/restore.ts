import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, open, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import * as tar from 'tar';
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
  /** Overwrite a database that has data (PGlite: the old folder is moved aside, never deleted). */
  force?: boolean;
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

/** Restores a backup (the Backups page's file) into an empty data folder or a new PostgreSQL database. */
export async function restoreBackup(
  options: RestoreOptions,
): Promise<{ tables: number; rows: number; target: string }> {
  const log = options.log ?? console.log;
  if (!existsSync(options.file)) throw new RestoreRefused(`Arquivo não encontrado: ${options.file}`);
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

async function restorePostgres(file: string, url: string, force: boolean, log: (line: string) => void) {
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
