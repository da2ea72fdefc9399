/**
 * Catalog benchmark (issue 4): N products in the demo shop and N in another client, then the three
 * PDV/back-office reads over HTTP against a production start:
 *   - barcode lookup   GET /v1/product/barcode/{code}        target p95 < 5 ms
 *   - name search      GET /v1/product/client/{id}?q=...      target p95 < 25 ms
 *   - first list page  GET /v1/product/client/{id}            target p95 < 25 ms
 * on PGlite (the embedded default) and on PostgreSQL 15 (a private cluster started here).
 *
 * Usage: npx tsx bench/catalog.ts [--products 100000] [--engine pglite|postgres|both] [--duration 10]
 * The data goes in with SQL (generate_series) before the server starts: the API's migrations and
 * demo seed run first, so the schema and indexes are exactly the application's.
 *
 * Search at 1,000,000 products per client (issue 21), on a kept database, before and after a change
 * in ONE run:
 *   npx tsx bench/catalog.ts --engine postgres --products 1000000 \
 *     --pg-url postgres://postgres@127.0.0.1:55499/balcao_h21b [--before <commit>] [--duration 4]
 * --pg-url loads the products once (an empty database) and reuses them on later runs. --before
 * exports that commit's code into a temporary folder (git archive, node_modules linked) and starts
 * its server next to this one on the same database: every scenario runs on both, one after the
 * other, and the table gives both p95s and their ratio. Scenarios: barcode and SKU lookups (the
 * scanner), each search term alone (list page 1 with its total, no column chosen), the PDV search
 * (active, 8 rows), the broad words sorted by the name column, the same 13 terms sorted by it, the
 * first list page and /user/me.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql } from 'drizzle-orm';
import {
  type Database,
  fromPglite,
  fromPostgres,
  migrateDatabase,
  openPglite,
} from '../apps/api/src/db/client.ts';
import { insertClient } from '../apps/api/src/modules/account/service.ts';
import { seedDemo } from '../apps/api/src/seed.ts';
import { ensureWebBuild, exportCommit, type Figures, load, machine, startServer, table } from './lib.ts';

type Engine = 'pglite' | 'postgres';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

const NOUNS = [
  'Arroz',
  'Feijao',
  'Macarrao',
  'Biscoito',
  'Cafe',
  'Acucar',
  'Leite',
  'Refrigerante',
  'Suco',
  'Agua',
  'Cerveja',
  'Sabonete',
  'Shampoo',
  'Detergente',
  'Amaciante',
  'Camiseta',
  'Calca',
  'Bermuda',
  'Tenis',
  'Meia',
  'Bone',
  'Caderno',
  'Caneta',
  'Lapis',
  'Chocolate',
  'Bala',
  'Pao',
  'Queijo',
  'Presunto',
  'Iogurte',
  'Manteiga',
  'Margarina',
  'Oleo',
  'Sal',
  'Farinha',
  'Molho',
  'Tempero',
  'Racao',
  'Vela',
  'Pilha',
  'Lampada',
  'Fita',
  'Cola',
  'Tesoura',
  'Toalha',
  'Lencol',
  'Copo',
  'Prato',
  'Panela',
  'Garrafa',
];
const BRANDS = [
  'Nestle',
  'Ambev',
  'Unilever',
  'Ype',
  'Omo',
  'Seara',
  'Sadia',
  'Perdigao',
  'Tio Joao',
  'Camil',
  'Pilao',
  'Melitta',
  'Itambe',
  'Piracanjuba',
  'Marilan',
  'Bauducco',
  'Garoto',
  'Lacta',
  'Hering',
  'Havaianas',
  'Faber',
  'Bic',
  'Tilibra',
  'Dove',
  'Nivea',
  'Colgate',
  'Pedigree',
  'Whiskas',
  'Tramontina',
  'Philips',
];
const VARIANTS = [
  'Tradicional',
  'Integral',
  'Light',
  'Zero',
  'Chocolate',
  'Morango',
  'Baunilha',
  'Limao',
  'Laranja',
  'Uva',
  'Azul',
  'Preto',
  'Branco',
  'Vermelho',
  'Verde',
  'Rosa',
  'Cinza',
  'Original',
  'Premium',
  'Extra',
];
const SIZES = ['100g', '200g', '500g', '1kg', '2kg', '350ml', '1L', '2L', 'P', 'M', 'G', 'GG'];

/** What a shop owner or cashier types: brand + product, product + colour, part of a SKU. */
export const SELECTIVE_TERMS = [
  'cafe pilao',
  'camiseta azul',
  'sabonete dove',
  'arroz 1kg',
  'biscoito marilan',
  'tenis preto',
  'refrigerante zero 2l',
  'sku1234',
];
/** A bare word that matches thousands of products (2,000 and 7,900 of 100,000). */
export const BROAD_TERMS = ['shampoo', 'chocolate'];
export const SEARCH_TERMS = [...SELECTIVE_TERMS, ...BROAD_TERMS];
/**
 * More shapes of search (issue 21): a word being typed ("choc"), a brand and a colour inside names
 * ("tilibra" 33,000 and "azul" 50,000 of 1,000,000, spread over every product word).
 */
export const MORE_TERMS = ['choc', 'tilibra', 'azul'];

const pgArray = (items: string[]) => `ARRAY[${items.map((s) => `'${s.replace(/'/g, "''")}'`).join(',')}]`;

/** The barcode of product number i (13 digits, unique per client). */
export const barcodeOf = (i: number) => `2${String(i).padStart(11, '0')}${i % 10}`;

/** N products for a client with realistic names, SKUs, barcodes, 20 categories, stock levels. */
async function fillClient(database: Database, clientId: number, n: number) {
  const { db } = database;
  await db.execute(
    sql.raw(
      `INSERT INTO product_categories (client_id, name) SELECT ${clientId}, 'Categoria ' || g FROM generate_series(1, 20) g`,
    ),
  );
  const batch = 50_000;
  for (let from = 1; from <= n; from += batch) {
    const to = Math.min(n, from + batch - 1);
    await db.execute(
      sql.raw(`
      INSERT INTO products (client_id, name, sku, barcode, product_type, unit, sale_price_cents, cost_price_cents,
        category_id, active, stock_control, stock, min_stock, name_key, search_text)
      SELECT ${clientId}, s.name, 'SKU' || s.i, s.barcode, 'simple', 'un', 100 + (s.i * 37) % 50000, 50 + (s.i * 17) % 20000,
        (SELECT id FROM product_categories c WHERE c.client_id = ${clientId} ORDER BY id OFFSET (s.i % 20) LIMIT 1),
        s.i % 25 <> 0, true, (s.i * 7) % 200, 10, lower(s.name), lower(s.name || ' sku' || s.i || ' ' || s.barcode)
      FROM (
        SELECT g AS i,
          (${pgArray(NOUNS)})[1 + g % ${NOUNS.length}] || ' ' ||
          (${pgArray(BRANDS)})[1 + (g / ${NOUNS.length}) % ${BRANDS.length}] || ' ' ||
          (${pgArray(VARIANTS)})[1 + (g / ${NOUNS.length * BRANDS.length}) % ${VARIANTS.length}] || ' ' ||
          (${pgArray(SIZES)})[1 + (g / 7) % ${SIZES.length}] AS name,
          '2' || lpad(g::text, 11, '0') || (g % 10)::text AS barcode
        FROM generate_series(${from}, ${to}) g
      ) s`),
    );
    process.stdout.write(`  client ${clientId}: ${to} products\r`);
  }
  process.stdout.write('\n');
}

/** A valid CNPJ from any 12 digits. */
function cnpj(base12: string): string {
  const calc = (s: string, w: number[]) => {
    const r = w.reduce((acc, x, i) => acc + Number(s[i]) * x, 0) % 11;
    return r < 2 ? 0 : 11 - r;
  };
  const d1 = calc(base12, [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  const d2 = calc(base12 + d1, [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  return `${base12}${d1}${d2}`;
}

/** Migrates, seeds the demo shop and a second shop, then loads N products into each. */
export async function populate(database: Database, n: number): Promise<{ demoClientId: number }> {
  const started = Date.now();
  await migrateDatabase(database);
  const { clientId } = await seedDemo(database.db);
  const other = await insertClient(database.db, {
    name: 'Outra Loja Bench',
    document: cnpj('998877665544'),
    clientTypeId: 4,
    phone: '5511912345678',
  });
  await fillClient(database, clientId, n);
  await fillClient(database, other.id, n);
  // Statistics and the visibility map (index-only scans) as autovacuum keeps them in a live shop.
  await database.db.execute(sql.raw('VACUUM ANALYZE'));
  console.log(`  loaded ${2 * n} products in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return { demoClientId: clientId };
}

/** A private PostgreSQL 15 cluster (STACK.md), owned by the postgres user, on a local port. */
function startPostgres(): { url: string; stop: () => void } {
  const bin = '/usr/lib/postgresql/15/bin';
  const dir = mkdtempSync(join(tmpdir(), 'balcao-bench-pg-'));
  const data = join(dir, 'data');
  const sock = join(dir, 'sock');
  mkdirSync(sock);
  chmodSync(dir, 0o777);
  chmodSync(sock, 0o777);
  const port = 55_000 + Math.floor(Math.random() * 1000);
  const asPostgres = (cmd: string) => execFileSync('su', ['postgres', '-c', cmd], { stdio: 'pipe' });
  asPostgres(`${bin}/initdb -D ${data} -U postgres --auth=trust -E UTF8 --locale=C.UTF-8`);
  asPostgres(
    `${bin}/pg_ctl -D ${data} -l ${dir}/log -o "-c listen_addresses=127.0.0.1 -p ${port} -k ${sock} -c shared_buffers=256MB -c fsync=off -c synchronous_commit=off" -w start`,
  );
  asPostgres(`${bin}/createdb -h ${sock} -p ${port} balcao_bench`);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/balcao_bench`,
    stop: () => {
      spawnSync('su', ['postgres', '-c', `${bin}/pg_ctl -D ${data} -m fast -w stop`], { stdio: 'ignore' });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function token(url: string): Promise<string> {
  const res = await fetch(`${url}/v1/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'caixa@demo.com.br', password: 'demo1234' }),
  });
  if (!res.ok) throw new Error(`login failed: ${res.status}`);
  return ((await res.json()) as { token: string }).token;
}

type Target = { label: string; url: string; stop: () => Promise<void> };

/**
 * Every scenario on every server, one after the other (so a change of the machine's load hits both
 * alike), sequential requests (1 connection): the latency a cashier or a back-office user feels.
 */
async function compare(servers: Target[], clientId: number, n: number, duration: number, label: string) {
  const auth = { authorization: `Bearer ${await token(servers[0].url)}` };
  const pick = <T>(items: T[]) => items[Math.floor(Math.random() * items.length)];
  const list = (q: string, extra = '') => `/v1/product/client/${clientId}?q=${encodeURIComponent(q)}${extra}`;
  const last = servers.at(-1)!;
  const hits = async (q: string) => {
    const res = await fetch(`${last.url}${list(q)}`, { headers: auth });
    if (!res.ok) throw new Error(`${q}: ${res.status} ${await res.text()}`);
    const page = (await res.json()) as { total: number; totalCapped?: boolean };
    return `${page.totalCapped ? 'more than ' : ''}${page.total.toLocaleString('en')}`;
  };
  type Scenario = { name: string; path: () => string; hits?: string };
  const scenarios: Scenario[] = [
    {
      name: 'barcode lookup',
      path: () => `/v1/product/barcode/${barcodeOf(1 + Math.floor(Math.random() * n))}`,
    },
    {
      name: 'SKU typed at the scanner (exact)',
      path: () => `/v1/product/barcode/SKU${1 + Math.floor(Math.random() * n)}`,
    },
  ];
  for (const term of [...SELECTIVE_TERMS, ...BROAD_TERMS, ...MORE_TERMS])
    scenarios.push({
      name: `search "${term}" (page 1 + total)`,
      path: () => list(term),
      hits: await hits(term),
    });
  // The list's column sort on the broad words (the name column: the word table, issue 21).
  for (const term of [...BROAD_TERMS, ...MORE_TERMS])
    scenarios.push({ name: `search "${term}" sorted by name`, path: () => list(term, '&sort=name') });
  const all = [...SEARCH_TERMS, ...MORE_TERMS];
  scenarios.push(
    { name: 'search, all 13 terms', path: () => list(pick(all)) },
    {
      name: 'PDV search (active, 8 rows), all 13 terms',
      path: () => list(pick(all), '&active=true&pageSize=8'),
    },
    { name: 'search sorted by the name column, all 13 terms', path: () => list(pick(all), '&sort=name') },
    { name: 'first list page (sorted by name + total)', path: () => `/v1/product/client/${clientId}` },
    { name: 'baseline GET /v1/user/me', path: () => '/v1/user/me' },
  );
  const rows: string[] = [];
  for (const scenario of scenarios) {
    const figures: Figures[] = [];
    for (const server of servers)
      figures.push(
        await load(`${label} ${scenario.name} [${server.label}]`, {
          connections: 1,
          duration,
          headers: auth,
          url: server.url,
          requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: scenario.path() }) }],
        }),
      );
    const cells = figures.map((f) => `${f.requests} | ${f.p50} | ${f.p95} | ${f.errors}`);
    const ratio = figures.length > 1 ? ` | ${(figures[1].p95 / figures[0].p95).toFixed(2)}` : '';
    rows.push(`| ${scenario.name} | ${scenario.hits ?? ''} | ${cells.join(' | ')}${ratio} |`);
    console.log(rows.at(-1));
  }
  const heads = servers.map((s) => `${s.label}: requests | p50 ms | p95 ms | errors`).join(' | ');
  const cols = servers.map(() => '---|---|---|---').join('|');
  console.log(
    `\n${new Date().toISOString().slice(0, 10)} · ${machine()} · load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} · sequential requests, ${duration} s per scenario and server\n`,
  );
  console.log(`| scenario | hits | ${heads}${servers.length > 1 ? ' | p95 after/before' : ''} |`);
  console.log(`|---|---|${cols}${servers.length > 1 ? '|---' : ''}|`);
  console.log(rows.join('\n'));
}

async function runEngine(engine: Engine, n: number, duration: number): Promise<Figures[]> {
  console.log(`\n${engine}: ${n.toLocaleString('en')} products per client, 2 clients`);
  const label = `${engine === 'pglite' ? 'PGlite' : 'PostgreSQL 15'}, ${n.toLocaleString('en')}/client:`;
  if (engine === 'pglite') {
    const dataDir = mkdtempSync(join(tmpdir(), 'balcao-bench-catalog-'));
    try {
      const client = await openPglite(dataDir);
      const database = fromPglite(client);
      const { demoClientId } = await populate(database, n);
      await database.close();
      const server = await startServer({ env: { DATA_DIR: dataDir } });
      try {
        await compare([{ label: 'after', ...server }], demoClientId, n, duration, label);
        return [];
      } finally {
        await server.stop();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  const kept = arg('pg-url', '');
  if (kept) {
    // A kept database (loaded once, measured many times): load only when it has no products yet.
    const database = fromPostgres(kept, 2);
    await migrateDatabase(database);
    // Statistics and the visibility map (index-only scans) as autovacuum keeps them in a live shop.
    await database.db.execute(
      sql.raw('VACUUM (ANALYZE) products, product_search_words, product_search_vocabulary'),
    );
    const loaded = (await database.db.execute(
      sql.raw('select count(*)::int as n from products'),
    )) as unknown as {
      rows?: { n: number }[];
    };
    const count = Number((loaded.rows ?? (loaded as unknown as { n: number }[]))[0]?.n ?? 0);
    if (count < 2 * n) {
      if (count > 0) throw new Error(`${kept} holds ${count} products, not ${2 * n}: use an empty database`);
      await populate(database, n);
    } else console.log(`  kept database: ${count} products`);
    const demo = (await database.db.execute(
      sql.raw(`select client_id as id from users where email = 'caixa@demo.com.br'`),
    )) as unknown as { rows?: { id: number }[] };
    const demoClientId = Number((demo.rows ?? (demo as unknown as { id: number }[]))[0].id);
    await database.close();
    const before = arg('before', '');
    const servers: Target[] = [];
    let root = '';
    try {
      if (before) {
        root = exportCommit(before);
        servers.push({
          label: `before (${before.slice(0, 7)})`,
          ...(await startServer({ databaseUrl: kept, root })),
        });
      }
      servers.push({ label: 'after', ...(await startServer({ databaseUrl: kept })) });
      await compare(servers, demoClientId, n, duration, label);
      return [];
    } finally {
      for (const server of servers) await server.stop();
      if (root) rmSync(root, { recursive: true, force: true });
    }
  }
  const pg = startPostgres();
  try {
    const database = fromPostgres(pg.url, 2);
    const { demoClientId } = await populate(database, n);
    await database.close();
    const server = await startServer({ databaseUrl: pg.url });
    try {
      await compare([{ label: 'after', ...server }], demoClientId, n, duration, label);
      return [];
    } finally {
      await server.stop();
    }
  } finally {
    pg.stop();
  }
}

/** Entry point when run directly (the helpers above are also imported by micro-benchmarks). */
async function main() {
  const n = Number(arg('products', '100000'));
  const duration = Number(arg('duration', '10'));
  const engineArg = arg('engine', 'both');
  const engines: Engine[] = engineArg === 'both' ? ['pglite', 'postgres'] : [engineArg as Engine];
  if (engines.includes('postgres') && !existsSync('/usr/lib/postgresql/15/bin/initdb'))
    throw new Error('PostgreSQL 15 server binaries not found at /usr/lib/postgresql/15/bin');

  ensureWebBuild();
  const rows: Figures[] = [];
  for (const engine of engines) rows.push(...(await runEngine(engine, n, duration)));
  console.log(
    `\n${new Date().toISOString().slice(0, 10)} · ${machine()} · sequential requests (1 connection), ${duration} s each\n`,
  );
  if (rows.length > 0) console.log(table(rows));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
