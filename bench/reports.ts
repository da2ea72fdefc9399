/**
 * Sales reports benchmark (issue 34): GET /v1/report/sales and its exports for one client with
 * 1,000,000 sales and ~5,000,000 sale lines over the last 365 days, on PostgreSQL.
 *
 *   BENCH_PG_URL=postgres://postgres@127.0.0.1:25900/postgres npx tsx bench/reports.ts
 *
 * BENCH_PG_URL is an admin URL: the script creates (and at the end drops) its own database. The
 * production server starts on it (migrations + demo shop), then the script loads into the demo client
 * BENCH_PRODUCTS products (default 2,000, in 20 categories) and BENCH_SALES sales (default 1,000,000)
 * spread over 365 days in time order, 1-9 lines each (5 on average), one payment each, 2% canceled, 1%
 * with a return of their first line, by 5 sellers, with triggers off (the reports read the sales, not
 * the daily summary). Then it measures:
 * - `salesReport` in-process (the route's service) for today, 7 days, 30 days and 365 days, BENCH_SAMPLES
 *   calls each (default 5), one after another;
 * - the export of every line of the year as CSV and as XLSX through the server (streamed), and the PDF of a month,
 *   with the server's resident memory sampled every 100 ms (peak and before).
 * BENCH_KEEP=1 keeps the database (its name is printed); BENCH_DB=<name> measures a kept one again.
 * BENCH_SAVE=<dir> keeps the XLSX as <dir>/lines.xlsx. BENCH_PARTS picks what is measured (comma separated, default all): reports, csv, xlsx, products, pdf, finance;
 * `finance` times in-process (a warm-up, then BENCH_SAMPLES calls) the DRE of the last full month, the
 * DRE's sale figures of a year, the cash flow of a month (by day) and of a year (by month), and the stock
 * turnover of a month and of a year; it first writes the stock ledger of the loaded sales when the
 * database has none (a `sale` row per line at its product's cost, `sale-cancel` and `sale-return` rows;
 * the ledger's triggers keep its month totals) and rebuilds the reports' summary (its CMV reads the ledger);
 * `BENCH_PARTS=none BENCH_KEEP=1` only loads.
 */
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { loadavg } from 'node:os';
import { addDays } from '@balcao/core/date';
import { dateIn } from '@balcao/core/time';
import pg from 'pg';
import { fromPostgres, migrateDatabase } from '../apps/api/src/db/client.ts';
import { cashFlow, dreCompared } from '../apps/api/src/modules/finance/service.ts';
import { salesReport } from '../apps/api/src/modules/report/service.ts';
import { stockTurnoverReport } from '../apps/api/src/modules/report/turnover.ts';
import { saleFiguresBetween } from '../apps/api/src/modules/sale/financeFigures.ts';
import { rawFigures, summaryFigures } from '../apps/api/src/modules/sale/reportFigures.ts';
import { ensureWebBuild, machine, startServer } from './lib.ts';

const SALES = Number(process.env.BENCH_SALES ?? 1_000_000);
const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 2_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 5);
const DAYS = 365;
const adminUrl = process.env.BENCH_PG_URL;
if (!adminUrl) throw new Error('BENCH_PG_URL (an admin URL of a PostgreSQL server) is required');

const reuse = process.env.BENCH_DB;
const parts = new Set((process.env.BENCH_PARTS ?? 'reports,csv,xlsx,products,pdf,finance').split(','));
const name = reuse ?? `balcao_reports_${Date.now()}`;
const url = new URL(adminUrl);
url.pathname = `/${name}`;
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
if (!reuse) await admin.query(`create database ${name}`);

const ms = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const rssMb = (pid: number) => {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/);
  return line ? Number(line[1]) / 1024 : 0;
};

ensureWebBuild();
if (reuse) {
  // A kept database made by older code: its pending migrations (the summaries' backfill) timed here.
  const t0 = process.hrtime.bigint();
  const database = fromPostgres(url.toString(), 1);
  await migrateDatabase(database);
  await database.close();
  console.log(`pending migrations of ${name} in ${(ms(t0) / 1000).toFixed(1)} s`);
}
const server = await startServer({ databaseUrl: url.toString() });
const client = new pg.Client({ connectionString: url.toString() });
await client.connect();
try {
  const [{ id: clientId, time_zone: zone }] = (
    await client.query(`select c.id, c.time_zone from clients c join users u on u.client_id = c.id
      where u.email = 'administrador@demo.com.br'`)
  ).rows;
  const [{ id: userId }] = (
    await client.query(`select id from users where email = 'administrador@demo.com.br'`)
  ).rows;
  console.log(`\n${new Date().toISOString().slice(0, 10)} · ${machine()} · database ${name}`);
  if (!reuse) await loadSales(clientId, userId);

  const database = fromPostgres(url.toString(), 4);
  const actor = { clientId, userId };
  const today = dateIn(zone);
  const periods = [
    ['today', today],
    ['7 days', addDays(today, -6)],
    ['30 days', addDays(today, -29)],
    ['365 days', addDays(today, -364)],
  ] as const;
  // BENCH_RAW=1 also measures the reports read from the raw sales (the code before the daily summary).
  const sources = [
    ['summary', summaryFigures] as const,
    ...(process.env.BENCH_RAW ? [['raw sales', rawFigures] as const] : []),
  ];
  for (const [source, figures] of parts.has('reports') ? sources : []) {
    console.log(
      `\nread from the ${source}:\n| period | sales | lines sold | p50 ms | p95 ms | max ms |\n|---|---|---|---|---|---|`,
    );
    for (const [label, from] of periods) {
      const query = {
        from,
        to: today,
        groupBy: label === '365 days' ? ('month' as const) : ('day' as const),
      };
      await salesReport(database.db, actor, query, figures);
      const times: number[] = [];
      let report: Awaited<ReturnType<typeof salesReport>> | null = null;
      for (let i = 0; i < SAMPLES; i++) {
        const t0 = process.hrtime.bigint();
        report = await salesReport(database.db, actor, query, figures);
        times.push(ms(t0));
      }
      times.sort((a, b) => a - b);
      const lines = report?.byProduct.reduce((s, p) => s + p.quantity, 0) ?? 0;
      console.log(
        `| ${label} | ${report?.summary.salesCount} | ${lines} | ${percentile(times, 50).toFixed(0)} | ${percentile(times, 95).toFixed(0)} | ${times.at(-1)?.toFixed(0)} |`,
      );
    }
  }
  if (parts.has('finance')) await measureFinance(database, actor, today);
  await database.close();

  const login = await fetch(`${server.url}/v1/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'administrador@demo.com.br', password: 'demo1234' }),
  });
  const { token } = (await login.json()) as { token: string };
  const pid = server.pid ?? 0;
  const download = async (path: string) => {
    const before = rssMb(pid);
    let peak = before;
    const timer = setInterval(() => {
      peak = Math.max(peak, rssMb(pid));
    }, 100);
    const t0 = process.hrtime.bigint();
    const res = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
    let bytes = 0;
    let lines = 0;
    const reader = res.body?.getReader();
    // BENCH_SAVE=<dir> keeps the XLSX there (to open it with a reading library afterwards).
    const save =
      process.env.BENCH_SAVE && path.includes('/xlsx')
        ? openSync(`${process.env.BENCH_SAVE}/lines.xlsx`, 'w')
        : null;
    for (;;) {
      const chunk = await reader?.read();
      if (!chunk || chunk.done) break;
      if (save !== null) writeSync(save, chunk.value);
      bytes += chunk.value.length;
      for (const b of chunk.value) if (b === 10) lines++;
    }
    clearInterval(timer);
    if (save !== null) closeSync(save);
    return {
      status: res.status,
      seconds: ms(t0) / 1000,
      bytes,
      lines,
      before,
      peak: Math.max(peak, rssMb(pid)),
    };
  };
  const year = `from=${addDays(today, -364)}&to=${today}`;
  const csv = parts.has('csv') ? await download(`/v1/report/sales/csv?${year}&section=lines`) : null;
  if (csv)
    console.log(
      `\nCSV of every line of the year: HTTP ${csv.status}, ${csv.lines - 1} lines, ${(csv.bytes / 2 ** 20).toFixed(0)} MiB in ${csv.seconds.toFixed(1)} s; server RSS ${csv.before.toFixed(0)} MiB before, peak ${csv.peak.toFixed(0)} MiB`,
    );
  const xlsx = parts.has('xlsx') ? await download(`/v1/report/sales/xlsx?${year}&section=lines`) : null;
  if (xlsx)
    console.log(
      `XLSX of every line of the year: HTTP ${xlsx.status}, ${(xlsx.bytes / 2 ** 20).toFixed(0)} MiB in ${xlsx.seconds.toFixed(1)} s; server RSS ${xlsx.before.toFixed(0)} MiB before, peak ${xlsx.peak.toFixed(0)} MiB`,
    );
  const products = parts.has('products')
    ? await download(`/v1/report/sales/csv?${year}&section=product`)
    : null;
  if (products)
    console.log(
      `CSV of the products of the year (ABC): HTTP ${products.status}, ${products.lines - 1} rows in ${products.seconds.toFixed(1)} s`,
    );
  // The PDF holds the report's tables (bounded by the catalogue), not the lines: its memory should not
  // grow with the period. A month and the year, the server's RSS before and at its peak.
  if (parts.has('pdf'))
    for (const [label, from] of [
      ['30 days', addDays(today, -29)],
      ['365 days', addDays(today, -364)],
    ] as const) {
      const pdf = await download(`/v1/report/sales/pdf?from=${from}&to=${today}`);
      console.log(
        `PDF of ${label}: HTTP ${pdf.status}, ${(pdf.bytes / 1024).toFixed(0)} KiB in ${pdf.seconds.toFixed(1)} s; server RSS ${pdf.before.toFixed(0)} MiB before, peak ${pdf.peak.toFixed(0)} MiB`,
      );
    }
  console.log(
    `load average at the end: ${loadavg()
      .map((n) => n.toFixed(1))
      .join(' ')}`,
  );
} finally {
  await client.end();
  await server.stop();
  if (!process.env.BENCH_KEEP) await admin.query(`drop database ${name} with (force)`);
  await admin.end();
}

/** Loads the categories, products, sales, lines, payments and returns (see top). */
async function loadSales(clientId: number, userId: number) {
  let start = process.hrtime.bigint();
  await client.query(`insert into product_categories (client_id, name)
    select ${clientId}, 'Categoria bench ' || g from generate_series(1, 20) g`);
  const columns = (
    await client.query(`select column_name from information_schema.columns
      where table_name = 'products' and column_name not in ('id') order by ordinal_position`)
  ).rows.map((r) => r.column_name as string);
  const replaced: Record<string, string> = {
    name: `'Produto bench ' || g`,
    name_key: `'produto bench ' || lpad(g::text, 6, '0')`,
    search_text: `'produto bench ' || g || ' bench-' || g`,
    sku: `'BENCH-' || g`,
    barcode: `null`,
    sale_price_cents: `500 + (g * 137) % 20000`,
    cost_price_cents: `200 + (g * 137) % 9000`,
    category_id: `(select id from product_categories where client_id = ${clientId} and name = 'Categoria bench ' || (1 + g % 20))`,
  };
  await client.query(
    `insert into products (${columns.join(', ')})
     select ${columns.map((c) => replaced[c] ?? `p.${c}`).join(', ')}
     from generate_series(1, ${PRODUCTS}) g,
       (select * from products where client_id = ${clientId} and product_type = 'simple' order by id limit 1) p`,
  );
  // Five sellers: the demo's users of the shop.
  const sellers = (
    await client.query(`select id from users where client_id = ${clientId} order by id limit 5`)
  ).rows.map((r) => r.id as number);
  console.log(`${PRODUCTS} products in ${ms(start).toFixed(0)} ms`);

  start = process.hrtime.bigint();
  await client.query('set session_replication_role = replica');
  await client.query('begin');
  const [{ base }] = (
    await client.query(`select coalesce(max(number), 0) as base from sales where client_id = ${clientId}`)
  ).rows;
  await client.query(`create temp table gen_items as
    with p as (select array_agg(id order by id) as ids, array_agg(sale_price_cents order by id) as prices
               from products where client_id = ${clientId} and name like 'Produto bench %')
    select k, pos, p.ids[idx] as product_id, p.prices[idx] as price
    from generate_series(1, ${SALES}) k
    cross join lateral generate_series(1, 1 + ((k % 1000) * 7919) % 9) pos
    cross join p
    cross join lateral (select 1 + floor(power(random(), 3) * array_length(p.ids, 1))::int + 0 * pos as idx) r`);
  await client.query(`create temp table gen_sales as
    select k, count(*)::int as items, sum(price)::int as amount,
      now() - ((${SALES} - k) * (interval '${DAYS} days' / ${SALES})) as at,
      case when k % 50 = 0 then 'canceled'
           else (array['money','pix','debitCard','creditCard','pix'])[1 + k % 5] end as kind
    from gen_items group by k`);
  await client.query(`insert into sales (client_id, number, user_id, seller_id, status, type_of_sale,
      origin_sale, total_items, total_quantity, total_cents, final_amount_cents, canceled_at,
      cancel_reason, canceled_by_user_id, finished_at, created_at, updated_at)
    select ${clientId}, ${base} + k, ${userId}, (array[${sellers.join(',')}])[1 + k % ${sellers.length}],
      case when kind = 'canceled' then 'canceled' else 'finished' end,
      'store', (array['pdv','pdv','pdv','delivery','command'])[1 + k % 5], items, items, amount, amount,
      case when kind = 'canceled' then at end, case when kind = 'canceled' then 'Bench' end,
      case when kind = 'canceled' then ${userId} end,
      case when kind <> 'canceled' then at end, at, at
    from gen_sales order by k`);
  await client.query(`create temp table sale_ids as
    select s.id, g.k, g.kind, g.amount, g.at from gen_sales g
    join sales s on s.client_id = ${clientId} and s.number = ${base} + g.k`);
  await client.query(`insert into sale_items (sale_id, client_id, position, product_id, description, unit,
      quantity, unit_price_cents, unit_total_cents, gross_cents, total_cents)
    select s.id, ${clientId}, i.pos, i.product_id, 'Produto bench ' || i.product_id, 'un', 1, i.price, i.price,
      i.price, i.price
    from gen_items i join sale_ids s on s.k = i.k order by i.k, i.pos`);
  await client.query(`insert into sale_payments (sale_id, client_id, position, method, amount_cents)
    select id, ${clientId}, 1, case when kind = 'canceled' then 'pix' else kind end, amount
    from sale_ids order by k`);
  // 1% of the sales (not canceled) return their first line a day later, refunded in the same method.
  await client.query(`create temp table gen_returns as
    select s.id as sale_id, s.at + interval '1 day' as at, i.id as item_id, i.total_cents as amount,
      case when s.kind = 'canceled' then 'pix' else s.kind end as method
    from sale_ids s join sale_items i on i.sale_id = s.id and i.position = 1
    where s.k % 100 = 7 and s.kind <> 'canceled'`);
  await client.query(`insert into sale_returns (client_id, sale_id, user_id, refund, amount_cents, reason, created_at)
    select ${clientId}, sale_id, ${userId}, 'original', amount, 'Bench', at from gen_returns`);
  await client.query(`insert into sale_return_items (return_id, sale_item_id, quantity, restock, amount_cents)
    select r.id, g.item_id, 1, true, g.amount from gen_returns g join sale_returns r on r.sale_id = g.sale_id`);
  await client.query(`insert into sale_return_refunds (return_id, method, amount_cents)
    select r.id, g.method, g.amount from gen_returns g join sale_returns r on r.sale_id = g.sale_id`);
  await client.query(`update sale_counters set last = (select max(number) from sales where client_id = ${clientId})
    where client_id = ${clientId}`);
  await client.query('commit');
  await client.query('set session_replication_role = origin');
  const counts = (
    await client.query(`select (select count(*) from sales where client_id = ${clientId}) as sales,
      (select count(*) from sale_items where client_id = ${clientId}) as items,
      (select count(*) from sale_returns where client_id = ${clientId}) as returns`)
  ).rows[0];
  console.log(
    `loaded ${counts.sales} sales, ${counts.items} lines, ${counts.returns} returns in ${(ms(start) / 1000).toFixed(0)} s`,
  );
  start = process.hrtime.bigint();
  await client.query(`select sale_report_rebuild(${clientId})`);
  console.log(`reports' daily summary rebuilt (sale_report_rebuild) in ${(ms(start) / 1000).toFixed(1)} s`);
  start = process.hrtime.bigint();
  await client.query('vacuum analyze');
  console.log(`vacuum analyze in ${(ms(start) / 1000).toFixed(0)} s`);
}

/** Times one call: a warm-up, then BENCH_SAMPLES calls one after another (p50, p95, max in ms). */
async function timed<T>(label: string, call: () => Promise<T>, describe: (r: T) => string) {
  await call();
  const times: number[] = [];
  let result: T | null = null;
  for (let i = 0; i < SAMPLES; i++) {
    const t0 = process.hrtime.bigint();
    result = await call();
    times.push(ms(t0));
  }
  times.sort((a, b) => a - b);
  console.log(
    `| ${label} | ${result === null ? '' : describe(result)} | ${percentile(times, 50).toFixed(0)} | ${percentile(times, 95).toFixed(0)} | ${times.at(-1)?.toFixed(0)} |`,
  );
}

/** The finance reports (issue 34) on the loaded sales: DRE, cash flow, stock turnover. */
async function measureFinance(
  database: ReturnType<typeof fromPostgres>,
  actor: { clientId: number; userId: number },
  today: string,
) {
  await loadStockLedger(actor.clientId);
  const db = database.db;
  const month = addDays(`${today.slice(0, 7)}-01`, -1).slice(0, 7);
  const monthFrom = `${month}-01`;
  const monthTo = addDays(`${today.slice(0, 7)}-01`, -1);
  const yearFrom = addDays(today, -364);
  const cents = (n: number) => `R$ ${(n / 100).toFixed(2)}`;
  console.log(
    `\nfinance (month ${month}):\n| call | result | p50 ms | p95 ms | max ms |\n|---|---|---|---|---|`,
  );
  await timed(
    `DRE of ${month} beside the month before (the page's call)`,
    () => dreCompared(db, actor, month),
    (r) => `${r.salesCount} sales, CMV ${cents(-(r.lines.find((l) => l.key === 'cmv')?.amountCents ?? 0))}`,
  );
  await timed(
    'DRE sale figures of 365 days',
    () => saleFiguresBetween(db, actor.clientId, yearFrom, addDays(today, 1)),
    (r) => `${r.salesCount} sales, CMV ${cents(r.cmvCents)}`,
  );
  await timed(
    `cash flow of ${month} by day`,
    () => cashFlow(db, actor, { from: monthFrom, to: monthTo, groupBy: 'day' }),
    (r) => `${r.rows.length} rows, in ${cents(r.totals.salesInCents)}`,
  );
  await timed(
    'cash flow of 365 days by month',
    () => cashFlow(db, actor, { from: yearFrom, to: today, groupBy: 'month' }),
    (r) => `${r.rows.length} rows, in ${cents(r.totals.salesInCents)}`,
  );
  await timed(
    `stock turnover of ${month}`,
    () => stockTurnoverReport(db, actor, { from: monthFrom, to: monthTo }),
    (r) => `${r.products.length} products, CMV ${cents(r.products.reduce((s, p) => s + p.cogsCents, 0))}`,
  );
  await timed(
    'stock turnover of 365 days',
    () => stockTurnoverReport(db, actor, { from: yearFrom, to: today }),
    (r) => `${r.products.length} products, CMV ${cents(r.products.reduce((s, p) => s + p.cogsCents, 0))}`,
  );
  console.log(
    `load average after finance: ${loadavg()
      .map((n) => n.toFixed(1))
      .join(' ')}`,
  );
}

/**
 * The stock ledger of the loaded sales, when the database has none: an opening entry per bench product
 * a day before the first sale, a `sale` row per line (-1 at the product's cost: the weighted average the
 * checkout writes), `sale-cancel` rows for the canceled sales and `sale-return` rows for the returns.
 */
async function loadStockLedger(clientId: number) {
  const [{ n }] = (
    await client.query(
      `select count(*)::int as n from stock_movements where client_id = ${clientId} and type = 'sale'`,
    )
  ).rows;
  if (n > 0) return;
  const start = process.hrtime.bigint();
  // The home's daily payments (the cash flow reads them; the loader ran with triggers off).
  await client.query(`insert into sale_daily_payments (client_id, day, method, amount_cents)
    select ${clientId}, (s.created_at at time zone c.time_zone)::date, p.method, sum(p.amount_cents)
    from sales s join sale_payments p on p.sale_id = s.id join clients c on c.id = s.client_id
    where s.client_id = ${clientId} and s.status <> 'canceled' group by 2, 3
    on conflict (client_id, day, method) do update set amount_cents = excluded.amount_cents`);
  await client.query('begin');
  await client.query(`insert into stock_movements (client_id, product_id, type, quantity, unit_cost_cents, created_at)
    select ${clientId}, p.id, 'entry', 5000, p.cost_price_cents, now() - interval '${DAYS + 1} days'
    from products p where p.client_id = ${clientId} and p.name like 'Produto bench %'`);
  await client.query(`insert into stock_movements (client_id, product_id, type, quantity, unit_cost_cents, sale_id, created_at)
    select ${clientId}, i.product_id, 'sale', -i.quantity, p.cost_price_cents, s.id, s.created_at
    from sales s join sale_items i on i.sale_id = s.id join products p on p.id = i.product_id
    where s.client_id = ${clientId} and p.name like 'Produto bench %' order by s.created_at, i.id`);
  await client.query(`insert into stock_movements (client_id, product_id, type, quantity, unit_cost_cents, sale_id, created_at)
    select ${clientId}, i.product_id, 'sale-cancel', i.quantity, null, s.id, s.canceled_at
    from sales s join sale_items i on i.sale_id = s.id join products p on p.id = i.product_id
    where s.client_id = ${clientId} and s.status = 'canceled' and p.name like 'Produto bench %'`);
  await client.query(`insert into stock_movements (client_id, product_id, type, quantity, unit_cost_cents, sale_id, created_at)
    select ${clientId}, i.product_id, 'sale-return', ri.quantity, null, r.sale_id, r.created_at
    from sale_returns r join sale_return_items ri on ri.return_id = r.id join sale_items i on i.id = ri.sale_item_id
    join products p on p.id = i.product_id
    where r.client_id = ${clientId} and p.name like 'Produto bench %'`);
  await client.query('commit');
  await client.query('vacuum analyze stock_movements');
  await client.query('vacuum analyze stock_month_totals');
  const [{ rows }] = (
    await client.query(`select count(*)::int as rows from stock_movements where client_id = ${clientId}`)
  ).rows;
  console.log(`stock ledger of the sales: ${rows} rows in ${(ms(start) / 1000).toFixed(0)} s`);
  // The reports' summary was rebuilt before the ledger existed: its CMV (issue 34) is the ledger's cost.
  const rebuilt = process.hrtime.bigint();
  await client.query(`select sale_report_rebuild(${clientId})`);
  await client.query('vacuum analyze sale_daily_products');
  console.log(`reports' daily summary rebuilt with the ledger's CMV in ${(ms(rebuilt) / 1000).toFixed(1)} s`);
}
