import { cashRegisterSummarySchema } from './cashRegister.ts';
import { payableDueSchema } from './payable.ts';
import { PAYMENT_METHODS } from './status.ts';
import { z } from './zod.ts';

/**
 * GET /v1/home: the shop's day at a glance for the logged user. Each part is null when the user type
 * does not see it (ACTION.shopFigures for the sales, COUNTER for the register, WRITE.stock with stock
 * management on for the low stock, ACTION.settleReceivables for the receivables). Money in cents.
 */

/** Sales not canceled in a period: how many, how much, and the average ticket (ticket médio). */
export const salesPeriodSchema = z.object({
  salesCount: z.number(),
  amountCents: z.number(),
  averageTicketCents: z.number(),
});
export type SalesPeriod = z.infer<typeof salesPeriodSchema>;

const methodAmountSchema = z.object({ method: z.enum(PAYMENT_METHODS), amountCents: z.number() });

export const homeSalesSchema = z.object({
  /** Today until now, and yesterday until the same time of day. */
  today: salesPeriodSchema,
  yesterdayUntilNow: salesPeriodSchema,
  /** This month until now, and the previous month until the same day and time. */
  month: salesPeriodSchema,
  previousMonthUntilNow: salesPeriodSchema,
  /** Sales per payment method today and this month (the amounts applied: change excluded). */
  byMethodToday: z.array(methodAmountSchema),
  byMethodMonth: z.array(methodAmountSchema),
  /** The last 30 days, oldest first, days without sales included. */
  days: z.array(z.object({ day: z.string(), salesCount: z.number(), amountCents: z.number() })),
  /** The month's best sellers by amount. */
  topProducts: z.array(
    z.object({ productId: z.number(), name: z.string(), quantity: z.number(), amountCents: z.number() }),
  ),
});
export type HomeSales = z.infer<typeof homeSalesSchema>;

const countAmountSchema = z.object({ count: z.number(), amountCents: z.number() });

export const homeReceivablesSchema = z.object({
  overdue: countAmountSchema,
  dueToday: countAmountSchema,
  /** Due in the next 7 days, today excluded. */
  dueNextDays: countAmountSchema,
});
export type HomeReceivables = z.infer<typeof homeReceivablesSchema>;

/** The garçom's own tabs (issue 30): his open ones and the ones of his closed tonight. */
const homeTablesSchema = z.object({
  open: countAmountSchema,
  closedToday: countAmountSchema,
});
export type HomeTables = z.infer<typeof homeTablesSchema>;

export const homeSchema = z.object({
  /** The shop's date (YYYY-MM-DD in its time zone) the figures are for. */
  today: z.string(),
  sales: homeSalesSchema.nullable(),
  /** The logged user's register: null inside when none is open. */
  register: z.object({ cashRegister: cashRegisterSummarySchema.nullable() }).nullable(),
  lowStock: z.object({ count: z.number() }).nullable(),
  receivables: homeReceivablesSchema.nullable(),
  /**
   * What the drivers still hold (issue 30 item 5): change and cash of orders that left and no acerto
   * took yet. Null for who does not settle drivers. Optional in the answer for older builds.
   */
  drivers: z.object({ toCollectCents: z.number(), orders: z.number() }).nullable().optional(),
  /** The garçom's own tabs (ACTION.serveTables, comandas on); null otherwise. */
  tables: homeTablesSchema.nullable().default(null),
  /** Open payables overdue, due today and in 7 days (issue 34): for who sees Financeiro (FINANCE). */
  payables: payableDueSchema.nullable().default(null),
});
export type Home = z.infer<typeof homeSchema>;

/** The change from one period to the one before, in whole percent; null when there is nothing before. */
export function changePercent(current: number, before: number): number | null {
  if (before === 0) return null;
  return Math.round(((current - before) * 100) / before);
}
