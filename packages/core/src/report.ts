import { addDays, isIsoDate } from './date.ts';
import { CASH_FLOW_GROUPINGS, type CashFlowGrouping } from './finance.ts';
import { z } from './zod.ts';

/**
 * The sales reports an owner reads every day (issue 34, Financeiro > Relatórios): a shop-local period's
 * sales net of cancels (a canceled sale counts nowhere but in "canceladas") and of returns (a return
 * takes its value and quantity off the sale it belongs to: its day, seller, method and products), with
 * the previous period of the same length beside it.
 */

const MAX_DAYS = 400;
export const REPORT_MESSAGES = {
  invalidDate: 'Data inválida',
  order: 'A data final deve ser igual ou posterior à inicial',
  tooLong: `Escolha um período de até ${MAX_DAYS} dias`,
  section: 'Escolha o relatório a exportar',
} as const;

const periodFields = {
  from: z.string().refine(isIsoDate, REPORT_MESSAGES.invalidDate),
  to: z.string().refine(isIsoDate, REPORT_MESSAGES.invalidDate),
  groupBy: z.enum(CASH_FLOW_GROUPINGS).default('day'),
};
const checkPeriod = (q: { from: string; to: string }, ctx: z.RefinementCtx) => {
  if (!isIsoDate(q.from) || !isIsoDate(q.to)) return;
  if (q.to < q.from) ctx.addIssue({ code: 'custom', path: ['to'], message: REPORT_MESSAGES.order });
  else if (daysBetween(q.from, q.to) > MAX_DAYS)
    ctx.addIssue({ code: 'custom', path: ['to'], message: REPORT_MESSAGES.tooLong });
};

export const reportQuerySchema = z.object(periodFields).superRefine(checkPeriod);
export type ReportQuery = z.output<typeof reportQuerySchema>;

/** What an export carries: one of the report's tables, whole, or every sale line of the period. */
export const REPORT_SECTIONS = [
  'period',
  'method',
  'seller',
  'origin',
  'product',
  'category',
  'hours',
  'canceled',
  'lines',
] as const;
export type ReportSection = (typeof REPORT_SECTIONS)[number];
export const REPORT_SECTION_LABELS: Record<ReportSection, string> = {
  period: 'Vendas por período',
  method: 'Por forma de pagamento',
  seller: 'Por vendedor',
  origin: 'Por origem',
  product: 'Por produto (curva ABC)',
  category: 'Por categoria',
  hours: 'Por dia da semana e hora',
  canceled: 'Canceladas por usuário',
  lines: 'Itens vendidos (todas as linhas)',
};

export const reportExportQuerySchema = z
  .object({ ...periodFields, section: z.enum(REPORT_SECTIONS, { message: REPORT_MESSAGES.section }) })
  .superRefine(checkPeriod);
export type ReportExportQuery = z.output<typeof reportExportQuerySchema>;

const figures = {
  salesCount: z.number(),
  /** Items before any discount, plus freight. */
  grossCents: z.number(),
  /** Line, sale and coupon discounts. */
  discountsCents: z.number(),
  /** Returned value of the period's sales. */
  returnsCents: z.number(),
  /** gross - discounts - returns: what the customers paid in the end. */
  netCents: z.number(),
  /** Quantity kept (sold - returned) x the product's cost. */
  costCents: z.number(),
  /** Net of the items (no freight) - cost. */
  marginCents: z.number(),
  averageTicketCents: z.number(),
  canceledCount: z.number(),
  canceledCents: z.number(),
};
export const reportSummarySchema = z.object(figures);
export type ReportSummary = z.infer<typeof reportSummarySchema>;

const amountRow = { salesCount: z.number(), netCents: z.number() };

export const ABC_CLASSES = ['A', 'B', 'C'] as const;
export type AbcClass = (typeof ABC_CLASSES)[number];

export const productRowSchema = z.object({
  productId: z.number().nullable(),
  name: z.string(),
  categoryName: z.string().nullable(),
  quantity: z.number(),
  revenueCents: z.number(),
  costCents: z.number(),
  marginCents: z.number(),
  /** Share of the period's item revenue, in hundredths of a percent, and the running share. */
  shareBp: z.number(),
  cumulativeBp: z.number(),
  abc: z.enum(ABC_CLASSES),
  /** The product's item revenue in the previous period (0 when it did not sell then). */
  previousRevenueCents: z.number(),
});
export type ProductRow = z.infer<typeof productRowSchema>;

export const salesReportSchema = z.object({
  from: z.string(),
  to: z.string(),
  groupBy: z.enum(CASH_FLOW_GROUPINGS),
  timeZone: z.string(),
  summary: reportSummarySchema,
  /** The same figures for the period of the same length just before. */
  previous: reportSummarySchema.extend({ from: z.string(), to: z.string() }),
  byPeriod: z.array(z.object({ period: z.string(), ...amountRow })),
  /**
   * Each table's rows carry the previous period's figure of the same row (0 when the row had none then);
   * a row only the previous period had is left out, its figure is in `previous` (the tables' totals).
   */
  byMethod: z.array(
    z.object({
      method: z.string(),
      label: z.string(),
      amountCents: z.number(),
      previousAmountCents: z.number(),
    }),
  ),
  bySeller: z.array(
    z.object({
      userId: z.number(),
      name: z.string(),
      ...amountRow,
      averageTicketCents: z.number(),
      discountsCents: z.number(),
      previousNetCents: z.number(),
    }),
  ),
  byOrigin: z.array(
    z.object({ origin: z.string(), label: z.string(), ...amountRow, previousNetCents: z.number() }),
  ),
  /** Every product sold in the period, best first, with its ABC class. */
  byProduct: z.array(productRowSchema),
  byCategory: z.array(
    z.object({
      categoryId: z.number().nullable(),
      name: z.string(),
      quantity: z.number(),
      revenueCents: z.number(),
      costCents: z.number(),
      marginCents: z.number(),
      previousRevenueCents: z.number(),
    }),
  ),
  /** Weekday 0 = Monday .. 6 = Sunday and hour 0..23 on the shop's clock; only cells with sales. */
  heatMap: z.array(z.object({ weekday: z.number(), hour: z.number(), ...amountRow })),
  canceled: z.array(z.object({ userId: z.number().nullable(), name: z.string(), ...amountRow })),
});
export type SalesReport = z.infer<typeof salesReportSchema>;

export const WEEKDAY_LABELS = ['Seg', 'Ter', 'Qua', 'Qui', 'Sex', 'Sáb', 'Dom'] as const;

/** Whole days from one ISO date to another (zone-free calendar arithmetic). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** The period of the same length that ends the day before `from`. */
export function previousPeriod(from: string, to: string): { from: string; to: string } {
  const length = daysBetween(from, to) + 1;
  return { from: addDays(from, -length), to: addDays(from, -1) };
}

/**
 * The ABC curve (Pareto): products by revenue, best first; A while the running share before a product
 * is under 80%, B under 95%, C the rest. A product with no revenue (all returned, or given away) is C.
 * Shares in hundredths of a percent of the positive revenue.
 */
export function abcCurve<T extends { revenueCents: number; name: string }>(
  rows: T[],
): (T & { shareBp: number; cumulativeBp: number; abc: AbcClass })[] {
  const sorted = [...rows].sort((a, b) => b.revenueCents - a.revenueCents || a.name.localeCompare(b.name));
  const total = sorted.reduce((s, r) => s + Math.max(r.revenueCents, 0), 0);
  let before = 0;
  return sorted.map((row) => {
    const revenue = Math.max(row.revenueCents, 0);
    const startBp = total ? (before * 10000) / total : 10000;
    before += revenue;
    const abc: AbcClass = revenue === 0 ? 'C' : startBp < 8000 ? 'A' : startBp < 9500 ? 'B' : 'C';
    return {
      ...row,
      shareBp: total ? Math.round((revenue * 10000) / total) : 0,
      cumulativeBp: total ? Math.round((before * 10000) / total) : 0,
      abc,
    };
  });
}

/** Percent change from a previous figure, one decimal ("+12,5%"); null when there is nothing before. */
export function changeLabel(current: number, previous: number): string | null {
  if (previous === 0) return null;
  const pct = ((current - previous) / Math.abs(previous)) * 100;
  const text = `${Math.abs(pct).toFixed(1).replace('.', ',')}%`;
  return pct > 0.05 ? `+${text}` : pct < -0.05 ? `-${text}` : '0,0%';
}

export type { CashFlowGrouping as ReportGrouping };
