import { reportApi } from '@balcao/core/endpoints/report';
import type { ReportGrouping } from '@balcao/core/report';
import { useQuery } from '@tanstack/react-query';
import { queryOf } from '../../lib/client.ts';

export type ReportPageQuery = { from: string; to: string; groupBy: ReportGrouping };

/** The sales reports (issue 34): query options of `reportApi`. */
export const reportQueries = {
  sales: (query: ReportPageQuery) => queryOf(reportApi.sales, { query }),
  stockTurnover: (query: { from: string; to: string }) => queryOf(reportApi.stockTurnover, { query }),
};

export const useSalesReport = (query: ReportPageQuery) => useQuery(reportQueries.sales(query));
export const useStockTurnover = (query: { from: string; to: string }) =>
  useQuery(reportQueries.stockTurnover({ from: query.from, to: query.to }));
