import { Readable } from 'node:stream';
import type { PGlite } from '@electric-sql/pglite';
import { stringify } from 'csv-stringify/sync';
import { sql } from 'drizzle-orm';
import yazl from 'yazl';
import { type Db, type Executor, pgliteOf } from '../../db/client.ts';
import { imageFileKey } from '../product/imageUrls.ts';
import type { Storage } from '../storage/storage.ts';
import {
  type PageStart,
  quoteIdent as q,
  rowsOf,
  selectNestedRows,
  selectPageEnd,
  selectShopRows,
  shopTablePlan,
  type TablePlan,
} from './catalog.ts';

/** The ZIP's format: the importer refuses another. */
export const EXPORT_FORMAT = 'balcao-shop-export/1';
const PAGE = 1000;
/** Rows a COPY page holds (PGlite): ~3 MB of CSV for a page of sale lines. */
const COPY_PAGE = 10_000;

/** Columns that name stored files, and the files each value stands for. */
const FILE_COLUMNS: { table: string; column: string; files: (value: string) => string[] }[] = [
  { table: 'clients', column: 'logo_key', files: (k) => [k] },
  { table: 'campaigns', column: 'image_key', files: (k) => [k] },
  {
    table: 'product_images',
    column: 'storage_key',
    files: (k) => [imageFileKey(k, 'display'), imageFileKey(k, 'thumb')],
  },
];

/**
 * A cell as the CSV writes it: NULL is an empty cell, an empty text is `""` (quoted_match), so the
 * importer tells them apart (csv-parse's `quoting`).
 */
export function csvLines(rows: (string | null)[][]): string {
  return stringify(rows, { quoted_match: /^$/ });
}

/**
 * A page's rows read along the primary key's index, stopping at the page's end. The planner is told
 * so (settings local to the page's transaction): PGlite has no autovacuum, so its statistics are
 * those of the last ANALYZE and, on a shop that grew since, it estimated a few rows and chose to
 * read the whole rest of the table and sort it for every page (quadratic again, measured in
 * bench/shop-export-large.ts).
 */
async function pageRows<T>(db: Executor, query: string): Promise<T[]> {
  return db.transaction(async (tx) => {
    await tx.execute(
      sql`select set_config('enable_seqscan', 'off', true), set_config('enable_bitmapscan', 'off', true), set_config('enable_sort', 'off', true)`,
    );
    return rowsOf<T>(tx, sql.raw(query));
  });
}

const PLANNER_LOCAL = `set local enable_seqscan = off; set local enable_bitmapscan = off; set local enable_sort = off`;

/**
 * PGlite: one table's rows of the shop as PostgreSQL's own CSV (`COPY (select ...) TO '/dev/blob'`, the
 * same text forms and the same NULL/"" rule as csvLines), a key range of COPY_PAGE rows at a time: the
 * range's end is found first along the key's index (`selectPageEnd`), then the range copied. No row goes
 * through JavaScript (measured 4x faster than reading the rows and writing them with csv-stringify).
 */
async function* copiedRows(
  client: PGlite,
  plan: TablePlan,
  clientId: number,
  count: { rows: number },
  pageRows: number,
) {
  yield csvLines([plan.columns.map((c) => c.name)]);
  const start: PageStart = { after: null, offset: 0 };
  for (;;) {
    const page = await client.transaction(async (tx) => {
      await tx.exec(PLANNER_LOCAL);
      const end = (await tx.query<Record<string, string>>(selectPageEnd(plan, clientId, pageRows, start)))
        .rows[0];
      const upTo = end ? plan.primaryKey.map((k) => end[k]) : null;
      const copied = await tx.query(
        `copy (${selectShopRows(plan, clientId, pageRows, { ...start, upTo })}) to '/dev/blob' with (format csv)`,
      );
      return { upTo, rows: copied.affectedRows ?? 0, csv: copied.blob };
    });
    count.rows += page.rows;
    if (page.csv && page.csv.size > 0) yield Buffer.from(await page.csv.arrayBuffer());
    if (!page.upTo) return;
    start.after = page.upTo;
  }
}

/**
 * One table's rows of the shop, a page at a time (constant memory), each page starting after the last
 * row's primary key (keyset paging: the millionth row costs what the first does; OFFSET would read
 * every row before it again, page after page).
 */
async function* tableRows(
  db: Executor,
  plan: TablePlan,
  clientId: number,
  count: { rows: number },
  copyPage = COPY_PAGE,
) {
  const client = pgliteOf(db as Db);
  if (client && plan.primaryKey.length > 0) {
    yield* copiedRows(client, plan, clientId, count, copyPage);
    return;
  }
  yield csvLines([plan.columns.map((c) => c.name)]);
  const start: PageStart = { after: null, offset: 0 };
  for (;;) {
    const rows = await pageRows<Record<string, string | null>>(
      db,
      selectShopRows(plan, clientId, PAGE, start),
    );
    if (rows.length === 0) return;
    count.rows += rows.length;
    yield csvLines(rows.map((r) => plan.columns.map((c) => r[c.name] ?? null)));
    if (rows.length < PAGE) return;
    const last = rows[rows.length - 1];
    start.after = plan.primaryKey.map((k) => last[k] as string);
    start.offset += rows.length;
  }
}

/** A table's rows with their nested records, one JSON document a line (JSON Lines), a page at a time. */
async function* nestedRows(db: Executor, plan: TablePlan, clientId: number) {
  let after: string | null = null;
  for (;;) {
    const rows: { key: string; doc: string }[] = await pageRows<{ key: string; doc: string }>(
      db,
      selectNestedRows(plan, clientId, PAGE, after),
    );
    if (rows.length === 0) return;
    yield `${rows.map((r) => r.doc).join('\n')}\n`;
    if (rows.length < PAGE) return;
    after = rows[rows.length - 1].key;
  }
}

/** The tables exported as JSON too: those with nested records (a single-column key to nest by). */
export const nestedPlans = (plans: TablePlan[]) =>
  plans.filter((p) => p.nested.length > 0 && p.primaryKey.length === 1);

/** The stored files of a shop (their keys, read from FILE_COLUMNS). */
export async function shopFileKeys(db: Executor, plans: TablePlan[], clientId: number): Promise<string[]> {
  const keys: string[] = [];
  for (const f of FILE_COLUMNS) {
    const plan = plans.find((p) => p.name === f.table);
    if (!plan) continue;
    const filter = plan.filter.replace(/\$CLIENT/g, String(Math.trunc(clientId)));
    const rows = await rowsOf<{ key: string }>(
      db,
      sql.raw(
        `select t.${q(f.column)} as key from ${q(f.table)} t where ${filter} and t.${q(f.column)} is not null`,
      ),
    );
    for (const row of rows) keys.push(...f.files(row.key));
  }
  return keys;
}

function readme(plans: TablePlan[], shopName: string): string {
  const lines = [
    `# Dados da loja ${shopName}`,
    '',
    `Exportação completa do Balcão (formato \`${EXPORT_FORMAT}\`). Cada tabela está em \`tables/<tabela>.csv\``,
    '(separador vírgula, UTF-8, primeira linha com os nomes das colunas; célula vazia = sem valor, `""` = texto vazio;',
    'colunas json trazem o JSON como texto). Os arquivos enviados (logo, imagens de produtos e campanhas) estão em',
    '`files/`, com o mesmo caminho do armazenamento. `manifest.json` lista as tabelas, suas colunas e quantas linhas',
    'cada uma tem. Os registros com partes (uma venda com seus itens e pagamentos, um produto com suas imagens...)',
    'também estão em `json/<tabela>.jsonl`: um documento JSON por linha, com as partes em listas nomeadas pela',
    'tabela de cada uma. Para importar em outro Balcão vazio: `npm run import-shop -- ARQUIVO.zip` (lê os CSV).',
    '',
    '## Tabelas e colunas',
    '',
  ];
  for (const p of plans) {
    lines.push(`### ${p.name}`, '');
    if (p.primaryKey.length) lines.push(`Chave: ${p.primaryKey.join(', ')}`, '');
    lines.push('| coluna | tipo | referência |', '|---|---|---|');
    for (const c of p.columns) {
      const ref = p.foreignKeys.find((f) => f.column === c.name);
      lines.push(`| ${c.name} | ${c.type} | ${ref ? ref.table : ''} |`);
    }
    lines.push('');
  }
  return lines.join('\n');
}

/**
 * The shop's whole data as a ZIP stream (yazl): README.md, one CSV per table (parents first), the
 * stored files, and manifest.json last with each table's row count. Rows are read a page at a time
 * and files streamed from storage, so memory stays the same whatever the shop's size.
 */
export async function exportShop(
  db: Executor,
  storage: Storage,
  clientId: number,
  /** Rows a COPY page holds on PGlite (tests page by a few rows). */
  options: { copyPage?: number } = {},
): Promise<{
  stream: Readable;
  shopName: string;
  /** Each table's rows written and the files named, once the stream ended (the manifest's figures). */
  written: () => { rows: Record<string, number>; files: string[] };
}> {
  const plans = await shopTablePlan(db);
  const [shop] = await rowsOf<{ name: string }>(db, sql`select name from clients where id = ${clientId}`);
  const shopName = shop?.name ?? '';
  const keys = await shopFileKeys(db, plans, clientId);
  const zip = new yazl.ZipFile();
  zip.addBuffer(Buffer.from(readme(plans, shopName)), 'README.md');
  const counts = new Map<string, { rows: number }>();
  for (const plan of plans) {
    const count = { rows: 0 };
    counts.set(plan.name, count);
    zip.addReadStream(
      Readable.from(tableRows(db, plan, clientId, count, options.copyPage)),
      `tables/${plan.name}.csv`,
    );
  }
  const jsonFiles = nestedPlans(plans);
  for (const plan of jsonFiles)
    zip.addReadStream(Readable.from(nestedRows(db, plan, clientId)), `json/${plan.name}.jsonl`);
  // A file is opened only when its turn comes (addReadStreamLazy): one open file at a time.
  const files: string[] = [];
  for (const key of keys) {
    files.push(key);
    zip.addReadStreamLazy(`files/${key}`, (done) => {
      storage.get(key).then(
        (file) => done(null, file ? file.stream : Readable.from([])),
        (error: Error) => done(error, Readable.from([])),
      );
    });
  }
  // Entries are written one after the other: by the time this one is read every table was counted.
  zip.addReadStream(
    Readable.from(
      (async function* () {
        yield JSON.stringify(
          {
            format: EXPORT_FORMAT,
            clientId,
            shopName,
            exportedAt: new Date().toISOString(),
            tables: plans.map((p) => ({
              name: p.name,
              columns: p.columns.map((c) => c.name),
              rows: counts.get(p.name)?.rows ?? 0,
            })),
            json: jsonFiles.map((p) => ({
              file: `json/${p.name}.jsonl`,
              table: p.name,
              nested: p.nested.map((n) => n.table),
            })),
            files,
          },
          null,
          2,
        );
      })(),
    ),
    'manifest.json',
  );
  zip.end();
  return {
    stream: zip.outputStream as unknown as Readable,
    shopName,
    written: () => ({
      rows: Object.fromEntries([...counts].map(([name, count]) => [name, count.rows])),
      files,
    }),
  };
}
