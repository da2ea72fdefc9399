import { isIsoDate } from './date.ts';
import { REPORT_MESSAGES, reportQuerySchema } from './report.ts';
import { z } from './zod.ts';

/**
 * Stock turnover and days of stock (issue 34, Financeiro > Relatórios), per product and per category
 * over a shop-local period:
 * - turnover = CMV of the period (quantity sold x the average cost the ledger kept at each sale, net of
 *   cancels and returns) / average stock value ((opening + closing quantity) / 2 x today's average cost);
 * - days of stock = closing stock / the period's daily average sold (per category by value: closing
 *   value / daily CMV, as units of different products do not add up). Null when nothing was sold.
 */

export const STOCK_TURNOVER_SECTIONS = ['product', 'category'] as const;
export type StockTurnoverSection = (typeof STOCK_TURNOVER_SECTIONS)[number];
export const STOCK_TURNOVER_SECTION_LABELS: Record<StockTurnoverSection, string> = {
  product: 'Giro de estoque por produto',
  category: 'Giro de estoque por categoria',
};

export const stockTurnoverQuerySchema = reportQuerySchema;

export const stockTurnoverExportQuerySchema = z
  .object({
    from: z.string().refine(isIsoDate, REPORT_MESSAGES.invalidDate),
    to: z.string().refine(isIsoDate, REPORT_MESSAGES.invalidDate),
    section: z.enum(STOCK_TURNOVER_SECTIONS, { message: REPORT_MESSAGES.section }),
  })
  .superRefine((q, ctx) => {
    if (isIsoDate(q.from) && isIsoDate(q.to) && q.to < q.from)
      ctx.addIssue({ code: 'custom', path: ['to'], message: REPORT_MESSAGES.order });
  });

const figures = {
  /** Net quantity sold in the period (sales minus cancels and returns). */
  soldQuantity: z.number(),
  cogsCents: z.number().int(),
  averageStockCents: z.number().int(),
  closingStockCents: z.number().int(),
  /** CMV / average stock value, 2 decimals; null without stock. */
  turnover: z.number().nullable(),
  /** Days the closing stock lasts at the period's pace, 1 decimal; null when nothing was sold. */
  daysOfStock: z.number().nullable(),
};

/** The whole stock's figures (days of stock by value: closing value / daily CMV). */
const totalFigures = {
  cogsCents: z.number().int(),
  averageStockCents: z.number().int(),
  closingStockCents: z.number().int(),
  turnover: z.number().nullable(),
  daysOfStock: z.number().nullable(),
};
export const stockTurnoverTotalsSchema = z.object(totalFigures);
export type StockTurnoverTotals = z.infer<typeof stockTurnoverTotalsSchema>;

/** A row's figures in the previous period of the same length (0 and null when it had none then). */
const previousFigures = {
  previousCogsCents: z.number().int(),
  previousTurnover: z.number().nullable(),
};

export const stockTurnoverSchema = z.object({
  from: z.string(),
  to: z.string(),
  days: z.number().int(),
  products: z.array(
    z.object({
      productId: z.number().int(),
      name: z.string(),
      categoryName: z.string().nullable(),
      openingQuantity: z.number(),
      closingQuantity: z.number(),
      ...figures,
      ...previousFigures,
    }),
  ),
  categories: z.array(z.object({ categoryName: z.string().nullable(), ...figures, ...previousFigures })),
  /** Every product together, and the same for the period of the same length just before. */
  summary: stockTurnoverTotalsSchema,
  previous: stockTurnoverTotalsSchema.extend({ from: z.string(), to: z.string() }),
});
export type StockTurnover = z.infer<typeof stockTurnoverSchema>;

/** CMV / average stock value to 2 decimals; null when there was no stock to turn. */
export function turnoverOf(cogsCents: number, averageStockCents: number): number | null {
  if (averageStockCents <= 0) return null;
  return Math.round((cogsCents / averageStockCents) * 100) / 100;
}

/** How many days `stock` lasts when `sold` goes in `days` days, 1 decimal; null when nothing sold. */
export function daysOfStockOf(stock: number, sold: number, days: number): number | null {
  if (sold <= 0 || days <= 0) return null;
  return Math.round((Math.max(stock, 0) / (sold / days)) * 10) / 10;
}
