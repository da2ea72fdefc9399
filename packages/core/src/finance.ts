import { isIsoDate } from './date.ts';
import { DRE_GROUPS } from './payable.ts';
import { z } from './zod.ts';

/** Cash flow and DRE (issue 34): the shop's money over time, read from sales, receivables and payables. */

export const CASH_FLOW_GROUPINGS = ['day', 'week', 'month'] as const;
export type CashFlowGrouping = (typeof CASH_FLOW_GROUPINGS)[number];
export const CASH_FLOW_GROUPING_LABELS: Record<CashFlowGrouping, string> = {
  day: 'Dia',
  week: 'Semana',
  month: 'Mês',
};

const MAX_DAYS = 400;
export const FINANCE_MESSAGES = {
  invalidDate: 'Data inválida',
  order: 'A data final deve ser igual ou posterior à inicial',
  tooLong: `Escolha um período de até ${MAX_DAYS} dias`,
  month: 'Informe o mês (AAAA-MM)',
} as const;

export const cashFlowQuerySchema = z
  .object({
    from: z.string().refine(isIsoDate, FINANCE_MESSAGES.invalidDate),
    to: z.string().refine(isIsoDate, FINANCE_MESSAGES.invalidDate),
    groupBy: z.enum(CASH_FLOW_GROUPINGS).default('day'),
    /**
     * One of the shop's bank accounts: only what moved through it (the payments made from it). Without
     * it, every flow of the shop.
     */
    accountId: z.coerce.number().int().positive().optional(),
  })
  .superRefine((q, ctx) => {
    if (!isIsoDate(q.from) || !isIsoDate(q.to)) return;
    if (q.to < q.from) ctx.addIssue({ code: 'custom', path: ['to'], message: FINANCE_MESSAGES.order });
    else if ((Date.parse(q.to) - Date.parse(q.from)) / 86_400_000 > MAX_DAYS)
      ctx.addIssue({ code: 'custom', path: ['to'], message: FINANCE_MESSAGES.tooLong });
  });
export type CashFlowQuery = z.output<typeof cashFlowQuerySchema>;

const salesByMethodSchema = z.object({
  money: z.number(),
  pix: z.number(),
  creditCard: z.number(),
  debitCard: z.number(),
  voucher: z.number(),
  other: z.number(),
});
export type SalesByMethod = z.infer<typeof salesByMethodSchema>;

export const cashFlowRowSchema = z.object({
  /** The period's first day (a week starts on Monday, a month on its 1st). */
  period: z.string(),
  /** Realised: sales on their settlement day net of card fees, crediário received. */
  salesInCents: z.number(),
  /** salesInCents split by payment method (the parts add up to it, to the cent). */
  salesByMethodCents: salesByMethodSchema,
  receivablesInCents: z.number(),
  /** Realised: payables paid (what left the account). */
  payablesOutCents: z.number(),
  /** Projected: card sales still to settle, crediário instalments due, payables due (open part). */
  projectedInCents: z.number(),
  projectedOutCents: z.number(),
  /** Realised in - out, and the balance after the period (opening + the realised and projected nets so far). */
  netCents: z.number(),
  balanceCents: z.number(),
});
export type CashFlowRow = z.infer<typeof cashFlowRowSchema>;

export const cashFlowSchema = z.object({
  from: z.string(),
  to: z.string(),
  groupBy: z.enum(CASH_FLOW_GROUPINGS),
  today: z.string(),
  /** The bank account read (accountId), or null: every flow of the shop. */
  account: z.object({ id: z.number(), name: z.string() }).nullable(),
  /** Realised in - out of everything before `from`. */
  openingCents: z.number(),
  rows: z.array(cashFlowRowSchema),
  totals: cashFlowRowSchema.omit({ period: true, balanceCents: true }),
  closingCents: z.number(),
  /** The period of the same length just before (issue 34: every report compares): its balances and totals. */
  previous: z.object({
    from: z.string(),
    to: z.string(),
    openingCents: z.number(),
    totals: cashFlowRowSchema.omit({ period: true, balanceCents: true }),
    closingCents: z.number(),
  }),
});
export type CashFlow = z.infer<typeof cashFlowSchema>;

export const dreQuerySchema = z.object({
  month: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, FINANCE_MESSAGES.month),
});

export const DRE_LINE_KEYS = [
  'grossRevenue',
  'discounts',
  'returns',
  'cardFees',
  'netRevenue',
  'cmv',
  'grossMargin',
  ...DRE_GROUPS.filter((g) => g !== 'cmv').map((g) => `expense:${g}` as const),
  'result',
] as const;

export const dreLineSchema = z.object({
  key: z.string(),
  label: z.string(),
  /** Signed: deductions and expenses are negative. */
  amountCents: z.number(),
  /** A subtotal (receita líquida, margem bruta, resultado). */
  total: z.boolean(),
});
export type DreLine = z.infer<typeof dreLineSchema>;

export const dreSchema = z.object({
  month: z.string(),
  salesCount: z.number(),
  lines: z.array(dreLineSchema),
  /** Purchases of merchandise booked in the month (CMV/compras payables): stock, not expense; shown apart. */
  purchasesCents: z.number(),
});
export type Dre = z.infer<typeof dreSchema>;

/** The DRE as the page and its files read it: the month beside the month before (the same lines, by key). */
export const dreComparedSchema = dreSchema.extend({ previous: dreSchema });
export type DreCompared = z.infer<typeof dreComparedSchema>;

/** The first day of the period a day falls in. */
export function periodOf(day: string, groupBy: CashFlowGrouping): string {
  if (groupBy === 'day') return day;
  if (groupBy === 'month') return `${day.slice(0, 7)}-01`;
  const date = new Date(`${day}T00:00:00Z`);
  const weekday = (date.getUTCDay() + 6) % 7; // Monday 0
  date.setUTCDate(date.getUTCDate() - weekday);
  return date.toISOString().slice(0, 10);
}

/** The fee of a card or Pix amount at a rate in hundredths of a percent, half-up to the cent. */
export function feeCents(amountCents: number, rateBp: number): number {
  return Math.floor((amountCents * rateBp + 5000) / 10000);
}

/** The day's close an owner reads (issue 34): sales by method, bills paid, what is left. */
export const dayCloseQuerySchema = z.object({
  date: z.string().refine(isIsoDate, FINANCE_MESSAGES.invalidDate),
});

export const dayCloseSchema = z.object({
  date: z.string(),
  salesByMethod: z.array(z.object({ method: z.string(), label: z.string(), amountCents: z.number() })),
  salesCents: z.number(),
  expenses: z.array(
    z.object({
      paymentId: z.number(),
      payableId: z.number(),
      description: z.string(),
      method: z.string(),
      fromRegister: z.boolean(),
      amountCents: z.number(),
    }),
  ),
  expensesCents: z.number(),
  /** Sales of the day minus the bills paid that day. */
  netCents: z.number(),
});
export type DayClose = z.infer<typeof dayCloseSchema>;

/** The DRE lines that open the records behind them (issue 34): the subtotals are sums of the others. */
export const DRE_DRILL_LINES = DRE_LINE_KEYS.filter(
  (key) => key !== 'netRevenue' && key !== 'grossMargin' && key !== 'result',
);
/** At most this many records come back; the count says how many there are. */
export const DRE_ENTRIES_MAX = 500;

export const dreEntriesQuerySchema = dreQuerySchema.extend({
  line: z.enum(DRE_DRILL_LINES, { error: 'Linha do DRE inválida' }),
});

export const dreEntrySchema = z.object({
  /** sale: a sale of the month; return: a return; payable: a bill of the competence month; fee: a method's card fees. */
  kind: z.enum(['sale', 'return', 'payable', 'fee']),
  /** The sale, the returned sale or the payable (null for a fee group). */
  id: z.number().nullable(),
  /** Shop-local day (a payable's due date). */
  date: z.string().nullable(),
  description: z.string(),
  /** Signed as the line: deductions and expenses negative. */
  amountCents: z.number(),
});
export type DreEntry = z.infer<typeof dreEntrySchema>;

export const dreEntriesSchema = z.object({
  month: z.string(),
  line: z.string(),
  label: z.string(),
  /** The line's value in the DRE. */
  amountCents: z.number(),
  /** How many records there are (entries holds the first DRE_ENTRIES_MAX). */
  count: z.number(),
  entries: z.array(dreEntrySchema),
});
export type DreEntries = z.infer<typeof dreEntriesSchema>;
