import { RECIPIENT_STATUS_LABELS } from '@balcao/core/campaign';
import { campaignApi } from '@balcao/core/endpoints/campaign';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { sendCsvStream } from '../../lib/csv.ts';
import { route } from '../../lib/endpoint.ts';
import { shopToday } from '../../lib/shopToday.ts';
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

const cell = (value: string | null) => {
  const text = value ?? '';
  return /[";\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

/** /v1/campaign: the handlers of `campaignApi` (core declares the endpoints). */
export function campaignRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const { db } = ctx;
    const storage = storageFor(ctx.config);

    route(app, campaignApi.list, (request) =>
      listCampaigns(db, assertOwnClient(request, request.params.clientId), request.query),
    );

    route(app, campaignApi.audienceCount, (request) => countAudience(db, sessionOf(request), request.body));

    route(app, campaignApi.get, (request) => findCampaign(db, sessionOf(request), request.params.id));

    route(app, campaignApi.recipients, (request) =>
      listRecipients(db, sessionOf(request), request.params.id, request.query),
    );

    route(app, campaignApi.recipientsCsv, async (request, reply) => {
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
    });

    route(app, campaignApi.create, (request) => createCampaign(ctx, sessionOf(request), request.body));

    route(app, campaignApi.update, (request) =>
      updateCampaign(ctx, sessionOf(request), request.params.id, request.body),
    );

    route(app, campaignApi.remove, (request) =>
      deleteCampaign(ctx, storage, sessionOf(request), request.params.id),
    );

    route(app, campaignApi.setImage, (request) =>
      setCampaignImage(ctx, storage, sessionOf(request), request.params.id, request.upload),
    );

    route(app, campaignApi.removeImage, (request) =>
      setCampaignImage(ctx, storage, sessionOf(request), request.params.id, null),
    );

    route(app, campaignApi.image, async (request, reply) => {
      const { clientId, file } = request.params;
      const stored = await storage.get(`campaign/${clientId}/${file}`);
      if (!stored) throw notFound('Imagem não encontrada');
      return reply
        .header('content-type', 'image/jpeg')
        .header('content-length', stored.size)
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('x-content-type-options', 'nosniff')
        .send(stored.stream);
    });

    route(app, campaignApi.start, (request) => startCampaign(ctx, sessionOf(request), request.params.id));
    route(app, campaignApi.pause, (request) => pauseCampaign(ctx, sessionOf(request), request.params.id));
    route(app, campaignApi.resume, (request) => resumeCampaign(ctx, sessionOf(request), request.params.id));
    route(app, campaignApi.cancel, (request) => cancelCampaign(ctx, sessionOf(request), request.params.id));
  };
}
