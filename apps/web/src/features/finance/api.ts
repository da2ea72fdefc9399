import { financeApi } from '@balcao/core/endpoints/finance';
import type { CashFlowGrouping, DRE_DRILL_LINES } from '@balcao/core/finance';

type DreDrillLine = (typeof DRE_DRILL_LINES)[number];
/** The cash flow's period, grouping and, optionally, one bank account (issue 34). */
type CashFlowParams = { from: string; to: string; groupBy: CashFlowGrouping; accountId?: number };

import { useQuery } from '@tanstack/react-query';
import { queryOf } from '../../lib/client.ts';

/** Cash flow and DRE (issue 34): query options of `financeApi`. */
export const financeQueries = {
  cashFlow: (query: CashFlowParams) => queryOf(financeApi.cashFlow, { query }),
  dre: (month: string) => queryOf(financeApi.dre, { query: { month } }),
  dreEntries: (month: string, line: string) =>
    queryOf(financeApi.dreEntries, { query: { month, line: line as DreDrillLine } }),
  dayClose: (date: string) => queryOf(financeApi.dayClose, { query: { date } }),
};

export const useCashFlow = (query: CashFlowParams) => useQuery(financeQueries.cashFlow(query));
export const useDre = (month: string) => useQuery(financeQueries.dre(month));
export const useDreEntries = (month: string, line: string | null) =>
  useQuery({ ...financeQueries.dreEntries(month, line ?? 'grossRevenue'), enabled: line !== null });
export const useDayClose = (date: string) => useQuery(financeQueries.dayClose(date));
