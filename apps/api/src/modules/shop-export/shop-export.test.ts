import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import yauzl from 'yauzl';
import {
  bearer,
  createTestApp,
  openTestDatabase,
  TEST_PASSWORD,
  type TestApp,
} from '../../../test/helper.ts';
import {
  type Api,
  asUser,
  expectStatus,
  makeCoupon,
  makeCustomer,
  makeProduct,
  openRegister,
} from '../../../test/kit.ts';
import type { Database } from '../../db/client.ts';
import { backgroundJobs } from '../../jobs.ts';
import { backups } from '../backup/schema.ts';
import { backupFolder } from '../backup/service.ts';
import { storageFor } from '../storage/storage.ts';
import {
  type PageStart,
  rowsOf,
  selectPageEnd,
  selectShopRows,
  shopTablePlan,
  UncoveredTableError,
} from './catalog.ts';
import { purgeDueShops } from './deletion.ts';
import { csvLines, exportShop } from './export.ts';
import { ImportRefused, importShop, remapJsonValue } from './import.ts';
import { purgeShop } from './purge.ts';

const ROOT = fileURLToPath(new URL('../../../../../', import.meta.url));
let t: TestApp;
const dir = mkdtempSync(join(tmpdir(), 'shop-export-'));
beforeAll(async () => {
  t = await createTestApp({ dataDir: join(dir, 'a') });
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The ZIP's entries as text (small test shops only). */
function unzip(buffer: Buffer): Promise<Map<string, string>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error);
      const out = new Map<string, string>();
      zip.on('entry', (entry: yauzl.Entry) =>
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            out.set(entry.fileName, Buffer.concat(chunks).toString('utf8'));
            zip.readEntry();
          });
        }),
      );
      zip.on('end', () => resolve(out));
      zip.readEntry();
    });
  });
}

const csv = (text: string | undefined) => parse(text ?? '', { columns: true }) as Record<string, string>[];

/** A shop with a customer, two products, a sale of each kind and an open comanda with a line. */
async function busyShop() {
  const shop = await asUser(t, [1, 2], { clientTypeId: 6 });
  const { api, auth } = shop;
  const customer = await makeCustomer(t, auth, { name: `Cliente ${shop.client.id}` });
  const burger = await makeProduct(t, auth, { name: 'X-Burger', salePriceCents: 1990, stock: 50 });
  const juice = await makeProduct(t, auth, { name: 'Suco', salePriceCents: 750, stock: 50 });
  await makeCoupon(t, auth, { client: { id: shop.client.id } });
  await openRegister(t, auth);
  const sell = (body: Record<string, unknown>) => api.post('/sale', body);
  expectStatus(
    await sell({
      items: [{ productId: burger.id, quantity: 2 }],
      customerId: customer.id,
      payments: [{ method: 'pix', amountCents: 3980 }],
    }),
    201,
  );
  expectStatus(
    await sell({
      items: [{ productId: juice.id, quantity: 3 }],
      payments: [{ method: 'money', amountCents: 2250 }],
    }),
    201,
  );
  const comanda = expectStatus(await api.post('/comanda', { people: 2 }), 201);
  expectStatus(
    await api.post(
      `/comanda/${comanda.id}/line`,
      { productId: juice.id, quantity: 1 },
      { 'idempotency-key': `line-${shop.client.id}-${Date.now()}` },
    ),
    201,
  );
  return { ...shop, customer, burger, juice, comanda };
}

/** POST /v1/settings/company/logo with a 1x1 PNG: the shop then has a stored file. */
function uploadLogo(token: string) {
  const png = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
    'base64',
  );
  return t.app.inject({
    method: 'POST',
    url: '/v1/settings/company/logo',
    headers: { ...bearer(token), 'content-type': 'multipart/form-data; boundary=X' },
    payload: Buffer.concat([
      Buffer.from(
        '--X\r\nContent-Disposition: form-data; name="file"; filename="l.png"\r\nContent-Type: image/png\r\n\r\n',
      ),
      png,
      Buffer.from('\r\n--X--\r\n'),
    ]),
  });
}

async function download(api: Api) {
  const res = await api.get('/shop-export');
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('application/zip');
  expect(res.headers['content-disposition']).toMatch(
    /^attachment; filename="balcao-dados-\d+-\d{4}-\d{2}-\d{2}\.zip"$/,
  );
  return res.rawPayload;
}

describe('the table plan', () => {
  it('covers every table of the schema, and refuses a new table that is neither the shop nor named as not shop data', async () => {
    const plans = await shopTablePlan(t.database.db);
    const all = await rowsOf<{ relname: string }>(
      t.database.db,
      sql`select relname from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = current_schema() and relkind = 'r'`,
    );
    const names = plans.map((p) => p.name);
    for (const { relname } of all)
      expect(
        names.includes(relname) ||
          [
            'sessions',
            'rate_limits',
            'scheduled_jobs',
            'socket_io_attachments',
            'billing_webhook_events',
            'backups',
            'backup_schedule',
          ].includes(relname),
      ).toBe(true);
    // Children without client_id come through their parent; parents come before children.
    expect(names).toEqual(
      expect.arrayContaining(['sale_return_items', 'budget_links', 'product_additional_links']),
    );
    expect(names.indexOf('sales')).toBeLessThan(names.indexOf('sale_items'));
    expect(names.indexOf('clients')).toBe(0);

    await t.database.db.execute(sql`create table zz_orphan (id serial primary key, note text)`);
    try {
      await expect(shopTablePlan(t.database.db)).rejects.toThrow(UncoveredTableError);
      await expect(shopTablePlan(t.database.db)).rejects.toThrow(/zz_orphan/);
    } finally {
      await t.database.db.execute(sql`drop table zz_orphan`);
    }
    // A new table with client_id (or a foreign key to a shop table) is exported without a list to edit.
    await t.database.db.execute(
      sql`create table zz_notes (id serial primary key, client_id integer not null references clients(id), note text)`,
    );
    try {
      expect((await shopTablePlan(t.database.db)).map((p) => p.name)).toContain('zz_notes');
    } finally {
      await t.database.db.execute(sql`drop table zz_notes`);
    }
  });
});

describe('Exportar todos os dados', () => {
  it("is the Administrador's only: a Gerente gets 403", async () => {
    const shop = await asUser(t, [1, 2]);
    const res = await shop.apis[1].get('/shop-export');
    expect(res.statusCode).toBe(403);
  });

  it("has every table of this shop as CSV with only this shop's rows, its files and a README, never another shop's", async () => {
    const a = await busyShop();
    const b = await busyShop();
    const logo = await uploadLogo(a.users[0].token);
    const files = await unzip(await download(a.api));
    expect(files.get('README.md')).toContain('# Dados da loja');
    expect(files.get('README.md')).toContain('### sale_items');
    const manifest = JSON.parse(files.get('manifest.json') ?? '{}');
    expect(manifest.format).toBe('balcao-shop-export/1');

    const clients = csv(files.get('tables/clients.csv'));
    expect(clients.map((c) => Number(c.id))).toEqual([a.client.id]);
    const sales = csv(files.get('tables/sales.csv'));
    expect(sales).toHaveLength(2);
    expect(sales.reduce((s, r) => s + Number(r.total_cents), 0)).toBe(3980 + 2250);
    expect(sales.filter((s) => s.customer_id === String(a.customer.id))).toHaveLength(1);
    // Every table with client_id has only A's rows; children through their parent: A's sales.
    for (const table of manifest.tables as { name: string; rows: number }[]) {
      const rows = csv(files.get(`tables/${table.name}.csv`));
      expect(rows).toHaveLength(table.rows);
      for (const row of rows) if ('client_id' in row) expect(Number(row.client_id)).toBe(a.client.id);
    }
    const saleIds = new Set(sales.map((s) => s.id));
    for (const item of csv(files.get('tables/sale_items.csv'))) expect(saleIds.has(item.sale_id)).toBe(true);
    expect(csv(files.get('tables/customers.csv')).map((c) => c.name)).toEqual([`Cliente ${a.client.id}`]);
    expect(csv(files.get('tables/comanda_lines.csv'))).toHaveLength(1);
    expect(files.get('tables/sessions.csv')).toBeUndefined();
    // NULL is an empty cell, an empty text a quoted one.
    expect(csvLines([['a', '', null]])).toBe('a,"",\n');
    expect(logo.statusCode).toBe(200);
    expect(manifest.files).toEqual([
      expect.stringMatching(new RegExp(`^logo/${a.client.id}/[0-9a-f]{32}\\.png$`)),
    ]);
    expect(files.get(`files/${manifest.files[0]}`)?.length).toBeGreaterThan(0);
    // B's export has none of A's.
    const other = await unzip(await download(b.api));
    expect(csv(other.get('tables/clients.csv')).map((c) => Number(c.id))).toEqual([b.client.id]);
    expect(csv(other.get('tables/customers.csv')).map((c) => c.name)).toEqual([`Cliente ${b.client.id}`]);
    const otherSales = csv(other.get('tables/sales.csv'));
    expect(otherSales).toHaveLength(2);
    for (const sale of otherSales) expect(Number(sale.client_id)).toBe(b.client.id);
    expect(JSON.parse(other.get('manifest.json') ?? '{}').files).toEqual([]);
  });

  it('pages every table after the last key (keyset): pages of one row give every row once, in key order, whatever the key type', async () => {
    const shop = await busyShop();
    const db = t.database.db;
    const plans = (await shopTablePlan(db)).filter((p) => p.primaryKey.length > 0);
    // Keys of several types and shapes: serial, text, composite.
    expect(plans.some((p) => p.primaryKey.length > 1)).toBe(true);
    let tablesWithPages = 0;
    for (const plan of plans) {
      const all = await rowsOf<Record<string, string | null>>(
        db,
        sql.raw(selectShopRows(plan, shop.client.id, 1_000_000, { after: null, offset: 0 })),
      );
      const seen: Record<string, string | null>[] = [];
      const start: PageStart = { after: null, offset: 0 };
      for (;;) {
        const page = await rowsOf<Record<string, string | null>>(
          db,
          sql.raw(selectShopRows(plan, shop.client.id, 1, start)),
        );
        seen.push(...page);
        if (page.length < 1) break;
        start.after = plan.primaryKey.map((k) => page[page.length - 1][k] as string);
      }
      expect(seen, plan.name).toEqual(all);
      if (all.length > 1) tablesWithPages++;
      // A page as a key range (the COPY path): its end found first, then every row up to it.
      const ranged: Record<string, string | null>[] = [];
      const range: PageStart = { after: null, offset: 0 };
      for (;;) {
        const [end] = await rowsOf<Record<string, string>>(
          db,
          sql.raw(selectPageEnd(plan, shop.client.id, 2, range)),
        );
        const upTo = end ? plan.primaryKey.map((k) => end[k]) : null;
        ranged.push(
          ...(await rowsOf<Record<string, string | null>>(
            db,
            sql.raw(selectShopRows(plan, shop.client.id, 2, { ...range, upTo })),
          )),
        );
        if (!upTo) break;
        range.after = upTo;
      }
      expect(ranged, plan.name).toEqual(all);
    }
    expect(tablesWithPages).toBeGreaterThan(3);
  });

  it("writes the same CSV whether PGlite's COPY pages hold 2 rows or 10,000 (and the same counts)", async () => {
    const shop = await busyShop();
    const files = async (copyPage?: number) => {
      const { stream } = await exportShop(t.database.db, storageFor(t.app.ctx.config), shop.client.id, {
        copyPage,
      });
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(chunk as Buffer);
      const all = await unzip(Buffer.concat(chunks));
      return [...all].filter(([name]) => name.startsWith('tables/') || name === 'manifest.json');
    };
    const strip = (entries: [string, string][]) =>
      entries.map(([name, text]) => [
        name,
        name === 'manifest.json' ? text.replace(/"exportedAt": "[^"]+"/, '') : text,
      ]);
    const small = strip(await files(2));
    expect(small).toEqual(strip(await files()));
    // Some table spans several 2-row pages.
    const longest = Math.max(...small.map(([, text]) => text.trim().split('\n').length));
    expect(longest).toBeGreaterThan(5);
  });
});

describe('npm run import-shop', () => {
  let target: Database;
  beforeAll(async () => {
    target = await openTestDatabase();
  });
  afterAll(() => target.close());

  it('imports the export into a fresh database with new ids: same counts and money, then refuses the same shop again', async () => {
    const shop = await busyShop();
    expect((await uploadLogo(shop.users[0].token)).statusCode).toBe(200);
    const zipPath = join(dir, 'shop.zip');
    writeFileSync(zipPath, await download(shop.api));
    // The target already has other shops, so ids cannot stay the same.
    await target.db.execute(
      sql`insert into clients (name, document, client_type_id) values ('Outra', '00000000000191', 1), ('Outra 2', '00000000000272', 1)`,
    );
    await target.db.execute(sql`select setval('clients_id_seq', ${shop.client.id + 10})`);
    const storage = storageFor({ dataDir: join(dir, 'b'), s3: undefined });
    const result = await importShop(target.db, storage, zipPath);
    expect(result.clientId).toBe(shop.client.id + 11);

    const figures = async (db: Database['db'], clientId: number) => {
      const [row] = await rowsOf<Record<string, string>>(
        db,
        sql`select
          (select count(*) from sales where client_id = ${clientId})::text as sales,
          (select coalesce(sum(total_cents), 0) from sales where client_id = ${clientId})::text as total,
          (select count(*) from sale_items where client_id = ${clientId})::text as items,
          (select coalesce(sum(amount_cents), 0) from sale_payments where client_id = ${clientId})::text as paid,
          (select count(*) from customers where client_id = ${clientId})::text as customers,
          (select count(*) from products where client_id = ${clientId})::text as products,
          (select coalesce(sum(stock), 0) from products where client_id = ${clientId})::text as stock,
          (select count(*) from comandas where client_id = ${clientId})::text as comandas,
          (select count(*) from comanda_lines where client_id = ${clientId})::text as lines,
          (select count(*) from users where client_id = ${clientId})::text as users`,
      );
      return row;
    };
    const before = await figures(t.database.db, shop.client.id);
    expect(before).toMatchObject({ sales: '2', total: String(3980 + 2250), customers: '1', comandas: '1' });
    expect(await figures(target.db, result.clientId)).toEqual(before);
    // Foreign keys followed: the imported sale's customer is the imported customer.
    const [link] = await rowsOf<{ name: string }>(
      target.db,
      sql`select c.name from sales s join customers c on c.id = s.customer_id where s.client_id = ${result.clientId}`,
    );
    expect(link.name).toBe(`Cliente ${shop.client.id}`);

    // The files come back into the target's storage.
    expect(result.files).toBe(1);
    const [logo] = await rowsOf<{ logo_key: string }>(
      target.db,
      sql`select logo_key from clients where id = ${result.clientId}`,
    );
    expect((await storage.get(logo.logo_key))?.size).toBeGreaterThan(0);

    await expect(importShop(target.db, storage, zipPath)).rejects.toThrow(ImportRefused);
    await expect(importShop(target.db, storage, zipPath)).rejects.toThrow(
      /^Esta loja já existe neste Balcão \(documento \d+\): a importação não foi feita$/,
    );
  });
});

describe('nested records and ids inside json columns (issue 37)', () => {
  let target: Database;
  beforeAll(async () => {
    target = await openTestDatabase();
  });
  afterAll(() => target.close());

  it('exports each sale with its items and payments as JSON Lines, and remaps the ids inside json columns on import', async () => {
    const shop = await busyShop();
    const [line] = await rowsOf<{ id: number }>(
      t.database.db,
      sql`select id from comanda_lines where comanda_id = ${shop.comanda.id}`,
    );
    // A tab payment by items keeps its lines' ids in a json column.
    expectStatus(
      await shop.api.post(
        `/comanda/${shop.comanda.id}/payment`,
        { kind: 'items', method: 'pix', items: [{ lineId: line.id, quantity: 1 }] },
        { 'idempotency-key': `payment-${shop.client.id}-${Date.now()}` },
      ),
      201,
    );
    const zip = await download(shop.api);
    const files = await unzip(zip);
    const manifest = JSON.parse(files.get('manifest.json') ?? '{}');
    expect(manifest.json).toEqual(
      expect.arrayContaining([
        {
          file: 'json/sales.jsonl',
          table: 'sales',
          nested: expect.arrayContaining(['sale_items', 'sale_payments']),
        },
      ]),
    );
    const sales = (files.get('json/sales.jsonl') ?? '')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(sales).toHaveLength(2);
    const pixSale = sales.find((sale) => sale.customer_id === shop.customer.id);
    expect(pixSale.sale_items).toEqual([
      expect.objectContaining({ product_id: shop.burger.id, quantity: 2, sale_id: pixSale.id }),
    ]);
    expect(pixSale.sale_payments).toEqual([
      expect.objectContaining({ method: 'pix', amount_cents: 3980, sale_id: pixSale.id }),
    ]);
    expect(files.get('README.md')).toContain('json/<tabela>.jsonl');

    // Imported beside other rows: the payment's lineId is the imported line's new id.
    await target.db.execute(sql`select setval('comanda_lines_id_seq', ${line.id + 500})`);
    const zipPath = join(dir, 'nested.zip');
    writeFileSync(zipPath, zip);
    const result = await importShop(
      target.db,
      storageFor({ dataDir: join(dir, 'c'), s3: undefined }),
      zipPath,
    );
    const [imported] = await rowsOf<{ line: number; items: { lineId: number; quantity: number }[] }>(
      target.db,
      sql`select l.id as line, p.items from comanda_payments p join comanda_lines l on l.comanda_id = p.comanda_id
          where p.client_id = ${result.clientId}`,
    );
    expect(imported.line).toBeGreaterThan(line.id + 500);
    expect(imported.items).toEqual([{ lineId: imported.line, quantity: 1 }]);
  });

  it('an id whose row is not in the file is dropped from a list and set to null in an object', () => {
    const map = new Map([['7', '107']]);
    expect(remapJsonValue([7, 8], null, map)).toEqual([107]);
    expect(
      remapJsonValue(
        [
          { lineId: 7, quantity: 1 },
          { lineId: 8, quantity: 2 },
        ],
        'lineId',
        map,
      ),
    ).toEqual([
      { lineId: 107, quantity: 1 },
      { lineId: null, quantity: 2 },
    ]);
    expect(remapJsonValue(null, null, map)).toBeNull();
  });
});

describe('npm run import-shop -- FILE', () => {
  it('imports into an empty data folder and refuses the second time, nothing written', {
    timeout: 120_000,
  }, async () => {
    const shop = await busyShop();
    const zipPath = join(dir, 'cli.zip');
    writeFileSync(zipPath, await download(shop.api));
    const run = () =>
      spawnSync(process.execPath, [join(ROOT, 'scripts/import-shop.mjs'), zipPath], {
        env: { ...process.env, DATA_DIR: join(dir, 'cli-data'), DATABASE_URL: '', NODE_ENV: 'production' },
        encoding: 'utf8',
      });
    const first = run();
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);
    expect(first.stdout).toMatch(/^sales: 2$/m);
    expect(first.stdout).toMatch(/Loja importada como cliente 1: \d+ linhas, 0 arquivos/);
    const second = run();
    expect(second.status).toBe(1);
    expect(second.stderr).toMatch(
      /^Esta loja já existe neste Balcão \(documento \d+\): a importação não foi feita$/m,
    );
  });
});

describe('deleting a shop (LGPD eliminação)', () => {
  it("removes every row and file of the shop, counted in one log line, and nothing of another shop's", async () => {
    const a = await busyShop();
    const b = await busyShop();
    expect((await uploadLogo(a.users[0].token)).statusCode).toBe(200);
    expect((await uploadLogo(b.users[0].token)).statusCode).toBe(200);
    const db = t.database.db;
    const plans = await shopTablePlan(db);
    const countsOf = async (clientId: number) => {
      const out: Record<string, number> = {};
      for (const p of plans) {
        const [{ n }] = await rowsOf<{ n: number }>(
          db,
          sql.raw(
            `select count(*)::int as n from "${p.name}" t where ${p.filter.replace(/\$CLIENT/g, String(clientId))}`,
          ),
        );
        out[p.name] = n;
      }
      return out;
    };
    const logoOf = async (clientId: number) =>
      (await rowsOf<{ logo_key: string }>(db, sql`select logo_key from clients where id = ${clientId}`))[0]
        ?.logo_key;
    const storage = storageFor({ dataDir: join(dir, 'a'), s3: undefined });
    const aLogo = await logoOf(a.client.id);
    const bLogo = await logoOf(b.client.id);
    const before = await countsOf(a.client.id);
    const bBefore = await countsOf(b.client.id);
    expect(before.sales).toBe(2);

    const lines: string[] = [];
    const result = await purgeShop(db, storage, a.client.id, (line) => lines.push(line));
    const expected = Object.values(before).reduce((x, y) => x + y, 0);
    expect(result.total).toBe(expected + (result.rows.sessions ?? 0));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(`^shop ${a.client.id} deleted \\(LGPD\\): ${result.total} rows in \\d+ tables, 1 files; `),
    );
    expect(lines[0]).toContain('sales=2');
    expect(Object.values(await countsOf(a.client.id)).every((n) => n === 0)).toBe(true);
    expect(await storage.get(aLogo)).toBeNull();
    // The other shop: every row and its file still there, and it still works.
    expect(await countsOf(b.client.id)).toEqual(bBefore);
    expect(await storage.get(bLogo)).not.toBeNull();
    expect((await b.api.get('/shop-export')).statusCode).toBe(200);
    // A's users cannot log in any more (their sessions went with them).
    expect((await a.api.get('/user/me')).statusCode).toBe(401);
  });
});

describe('asking for the deletion', () => {
  it('is confirmed with the password, waits 7 days (cancelable), then the shop-deletion job removes it', async () => {
    const a = await busyShop();
    const b = await busyShop();
    const wrong = await a.api.post('/shop-export/deletion', { password: 'errada' });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().message).toBe('Senha incorreta: a exclusão não foi pedida');
    // A Gerente cannot ask.
    expect((await a.apis[1].post('/shop-export/deletion', { password: TEST_PASSWORD })).statusCode).toBe(403);

    const asked = expectStatus(await a.api.post('/shop-export/deletion', { password: TEST_PASSWORD }), 202);
    expect(new Date(asked.dueAt).getTime() - new Date(asked.requestedAt).getTime()).toBe(7 * 86_400_000);
    const again = await a.api.post('/shop-export/deletion', { password: TEST_PASSWORD });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('A exclusão da loja já foi pedida');
    expect(expectStatus(await a.api.get('/shop-export/deletion'), 200)).toEqual(asked);

    // Canceled: nothing happens even after the grace period.
    expect(expectStatus(await a.api.delete('/shop-export/deletion'), 200)).toEqual({
      requestedAt: null,
      dueAt: null,
    });
    expect((await a.api.delete('/shop-export/deletion')).statusCode).toBe(404);
    const [job] = backgroundJobs(t.app.ctx).filter((j) => j.name === 'shop-deletion');
    const db = t.database.db;
    expect(
      await purgeDueShops(db, storageFor(t.app.ctx.config), new Date(Date.now() + 8 * 86_400_000)),
    ).toEqual({
      deleted: [],
    });

    // Asked again: before 7 days the job leaves it, after them the shop is gone and B is not.
    expectStatus(await a.api.post('/shop-export/deletion', { password: TEST_PASSWORD }), 202);
    expect(await job.run(db)).toEqual({ deleted: [] });
    await db.execute(
      sql`update shop_deletions set due_at = now() - interval '1 minute' where client_id = ${a.client.id}`,
    );
    // Each shop's own backups (a shared PostgreSQL's per-shop backups): A's go with A, B's stay.
    const folder = backupFolder(t.app.ctx.config);
    mkdirSync(folder, { recursive: true });
    for (const shop of [a, b]) {
      writeFileSync(join(folder, `loja${shop.client.id}.zip`), 'zip');
      await db.insert(backups).values({
        clientId: shop.client.id,
        kind: 'manual',
        engine: 'shop',
        fileName: `loja${shop.client.id}.zip`,
        status: 'ok',
      });
    }
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      expect(await job.run(db)).toEqual({ deleted: [a.client.id] });
      expect(log).toHaveBeenCalledWith(
        expect.stringMatching(new RegExp(`^shop ${a.client.id} deleted \\(LGPD\\): `)),
      );
    } finally {
      log.mockRestore();
    }
    expect(await rowsOf(db, sql`select 1 from clients where id = ${a.client.id}`)).toEqual([]);
    expect(await rowsOf(db, sql`select 1 from sales where client_id = ${a.client.id}`)).toEqual([]);
    expect(await rowsOf(db, sql`select 1 from sales where client_id = ${b.client.id}`)).toHaveLength(2);
    expect(
      await rowsOf(
        db,
        sql`select client_id from backups where client_id in (${a.client.id}, ${b.client.id})`,
      ),
    ).toEqual([{ client_id: b.client.id }]);
    expect(existsSync(join(folder, `loja${a.client.id}.zip`))).toBe(false);
    expect(existsSync(join(folder, `loja${b.client.id}.zip`))).toBe(true);
  });

  it('the password confirmation takes the login limiter: after 5 wrong tries, 429 even with the right one', async () => {
    const a = await busyShop();
    for (let i = 0; i < 5; i++) {
      const wrong = await a.api.post('/shop-export/deletion', { password: `errada-${i}` });
      expect(wrong.statusCode).toBe(422);
      expect(wrong.json().message).toBe('Senha incorreta: a exclusão não foi pedida');
    }
    const blocked = await a.api.post('/shop-export/deletion', { password: TEST_PASSWORD });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toBe('Muitas tentativas. Aguarde alguns minutos e tente novamente.');
    expect(blocked.headers['retry-after']).toBeDefined();
    expect(expectStatus(await a.api.get('/shop-export/deletion'), 200)).toEqual({
      requestedAt: null,
      dueAt: null,
    });
  });
});
