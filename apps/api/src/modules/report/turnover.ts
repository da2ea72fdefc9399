import { daysBetween, previousPeriod } from '@balcao/core/report';
import {
  daysOfStockOf,
  type StockTurnover,
  type StockTurnoverSection,
  type StockTurnoverTotals,
  turnoverOf,
} from '@balcao/core/stockTurnover';
import type { Executor } from '../../db/client.ts';
import type { Actor } from '../../lib/actor.ts';
import { productReportFacts } from '../product/find.ts';
import { turnoverLedger } from '../stock/turnover.ts';
import { reportPeriod } from './service.ts';
import type { Column, Table } from './tables.ts';

/**
 * Stock turnover and days of stock of a period (issue 34), per product and per category: the stock
 * ledger's levels and CMV (stock module) with each product's name, category and today's average cost
 * (product module). See core stockTurnover.ts for the formulas.
 */
type PeriodTurnover = Omit<StockTurnover, 'products' | 'categories' | 'summary' | 'previous'> & {
  products: Omit<StockTurnover['products'][number], 'previousCogsCents' | 'previousTurnover'>[];
  categories: Omit<StockTurnover['categories'][number], 'previousCogsCents' | 'previousTurnover'>[];
};

/** Every product of a period's turnover together (days of stock by value, as a category's). */
function totalsOf(report: PeriodTurnover): StockTurnoverTotals {
  const cogs = report.products.reduce((s, p) => s + p.cogsCents, 0);
  const avg = report.products.reduce((s, p) => s + p.averageStockCents, 0);
  const closing = report.products.reduce((s, p) => s + p.closingStockCents, 0);
  return {
    cogsCents: cogs,
    averageStockCents: avg,
    closingStockCents: closing,
    turnover: turnoverOf(cogs, avg),
    daysOfStock: daysOfStockOf(closing, cogs, report.days),
  };
}

/**
 * The turnover of a period beside the previous period of the same length (issue 34: every report compares):
 * the same reading run for both periods; each product and category row gets its CMV and turnover then.
 */
export async function stockTurnoverReport(
  db: Executor,
  actor: Actor,
  query: { from: string; to: string },
): Promise<StockTurnover> {
  const before = previousPeriod(query.from, query.to);
  const current = await periodTurnover(db, actor, query);
  const previous = await periodTurnover(db, actor, before);
  const products = new Map(previous.products.map((p) => [p.productId, p]));
  const categories = new Map(previous.categories.map((c) => [c.categoryName, c]));
  return {
    ...current,
    products: current.products.map((p) => ({
      ...p,
      previousCogsCents: products.get(p.productId)?.cogsCents ?? 0,
      previousTurnover: products.get(p.productId)?.turnover ?? null,
    })),
    categories: current.categories.map((c) => ({
      ...c,
      previousCogsCents: categories.get(c.categoryName)?.cogsCents ?? 0,
      previousTurnover: categories.get(c.categoryName)?.turnover ?? null,
    })),
    summary: totalsOf(current),
    previous: { ...totalsOf(previous), ...before },
  };
}

async function periodTurnover(
  db: Executor,
  actor: Actor,
  query: { from: string; to: string },
): Promise<PeriodTurnover> {
  const period = await reportPeriod(db, actor, query.from, query.to);
  const ledger = await turnoverLedger(db, period);
  const facts = await productReportFacts(
    db,
    actor.clientId,
    ledger.map((r) => r.productId),
  );
  const days = daysBetween(query.from, query.to) + 1;
  const products = ledger
    .filter((r) => r.openingQuantity !== 0 || r.closingQuantity !== 0 || r.soldQuantity !== 0)
    .flatMap((r) => {
      const fact = facts.get(r.productId);
      if (!fact) return [];
      const averageQuantity = Math.max((r.openingQuantity + r.closingQuantity) / 2, 0);
      const averageStockCents = Math.round(averageQuantity * fact.costPriceCents);
      const closingStockCents = Math.round(Math.max(r.closingQuantity, 0) * fact.costPriceCents);
      return [
        {
          productId: r.productId,
          name: fact.name,
          categoryName: fact.categoryName,
          openingQuantity: r.openingQuantity,
          closingQuantity: r.closingQuantity,
          soldQuantity: r.soldQuantity,
          cogsCents: r.cogsCents,
          averageStockCents,
          closingStockCents,
          turnover: turnoverOf(r.cogsCents, averageStockCents),
          daysOfStock: daysOfStockOf(r.closingQuantity, r.soldQuantity, days),
        },
      ];
    })
    .sort((a, b) => b.cogsCents - a.cogsCents || a.name.localeCompare(b.name, 'pt-BR'));
  const byCategory = new Map<
    string,
    { categoryName: string | null; cogs: number; avg: number; closing: number; sold: number }
  >();
  for (const p of products) {
    const key = p.categoryName ?? '';
    const c = byCategory.get(key) ?? { categoryName: p.categoryName, cogs: 0, avg: 0, closing: 0, sold: 0 };
    c.cogs += p.cogsCents;
    c.avg += p.averageStockCents;
    c.closing += p.closingStockCents;
    c.sold += p.soldQuantity;
    byCategory.set(key, c);
  }
  const categories = [...byCategory.values()]
    .map((c) => ({
      categoryName: c.categoryName,
      soldQuantity: Math.round(c.sold * 1000) / 1000,
      cogsCents: c.cogs,
      averageStockCents: c.avg,
      closingStockCents: c.closing,
      turnover: turnoverOf(c.cogs, c.avg),
      // By value: units of different products do not add up.
      daysOfStock: daysOfStockOf(c.closing, c.cogs, days),
    }))
    .sort((a, b) => b.cogsCents - a.cogsCents);
  return { from: query.from, to: query.to, days, products, categories };
}

const col = (label: string, kind: Column['kind'] = 'text'): Column => ({ label, kind });

/** One of the turnover's tables as typed cells (the CSV and the XLSX write them as the sales report's). */
export function turnoverTable(report: StockTurnover, section: StockTurnoverSection): Table {
  const tail = [
    col('Vendido', 'quantity'),
    col('CMV', 'money'),
    col('Estoque médio', 'money'),
    col('Estoque final', 'money'),
    col('Giro', 'quantity'),
    col('Dias de estoque', 'quantity'),
    col('CMV no período anterior', 'money'),
    col('Giro no período anterior', 'quantity'),
  ];
  if (section === 'category')
    return {
      columns: [col('Categoria'), ...tail],
      rows: report.categories.map((c) => [
        c.categoryName ?? 'Sem categoria',
        c.soldQuantity,
        c.cogsCents,
        c.averageStockCents,
        c.closingStockCents,
        c.turnover,
        c.daysOfStock,
        c.previousCogsCents,
        c.previousTurnover,
      ]),
    };
  return {
    columns: [
      col('Produto'),
      col('Categoria'),
      col('Estoque inicial', 'quantity'),
      col('Estoque final (qtd)', 'quantity'),
      ...tail,
    ],
    rows: report.products.map((p) => [
      p.name,
      p.categoryName ?? '',
      p.openingQuantity,
      p.closingQuantity,
      p.soldQuantity,
      p.cogsCents,
      p.averageStockCents,
      p.closingStockCents,
      p.turnover,
      p.daysOfStock,
      p.previousCogsCents,
      p.previousTurnover,
    ]),
  };
}
