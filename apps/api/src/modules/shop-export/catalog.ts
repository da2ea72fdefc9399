import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';

/**
 * Which tables hold a shop's data, read from the database's own catalog (the tables the drizzle schema
 * and its migrations created), so a table added tomorrow is exported, imported and deleted without
 * editing a list: a table is the shop's when it has `client_id`, is `clients` itself, or has a foreign
 * key to a table that is the shop's (a sale's return lines through the return). A table that is none
 * of these must be named in NOT_SHOP_DATA with its reason, or the plan refuses to run (and the test
 * `every table is covered` fails).
 */

/** Tables that hold no shop's data, with the reason. */
export const NOT_SHOP_DATA: Record<string, string> = {
  sessions: 'login tokens: a moved shop logs in again',
  rate_limits: 'attempt counters of the login and sign-up limiter, keyed by e-mail/IP',
  scheduled_jobs: "the platform's background job leases",
  socket_io_attachments: "the socket.io PostgreSQL adapter's transport",
  billing_webhook_events: "the payment gateway's delivered event ids (Balcão's own billing)",
  backups: "the instance's database backups (every shop in one file: the operator's, issue 37)",
  backup_schedule: "the instance's nightly backup hour (the operator's)",
};

/**
 * Integer columns that name another table's row without a foreign key (tables kept by triggers): the
 * import remaps them like a foreign key.
 */
const LOGICAL_REFS: Record<string, string> = {
  'product_search_words.product_id': 'products',
  'sale_monthly_products.product_id': 'products',
  // The sales reports' summary (issue 34): null stays null (lines without a product, nobody recorded).
  'sale_daily_products.product_id': 'products',
  'sale_daily_groups.seller_id': 'users',
  'sale_daily_cancels.user_id': 'users',
  // The stock ledger's month totals (issue 34, the stock turnover).
  'stock_month_totals.product_id': 'products',
};

/**
 * Ids of shop rows inside json columns (issue 37): the import remaps them after every table is in
 * (`field` null: the column is an array of ids; else an array of objects whose `field` is the id). An
 * id whose row is not in the export (a print job pruned since) is dropped from an array of ids and set
 * to null in an object: never left pointing at whatever row has that id here.
 */
export const JSON_REFS: { table: string; column: string; field: string | null; target: string }[] = [
  { table: 'comanda_sends', column: 'job_ids', field: null, target: 'print_jobs' },
  { table: 'comanda_payments', column: 'items', field: 'lineId', target: 'comanda_lines' },
  { table: 'driver_settlements', column: 'lines', field: 'orderId', target: 'delivery_orders' },
];

type Column = { name: string; type: string; json: boolean };
type ForeignKey = { column: string; table: string; cascade?: boolean };

export type TablePlan = {
  name: string;
  columns: Column[];
  primaryKey: string[];
  /** A single integer primary key drawn from a sequence: the import gives new ids. */
  serialKey: string | null;
  foreignKeys: ForeignKey[];
  /** Tables whose rows belong to this one's (a foreign key ON DELETE CASCADE): nested in its JSON file. */
  nested: ForeignKey[];
  /** SQL (on alias `t`) selecting this shop's rows, with `$CLIENT` standing for the client id. */
  filter: string;
};

/** The rows of a statement (both drivers answer `{ rows }`). */
export async function rowsOf<T>(db: Executor, query: SQL): Promise<T[]> {
  const result = await db.execute(query);
  return (result as unknown as { rows: T[] }).rows;
}

const q = (name: string) => `"${name.replace(/"/g, '""')}"`;
export const quoteIdent = q;

type CatalogRow = {
  table: string;
  columns: { name: string; type: string }[];
  pk: string[] | null;
  serial: boolean;
  fks: { column: string; table: string; cascade: boolean }[] | null;
};

async function readCatalog(db: Executor): Promise<CatalogRow[]> {
  return rowsOf<CatalogRow>(
    db,
    sql`
    select c.relname as "table",
      (select json_agg(json_build_object('name', a.attname, 'type', format_type(a.atttypid, a.atttypmod)) order by a.attnum)
         from pg_attribute a where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = '') as columns,
      (select json_agg(a.attname order by array_position(k.conkey, a.attnum)) from pg_constraint k
         join pg_attribute a on a.attrelid = k.conrelid and a.attnum = any(k.conkey)
         where k.conrelid = c.oid and k.contype = 'p') as pk,
      exists (select 1 from pg_constraint k join pg_attribute a on a.attrelid = k.conrelid and a.attnum = k.conkey[1]
         where k.conrelid = c.oid and k.contype = 'p' and array_length(k.conkey, 1) = 1
           and pg_get_serial_sequence(quote_ident(c.relname), a.attname) is not null) as serial,
      (select json_agg(json_build_object('column', a.attname, 'table', rc.relname, 'cascade', k.confdeltype = 'c')) from pg_constraint k
         join pg_attribute a on a.attrelid = k.conrelid and a.attnum = k.conkey[1]
         join pg_class rc on rc.oid = k.confrelid
         where k.conrelid = c.oid and k.contype = 'f' and array_length(k.conkey, 1) = 1) as fks
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = current_schema() and c.relkind in ('r', 'p')
    order by c.relname`,
  );
}

export class UncoveredTableError extends Error {}

/**
 * Every shop table with its filter, parents before children (foreign keys, a table's references to
 * itself aside), so an import can insert in this order. Throws UncoveredTableError naming any table
 * that is neither the shop's nor in NOT_SHOP_DATA.
 */
export async function shopTablePlan(db: Executor): Promise<TablePlan[]> {
  const catalog = await readCatalog(db);
  const byName = new Map(catalog.map((r) => [r.table, r]));
  const filters = new Map<string, string>();
  const keyOf = (row: CatalogRow) => (row.pk?.length === 1 ? row.pk[0] : null);
  filters.set('clients', `t.id = $CLIENT`);
  for (const row of catalog) {
    if (row.table === 'clients' || NOT_SHOP_DATA[row.table]) continue;
    if (row.columns.some((c) => c.name === 'client_id')) filters.set(row.table, `t.client_id = $CLIENT`);
  }
  // Children without client_id: through a foreign key to a shop table (repeated for grandchildren).
  for (let changed = true; changed; ) {
    changed = false;
    for (const row of catalog) {
      if (filters.has(row.table) || NOT_SHOP_DATA[row.table]) continue;
      const fk = (row.fks ?? []).find(
        (f) => filters.has(f.table) && keyOf(byName.get(f.table) as CatalogRow),
      );
      if (!fk) continue;
      const parent = byName.get(fk.table) as CatalogRow;
      const parentFilter = (filters.get(fk.table) as string).replace(/\bt\./g, 'p.');
      filters.set(
        row.table,
        `t.${q(fk.column)} in (select p.${q(keyOf(parent) as string)} from ${q(fk.table)} p where ${parentFilter})`,
      );
      changed = true;
    }
  }
  const uncovered = catalog
    .filter((r) => !filters.has(r.table) && !NOT_SHOP_DATA[r.table])
    .map((r) => r.table);
  if (uncovered.length > 0)
    throw new UncoveredTableError(
      `tables neither the shop's (client_id, or a foreign key to a shop table) nor in NOT_SHOP_DATA: ${uncovered.join(', ')}`,
    );

  const plans = new Map<string, TablePlan>();
  for (const row of catalog) {
    const filter = filters.get(row.table);
    if (!filter) continue;
    const foreignKeys = (row.fks ?? [])
      .filter((f) => filters.has(f.table))
      .map((f) => ({ column: f.column, table: f.table }));
    for (const [ref, table] of Object.entries(LOGICAL_REFS)) {
      const [t, column] = ref.split('.');
      if (t === row.table) foreignKeys.push({ column, table });
    }
    plans.set(row.table, {
      name: row.table,
      columns: row.columns.map((c) => ({ ...c, json: c.type === 'json' || c.type === 'jsonb' })),
      primaryKey: row.pk ?? [],
      serialKey: row.serial ? keyOf(row) : null,
      foreignKeys,
      nested: [],
      filter,
    });
  }
  // A child whose foreign key cascades from its parent is one of the parent's nested records.
  for (const row of catalog) {
    if (!plans.has(row.table)) continue;
    for (const fk of row.fks ?? []) {
      const parent = plans.get(fk.table);
      if (fk.cascade && parent && fk.table !== row.table && keyOf(byName.get(fk.table) as CatalogRow))
        parent.nested.push({ column: fk.column, table: row.table });
    }
  }
  // Parents first (Kahn's order; a reference to itself is set after the insert).
  const ordered: TablePlan[] = [];
  const done = new Set<string>();
  while (ordered.length < plans.size) {
    const ready = [...plans.values()].filter(
      (p) => !done.has(p.name) && p.foreignKeys.every((f) => f.table === p.name || done.has(f.table)),
    );
    if (ready.length === 0) {
      const left = [...plans.keys()].filter((n) => !done.has(n));
      throw new Error(`foreign keys form a loop among: ${left.join(', ')}`);
    }
    for (const p of ready) {
      ordered.push(p);
      done.add(p.name);
    }
  }
  return ordered;
}

/**
 * Where a page starts: after the primary key `after` (keyset paging, each page an index range whatever
 * how deep into the table it is) or, for a table without a primary key, at `offset`.
 */
export type PageStart = {
  after: string[] | null;
  offset: number;
  /** The page's last key (inclusive), found first by `selectPageEnd`: the page is a key range. */
  upTo?: string[] | null;
};

/** `and (t.k1, t.k2) > (v1, v2)`, each value cast back to its column's type ('' on the first page). */
function afterKey(plan: TablePlan, after: string[] | null, op = '>'): string {
  if (!after) return '';
  const keys = plan.primaryKey.map((k) => `t.${q(k)}`).join(', ');
  const values = plan.primaryKey
    .map((k, i) => {
      const type = plan.columns.find((c) => c.name === k)?.type ?? 'text';
      return `cast('${after[i].replace(/'/g, "''")}' as ${type})`;
    })
    .join(', ');
  return ` and (${keys}) ${op} (${values})`;
}

/**
 * The primary key (as text) of the `limit`-th row of the shop's table after `start.after`, walking the
 * key's index: the end of a page read as a key range (`upTo`). No row: the rest is the last page.
 */
export function selectPageEnd(plan: TablePlan, clientId: number, limit: number, start: PageStart): string {
  const keys = plan.primaryKey.map((k) => `t.${q(k)}`);
  const filter = plan.filter.replace(/\$CLIENT/g, String(Math.trunc(clientId)));
  return `select ${keys.map((k) => `${k}::text`).join(', ')} from ${q(plan.name)} t where ${filter}${afterKey(plan, start.after)} order by ${keys.join(', ')} offset ${limit - 1} limit 1`;
}

/**
 * The SELECT of a table's rows of one shop, every column as text (json as its JSON text), in primary
 * key order from `start`.
 */
export function selectShopRows(plan: TablePlan, clientId: number, limit: number, start: PageStart): string {
  const cols = plan.columns.map((c) => `t.${q(c.name)}::text`).join(', ');
  const filter = plan.filter.replace(/\$CLIENT/g, String(Math.trunc(clientId)));
  if (plan.primaryKey.length) {
    const order = plan.primaryKey.map((k) => `t.${q(k)}`).join(', ');
    const range = `${afterKey(plan, start.after)}${afterKey(plan, start.upTo ?? null, '<=')}`;
    return `select ${cols} from ${q(plan.name)} t where ${filter}${range} order by ${order} limit ${limit}`;
  }
  const order = plan.columns.map((c) => `t.${q(c.name)}::text`).join(', ');
  return `select ${cols} from ${q(plan.name)} t where ${filter} order by ${order} limit ${limit} offset ${start.offset}`;
}

/**
 * The SELECT of a table's rows of one shop as JSON documents, each with its nested records (the
 * tables in `plan.nested`) as arrays named by their table: `{ ...sale, sale_items: [...], ... }`;
 * `key` is the row's primary key as text (the next page starts after the last one).
 */
export function selectNestedRows(
  plan: TablePlan,
  clientId: number,
  limit: number,
  after: string | null,
): string {
  const key = plan.primaryKey[0];
  const nested = plan.nested
    .map(
      (n) =>
        `'${n.table}', coalesce((select jsonb_agg(to_jsonb(c)) from ${q(n.table)} c where c.${q(n.column)} = t.${q(key)}), '[]'::jsonb)`,
    )
    .join(', ');
  const filter = plan.filter.replace(/\$CLIENT/g, String(Math.trunc(clientId)));
  return `select t.${q(key)}::text as key, (to_jsonb(t) || jsonb_build_object(${nested}))::text as doc from ${q(plan.name)} t where ${filter}${afterKey(plan, after === null ? null : [after])} order by t.${q(key)} limit ${limit}`;
}
