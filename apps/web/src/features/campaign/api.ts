import type { CallInput } from '@balcao/core/contract';
import { campaignApi } from '@balcao/core/endpoints/campaign';
import { whatsappApi } from '@balcao/core/endpoints/whatsapp';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { download, queryOf, useCall } from '../../lib/client.ts';

/** The list page's query (URL state): page, size, search, sort and status. */
export type CampaignListParams = NonNullable<CallInput<typeof campaignApi.list>['query']>;
export type RecipientListParams = NonNullable<CallInput<typeof campaignApi.recipients>['query']>;
type AudienceInput = CallInput<typeof campaignApi.audienceCount>['body'];

/** Campaigns (WhatsApp marketing): query options per read of `campaignApi`, one mutation per write. */
export const campaignQueries = {
  list: (clientId: number, query: CampaignListParams) =>
    queryOf(campaignApi.list, { params: { clientId }, query }),
  /** One campaign; a 404 shows at once (no retry). */
  detail: (id: number) => ({ ...queryOf(campaignApi.get, { params: { id } }), retry: false }),
  recipients: (id: number, query: RecipientListParams) =>
    queryOf(campaignApi.recipients, { params: { id }, query }),
  /** How many customers an audience reaches (a POST read: nothing changes). */
  audienceCounts: (audience: AudienceInput) => queryOf(campaignApi.audienceCount, { body: audience }),
};

export function useCampaigns(clientId: number | undefined, query: CampaignListParams) {
  return useQuery({
    ...campaignQueries.list(clientId ?? 0, query),
    enabled: Boolean(clientId),
    placeholderData: keepPreviousData,
  });
}

/** One campaign; while it sends, the socket's change signal refetches it (and every 15 s as a fallback). */
export function useCampaign(id: number | undefined) {
  return useQuery({
    ...campaignQueries.detail(id ?? 0),
    enabled: Boolean(id),
    refetchInterval: (query) => (query.state.data?.status === 'running' ? 15_000 : false),
  });
}

export function useRecipients(id: number | undefined, query: RecipientListParams) {
  return useQuery({ ...campaignQueries.recipients(id ?? 0, query), enabled: Boolean(id) });
}

/** The counts of an audience; not asked before there is one (null). */
export function useAudienceCounts(audience: AudienceInput | null) {
  return useQuery({
    ...campaignQueries.audienceCounts(audience as AudienceInput),
    enabled: audience !== null,
  });
}

export const useCreateCampaign = () => useCall(campaignApi.create);
export const useUpdateCampaign = () => useCall(campaignApi.update);
export const useSetCampaignImage = () => useCall(campaignApi.setImage);
export const useRemoveCampaignImage = () => useCall(campaignApi.removeImage);
/** Deletes, then the list reloads whatever happened. */
export const useDeleteCampaign = () => useCall(campaignApi.remove, { refreshOnError: true });

export type CampaignAction = 'start' | 'pause' | 'resume' | 'cancel';

/** Start, pause, resume or cancel: one mutation per endpoint, called by the action's name. */
export function useCampaignAction() {
  const calls = {
    start: useCall(campaignApi.start),
    pause: useCall(campaignApi.pause),
    resume: useCall(campaignApi.resume),
    cancel: useCall(campaignApi.cancel),
  };
  return {
    isPending: Object.values(calls).some((c) => c.isPending),
    run: (id: number, action: CampaignAction) => calls[action].mutateAsync({ params: { id } }),
  };
}

/** Staff marks a number as never to be messaged again (every campaign skips it). */
export const useOptOut = () => useCall(whatsappApi.optOut);

/** The recipients' CSV (the file's name comes from the answer). */
export const downloadRecipients = (id: number) =>
  download(campaignApi.recipientsCsv, { params: { id } }, `campanha-${id}.csv`);
