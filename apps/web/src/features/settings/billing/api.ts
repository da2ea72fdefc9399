import { billingApi } from '@balcao/core/endpoints/billing';
import { useQuery } from '@tanstack/react-query';
import { queryOf, useCall } from '../../../lib/client.ts';

/** The subscription (Administrador): query options per read of `billingApi`, one mutation per write. */
export const billingQueries = {
  get: () => queryOf(billingApi.get),
  status: () => queryOf(billingApi.status),
};

export const useBilling = () => useQuery(billingQueries.get());

/** The overdue banner's reason (administrators only: others never ask). */
export function useBillingStatus(enabled: boolean) {
  return useQuery({ ...billingQueries.status(), enabled, staleTime: 5 * 60_000 });
}

export const useChangePlan = () => useCall(billingApi.changePlan);
/** Pays an invoice; the page reloads whatever happened (the invoice may have changed meanwhile). */
export const usePayInvoice = () => useCall(billingApi.pay, { refreshOnError: true });
