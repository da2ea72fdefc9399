import type {
  CompanySettings,
  CompanySettingsInput,
  ReceiptShopSettings,
  SystemSettings,
  SystemSettingsInput,
} from '@balcao/core/settings';
import type { WorkingHoursInput, WorkingHoursSettings, WorkingHoursStatus } from '@balcao/core/workingHours';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { apiFetch } from '../../lib/api.ts';
import { queryKeys } from '../../lib/queryKeys.ts';
import { useSession } from '../auth/session.tsx';

/**
 * The settings pages' data (issue 14). Every key starts with 'settings': a save anywhere in the shop
 * signals `change settings` and every open settings view refetches; a save that changes the session
 * also signals `session`, and the shell reloads /user/me.
 */
export const settingsKeys = queryKeys('settings');

export function useCompanySettings() {
  return useQuery({
    queryKey: settingsKeys.view('company'),
    queryFn: () => apiFetch<CompanySettings>('/settings/company'),
  });
}

/** Saves through PUT, puts the answer in the cache and reloads this browser's session at once. */
function useSettingsSave<B, R>(path: string, view: string) {
  const queryClient = useQueryClient();
  const { refresh } = useSession();
  return useMutation({
    mutationFn: (body: B) => apiFetch<R>(path, { method: 'PUT', body }),
    onSuccess: (saved) => {
      queryClient.setQueryData(settingsKeys.view(view), saved);
      void queryClient.invalidateQueries({ queryKey: settingsKeys.all });
      return refresh();
    },
  });
}

export const useSaveCompany = () =>
  useSettingsSave<CompanySettingsInput, CompanySettings>('/settings/company', 'company');

export function useUploadLogo() {
  const queryClient = useQueryClient();
  const { refresh } = useSession();
  return useMutation({
    mutationFn: (file: File | null) => {
      if (!file) return apiFetch<CompanySettings>('/settings/company/logo', { method: 'DELETE' });
      const body = new FormData();
      body.append('file', file);
      return apiFetch<CompanySettings>('/settings/company/logo', { method: 'POST', body });
    },
    onSuccess: (saved) => {
      queryClient.setQueryData(settingsKeys.view('company'), saved);
      void queryClient.invalidateQueries({ queryKey: settingsKeys.all });
      return refresh();
    },
  });
}

export function useSystemSettings() {
  return useQuery({
    queryKey: settingsKeys.view('system'),
    queryFn: () => apiFetch<SystemSettings>('/settings/system'),
  });
}

export const useSaveSystem = () =>
  useSettingsSave<SystemSettingsInput, SystemSettings>('/settings/system', 'system');

export function useWorkingHours() {
  return useQuery({
    queryKey: settingsKeys.view('working-hour'),
    queryFn: () => apiFetch<WorkingHoursSettings>('/settings/working-hour'),
  });
}

export const useSaveWorkingHours = () =>
  useSettingsSave<WorkingHoursInput, WorkingHoursSettings>('/settings/working-hour', 'working-hour');

/**
 * Open or closed now (top bar, PDV warning), only when the shop uses working hours: refetched at
 * the next change the server announced, every minute, and on any settings change.
 */
export function useWorkingHoursStatus(enabled: boolean) {
  const query = useQuery({
    queryKey: settingsKeys.view('working-hour-status'),
    queryFn: () => apiFetch<WorkingHoursStatus>('/settings/working-hour/status'),
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
export function useReceiptShop() {
  return useQuery({
    queryKey: settingsKeys.view('receipt'),
    queryFn: () => apiFetch<ReceiptShopSettings>('/settings/receipt'),
    staleTime: 60_000,
  });
}

/** The session user's discount limit (hundredths of a percent), null for managers. */
export function useMyDiscountLimit() {
  return useQuery({
    queryKey: settingsKeys.view('discount-limit'),
    queryFn: () => apiFetch<{ line: number; sale: number } | null>('/settings/discount-limit/me'),
    staleTime: 60_000,
  });
}
