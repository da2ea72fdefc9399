import type {
  Budget,
  BudgetAnswerInput,
  BudgetConvertInput,
  BudgetInput,
  BudgetListResult,
  BudgetPublic,
  BudgetSendResult,
  BudgetViewStatus,
} from '@balcao/core/budget';
import { toQueryString } from '@balcao/core/list';
import type { Sale } from '@balcao/core/sale';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, apiFetch, downloadFile } from '../../lib/api.ts';
import { getToken } from '../../lib/cookies.ts';
import { detailQuery, listQuery } from '../../lib/queries.ts';
import { queryKeys } from '../../lib/queryKeys.ts';

export const budgetKeys = queryKeys('budget');

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

export const fetchBudgets = (_clientId: number, query: BudgetListFilters) =>
  apiFetch<BudgetListResult>(`/budget${toQueryString(query)}`);
export const fetchBudget = (id: number) => apiFetch<Budget>(`/budget/${id}`);
export const postBudget = (body: BudgetInput) => apiFetch<Budget>('/budget', { method: 'POST', body });

export function useBudgets(clientId: number | undefined, query: BudgetListFilters) {
  return useQuery(listQuery(budgetKeys, clientId, query, fetchBudgets));
}

export function useBudget(id: number | undefined) {
  return useQuery(detailQuery(budgetKeys, id, fetchBudget));
}

/** A budget action (send, cancel, renew, duplicate): the answer becomes the detail, lists reload. */
function useBudgetAction<I, R>(call: (input: I) => Promise<R>, budgetOf: (result: R) => Budget) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: (result) => {
      const budget = budgetOf(result);
      queryClient.setQueryData(budgetKeys.detail(budget.id), budget);
      return queryClient.invalidateQueries({ queryKey: budgetKeys.lists() });
    },
  });
}

export function useCreateBudget() {
  return useBudgetAction(postBudget, (b) => b);
}

export function useSendBudget(id: number) {
  return useBudgetAction(
    (channel: 'whatsapp' | 'link' | 'print') =>
      apiFetch<BudgetSendResult>(`/budget/${id}/send`, {
        method: 'POST',
        body: { channel, appUrl: window.location.origin },
      }),
    (r) => r.budget,
  );
}

export function useCancelBudget(id: number) {
  return useBudgetAction(
    (reason: string | null) => apiFetch<Budget>(`/budget/${id}/cancel`, { method: 'POST', body: { reason } }),
    (b) => b,
  );
}

export function useRenewBudget(id: number) {
  return useBudgetAction(
    (validUntil: string | null) =>
      apiFetch<Budget>(`/budget/${id}/renew`, { method: 'POST', body: { validUntil } }),
    (b) => b,
  );
}

export function useDuplicateBudget(id: number) {
  return useBudgetAction(
    () => apiFetch<Budget>(`/budget/${id}/duplicate`, { method: 'POST' }),
    (b) => b,
  );
}

export const postConvert = (id: number, body: BudgetConvertInput, idempotencyKey: string) =>
  apiFetch<Sale>(`/budget/${id}/convert`, {
    method: 'POST',
    body,
    headers: { 'idempotency-key': idempotencyKey },
  });

export function downloadBudgetsCsv(query: BudgetListFilters): Promise<void> {
  const { page: _page, pageSize: _size, ...filters } = query;
  return downloadFile(
    `/budget/export${toQueryString(filters)}`,
    'orcamentos.csv',
    'Não foi possível exportar os orçamentos',
  );
}

/** The PDF (Bearer header: fetched, then saved or printed from an object URL). */
async function fetchPdf(path: string): Promise<Blob> {
  const token = getToken();
  let res: Response;
  try {
    res = await fetch(`/v1${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  } catch {
    throw new ApiError(0, 'Não foi possível conectar ao servidor. Verifique sua conexão.');
  }
  if (!res.ok) {
    const payload = (await res.json().catch(() => ({}))) as { message?: string };
    throw new ApiError(res.status, payload.message ?? 'Não foi possível gerar o PDF');
  }
  return res.blob();
}

export async function downloadBudgetPdf(id: number, number: number) {
  const url = URL.createObjectURL(await fetchPdf(`/budget/${id}/pdf?download=true`));
  const link = document.createElement('a');
  link.href = url;
  link.download = `orcamento-${number}.pdf`;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Prints the PDF through a hidden frame (the browser's own PDF viewer prints A4 as generated). */
export async function printBudgetPdf(path: string) {
  const url = URL.createObjectURL(await fetchPdf(path));
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

// The public approval page (no session).
export const fetchPublicBudget = (token: string) => apiFetch<BudgetPublic>(`/public/budget/${token}`);
export const postPublicAnswer = (token: string, body: BudgetAnswerInput) =>
  apiFetch<BudgetPublic>(`/public/budget/${token}/answer`, { method: 'POST', body });
