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
  RECIPIENT_STATUS_LABELS,
  recipientListQuerySchema,
} from '@balcao/core/campaign';
import { pageOf } from '@balcao/core/list';
import { binaryFileSchema, csvFileSchema, deletedSchema } from '@balcao/core/responses';
import { BACKOFFICE, WRITE } from '@balcao/core/routes';
import { z } from '@balcao/core/zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { sendCsvStream } from '../../lib/csv.ts';
import { clientParams, idParam, idParams } from '../../lib/params.ts';
import { shopToday } from '../../lib/shopToday.ts';
import { readImageUpload } from '../../lib/upload.ts';
import { assertOwnClient, sessionOf } from '../../plugins/auth.ts';
import { storageFor } from '../storage/storage.ts';
import {
  cancelCampaign,
  countAudience,
  createCampaign,
  deleteCampaign,
  findCampaign,
  listCampaigns,
  listRecipients,
  pauseCampaign,
  recipientsForCsv,
  resumeCampaign,
  setCampaignImage,
  startCampaign,
  updateCampaign,
} from './service.ts';

const tags = ['campaign'];

/** The campaign image's upload limit (before it is re-encoded to a JPEG of at most 1600 px). */
const _IMAGE_MAX_BYTES = 5 * 1024 * 1024;
const IMAGE_FILE = /^[0-9a-f]{32}\.jpg$/;

const cell = (value: string | null) => {
  const text = value ?? '';
  return /[";\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

/** /v1/campaign: reading is the page's roles (BACKOFFICE), everything else WRITE.campaigns. */
export function campaignRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const { db } = ctx;
    const storage = storageFor(ctx.config);

    app.get(
      '/campaign/client/:clientId',
      {
        config: { access: BACKOFFICE },
        schema: {
          tags,
          summary: "The client's campaigns with their progress",
          params: clientParams,
          querystring: campaignListQuerySchema,
          response: { 200: pageOf(campaignListItemSchema) },
        },
      },
      async (request) => listCampaigns(db, assertOwnClient(request, request.params.clientId), request.query),
    );

    app.post(
      '/campaign/audience-count',
      {
        config: { access: BACKOFFICE },
        schema: {
          tags,
          summary: 'How many customers an audience reaches (delinquent or not, WhatsApp valid or not)',
          body: audienceSchema,
          response: { 200: audienceCountsSchema },
        },
      },
      async (request) => countAudience(db, sessionOf(request), request.body),
    );

    app.get(
      '/campaign/:id',
      {
        config: { access: BACKOFFICE },
        schema: {
          tags,
          summary: 'A campaign with its progress',
          params: idParams,
          response: { 200: campaignSchema },
        },
      },
      async (request) => findCampaign(db, sessionOf(request), request.params.id),
    );

    app.get(
      '/campaign/:id/recipients',
      {
        config: { access: BACKOFFICE },
        schema: {
          tags,
          summary: 'The recipients of a campaign with their status',
          params: idParams,
          querystring: recipientListQuerySchema,
          response: { 200: pageOf(campaignRecipientSchema) },
        },
      },
      async (request) => listRecipients(db, sessionOf(request), request.params.id, request.query),
    );

    app.get(
      '/campaign/:id/recipients/csv',
      {
        config: { access: BACKOFFICE },
        schema: {
          tags,
          summary: 'CSV of the recipients (";" separated, UTF-8 with BOM)',
          params: idParams,
          response: { 200: { content: { 'text/csv': { schema: csvFileSchema } } } },
        },
      },
      async (request, reply) => {
        const session = sessionOf(request);
        const rows = await recipientsForCsv(db, session, request.params.id);
        return sendCsvStream(reply, `campanha-${request.params.id}`, {
          today: await shopToday(db, session.clientId),
          header: '\uFEFFNome;WhatsApp;Situação;Motivo;Enviada em\n',
          rows,
          lines: (batch) =>
            batch
              .map((r) =>
                [r.name, r.phone, RECIPIENT_STATUS_LABELS[r.status], r.reason, r.sentAt].map(cell).join(';'),
              )
              .map((line) => `${line}\n`)
              .join(''),
        });
      },
    );

    app.post(
      '/campaign',
      {
        config: { access: WRITE.campaigns },
        schema: {
          tags,
          summary: 'Create a campaign (draft)',
          body: campaignInputSchema,
          response: { 201: campaignSchema },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await createCampaign(ctx, sessionOf(request), request.body)),
    );

    app.put(
      '/campaign/:id',
      {
        config: { access: WRITE.campaigns },
        schema: {
          tags,
          summary: 'Edit a campaign that has not started (updatedAt required; 409 when stale or started)',
          params: idParams,
          body: campaignUpdateSchema,
          response: { 200: campaignSchema },
        },
      },
      async (request) => updateCampaign(ctx, sessionOf(request), request.params.id, request.body),
    );

    app.delete(
      '/campaign/:id',
      {
        config: { access: WRITE.campaigns },
        schema: {
          tags,
          summary: 'Delete a campaign that is not sending',
          params: idParams,
          response: { 200: deletedSchema },
        },
      },
      async (request) => deleteCampaign(ctx, storage, sessionOf(request), request.params.id),
    );

    app.post(
      '/campaign/:id/image',
      {
        config: { access: WRITE.campaigns },
        schema: {
          tags,
          summary:
            'Upload the image sent with every message (multipart field "file": JPEG, PNG or WebP, up to 5 MB; stored as JPEG)',
          params: idParams,
          response: { 200: campaignSchema },
        },
      },
      async (request, reply) => {
        const actor = sessionOf(request);
        const data = await readImageUpload(request, CAMPAIGN_IMAGE_UPLOAD);
        return reply.send(await setCampaignImage(ctx, storage, actor, request.params.id, data));
      },
    );

    app.delete(
      '/campaign/:id/image',
      {
        config: { access: WRITE.campaigns },
        schema: {
          tags,
          summary: 'Remove the image of a campaign that has not started',
          params: idParams,
          response: { 200: campaignSchema },
        },
      },
      async (request) => setCampaignImage(ctx, storage, sessionOf(request), request.params.id, null),
    );

    // Public: <img> tags send no Bearer header. The 128-bit random name is the secret, and a new
    // upload gets a new name, so the file is cached for a year.
    app.get(
      '/campaign-image/:clientId/:file',
      {
        config: { access: 'public' },
        schema: {
          tags,
          summary: "A campaign's image (the form's preview)",
          params: z.object({
            clientId: idParam('Imagem não encontrada'),
            file: z.string().regex(IMAGE_FILE, 'Imagem não encontrada'),
          }),
          response: { 200: { content: { 'image/jpeg': { schema: binaryFileSchema } } } },
        },
      },
      async (request, reply) => {
        const { clientId, file } = request.params;
        const stored = await storage.get(`campaign/${clientId}/${file}`);
        if (!stored) throw notFound('Imagem não encontrada');
        return reply
          .header('content-type', 'image/jpeg')
          .header('content-length', stored.size)
          .header('cache-control', 'public, max-age=31536000, immutable')
          .header('x-content-type-options', 'nosniff')
          .send(stored.stream);
      },
    );

    for (const [action, run, summary] of [
      ['start', startCampaign, 'Start now (or schedule, when its date is ahead): writes the send queue'],
      ['pause', pauseCampaign, 'Pause the sending'],
      ['resume', resumeCampaign, 'Resume where it stopped'],
      ['cancel', cancelCampaign, 'Cancel: the messages not sent yet are dropped'],
    ] as const) {
      app.post(
        `/campaign/:id/${action}`,
        {
          config: { access: WRITE.campaigns },
          schema: { tags, summary, params: idParams, response: { 200: campaignSchema } },
        },
        async (request) => run(ctx, sessionOf(request), request.params.id),
      );
    }
  };
}
