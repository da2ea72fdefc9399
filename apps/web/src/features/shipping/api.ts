import type {
  DeliveryQuote,
  DeliveryQuoteInput,
  FreightQuote,
  FreightQuoteInput,
  MelhorEnvioSettings,
  MelhorEnvioSettingsInput,
  RodonavesSettings,
  RodonavesSettingsInput,
  ShippingRuleSet,
  ShippingSettingInput,
} from '@balcao/core/shipping';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../lib/api.ts';
import { detailQuery } from '../../lib/queries.ts';
import { queryKeys } from '../../lib/queryKeys.ts';

/** Shipping (issue 15): rule sets, the own-delivery quote, the carriers' settings and quotes. */

export const ruleSetKeys = queryKeys('shipping-settings');
export const carrierKeys = queryKeys('shipping-carrier');

export const fetchRuleSets = (clientId: number) =>
  apiFetch<ShippingRuleSet[]>(`/shipping-settings/client/${clientId}`);
export const fetchRuleSet = (id: number) => apiFetch<ShippingRuleSet>(`/shipping-settings/${id}`);

export function useRuleSets(clientId: number | undefined) {
  return useQuery({
    queryKey: ruleSetKeys.list(clientId ?? 0),
    queryFn: () => fetchRuleSets(clientId!),
    enabled: Boolean(clientId),
  });
}

export function useRuleSet(id: number | undefined) {
  return useQuery(detailQuery(ruleSetKeys, id, fetchRuleSet));
}

type RuleSetBody = ShippingSettingInput & { updatedAt?: string };

export function useSaveRuleSet() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: number; body: RuleSetBody }) =>
      id
        ? apiFetch<ShippingRuleSet>(`/shipping-settings/${id}`, { method: 'PUT', body })
        : apiFetch<ShippingRuleSet>('/shipping-settings', { method: 'POST', body }),
    onSuccess: (saved) => {
      queryClient.setQueryData(ruleSetKeys.detail(saved.id), saved);
      return queryClient.invalidateQueries({ queryKey: ruleSetKeys.lists() });
    },
  });
}

export function useDeleteRuleSet() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiFetch<{ id: number }>(`/shipping-settings/${id}`, { method: 'DELETE' }),
    onSettled: (_data, _error, id) => {
      queryClient.removeQueries({ queryKey: ruleSetKeys.detail(id) });
      return queryClient.invalidateQueries({ queryKey: ruleSetKeys.lists() });
    },
  });
}

/** The own-delivery freight of an address (PDV's delivery step). */
export const postDeliveryQuote = (body: DeliveryQuoteInput, signal?: AbortSignal) =>
  apiFetch<DeliveryQuote>('/shipping/delivery-quote', { method: 'POST', body, signal });

export const postFreightQuote = (body: FreightQuoteInput) =>
  apiFetch<FreightQuote>('/shipping/freight-quote', { method: 'POST', body });

export function useMelhorEnvioSettings() {
  return useQuery({
    queryKey: carrierKeys.view('melhor-envio'),
    queryFn: () => apiFetch<MelhorEnvioSettings>('/shipping/melhor-envio'),
  });
}

export function useRodonavesSettings() {
  return useQuery({
    queryKey: carrierKeys.view('rodonaves'),
    queryFn: () => apiFetch<RodonavesSettings>('/shipping/rodonaves'),
  });
}

export function useSaveMelhorEnvio() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: MelhorEnvioSettingsInput) =>
      apiFetch<MelhorEnvioSettings>('/shipping/melhor-envio', { method: 'PUT', body }),
    onSuccess: (saved) => queryClient.setQueryData(carrierKeys.view('melhor-envio'), saved),
  });
}

export function useSaveRodonaves() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: RodonavesSettingsInput) =>
      apiFetch<RodonavesSettings>('/shipping/rodonaves', { method: 'PUT', body }),
    onSuccess: (saved) => queryClient.setQueryData(carrierKeys.view('rodonaves'), saved),
  });
}

export const startMelhorEnvioOAuth = (redirectUri: string) =>
  apiFetch<{ url: string }>('/shipping/melhor-envio/authorize', { method: 'POST', body: { redirectUri } });
export const finishMelhorEnvioOAuth = (code: string, state: string) =>
  apiFetch<MelhorEnvioSettings>('/shipping/melhor-envio/callback', { method: 'POST', body: { code, state } });

/** A quote picked in a simulator for the next sale's delivery (the PDV takes it once). */
export type PickedFreight = { cents: number; label: string };
const PICKED_KEY = 'balcao:picked-freight';
export function pickFreight(freight: PickedFreight) {
  sessionStorage.setItem(PICKED_KEY, JSON.stringify(freight));
}
export function takePickedFreight(): PickedFreight | null {
  const raw = sessionStorage.getItem(PICKED_KEY);
  if (!raw) return null;
  sessionStorage.removeItem(PICKED_KEY);
  try {
    const value = JSON.parse(raw) as PickedFreight;
    return Number.isInteger(value.cents) && value.cents >= 0 ? value : null;
  } catch {
    return null;
  }
}
