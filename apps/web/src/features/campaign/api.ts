import type {
  Audience,
  AudienceCounts,
  Campaign,
  CampaignInput,
  CampaignListItem,
  CampaignRecipient,
} from '@balcao/core/campaign';
import { type ListResult, toQueryString } from '@balcao/core/list';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../lib/api.ts';
import { detailQuery, listQuery } from '../../lib/queries.ts';
import { queryKeys } from '../../lib/queryKeys.ts';

export const campaignKeys = queryKeys('campaign');

export type CampaignListParams = {
  page: number;
  pageSize: number;
  q?: string;
  sort?: string;
  status?: string;
};
export type CampaignPayload = CampaignInput & { updatedAt?: string };

export function useCampaigns(clientId: number | undefined, params: CampaignListParams) {
  return useQuery(
    listQuery(campaignKeys, clientId, params, (clientId, params) =>
      apiFetch<ListResult<CampaignListItem>>(`/campaign/client/${clientId}${toQueryString(params)}`),
    ),
  );
}

/** One campaign; while it sends, the socket's change signal refetches it (and every 15 s as a fallback). */
export function useCampaign(id: number | undefined) {
  return useQuery({
    ...detailQuery(campaignKeys, id, (id) => apiFetch<Campaign>(`/campaign/${id}`)),
    refetchInterval: (query) => (query.state.data?.status === 'running' ? 15_000 : false),
  });
}

export function useRecipients(
  id: number | undefined,
  params: { page: number; pageSize: number; status?: string },
) {
  return useQuery({
    queryKey: campaignKeys.view('recipients', id ?? 0, params),
    queryFn: () =>
      apiFetch<ListResult<CampaignRecipient>>(`/campaign/${id}/recipients${toQueryString(params)}`),
    enabled: Boolean(id),
  });
}

export function useAudienceCounts(audience: Audience | null) {
  return useQuery({
    queryKey: campaignKeys.view('audience', audience),
    queryFn: () => apiFetch<AudienceCounts>('/campaign/audience-count', { method: 'POST', body: audience }),
    enabled: audience !== null,
  });
}

export function useSaveCampaign() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: number; body: CampaignPayload }) =>
      id
        ? apiFetch<Campaign>(`/campaign/${id}`, { method: 'PUT', body })
        : apiFetch<Campaign>('/campaign', { method: 'POST', body }),
    onSuccess: (campaign) => {
      queryClient.setQueryData(campaignKeys.detail(campaign.id), campaign);
      return queryClient.invalidateQueries({ queryKey: campaignKeys.lists() });
    },
  });
}

/** Uploads (a file) or removes (null) the image of a campaign that has not started. */
export function useCampaignImage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, file }: { id: number; file: File | null }) => {
      if (!file) return apiFetch<Campaign>(`/campaign/${id}/image`, { method: 'DELETE' });
      const body = new FormData();
      body.append('file', file);
      return apiFetch<Campaign>(`/campaign/${id}/image`, { method: 'POST', body });
    },
    onSuccess: (campaign) => {
      queryClient.setQueryData(campaignKeys.detail(campaign.id), campaign);
      return queryClient.invalidateQueries({ queryKey: campaignKeys.lists() });
    },
  });
}

export type CampaignAction = 'start' | 'pause' | 'resume' | 'cancel';

export function useCampaignAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: number; action: CampaignAction }) =>
      apiFetch<Campaign>(`/campaign/${id}/${action}`, { method: 'POST' }),
    onSuccess: (campaign) => {
      queryClient.setQueryData(campaignKeys.detail(campaign.id), campaign);
      return queryClient.invalidateQueries({ queryKey: campaignKeys.all });
    },
  });
}

export function useDeleteCampaign() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiFetch<{ id: number }>(`/campaign/${id}`, { method: 'DELETE' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: campaignKeys.all }),
  });
}

/** Staff marks a number as never to be messaged again (every campaign skips it). */
export function useOptOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (number: string) =>
      apiFetch<{ number: string; optedOut: boolean }>('/whatsapp/opt-out', {
        method: 'POST',
        body: { number },
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: campaignKeys.all }),
  });
}
