import {
  BUDGET_ANSWER_LABELS,
  BUDGET_STATUS_LABELS,
  type BudgetListItem,
  type BudgetListQueryParsed,
  type BudgetListResult,
} from '@balcao/core/budget';
import { centsToDecimalString } from '@balcao/core/money';
import { formatInZone } from '@balcao/core/time';
import { and, eq, gte, lt, or, type SQL, sql } from 'drizzle-orm';
import Papa from 'papaparse';
import type { Db } from '../../db/client.ts';
import { orderByOf } from '../../lib/list.ts';
import { shopClock, shopDayStartSql, shopTodaySql } from '../../lib/shopToday.ts';
import { customerMatchesSql, customerRefSql } from '../customer/refs.ts';
import { budgets } from './schema.ts';
import { toBudget } from './service.ts';

/** The budget list (/dashboard/budget): filters, totals with the conversion rate, CSV. */

const openSql = sql`${budgets.status} in ('pending', 'sent')`;

function budgetWhere(
  clientId: number,
  query: Omit<BudgetListQueryParsed, 'page' | 'pageSize' | 'sort'>,
): SQL {
  const today = shopTodaySql(clientId);
  const conditions: (SQL | undefined)[] = [eq(budgets.clientId, clientId)];
  if (query.from) conditions.push(gte(budgets.createdAt, shopDayStartSql(clientId, query.from)));
  if (query.to) conditions.push(lt(budgets.createdAt, shopDayStartSql(clientId, query.to, 1)));
  if (query.status === 'expired') conditions.push(sql`${openSql} and ${budgets.validUntil} < ${today}`);
  else if (query.status === 'pending' || query.status === 'sent')
    conditions.push(sql`${budgets.status} = ${query.status} and ${budgets.validUntil} >= ${today}`);
  else if (query.status) conditions.push(eq(budgets.status, query.status));
  if (query.customerId) conditions.push(eq(budgets.customerId, query.customerId));
  if (query.sellerId)
    conditions.push(sql`coalesce(${budgets.sellerId}, ${budgets.userId}) = ${query.sellerId}`);
  if (query.q) {
    const q = query.q.replace(/^#|^n[ºo°]\s*/i, '').trim();
    const search: SQL[] = [customerMatchesSql(sql`"budgets"."customer_id"`, query.q)];
    if (/^\d{1,9}$/.test(q)) search.push(eq(budgets.number, Number(q)));
    conditions.push(or(...search));
  }
  return and(...conditions) as SQL;
}

function order(sort: string | undefined) {
  return orderByOf<'createdAt' | 'number' | 'finalAmountCents' | 'validUntil'>(
    sort,
    {
      createdAt: budgets.createdAt,
      number: budgets.number,
      finalAmountCents: budgets.finalAmountCents,
      validUntil: budgets.validUntil,
    },
    { field: 'createdAt', direction: 'desc' },
    budgets.id,
  );
}

function selectPage(
  db: Db,
  clientId: number,
  where: SQL,
  sort: string | undefined,
  limit: number,
  offset: number,
) {
  return db
    .select({
      row: budgets,
      userName: sql<string>`(select u.name from users u where u.id = "budgets"."user_id")`,
      sellerName: sql<string | null>`(select u.name from users u where u.id = "budgets"."seller_id")`,
      customer: customerRefSql(sql`"budgets"."customer_id"`),
      today: sql<string>`${shopTodaySql(clientId)}::text`,
    })
    .from(budgets)
    .where(where)
    .orderBy(...order(sort))
    .limit(limit)
    .offset(offset);
}

type PageRow = Awaited<ReturnType<typeof selectPage>>[number];

function toListItem(r: PageRow): BudgetListItem {
  const b = toBudget(r.row, r, [], r.today);
  return {
    id: b.id,
    number: b.number,
    status: b.status,
    viewStatus: b.viewStatus,
    expired: b.expired,
    customer: b.customer,
    user: b.user,
    seller: b.seller,
    totalItems: b.totalItems,
    finalAmountCents: b.finalAmountCents,
    validUntil: b.validUntil,
    viewedAt: b.viewedAt,
    answer: b.answer,
    sale: b.sale,
    createdAt: b.createdAt,
  };
}

export async function listBudgets(
  db: Db,
  clientId: number,
  query: BudgetListQueryParsed,
): Promise<BudgetListResult> {
  const where = budgetWhere(clientId, query);
  const [rows, [t]] = await Promise.all([
    selectPage(db, clientId, where, query.sort, query.pageSize, (query.page - 1) * query.pageSize),
    db
      .select({
        count: sql<number>`count(*)::int`,
        amount: sql<number>`coalesce(sum(${budgets.finalAmountCents}), 0)::bigint`,
        converted: sql<number>`count(*) filter (where ${budgets.status} = 'finished')::int`,
        convertedAmount: sql<number>`coalesce(sum(${budgets.finalAmountCents}) filter (where ${budgets.status} = 'finished'), 0)::bigint`,
      })
      .from(budgets)
      .where(where),
  ]);
  const count = Number(t.count);
  const converted = Number(t.converted);
  return {
    items: rows.map(toListItem),
    total: count,
    page: query.page,
    pageSize: query.pageSize,
    totals: {
      count,
      finalAmountCents: Number(t.amount),
      convertedCount: converted,
      convertedAmountCents: Number(t.convertedAmount),
      conversionRate: count > 0 ? converted / count : 0,
    },
  };
}

const money = (cents: number) => centsToDecimalString(cents).replace('.', ',');

export const BUDGET_CSV_HEADER = `\uFEFF${Papa.unparse(
  [
    [
      'numero',
      'data',
      'status',
      'cliente',
      'vendedor',
      'itens',
      'total',
      'validade',
      'visualizado',
      'resposta',
      'venda',
    ],
  ],
  { delimiter: ';' },
)}\r\n`;

/** Every budget of the filter, in batches (CSV export through `sendCsvStream`). */
export async function* eachBudget(db: Db, clientId: number, query: BudgetListQueryParsed, batch = 500) {
  const where = budgetWhere(clientId, query);
  for (let offset = 0; ; offset += batch) {
    const rows = await selectPage(db, clientId, where, query.sort, batch, offset);
    for (const r of rows) yield toListItem(r);
    if (rows.length < batch) return;
  }
}

/** CSV lines of a batch, dates in the shop's time zone. */
export async function budgetCsvLines(db: Db, clientId: number) {
  const { timeZone, today } = await shopClock(db, clientId);
  const lines = (items: BudgetListItem[]) =>
    items.length === 0
      ? ''
      : `${Papa.unparse(
          items.map((b) => [
            String(b.number),
            formatInZone(b.createdAt, timeZone, 'sheet'),
            BUDGET_STATUS_LABELS[b.viewStatus],
            b.customer?.name ?? '',
            (b.seller ?? b.user).name,
            String(b.totalItems),
            money(b.finalAmountCents),
            b.validUntil.split('-').reverse().join('/'),
            b.viewedAt ? formatInZone(b.viewedAt, timeZone, 'sheet') : '',
            b.answer ? BUDGET_ANSWER_LABELS[b.answer] : '',
            b.sale ? String(b.sale.number) : '',
          ]),
          { delimiter: ';', header: false, escapeFormulae: true, newline: '\r\n' },
        )}\r\n`;
  return { today, lines };
}
