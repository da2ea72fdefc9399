/**
 * The finance reports of issue 34 on PGlite (the embedded default): bench/big-shop.ts's generated shop
 * (BENCH_SALES sales, default 100,000, over two years, 1-5 lines each) with its stock ledger (a `sale` row
 * per line at its product's cost) and the home's daily payments written here (the generator runs with
 * triggers off), then the DRE of the last full month, the DRE's sale figures of 365 days, the cash flow
 * of a month (by day) and of a year (by month) and the stock turnover of a month and of a year, timed
 * in-process as bench/reports.ts's `finance` part (a warm-up, then BENCH_SAMPLES calls).
 *
 *   BENCH_SALES=100000 npx tsx bench/finance-pglite.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { addDays } from '@balcao/core/date';
import { dateIn } from '@balcao/core/time';
import { cashFlow, dre } from '../apps/api/src/modules/finance/service.ts';
import { stockTurnoverReport } from '../apps/api/src/modules/report/turnover.ts';
import { saleFiguresBetween } from '../apps/api/src/modules/sale/financeFigures.ts';
import { generateShop } from './big-shop.ts';
import { machine } from './lib.ts';

const SALES = Number(process.env.BENCH_SALES ?? 100_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 3);
const ms = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

const dir = mkdtempSync(join(tmpdir(), 'balcao-finance-pglite-'));
try {
  let start = process.hrtime.bigint();
  const shop = await generateShop(dir, { sales: SALES, products: 2000 });
  const { client, clientId } = shop;
  console.log(`\n${new Date().toISOString().slice(0, 10)} · ${machine()} · PGlite`);
  console.log(`generated ${SALES} sales in ${(ms(start) / 1000).toFixed(0)} s`);
  start = process.hrtime.bigint();
  await client.exec(`
    begin;
    update products set cost_price_cents = 200 + (id * 137) % 9000
      where client_id = ${clientId} and name like 'Produto bench %';
    insert into stock_movements (client_id, product_id, type, quantity, unit_cost_cents, sale_id, created_at)
      select ${clientId}, i.product_id, 'sale', -i.quantity, p.cost_price_cents, s.id, s.created_at
      from sales s join sale_items i on i.sale_id = s.id join products p on p.id = i.product_id
      where s.client_id = ${clientId} and s.number > 1000000 order by s.created_at, i.id;
    insert into sale_daily_payments (client_id, day, method, amount_cents)
      select ${clientId}, (s.created_at at time zone c.time_zone)::date, p.method, sum(p.amount_cents)
      from sales s join sale_payments p on p.sale_id = s.id join clients c on c.id = s.client_id
      where s.client_id = ${clientId} and s.number > 1000000 group by 2, 3
      on conflict (client_id, day, method) do update set amount_cents = excluded.amount_cents;
    commit;
    select sale_report_rebuild(${clientId});
    analyze;`);
  // The generator wrote the sales with triggers off: the reports' summary (the DRE's figures and CMV,
  // issue 34) is rebuilt once the ledger is in; the ledger's own triggers kept its month totals.
  console.log(`stock ledger, daily payments and the reports' summary in ${(ms(start) / 1000).toFixed(0)} s`);

  const db = shop.database.db;
  const actor = { clientId, userId: shop.userId };
  const today = dateIn('America/Sao_Paulo');
  const month = addDays(`${today.slice(0, 7)}-01`, -1).slice(0, 7);
  const monthFrom = `${month}-01`;
  const monthTo = addDays(`${today.slice(0, 7)}-01`, -1);
  const yearFrom = addDays(today, -364);
  const cents = (n: number) => `R$ ${(n / 100).toFixed(2)}`;
  const timed = async <T>(label: string, call: () => Promise<T>, describe: (r: T) => string) => {
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
  };
  console.log(`\n| call | result | p50 ms | p95 ms | max ms |\n|---|---|---|---|---|`);
  await timed(
    `DRE of ${month}`,
    () => dre(db, actor, month),
    (r) => `${r.salesCount} sales, CMV ${cents(-(r.lines.find((l) => l.key === 'cmv')?.amountCents ?? 0))}`,
  );
  await timed(
    'DRE sale figures of 365 days',
    () => saleFiguresBetween(db, clientId, yearFrom, addDays(today, 1)),
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
    `load average at the end: ${loadavg()
      .map((n) => n.toFixed(1))
      .join(' ')}`,
  );
  await shop.database.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
