import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { PGlite, Transaction } from '@electric-sql/pglite';
import pg from 'pg';
import { fromPglite, fromPostgres, migrateDatabase, openPglite } from './client.ts';

/**
 * `npm run move-to-postgres -- postgres://...` (issue 37): copies a shop's PGlite data folder into an
 * EMPTY PostgreSQL database. The schema comes from today's migrations (the source is migrated to
 * them first, as `npm start` would), the rows are copied table by table in foreign-key order inside
 * one transaction with the tables' own triggers switched off (the stock ledger and search-word
 * triggers already left their rows in the source: firing them again would write extra ones), the
 * sequences are set past the highest ids, and every table's row count and content checksum is
 * compared on both sides before the DATABASE_URL line is printed.
 */

export type TableCheck = { table: string; rows: number; checksum: string };
export type MoveResult = { tables: TableCheck[]; totalRows: number; ms: number; databaseUrlLine: string };

/** A refusal or a failed check, with the Portuguese text the command prints. */
export class MoveError extends Error {
  override name = 'MoveError';
}

/** The settings both sides compare under (a row's text depends on them). */
const SESSION = [
  `set TimeZone = 'UTC'`,
  `set DateStyle = 'ISO, MDY'`,
  `set IntervalStyle = 'postgres'`,
  'set extra_float_digits = 1',
  `set bytea_output = 'hex'`,
];

const q = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Row count and an order-independent checksum of the rows' text (sum of 60-bit slices of md5s). */
const checkSql = (table: string) =>
  `select count(*)::text as rows, coalesce(sum(('x' || substr(md5(t::text), 1, 15))::bit(60)::bigint::numeric), 0)::text as sum from public.${q(table)} t`;

const OBJECTS_IN_TARGET = `
  select count(*)::int as n from pg_class c join pg_namespace n on n.oid = c.relnamespace
  where n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg_toast%'
    and n.nspname not like 'pg_temp%' and c.relkind in ('r', 'p', 'v', 'm', 'S', 'f')`;

const TABLES = `
  select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
  where n.nspname = 'public' and c.relkind = 'r' order by c.relname`;

const FOREIGN_KEYS = `
  select ch.relname as child, pa.relname as parent from pg_constraint k
  join pg_class ch on ch.oid = k.conrelid join pg_class pa on pa.oid = k.confrelid
  where k.contype = 'f' and k.connamespace = 'public'::regnamespace`;

const COLUMNS = `
  select c.relname as "table", a.attname as name, a.attgenerated as generated, a.attidentity as identity
  from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
  where n.nspname = 'public' and c.relkind = 'r' and a.attnum > 0 and not a.attisdropped
  order by c.relname, a.attnum`;

/** Every sequence of the schema, with the column that owns it (serial / identity), when one does. */
const SEQUENCES = `
  select s.relname as seq, t.relname as "table", a.attname as col
  from pg_class s join pg_namespace n on n.oid = s.relnamespace
  left join pg_depend d on d.objid = s.oid and d.classid = 'pg_class'::regclass
    and d.refclassid = 'pg_class'::regclass and d.deptype in ('a', 'i')
  left join pg_class t on t.oid = d.refobjid
  left join pg_attribute a on a.attrelid = t.oid and a.attnum = d.refobjsubid
  where s.relkind = 'S' and n.nspname = 'public' order by s.relname`;

/** Tables parents first (Kahn's order over the foreign keys; a table's references to itself ignored). */
export function dependencyOrder(tables: string[], keys: { child: string; parent: string }[]): string[] {
  const parents = new Map(tables.map((t) => [t, new Set<string>()]));
  for (const { child, parent } of keys)
    if (child !== parent && parents.has(child) && parents.has(parent)) parents.get(child)?.add(parent);
  const order: string[] = [];
  const done = new Set<string>();
  while (order.length < tables.length) {
    const ready = tables.filter((t) => !done.has(t) && [...(parents.get(t) ?? [])].every((p) => done.has(p)));
    // A cycle between tables (none today): the rest in name order; the copy runs with triggers
    // (and, as a superuser, foreign-key checks) off, so the order only matters for a non-superuser.
    const next = ready.length ? ready : tables.filter((t) => !done.has(t));
    for (const t of next) {
      done.add(t);
      order.push(t);
    }
  }
  return order;
}

type Rows<T> = { rows: T[] };

async function check(run: (text: string) => Promise<Rows<{ rows: string; sum: string }>>, table: string) {
  const { rows } = await run(checkSql(table));
  return { rows: Number(rows[0].rows), checksum: BigInt(rows[0].sum).toString(16) };
}

export async function moveToPostgres(options: {
  dataDir: string;
  url: string;
  batchRows?: number;
  log?: (line: string) => void;
}): Promise<MoveResult> {
  const started = Date.now();
  const log = options.log ?? (() => {});
  const batchRows = options.batchRows ?? 2000;
  if (!/^postgres(ql)?:\/\//.test(options.url))
    throw new MoveError(
      'Informe o endereço do PostgreSQL de destino: postgres://usuário:senha@servidor:5432/banco',
    );
  if (!existsSync(join(options.dataDir, 'pglite')))
    throw new MoveError(
      `Não há banco do Balcão em ${join(options.dataDir, 'pglite')}: indique a pasta de dados com DATA_DIR.`,
    );

  const target = new pg.Client({ connectionString: options.url });
  await target.connect().catch((error: Error) => {
    throw new MoveError(`Não foi possível conectar ao PostgreSQL de destino: ${error.message}`);
  });
  let source: PGlite | undefined;
  try {
    const present = (await target.query<{ n: number }>(OBJECTS_IN_TARGET)).rows[0].n;
    if (present > 0)
      throw new MoveError(
        `O banco de destino não está vazio (${present} tabelas, visões ou sequências). O Balcão só copia ` +
          'para um banco vazio, para não misturar dados: crie um banco novo (createdb) e tente de novo.',
      );

    log('Abrindo a pasta de dados e aplicando as migrações...');
    source = await openPglite(options.dataDir);
    await migrateDatabase(fromPglite(source));
    const targetDb = fromPostgres(options.url, 1);
    try {
      await migrateDatabase(targetDb);
    } finally {
      await targetDb.close();
    }

    for (const statement of SESSION) {
      await source.query(statement);
      await target.query(statement);
    }
    const tables = (await source.query<{ name: string }>(TABLES)).rows.map((r) => r.name);
    const keys = (await source.query<{ child: string; parent: string }>(FOREIGN_KEYS)).rows;
    const order = dependencyOrder(tables, keys);
    const columns = new Map<string, { name: string; generated: string; identity: string }[]>();
    for (const c of (
      await source.query<{ table: string; name: string; generated: string; identity: string }>(COLUMNS)
    ).rows)
      columns.set(c.table, [...(columns.get(c.table) ?? []), c]);
    const { rows: superuser } = await target.query<{ yes: boolean }>(
      'select rolsuper as yes from pg_roles where rolname = current_user',
    );

    await target.query('begin');
    try {
      // Triggers off: replica mode skips every trigger (foreign-key checks too) for a superuser; else
      // the tables' own triggers are disabled (the migrations made this role their owner) and the
      // foreign keys are met by the copy order.
      if (superuser[0]?.yes) await target.query(`set local session_replication_role = replica`);
      else for (const t of order) await target.query(`alter table public.${q(t)} disable trigger user`);
      const src = source;
      for (const table of order) {
        const cols = (columns.get(table) ?? []).filter((c) => c.generated === '');
        const list = cols.map((c) => q(c.name)).join(', ');
        const overriding = cols.some((c) => c.identity === 'a') ? ' overriding system value' : '';
        const insert = `insert into public.${q(table)} (${list})${overriding} select ${list} from json_populate_recordset(null::public.${q(table)}, $1::json)`;
        let copied = 0;
        await src.transaction(async (tx: Transaction) => {
          await tx.query(
            `declare move_rows no scroll cursor for select row_to_json(t)::text as j from public.${q(table)} t`,
          );
          for (;;) {
            const { rows } = await tx.query<{ j: string }>(`fetch ${batchRows} from move_rows`);
            if (!rows.length) break;
            await target.query(insert, [`[${rows.map((r) => r.j).join(',')}]`]);
            copied += rows.length;
          }
          await tx.query('close move_rows');
        });
        if (copied) log(`  ${table}: ${copied} linhas copiadas`);
      }
      // Sequences: where the source's stood, and never below the highest id of their column.
      for (const s of (
        await source.query<{ seq: string; table: string | null; col: string | null }>(SEQUENCES)
      ).rows) {
        const state = (
          await source.query<{ last: string; called: boolean }>(
            `select last_value::text as last, is_called as called from public.${q(s.seq)}`,
          )
        ).rows[0];
        let value = state.called ? BigInt(state.last) : 0n;
        if (s.table && s.col) {
          const max = (
            await target.query<{ max: string | null }>(
              `select max(${q(s.col)})::text as max from public.${q(s.table)}`,
            )
          ).rows[0].max;
          if (max !== null && BigInt(max) > value) value = BigInt(max);
        }
        if (value > 0n)
          await target.query(`select setval('public.${q(s.seq)}', $1::bigint, true)`, [String(value)]);
        else await target.query(`select setval('public.${q(s.seq)}', $1::bigint, false)`, [state.last]);
      }
      if (!superuser[0]?.yes)
        for (const t of order) await target.query(`alter table public.${q(t)} enable trigger user`);
      await target.query('commit');
    } catch (error) {
      await target.query('rollback').catch(() => {});
      throw error;
    }

    log('Conferindo linhas e checksums dos dois lados...');
    const checks: TableCheck[] = [];
    const wrong: string[] = [];
    const src = source;
    for (const table of order) {
      const a = await check((text) => src.query(text), table);
      const b = await check((text) => target.query(text), table);
      if (a.rows !== b.rows || a.checksum !== b.checksum)
        wrong.push(
          `${table} (origem ${a.rows} linhas/${a.checksum}, destino ${b.rows} linhas/${b.checksum})`,
        );
      checks.push({ table, ...a });
    }
    if (wrong.length)
      throw new MoveError(
        `A conferência falhou em ${wrong.length} tabela(s): ${wrong.join('; ')}. Não use o banco de destino; ` +
          'apague-o, crie-o de novo e repita.',
      );
    return {
      tables: checks,
      totalRows: checks.reduce((sum, c) => sum + c.rows, 0),
      ms: Date.now() - started,
      databaseUrlLine: `DATABASE_URL=${options.url}`,
    };
  } finally {
    await source?.close();
    await target.end();
  }
}
