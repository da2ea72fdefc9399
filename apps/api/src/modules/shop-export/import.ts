import type { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { sql } from 'drizzle-orm';
import yauzl from 'yauzl';
import type { Db, Executor } from '../../db/client.ts';
import type { Storage } from '../storage/storage.ts';
import { JSON_REFS, quoteIdent as q, rowsOf, shopTablePlan, type TablePlan } from './catalog.ts';
import { EXPORT_FORMAT, shopFileKeys } from './export.ts';
import { deleteShopRows } from './purge.ts';

/** An import refused before anything was written (the CLI prints the message and exits 1). */
export class ImportRefused extends Error {}

type Manifest = {
  format: string;
  shopName: string;
  tables: { name: string; columns: string[]; rows: number }[];
  files: string[];
};

type Zip = { entries: Map<string, yauzl.Entry>; file: yauzl.ZipFile };

function openZip(path: string): Promise<Zip> {
  return new Promise((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true, autoClose: false }, (error, file) => {
      if (error || !file)
        return reject(new ImportRefused(`Não foi possível ler o arquivo ZIP: ${error?.message}`));
      const entries = new Map<string, yauzl.Entry>();
      file.on('entry', (entry: yauzl.Entry) => {
        entries.set(entry.fileName, entry);
        file.readEntry();
      });
      file.on('end', () => resolve({ entries, file }));
      file.on('error', reject);
      file.readEntry();
    });
  });
}

function entryStream(zip: Zip, name: string): Promise<Readable> {
  const entry = zip.entries.get(name);
  if (!entry) return Promise.reject(new ImportRefused(`O arquivo não tem ${name}`));
  return new Promise((resolve, reject) =>
    zip.file.openReadStream(entry, (error, stream) => (error || !stream ? reject(error) : resolve(stream))),
  );
}

async function entryBuffer(zip: Zip, name: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await entryStream(zip, name)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A table's CSV rows as objects (NULL: an empty unquoted cell; "": a quoted one). */
async function* csvRecords(zip: Zip, table: string): AsyncGenerator<Record<string, string | null>> {
  const parser = (await entryStream(zip, `tables/${table}.csv`)).pipe(
    parse({
      columns: true,
      cast: (value, context) => (context.header || context.quoting || value !== '' ? value : null),
    }),
  );
  for await (const record of parser) yield record as Record<string, string | null>;
}

const BATCH = 500;

async function newIds(tx: Executor, plan: TablePlan, n: number): Promise<string[]> {
  const rows = await rowsOf<{ id: string }>(
    tx,
    sql.raw(
      `select nextval(pg_get_serial_sequence('${q(plan.name)}', '${plan.serialKey}'))::text as id from generate_series(1, ${n})`,
    ),
  );
  return rows.map((r) => r.id);
}

/** Refuses a shop this Balcão already has (its document, or an e-mail of one of its users). */
async function assertNewShop(db: Executor, zip: Zip, replace: number | null) {
  const other = replace ?? 0;
  for await (const client of csvRecords(zip, 'clients')) {
    const found = await rowsOf(
      db,
      sql`select 1 from clients where document = ${client.document} and id <> ${other}`,
    );
    if (found.length > 0)
      throw new ImportRefused(
        `Esta loja já existe neste Balcão (documento ${client.document}): a importação não foi feita`,
      );
  }
  for await (const user of csvRecords(zip, 'users')) {
    const found = await rowsOf(
      db,
      sql`select 1 from users where lower(email) = lower(${user.email}) and client_id <> ${other}`,
    );
    if (found.length > 0)
      throw new ImportRefused(
        `O e-mail ${user.email} já é de um usuário deste Balcão: a importação não foi feita`,
      );
  }
}

/** One json value with its ids of shop rows mapped old -> new (JSON_REFS' rule for a missing one). */
export function remapJsonValue(value: unknown, field: string | null, map: Map<string, string>): unknown {
  if (!Array.isArray(value)) return value;
  if (field === null)
    return value.flatMap((id) => {
      const mapped = map.get(String(id));
      return mapped === undefined ? [] : [Number(mapped)];
    });
  return value.map((item) => {
    if (item === null || typeof item !== 'object' || !(field in item)) return item;
    const old = (item as Record<string, unknown>)[field];
    const mapped = old === null ? undefined : map.get(String(old));
    return { ...item, [field]: mapped === undefined ? null : Number(mapped) };
  });
}

/**
 * Ids inside json columns (JSON_REFS), once every table is in: each imported row's value is read,
 * remapped with the old -> new map of its target table and written back, 500 rows a statement.
 */
async function remapJsonIds(tx: Executor, plans: TablePlan[], maps: Map<string, Map<string, string>>) {
  for (const ref of JSON_REFS) {
    const plan = plans.find((p) => p.name === ref.table);
    const ids = maps.get(ref.table);
    const key = plan?.serialKey;
    if (!plan || !ids || !key || ids.size === 0) continue;
    const target = maps.get(ref.target) ?? new Map<string, string>();
    const newIds = [...ids.values()];
    for (let i = 0; i < newIds.length; i += BATCH) {
      const slice = newIds.slice(i, i + BATCH).map(Number);
      const rows = await rowsOf<{ id: number; value: unknown }>(
        tx,
        sql`${sql.raw(`select ${q(key)} as id, ${q(ref.column)} as value from ${q(ref.table)} where ${q(key)} in (select jsonb_array_elements_text(`)}${JSON.stringify(slice)}${sql.raw('::jsonb)::int)')}`,
      );
      const changed = rows.map((row) => {
        const value = typeof row.value === 'string' ? JSON.parse(row.value) : row.value;
        return { id: row.id, value: remapJsonValue(value, ref.field, target) };
      });
      if (changed.length === 0) continue;
      await tx.execute(
        sql`${sql.raw(`update ${q(ref.table)} t set ${q(ref.column)} = v.value from jsonb_to_recordset(`)}${JSON.stringify(changed)}${sql.raw(`::jsonb) as v(id int, value jsonb) where t.${q(key)} = v.id`)}`,
      );
    }
  }
}

/** The shop a ZIP holds (its clients.csv row): name and document, to find it in a target database. */
export async function exportedShop(zipPath: string): Promise<{ name: string; document: string }> {
  const zip = await openZip(zipPath);
  try {
    for await (const client of csvRecords(zip, 'clients'))
      return { name: client.name ?? '', document: client.document ?? '' };
    throw new ImportRefused('O arquivo não tem a loja (clients.csv vazio)');
  } finally {
    zip.file.close();
  }
}

type ImportResult = { clientId: number; rows: Record<string, number>; files: number };

/**
 * Imports a shop's export ZIP (`exportShop`) as a new shop: tables in the catalog's order (parents
 * first), every serial id given anew from its sequence and every foreign key (and LOGICAL_REFS)
 * followed through the old-to-new maps, all in one transaction with triggers off (the export carries
 * what they keep: counters, summaries, search words), then the files put back in storage. Refuses
 * (ImportRefused, nothing written) an unknown format, a table this schema does not have, or a shop
 * that already exists.
 */
export async function importShop(
  db: Db,
  storage: Storage,
  zipPath: string,
  options: {
    /**
     * A shop of this Balcão whose rows the file's replace, in the same transaction (a restore with
     * --force of that shop's backup); its stored files the file does not have are removed after.
     */
    replace?: number;
  } = {},
): Promise<ImportResult> {
  const replace = options.replace ?? null;
  const zip = await openZip(zipPath);
  try {
    const manifest = JSON.parse((await entryBuffer(zip, 'manifest.json')).toString('utf8')) as Manifest;
    if (manifest.format !== EXPORT_FORMAT)
      throw new ImportRefused(`Formato desconhecido: ${manifest.format} (esperado ${EXPORT_FORMAT})`);
    const plans = await shopTablePlan(db);
    const byName = new Map(plans.map((p) => [p.name, p]));
    for (const t of manifest.tables) {
      const plan = byName.get(t.name);
      if (!plan)
        throw new ImportRefused(`A tabela ${t.name} não existe neste Balcão: atualize-o antes de importar`);
      const missing = t.columns.filter((c) => !plan.columns.some((pc) => pc.name === c));
      if (missing.length)
        throw new ImportRefused(`Colunas de ${t.name} que este Balcão não tem: ${missing.join(', ')}`);
    }
    await assertNewShop(db, zip, replace);
    const replacedKeys = replace === null ? [] : await shopFileKeys(db, plans, replace);

    const rows: Record<string, number> = {};
    const maps = new Map<string, Map<string, string>>();
    const clientId = await db.transaction(async (tx) => {
      // The shop being replaced goes first, in this transaction: a failed import leaves it as it was.
      if (replace !== null) await deleteShopRows(tx, plans, replace);
      // Triggers off: the rows are written as exported (counters, summaries and search words included).
      await tx.execute(sql`set local session_replication_role = replica`);
      for (const plan of plans) {
        const exported = manifest.tables.find((t) => t.name === plan.name);
        // A pending deletion stays with the shop it was asked for: the imported shop starts without one.
        if (!exported || plan.name === 'shop_deletions') continue;
        const map = new Map<string, string>();
        maps.set(plan.name, map);
        const columns = plan.columns.filter((c) => exported.columns.includes(c.name));
        const selfRefs: { column: string; id: string; old: string }[] = [];
        let batch: Record<string, string | null>[] = [];
        const flush = async () => {
          if (batch.length === 0) return;
          const key = plan.serialKey;
          if (key) {
            const ids = await newIds(tx, plan, batch.length);
            batch.forEach((r, i) => {
              map.set(r[key] as string, ids[i]);
              r[key] = ids[i];
            });
          }
          const values = batch.map((r) => {
            const out: Record<string, unknown> = {};
            for (const c of columns) {
              let v: unknown = r[c.name] ?? null;
              const fk = plan.foreignKeys.find((f) => f.column === c.name);
              if (fk && v !== null) {
                if (fk.table === plan.name) {
                  selfRefs.push({ column: c.name, id: r[key ?? ''] as string, old: v as string });
                  v = null;
                } else {
                  const mapped = maps.get(fk.table)?.get(v as string);
                  if (mapped === undefined)
                    throw new ImportRefused(
                      `${plan.name}.${c.name} = ${v}: não há essa linha em ${fk.table} no arquivo`,
                    );
                  v = mapped;
                }
              }
              out[c.name] = c.json && typeof v === 'string' ? JSON.parse(v) : v;
            }
            return out;
          });
          const cols = columns.map((c) => q(c.name)).join(', ');
          await tx.execute(
            sql`${sql.raw(`insert into ${q(plan.name)} (${cols}) select ${cols} from json_populate_recordset(null::${q(plan.name)}, `)}${JSON.stringify(values)}::json)`,
          );
          rows[plan.name] = (rows[plan.name] ?? 0) + batch.length;
          batch = [];
        };
        for await (const record of csvRecords(zip, plan.name)) {
          batch.push(record);
          if (batch.length === BATCH) await flush();
        }
        await flush();
        for (const ref of selfRefs) {
          await tx.execute(
            sql`${sql.raw(`update ${q(plan.name)} set ${q(ref.column)} = `)}${map.get(ref.old) ?? null}${sql.raw(` where ${q(plan.serialKey ?? 'id')} = `)}${ref.id}`,
          );
        }
      }
      await remapJsonIds(tx, plans, maps);
      const newClient = [...(maps.get('clients')?.values() ?? [])][0];
      if (!newClient) throw new ImportRefused('O arquivo não tem a loja (clients.csv vazio)');
      return Number(newClient);
    });
    let files = 0;
    for (const key of replacedKeys) if (!manifest.files.includes(key)) await storage.remove(key);
    for (const key of manifest.files) {
      if (!zip.entries.has(`files/${key}`)) continue;
      await storage.put(key, await entryBuffer(zip, `files/${key}`));
      files++;
    }
    return { clientId, rows, files };
  } finally {
    zip.file.close();
  }
}
