import {
  audienceCountsSchema,
  audienceSchema,
  CAMPAIGN_IMAGE_UPLOAD,
  campaignInputSchema,
  campaignListItemSchema,
  campaignListQuerySchema,
  campaignRecipientSchema,
  campaignSchema,
  campaignUpdateSchema,
  recipientListQuerySchema,
} from '../campaign.ts';
import { endpoint } from '../contract.ts';
import { pageOf } from '../list.ts';
import { clientParams, idParam, idParams } from '../params.ts';
import { binaryFileSchema, csvFileSchema, deletedSchema } from '../responses.ts';
import { BACKOFFICE, WRITE } from '../routes.ts';
import { z } from '../zod.ts';

/** A stored campaign image's name: 128 random bits in hex, a JPEG. */
const IMAGE_FILE = /^[0-9a-f]{32}\.jpg$/;

/** A state change of a campaign (start, pause, resume, cancel): same shape, its own path and summary. */
const action = <P extends string>(path: P, summary: string) =>
  endpoint({
    method: 'POST',
    path,
    resource: 'campaign',
    access: WRITE.campaigns,
    summary,
    params: idParams,
    response: { 200: campaignSchema },
    changes: ['campaign'],
  });

/** /v1/campaign: reading is the page's roles (BACKOFFICE), everything else WRITE.campaigns. */
export const campaignApi = {
  list: endpoint({
    method: 'GET',
    path: '/campaign/client/:clientId',
    resource: 'campaign',
    access: BACKOFFICE,
    summary: "The client's campaigns with their progress",
    params: clientParams,
    query: campaignListQuerySchema,
    response: { 200: pageOf(campaignListItemSchema) },
  }),
  audienceCount: endpoint({
    method: 'POST',
    path: '/campaign/audience-count',
    resource: 'campaign',
    access: BACKOFFICE,
    summary: 'How many customers an audience reaches (delinquent or not, WhatsApp valid or not)',
    body: audienceSchema,
    response: { 200: audienceCountsSchema },
  }),
  get: endpoint({
    method: 'GET',
    path: '/campaign/:id',
    resource: 'campaign',
    access: BACKOFFICE,
    summary: 'A campaign with its progress',
    params: idParams,
    response: { 200: campaignSchema },
  }),
  recipients: endpoint({
    method: 'GET',
    path: '/campaign/:id/recipients',
    resource: 'campaign',
    access: BACKOFFICE,
    summary: 'The recipients of a campaign with their status',
    params: idParams,
    query: recipientListQuerySchema,
    response: { 200: pageOf(campaignRecipientSchema) },
  }),
  recipientsCsv: endpoint({
    method: 'GET',
    path: '/campaign/:id/recipients/csv',
    resource: 'campaign',
    access: BACKOFFICE,
    summary: 'CSV of the recipients (";" separated, UTF-8 with BOM)',
    params: idParams,
    response: { 200: csvFileSchema },
    file: 'csv',
  }),
  create: endpoint({
    method: 'POST',
    path: '/campaign',
    resource: 'campaign',
    access: WRITE.campaigns,
    summary: 'Create a campaign (draft)',
    body: campaignInputSchema,
    response: { 201: campaignSchema },
    changes: ['campaign'],
  }),
  update: endpoint({
    method: 'PUT',
    path: '/campaign/:id',
    resource: 'campaign',
    access: WRITE.campaigns,
    summary: 'Edit a campaign that has not started (updatedAt required; 409 when stale or started)',
    params: idParams,
    body: campaignUpdateSchema,
    response: { 200: campaignSchema },
    changes: ['campaign'],
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/campaign/:id',
    resource: 'campaign',
    access: WRITE.campaigns,
    summary: 'Delete a campaign that is not sending',
    params: idParams,
    response: { 200: deletedSchema },
    changes: ['campaign'],
  }),
  setImage: endpoint({
    method: 'POST',
    path: '/campaign/:id/image',
    resource: 'campaign',
    access: WRITE.campaigns,
    summary:
      'Upload the image sent with every message (multipart field "file": JPEG, PNG or WebP, up to 5 MB; stored as JPEG)',
    params: idParams,
    response: { 200: campaignSchema },
    upload: CAMPAIGN_IMAGE_UPLOAD,
    changes: ['campaign'],
  }),
  removeImage: endpoint({
    method: 'DELETE',
    path: '/campaign/:id/image',
    resource: 'campaign',
    access: WRITE.campaigns,
    summary: 'Remove the image of a campaign that has not started',
    params: idParams,
    response: { 200: campaignSchema },
    changes: ['campaign'],
  }),
  /**
   * Public: <img> tags send no Bearer header. The 128-bit random name is the secret, and a new
   * upload gets a new name, so the file is cached for a year.
   */
  image: endpoint({
    method: 'GET',
    path: '/campaign-image/:clientId/:file',
    resource: 'campaign',
    access: 'public',
    summary: "A campaign's image (the form's preview)",
    params: z.object({
      clientId: idParam('Imagem não encontrada'),
      file: z.string().regex(IMAGE_FILE, 'Imagem não encontrada'),
    }),
    response: { 200: binaryFileSchema },
    file: 'jpeg',
  }),
  start: action(
    '/campaign/:id/start',
    'Start now (or schedule, when its date is ahead): writes the send queue',
  ),
  pause: action('/campaign/:id/pause', 'Pause the sending'),
  resume: action('/campaign/:id/resume', 'Resume where it stopped'),
  cancel: action('/campaign/:id/cancel', 'Cancel: the messages not sent yet are dropped'),
} as const;
