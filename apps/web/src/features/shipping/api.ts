import type { CallInput } from '@balcao/core/contract';
import { shippingApi } from '@balcao/core/endpoints/shipping';
import { useQuery } from '@tanstack/react-query';
import { call, queryOf, useCall } from '../../lib/client.ts';

/**
 * Shipping (issue 15): rule sets, the own-delivery quote, the carriers' settings and quotes, as query
 * options of `shippingApi` (core's declarations) and one mutation per write.
 */
export const shippingQueries = {
  /** The client's rule sets (the session takes the first). */
  ruleSets: (clientId: number) => queryOf(shippingApi.ruleSets, { params: { clientId } }),
  /** One rule set; a 404 shows at once (no retry). */
  ruleSet: (id: number) => ({ ...queryOf(shippingApi.ruleSet, { params: { id } }), retry: false }),
  melhorEnvio: () => queryOf(shippingApi.melhorEnvio),
  rodonaves: () => queryOf(shippingApi.rodonaves),
};

export function useRuleSets(clientId: number | undefined) {
  return useQuery({ ...shippingQueries.ruleSets(clientId ?? 0), enabled: Boolean(clientId) });
}

export function useRuleSet(id: number | undefined) {
  return useQuery({ ...shippingQueries.ruleSet(id ?? 0), enabled: Boolean(id) });
}

export const useCreateRuleSet = () => useCall(shippingApi.createRuleSet);
export const useUpdateRuleSet = () => useCall(shippingApi.updateRuleSet);
/** Deletes, then the list reloads whatever happened. */
export const useDeleteRuleSet = () => useCall(shippingApi.removeRuleSet, { refreshOnError: true });

/** The own-delivery freight of an address (PDV's delivery step): a question, not a write. */
export const postDeliveryQuote = (
  body: CallInput<typeof shippingApi.deliveryQuote>['body'],
  signal?: AbortSignal,
) => call(shippingApi.deliveryQuote, { body }, { signal });

/** The carriers' quotes of a package (the simulators): a question, not a write. */
export const postFreightQuote = (body: CallInput<typeof shippingApi.freightQuote>['body']) =>
  call(shippingApi.freightQuote, { body });

export function useMelhorEnvioSettings() {
  return useQuery(shippingQueries.melhorEnvio());
}

export function useRodonavesSettings() {
  return useQuery(shippingQueries.rodonaves());
}

export const useSaveMelhorEnvio = () => useCall(shippingApi.saveMelhorEnvio);
export const useSaveRodonaves = () => useCall(shippingApi.saveRodonaves);
/** The Melhor Envio URL to open (OAuth2): nothing is saved before the callback. */
export const useAuthorizeMelhorEnvio = () => useCall(shippingApi.authorizeMelhorEnvio);
/** The OAuth2 callback: the tokens saved, the settings refetched. */
export const useFinishMelhorEnvio = () => useCall(shippingApi.melhorEnvioCallback);

/**
 * The address of a CEP (the simulators' destination). The cep module's endpoints are declared by its
 * own migration: until then the one path written here.
 */

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
