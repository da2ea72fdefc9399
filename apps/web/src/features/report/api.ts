import { reportApi } from '@balcao/core/endpoints/report';
import type { ReportGrouping } from '@balcao/core/report';
import { useQuery } from '@tanstack/react-query';
import { queryOf } from '../../lib/client.ts';

export type ReportPageQuery = { from: string; to: string; groupBy: ReportGrouping };

/** The sales reports (issue 34): query options of `reportApi`. */
export const reportQueries = {
  sales: (query: ReportPageQuery) => queryOf(reportApi.sales, { query }),
};

export const useSalesReport = (query: ReportPageQuery) => useQuery(reportQueries.sales(query));
