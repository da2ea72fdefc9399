import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import { num } from '../../lib/pg.ts';
import { zoneDayStartSql } from '../../lib/shopToday.ts';
import { productCategorySql } from '../product/categoryOf.ts';
import { productCostSql } from '../product/costOf.ts';
import {
  saleDailyCancels,
  saleDailyGroups,
  saleDailyPayments,
  saleDailyProducts,
  saleItems,
  saleReturnItems,
  saleReturns,
  sales,
} from './schema.ts';

/**
 * What the sales reports (issue 34, module report) read of the sales: a shop-local period [from, to]
 * (both inclusive) of sales not canceled, each net of its own returns whenever they were made (a
 * return takes its value off the sale's day, seller, method and products, as the daily summary does).
 * Every statement reads the period's sales through the (client, created_at) index once; returns are
 * joined pre-aggregated (a return is never older than its sale, so `created_at >= from` bounds them).
 */

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

export type ReportPeriod = { clientId: number; from: string; to: string; timeZone: string };

const startOf = (p: ReportPeriod) => zoneDayStartSql(p.timeZone, p.from);
const endOf = (p: ReportPeriod) => zoneDayStartSql(p.timeZone, p.to, 1);
const inPeriod = (p: ReportPeriod, status: SQL) =>
  sql`s.client_id = ${p.clientId} and ${status} and s.created_at >= ${startOf(p)} and s.created_at < ${endOf(p)}`;
const kept = (p: ReportPeriod) => inPeriod(p, sql`s.status <> 'canceled'`);

/** The value returned of each sale of the period (returns made from the period's start on). */
const returnsBySale = (p: ReportPeriod) => sql`(select r.sale_id, sum(r.amount_cents) as amount
  from ${saleReturns} r where r.client_id = ${p.clientId} and r.created_at >= ${startOf(p)} group by r.sale_id)`;

export type SaleGroupRow = {
  salesCount: number;
  grossCents: number;
  discountsCents: number;
  returnsCents: number;
  netCents: number;
};

export type SaleGroups = {
  total: SaleGroupRow;
  byDay: (SaleGroupRow & { day: string })[];
  bySeller: (SaleGroupRow & { userId: number })[];
  byOrigin: (SaleGroupRow & { origin: string })[];
  byHour: (SaleGroupRow & { weekday: number; hour: number })[];
};

type GroupRow = {
  day: string | null;
  seller: number | null;
  origin: string | null;
  dow: number | null;
  hour: number | null;
  count: number;
  gross: string;
  discounts: string;
  returns: string;
  net: string;
};

/**
 * The raw reading (the summary's reference in the tests, `saleGroups` reads the summary).
 * The period's sales grouped five ways in one statement (GROUPING SETS: one scan of the sales): by
 * shop day, by seller (the seller credited, else the operator), by origin, by weekday x hour on the
 * shop's clock, and the total. `totalOnly`: the total alone (the previous period's comparison).
 */
export async function saleGroupsFromSales(
  db: Executor,
  p: ReportPeriod,
  totalOnly = false,
): Promise<SaleGroups> {
  const sets = totalOnly ? sql`()` : sql`(d.day), (d.seller), (d.origin), (d.dow, d.hour), ()`;
  const keys = totalOnly
    ? sql`null::text as day, null::int as seller, null::text as origin, null::int as dow, null::int as hour`
    : sql`d.day::text as day, d.seller, d.origin, d.dow, d.hour`;
  // The shop's wall clock is computed once per sale (the inner select), its day, weekday and hour from it.
  const rows = rowsOf<GroupRow>(
    await db.execute(sql`select ${keys}, count(*)::int as count,
        sum(d.gross) as gross, sum(d.discounts) as discounts, sum(d.returned) as returns,
        sum(d.final - d.returned) as net
      from (select l.local::date as day, l.seller, l.origin, extract(isodow from l.local)::int - 1 as dow,
          extract(hour from l.local)::int as hour, l.gross, l.discounts, l.final, l.returned
        from (select s.created_at at time zone ${p.timeZone}::text as local,
            coalesce(s.seller_id, s.user_id) as seller, s.origin_sale as origin,
            s.total_cents + s.items_discount_cents + s.freight_cents as gross,
            s.items_discount_cents + s.discount_cents + s.coupon_discount_cents as discounts,
            s.final_amount_cents as final, coalesce(r.amount, 0) as returned
          from ${sales} s left join ${returnsBySale(p)} r on r.sale_id = s.id
          where ${kept(p)}) l) d
      group by grouping sets (${sets})`),
  );
  return groupsOf(rows);
}

function groupsOf(rows: GroupRow[]): SaleGroups {
  const figures = (r: GroupRow): SaleGroupRow => ({
    salesCount: r.count,
    grossCents: num(r.gross),
    discountsCents: num(r.discounts),
    returnsCents: num(r.returns),
    netCents: num(r.net),
  });
  const empty: SaleGroupRow = {
    salesCount: 0,
    grossCents: 0,
    discountsCents: 0,
    returnsCents: 0,
    netCents: 0,
  };
  const out: SaleGroups = { total: empty, byDay: [], bySeller: [], byOrigin: [], byHour: [] };
  for (const r of rows) {
    if (r.day !== null) out.byDay.push({ day: r.day, ...figures(r) });
    else if (r.seller !== null) out.bySeller.push({ userId: r.seller, ...figures(r) });
    else if (r.origin !== null) out.byOrigin.push({ origin: r.origin, ...figures(r) });
    else if (r.dow !== null && r.hour !== null)
      out.byHour.push({ weekday: r.dow, hour: r.hour, ...figures(r) });
    else out.total = figures(r);
  }
  out.byDay.sort((a, b) => a.day.localeCompare(b.day));
  return out;
}

/**
 * The period's money by payment method from the daily summary (`sale_daily_payments`, kept by triggers):
 * what was paid (cash net of change) minus what its returns refunded in each method, on the sale's shop
 * day, as the reports net; a refund as vale-troca is its own negative method (`storeCredit`), so the
 * methods add up to the sales' net. A year reads ~365 x methods rows, never the sales.
 */
export async function salePaymentsByMethod(
  db: Executor,
  p: ReportPeriod,
): Promise<{ method: string; amountCents: number }[]> {
  const rows = rowsOf<{ method: string; amount: string }>(
    await db.execute(sql`select ${saleDailyPayments.method} as method, sum(${saleDailyPayments.amountCents}) as amount
      from ${saleDailyPayments}
      where ${saleDailyPayments.clientId} = ${p.clientId} and ${saleDailyPayments.day} between ${p.from} and ${p.to}
      group by 1 order by 2 desc, 1`),
  );
  return rows.map((r) => ({ method: r.method, amountCents: num(r.amount) }));
}

export type ProductFigures = {
  productId: number | null;
  name: string;
  categoryId: number | null;
  quantity: number;
  revenueCents: number;
  costCents: number;
};

/** A line's revenue: its total less its share of the sale's discount and coupon, rounded per line. */
const lineRevenueSql = sql`sale_line_revenue(i.total_cents, s.total_cents, s.discount_cents, s.coupon_discount_cents)`;

/**
 * The raw reading (the summary's reference in the tests, `saleProductFigures` reads the summary).
 * Every product sold in the period: quantity kept (sold - returned), revenue net of the line discount,
 * of its share of the sale's discount and coupon, and of what came back; cost = quantity kept x the
 * product's cost (`product/costOf.ts`, as the DRE's CMV). Lines without a product (quick sales) are
 * one row with a null id.
 */
export async function saleProductFiguresFromSales(db: Executor, p: ReportPeriod): Promise<ProductFigures[]> {
  const rows = rowsOf<ProductRow>(
    await db.execute(sql`select g.product_id, g.name, g.quantity, g.revenue,
        case when g.product_id is null then null else ${productCategorySql(p.clientId, sql`g.product_id`)} end
          as category_id,
        case when g.product_id is null then 0
          else round(g.quantity * ${productCostSql(sql`g.product_id`)}) end as cost
      from (select i.product_id, min(i.description) as name,
          sum(i.quantity - coalesce(ri.quantity, 0)) as quantity,
          sum(${lineRevenueSql} - coalesce(ri.amount, 0)) as revenue
        from ${sales} s join ${saleItems} i on i.sale_id = s.id
        left join (select ri.sale_item_id, sum(ri.quantity) as quantity, sum(ri.amount_cents) as amount
            from ${saleReturnItems} ri join ${saleReturns} r on r.id = ri.return_id
            where r.client_id = ${p.clientId} and r.created_at >= ${startOf(p)} group by ri.sale_item_id) ri
          on ri.sale_item_id = i.id
        where ${kept(p)}
        group by i.product_id) g`),
  );
  return productsOf(rows);
}

type ProductRow = {
  product_id: number | null;
  name: string;
  category_id: number | null;
  quantity: string;
  revenue: string;
  cost: string;
};

const productsOf = (rows: ProductRow[]): ProductFigures[] =>
  rows.map((r) => ({
    productId: r.product_id,
    name: r.name,
    categoryId: r.category_id,
    quantity: Number(r.quantity),
    revenueCents: num(r.revenue),
    costCents: num(r.cost),
  }));

/** The raw reading (the reference in the tests). The period's canceled sales (by the sale's date) by who canceled them. */
export async function canceledSalesFromSales(
  db: Executor,
  p: ReportPeriod,
): Promise<{ userId: number | null; salesCount: number; netCents: number }[]> {
  const rows = rowsOf<{ user_id: number | null; count: number; amount: string }>(
    await db.execute(sql`select s.canceled_by_user_id as user_id, count(*)::int as count,
        sum(s.final_amount_cents) as amount
      from ${sales} s where ${inPeriod(p, sql`s.status = 'canceled'`)}
      group by s.canceled_by_user_id order by count(*) desc`),
  );
  return rows.map((r) => ({ userId: r.user_id, salesCount: r.count, netCents: num(r.amount) }));
}

/**
 * What the report pages read (issue 34): the daily summary kept exact by the triggers of migration
 * `sale_report_summary` (`sale_daily_groups`, `sale_daily_products`, `sale_daily_cancels`), the same
 * figures as the raw readings above (proved by report.test.ts), a year in ~365 x products rows.
 */
const dayIn = (p: ReportPeriod, table: SQL) =>
  sql`${table}.client_id = ${p.clientId} and ${table}.day between ${p.from}::date and ${p.to}::date`;

export async function saleGroups(db: Executor, p: ReportPeriod, totalOnly = false): Promise<SaleGroups> {
  const sets = totalOnly ? sql`()` : sql`(g.day), (g.seller_id), (g.origin), (g.dow, g.hour), ()`;
  const keys = totalOnly
    ? sql`null::text as day, null::int as seller, null::text as origin, null::int as dow, null::int as hour`
    : sql`g.day::text as day, g.seller_id as seller, g.origin, g.dow, g.hour`;
  const rows = rowsOf<GroupRow>(
    await db.execute(sql`select ${keys}, sum(g.sales_count)::int as count, sum(g.gross_cents) as gross,
        sum(g.discounts_cents) as discounts, sum(g.returns_cents) as returns,
        sum(g.final_cents - g.returns_cents) as net
      from (select g.*, extract(isodow from g.day)::int - 1 as dow
        from ${saleDailyGroups} g where ${dayIn(p, sql`g`)}) g
      group by grouping sets (${sets})
      having sum(g.sales_count) > 0`),
  );
  return groupsOf(rows);
}

export async function saleProductFigures(db: Executor, p: ReportPeriod): Promise<ProductFigures[]> {
  const rows = rowsOf<ProductRow>(
    await db.execute(sql`select g.product_id, g.name, g.quantity, g.revenue,
        case when g.product_id is null then null else ${productCategorySql(p.clientId, sql`g.product_id`)} end
          as category_id,
        case when g.product_id is null then 0
          else round(g.quantity * ${productCostSql(sql`g.product_id`)}) end as cost
      from (select d.product_id, min(d.name) filter (where d.lines_count > 0) as name,
          sum(d.quantity) as quantity, sum(d.revenue_cents) as revenue
        from ${saleDailyProducts} d where ${dayIn(p, sql`d`)}
        group by d.product_id having sum(d.lines_count) > 0) g`),
  );
  return productsOf(rows);
}

export async function canceledSalesByUser(
  db: Executor,
  p: ReportPeriod,
): Promise<{ userId: number | null; salesCount: number; netCents: number }[]> {
  const rows = rowsOf<{ user_id: number | null; count: number; amount: string }>(
    await db.execute(sql`select c.user_id, sum(c.sales_count)::int as count, sum(c.amount_cents) as amount
      from ${saleDailyCancels} c where ${dayIn(p, sql`c`)}
      group by c.user_id having sum(c.sales_count) > 0 order by sum(c.sales_count) desc`),
  );
  return rows.map((r) => ({ userId: r.user_id, salesCount: r.count, netCents: num(r.amount) }));
}

/** The readings a report is built from: the summary's (the pages) or the raw sales' (the tests' reference). */
export type ReportFigures = {
  groups: typeof saleGroups;
  products: typeof saleProductFigures;
  canceled: typeof canceledSalesByUser;
};
export const summaryFigures: ReportFigures = {
  groups: saleGroups,
  products: saleProductFigures,
  canceled: canceledSalesByUser,
};
export const rawFigures: ReportFigures = {
  groups: saleGroupsFromSales,
  products: saleProductFiguresFromSales,
  canceled: canceledSalesFromSales,
};

export type SaleLineRow = {
  saleId: number;
  number: number;
  createdAt: string;
  sellerId: number;
  origin: string;
  productId: number | null;
  description: string;
  variantName: string | null;
  sku: string | null;
  barcode: string | null;
  quantity: number;
  returnedQuantity: number;
  unitPriceCents: number;
  discountCents: number;
  totalCents: number;
  returnedCents: number;
};

/**
 * Every line of the period's sales (not canceled), in the order they were sold, `pageSize` sales per
 * statement by keyset (created_at, id): the whole export at constant memory, whatever its size.
 */
export async function* eachSaleLine(
  db: Executor,
  p: ReportPeriod,
  pageSize = 2000,
): AsyncGenerator<SaleLineRow> {
  let after: { at: string; id: number } | null = null;
  for (;;) {
    const cursor: SQL = after
      ? sql`and (s.created_at, s.id) > (${after.at}::timestamptz, ${after.id})`
      : sql``;
    const rows = rowsOf<{
      sale_id: number;
      number: number;
      created_at: string;
      at: string;
      seller: number;
      origin: string;
      product_id: number | null;
      description: string;
      variant_name: string | null;
      sku: string | null;
      barcode: string | null;
      quantity: string;
      unit_price_cents: number;
      discount_cents: number;
      total_cents: number;
      returned_quantity: string | null;
      returned_amount: string | null;
    }>(
      await db.execute(sql`with page as (
          select s.id, s.number, s.created_at, coalesce(s.seller_id, s.user_id) as seller, s.origin_sale
          from ${sales} s where ${kept(p)} ${cursor}
          order by s.created_at, s.id limit ${pageSize}),
        returned as (select x.sale_item_id, sum(x.quantity) as quantity, sum(x.amount_cents) as amount
          from ${saleReturns} r join ${saleReturnItems} x on x.return_id = r.id
          where r.sale_id in (select id from page) group by x.sale_item_id)
        select page.id as sale_id, page.number, to_json(page.created_at)#>>'{}' as created_at,
          page.created_at::text as at, page.seller, page.origin_sale as origin, i.product_id, i.description,
          i.variant_name, i.sku, i.barcode, i.quantity, i.unit_price_cents, i.discount_cents, i.total_cents,
          ri.quantity as returned_quantity, ri.amount as returned_amount
        from page join ${saleItems} i on i.sale_id = page.id
        left join returned ri on ri.sale_item_id = i.id
        order by page.created_at, page.id, i.position`),
    );
    if (rows.length === 0) return;
    for (const r of rows)
      yield {
        saleId: r.sale_id,
        number: r.number,
        createdAt: r.created_at,
        sellerId: r.seller,
        origin: r.origin,
        productId: r.product_id,
        description: r.description,
        variantName: r.variant_name,
        sku: r.sku,
        barcode: r.barcode,
        quantity: Number(r.quantity),
        returnedQuantity: Number(r.returned_quantity ?? 0),
        unitPriceCents: r.unit_price_cents,
        discountCents: r.discount_cents,
        totalCents: r.total_cents,
        returnedCents: num(r.returned_amount),
      };
    const last = rows[rows.length - 1];
    after = { at: last.at, id: last.sale_id };
    // A page of sales without lines cannot end the loop early: the next page starts after its last sale.
    if (new Set(rows.map((r) => r.sale_id)).size < pageSize) {
      const more = rowsOf<{ one: number }>(
        await db.execute(sql`select 1 as one from ${sales} s where ${kept(p)}
          and (s.created_at, s.id) > (${after.at}::timestamptz, ${after.id}) limit 1`),
      );
      if (more.length === 0) return;
    }
  }
}

/** A text cell of the CSV written by SQL exactly as routes' `textCell` (Papa with escapeFormulae) writes it. */
const csvText = (value: SQL) => sql`(case when coalesce(${value}, '') = '' then ''
  when ${value} ~ ('^[-=+@' || chr(9) || chr(13) || ']') then '"' || replace('''' || ${value}, '"', '""') || '"'
  when ${value} ~ ('[;"' || chr(13) || chr(10) || ']|^[[:space:]]|[[:space:]]$')
    then '"' || replace(${value}, '"', '""') || '"'
  else ${value} end)`;
const csvMoney = (cents: SQL) => sql`replace((${cents}::numeric / 100)::numeric(20, 2)::text, '.', ',')`;
const csvQuantity = (value: SQL) => sql`replace(trim_scale(${value}::numeric)::text, '.', ',')`;

/**
 * Every line of the period's sales (not canceled) as ONE text column holding its CSV line (the report's
 * LINE_COLUMNS, ";" separated, cells as the JS export writes them: the time on the shop's clock
 * "05/01/2026 16:08", money "39,00", a decimal comma, text quoted as Papa does), in the order sold: what
 * PostgreSQL's COPY streams (`lib/copyOut.ts`) so that Node only passes the bytes on. `originLabels`: the
 * origin's label by code.
 */
export function saleLinesCsvSql(p: ReportPeriod, originLabels: Record<string, string>): SQL {
  return sql`select concat_ws(';', s.number::text,
      to_char(s.created_at at time zone ${p.timeZone}::text, 'DD/MM/YYYY HH24:MI'),
      ${csvText(sql`u.name`)},
      ${csvText(sql`coalesce(${JSON.stringify(originLabels)}::jsonb ->> s.origin_sale, s.origin_sale)`)},
      coalesce(i.product_id::text, ''), ${csvText(sql`i.description`)}, ${csvText(sql`i.variant_name`)},
      ${csvText(sql`i.sku`)}, ${csvText(sql`i.barcode`)}, ${csvQuantity(sql`i.quantity`)},
      ${csvQuantity(sql`coalesce(ri.quantity, 0)`)}, ${csvMoney(sql`i.unit_price_cents`)},
      ${csvMoney(sql`i.discount_cents`)}, ${csvMoney(sql`i.total_cents`)},
      ${csvMoney(sql`coalesce(ri.amount, 0)`)}) as line
    from ${sales} s join ${saleItems} i on i.sale_id = s.id
    left join ${users} u on u.id = coalesce(s.seller_id, s.user_id) and u.client_id = ${p.clientId}
    left join (select x.sale_item_id, sum(x.quantity) as quantity, sum(x.amount_cents) as amount
        from ${saleReturns} r join ${saleReturnItems} x on x.return_id = r.id
        where r.client_id = ${p.clientId} and r.created_at >= ${startOf(p)} group by x.sale_item_id) ri
      on ri.sale_item_id = i.id
    where ${kept(p)}
    order by s.created_at, s.id, i.position`;
}

/**
 * Every line of the period's sales (not canceled) as columns c0..c14 in the report's LINE_COLUMNS order (sale
 * number, the time on the shop's wall clock as a timestamp, seller, origin label, product id, description,
 * variant, SKU, barcode, quantity, returned quantity, unit price, item discount, item total, returned amount:
 * money in cents) and `n`, the line's 1-based number in the export, in the order sold: the source of the XLSX
 * export's rows (`xlsxRowsSql`), streamed by COPY.
 */
export function saleLinesSql(p: ReportPeriod, originLabels: Record<string, string>): SQL {
  const cells = [
    sql`s.number`,
    sql`(s.created_at at time zone ${p.timeZone}::text)`,
    sql`u.name`,
    sql`coalesce(${JSON.stringify(originLabels)}::jsonb ->> s.origin_sale, s.origin_sale)`,
    sql`i.product_id`,
    sql`i.description`,
    sql`i.variant_name`,
    sql`i.sku`,
    sql`i.barcode`,
    sql`i.quantity`,
    sql`coalesce(ri.quantity, 0)`,
    sql`i.unit_price_cents`,
    sql`i.discount_cents`,
    sql`i.total_cents`,
    sql`coalesce(ri.amount, 0)`,
  ].map((cell, i) => sql`${cell} as ${sql.raw(`c${i}`)}`);
  return sql`select ${sql.join(cells, sql`, `)}, row_number() over (order by s.created_at, s.id, i.position) as n
    from ${sales} s join ${saleItems} i on i.sale_id = s.id
    left join ${users} u on u.id = coalesce(s.seller_id, s.user_id) and u.client_id = ${p.clientId}
    left join (select x.sale_item_id, sum(x.quantity) as quantity, sum(x.amount_cents) as amount
        from ${saleReturns} r join ${saleReturnItems} x on x.return_id = r.id
        where r.client_id = ${p.clientId} and r.created_at >= ${startOf(p)} group by x.sale_item_id) ri
      on ri.sale_item_id = i.id
    where ${kept(p)}
    order by s.created_at, s.id, i.position`;
}
