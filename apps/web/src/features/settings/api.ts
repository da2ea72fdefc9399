import type { EndpointDef } from '@balcao/core/contract';
import { settingsApi } from '@balcao/core/endpoints/settings';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { type MutationInput, queryOf, useCall } from '../../lib/client.ts';
import { useSession } from '../auth/index.ts';

/**
 * The settings pages' data (issue 14): query options per read of `settingsApi` and one mutation per
 * write. Every key starts with 'settings': a save anywhere in the shop signals `change settings`
 * and every open settings view refetches; a save that changes the session also signals `session`,
 * and the shell reloads /user/me.
 */
export const settingsQueries = {
  company: () => queryOf(settingsApi.company),
  system: () => queryOf(settingsApi.system),
  workingHours: () => queryOf(settingsApi.workingHours),
  workingHoursStatus: () => queryOf(settingsApi.workingHoursStatus),
  receipt: () => queryOf(settingsApi.receipt),
  myDiscountLimit: () => queryOf(settingsApi.myDiscountLimit),
};

export const useCompanySettings = () => useQuery(settingsQueries.company());

/**
 * A settings write: its mutation (the declared resources refetch), then this browser's session
 * reloads at once (the login answer carries the company, the time zone and the flags).
 */
function useSettingsWrite<E extends EndpointDef>(endpoint: E) {
  const { refresh } = useSession();
  const mutation = useCall(endpoint);
  return {
    ...mutation,
    mutateAsync: async (input: MutationInput<E>) => {
      const saved = await mutation.mutateAsync(input);
      await refresh();
      return saved;
    },
  };
}

export const useSaveCompany = () => useSettingsWrite(settingsApi.saveCompany);

/** Uploads (a file) or removes (null) the logo: one mutation per endpoint. */
export function useLogo() {
  const set = useSettingsWrite(settingsApi.setLogo);
  const remove = useSettingsWrite(settingsApi.removeLogo);
  return {
    isPending: set.isPending || remove.isPending,
    send: (file: File | null) => (file ? set.mutateAsync({ file }) : remove.mutateAsync({})),
  };
}

export const useSystemSettings = () => useQuery(settingsQueries.system());
export const useSaveSystem = () => useSettingsWrite(settingsApi.saveSystem);

export const useWorkingHours = () => useQuery(settingsQueries.workingHours());
export const useSaveWorkingHours = () => useSettingsWrite(settingsApi.saveWorkingHours);

/**
 * Open or closed now (top bar, PDV warning), only when the shop uses working hours: refetched at
 * the next change the server announced, every minute, and on any settings change.
 */
export function useWorkingHoursStatus(enabled: boolean) {
  const query = useQuery({
    ...settingsQueries.workingHoursStatus(),
    enabled,
    refetchInterval: 60_000,
    staleTime: 30_000,
  });
  const { refetch } = query;
  const next = query.data?.nextChange;
  useEffect(() => {
    if (!enabled || !next) return;
    const wait = Date.parse(next) - Date.now() + 1000;
    if (wait <= 0 || wait > 2 ** 31 - 1) return;
    const timer = setTimeout(() => void refetch(), wait);
    return () => clearTimeout(timer);
  }, [enabled, next, refetch]);
  return query;
}

/** What a receipt prints of the shop (PDV users). */
export const useReceiptShop = () => useQuery({ ...settingsQueries.receipt(), staleTime: 60_000 });

/** The session user's discount limit (hundredths of a percent), null for managers. */
export const useMyDiscountLimit = () => useQuery({ ...settingsQueries.myDiscountLimit(), staleTime: 60_000 });

/**
 * The address of a CEP (the company page's lookup). The CEP endpoint is the cep module's: until its
 * declaration is in core this is its one call here, typed by core's answer type.
 */
