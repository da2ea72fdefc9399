import type { BudgetAnswerInput, BudgetViewStatus } from '@balcao/core/budget';
import { budgetApi } from '@balcao/core/endpoints/budget';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { call, download, fileOf, queryOf, urlOf, useCall } from '../../lib/client.ts';

/**
 * Budgets (issue 17) through the typed client: query options per read of `budgetApi` (core's
 * declarations), one mutation per write, the PDF and CSV as files; components use these, never a path.
 */

/** The list's filters as the page keeps them in the URL. */
export type BudgetListFilters = {
  page: number;
  pageSize: number;
  q?: string;
  sort?: string;
  from?: string;
  to?: string;
  status?: BudgetViewStatus;
  customerId?: number;
  sellerId?: number;
};

export const budgetQueries = {
  /** One page of the shop's budgets with totals; the page stays while the next loads. */
  list: (query: BudgetListFilters) => ({
    ...queryOf(budgetApi.list, { query }),
    placeholderData: keepPreviousData,
  }),
  /** One budget; a 404 shows at once (no retry). */
  detail: (id: number) => ({ ...queryOf(budgetApi.get, { params: { id } }), retry: false }),
};

export function useBudgets(clientId: number | undefined, query: BudgetListFilters) {
  return useQuery({ ...budgetQueries.list(query), enabled: Boolean(clientId) });
}

export function useBudget(id: number | undefined) {
  return useQuery({ ...budgetQueries.detail(id ?? 0), enabled: Boolean(id) });
}

/** Issue 33: the refunds of the Pix paid on a canceled budget's link (refetched on the `pix` change). */
export function useBudgetPixRefunds(id: number, enabled: boolean) {
  return useQuery({ ...queryOf(budgetApi.pixRefunds, { params: { id } }), enabled });
}

export const useCreateBudget = () => useCall(budgetApi.create);
export const useSendBudget = () => useCall(budgetApi.send);
export const useCancelBudget = () => useCall(budgetApi.cancel);
export const useRenewBudget = () => useCall(budgetApi.renew);
export const useDuplicateBudget = () => useCall(budgetApi.duplicate);
/** Into a sale (Idempotency-Key: the attempt's, kept across retries and the manager's approval). */
export const useConvertBudget = () => useCall(budgetApi.convert);

export function downloadBudgetsCsv(query: BudgetListFilters): Promise<void> {
  const { page: _page, pageSize: _size, ...filters } = query;
  return download(
    budgetApi.export,
    { query: filters },
    'orcamentos.csv',
    'Não foi possível exportar os orçamentos',
  );
}

const PDF_FAILURE = 'Não foi possível gerar o PDF';

/** Saves the budget's PDF (named by the answer: orcamento-<number>.pdf). */
export function downloadBudgetPdf(id: number, number: number) {
  return download(
    budgetApi.pdf,
    { params: { id }, query: { download: 'true' } },
    `orcamento-${number}.pdf`,
    PDF_FAILURE,
  );
}

/** Prints the PDF through a hidden frame (the browser's own PDF viewer prints A4 as generated). */
export async function printBudgetPdf(id: number) {
  const pdf = await fileOf(budgetApi.pdf, { params: { id }, query: {} }, PDF_FAILURE);
  const url = URL.createObjectURL(pdf);
  const frame = document.createElement('iframe');
  frame.style.position = 'fixed';
  frame.style.width = '0';
  frame.style.height = '0';
  frame.style.border = '0';
  frame.src = url;
  frame.onload = () => {
    try {
      frame.contentWindow?.focus();
      frame.contentWindow?.print();
    } catch {
      window.open(url, '_blank', 'noopener');
    }
    setTimeout(() => {
      frame.remove();
      URL.revokeObjectURL(url);
    }, 60_000);
  };
  document.body.appendChild(frame);
}

// The public approval page: no session and no QueryClientProvider there, so plain calls.
export const fetchPublicBudget = (token: string) => call(budgetApi.publicGet, { params: { token } });
export const postPublicAnswer = (token: string, body: BudgetAnswerInput) =>
  call(budgetApi.publicAnswer, { params: { token }, body });
/** The approval link's PDF, as a plain link (public: no Bearer header needed). */
export const publicBudgetPdfUrl = (token: string) =>
  `/v1${urlOf(budgetApi.publicPdf, { params: { token }, query: { download: 'true' } })}`;
/** Issue 33: the approved budget's Pix QR dinâmico (create, or the same charge again) and its poll. */
export const postPublicPix = (token: string) => call(budgetApi.publicPix, { params: { token } });
export const fetchPublicPix = (token: string) => call(budgetApi.publicPixStatus, { params: { token } });
