import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, expect, it } from 'vitest';
import { type Database, fromPglite, MIGRATIONS_DIR, migrateDatabase, openPglite } from '../../db/client.ts';

/**
 * Issue 33 under issue 31's rule: accounts saved when the shop typed its PSP's URLs keep working
 * after the PSP catalogue replaced them: the migration picks the catalogue entry and environment from
 * the stored host; a host of no catalogue PSP is left unchosen ('': the page asks again).
 */

const BEFORE = '0046_payables';
let dir = '';
let database: Database | undefined;
afterAll(async () => {
  await database?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it('moves typed PSP URLs to a catalogue PSP and environment', async () => {
  dir = mkdtempSync(join(tmpdir(), 'balcao-pix-migration-'));
  const journal = JSON.parse(readFileSync(join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as {
    entries: { tag: string }[];
  };
  const entries = journal.entries.slice(0, journal.entries.findIndex((e) => e.tag === BEFORE) + 1);
  mkdirSync(join(dir, 'meta'));
  writeFileSync(join(dir, 'meta/_journal.json'), JSON.stringify({ ...journal, entries }));
  for (const e of entries) cpSync(join(MIGRATIONS_DIR, `${e.tag}.sql`), join(dir, `${e.tag}.sql`));

  database = fromPglite(await openPglite());
  await migrateDatabase(database, dir);
  const accounts: [number, string][] = [
    [1, 'https://pix.api.efipay.com.br/v2'],
    [2, 'https://pix-h.api.efipay.com.br/v2'],
    [3, 'https://api-pix.bb.com.br/pix/v2'],
    [4, 'https://cdpj-sandbox.partners.uatinter.co/pix/v2'],
    [5, 'https://localhost:7000/v2'],
    [6, 'https://pix.example.com/v2'],
  ];
  for (const [id, url] of accounts) {
    await database.db.execute(
      sql`insert into clients (id, name, document, client_type_id) values (${id}, ${`Loja ${id}`}, ${`1122233300018${id}`}, 1)`,
    );
    await database.db.execute(
      sql`insert into pix_accounts (client_id, api_url, token_url, pix_key) values (${id}, ${url}, ${`${url}/token`}, 'chave')`,
    );
  }
  await migrateDatabase(database);
  const { rows } = (await database.db.execute(
    sql`select client_id, provider, environment from pix_accounts order by client_id`,
  )) as unknown as { rows: { client_id: number; provider: string; environment: string }[] };
  expect(rows.map((r) => [r.client_id, r.provider, r.environment])).toEqual([
    [1, 'efi', 'production'],
    [2, 'efi', 'sandbox'],
    [3, 'bb', 'production'],
    [4, 'inter', 'sandbox'],
    [5, 'fake', 'production'],
    [6, '', 'production'],
  ]);
}, 120_000); // every migration twice on a fresh PGlite: ~20 s alone
