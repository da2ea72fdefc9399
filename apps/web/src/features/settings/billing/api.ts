import type { Billing, BillingStatus, Invoice, PlanCode } from '@balcao/core/billing';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/queryKeys.ts';

export const billingKeys = queryKeys('billing');

export function useBilling() {
  return useQuery({ queryKey: billingKeys.view('page'), queryFn: () => apiFetch<Billing>('/billing') });
}

/** The overdue banner's reason (administrators only: others never ask). */
export function useBillingStatus(enabled: boolean) {
  return useQuery({
    queryKey: billingKeys.view('status'),
    queryFn: () => apiFetch<BillingStatus>('/billing/status'),
    enabled,
    staleTime: 5 * 60_000,
  });
}

export function useChangePlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { planCode: PlanCode; updatedAt: string }) =>
      apiFetch<Billing>('/billing/plan', { method: 'PUT', body }),
    onSuccess: (billing) => queryClient.setQueryData(billingKeys.view('page'), billing),
  });
}

export function usePayInvoice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, method }: { id: number; method: 'pix' | 'boleto' }) =>
      apiFetch<Invoice>(`/billing/invoice/${id}/pay`, { method: 'POST', body: { method } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: billingKeys.all }),
  });
}
