import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { type Db, fromPostgres, migrateDatabase, pgliteOf } from '../../db/client.ts';
import { clients } from '../../db/schema.ts';
import { exportShop } from '../shop-export/export.ts';
import { importShop } from '../shop-export/import.ts';
import type { Storage } from '../storage/storage.ts';
import { storageFor } from '../storage/storage.ts';
import { countRows } from './counts.ts';

type Counts = Record<string, number>;

/**
 * Issue 37: on a PostgreSQL database several shops share, each shop's backup is its own (its rows and
 * files only), taken by its Administrador and listed on its Backups page. The embedded database (one
 * folder) and a PostgreSQL holding one shop keep the whole-database backup.
 */
export async function perShopBackups(db: Db): Promise<boolean> {
  if (pgliteOf(db)) return false;
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(clients);
  return Number(row?.n ?? 0) > 1;
}

/** The shops of the instance (ids), for the nightly per-shop backups. */
export async function shopIds(db: Db): Promise<number[]> {
  const rows = await db.select({ id: clients.id }).from(clients).orderBy(clients.id);
  return rows.map((row) => row.id);
}

/**
 * One shop's backup: its export ZIP (the "Exportar todos os dados" format, so one format to restore and
 * to move a shop) written to `path`, read inside one REPEATABLE READ, read-only transaction so every
 * table is the same instant's (on PostgreSQL a long reading transaction holds no lock the tills wait
 * for). Answers each table's rows written and the number of files.
 */
export async function dumpShop(
  db: Db,
  storage: Storage,
  clientId: number,
  path: string,
): Promise<{ counts: Counts; files: number }> {
  return db.transaction(
    async (tx) => {
      const { stream, written } = await exportShop(tx, storage, clientId);
      await pipeline(stream, createWriteStream(path));
      const { rows, files } = written();
      return { counts: rows, files: files.length };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}

/**
 * A shop's backup checked after writing: a scratch database created beside the server's, migrated,
 * the file imported into it (`npm run restore`'s own path) and every table of the shop counted there.
 * Answers the counts found (the import leaves a pending deletion behind: counted as the source's), or
 * null when the role may not create a database (recorded unverified).
 */
export async function verifyShopBackup(url: string, path: string, expected: Counts): Promise<Counts | null> {
  const name = `balcao_verify_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    try {
      await admin.query(`create database ${name}`);
    } catch {
      return null;
    }
    const scratchUrl = new URL(url);
    scratchUrl.pathname = `/${name}`;
    const scratch = fromPostgres(scratchUrl.toString(), 2);
    const folder = await mkdtemp(join(tmpdir(), 'balcao-verify-'));
    try {
      await migrateDatabase(scratch);
      await importShop(scratch.db, storageFor({ dataDir: folder, s3: undefined }), path);
      const found = await countRows(
        async (text) =>
          ((await scratch.db.execute(sql.raw(text))) as unknown as { rows: Record<string, unknown>[] }).rows,
      );
      return Object.fromEntries(
        Object.keys(expected).map((table) => [
          table,
          table === 'shop_deletions' ? expected[table] : (found[`public.${table}`] ?? 0),
        ]),
      );
    } finally {
      await scratch.close();
      await rm(folder, { recursive: true, force: true });
    }
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`).catch(() => {});
    await admin.end();
  }
}
