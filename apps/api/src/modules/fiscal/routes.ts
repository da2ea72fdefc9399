import { fiscalApi } from '@balcao/core/endpoints/fiscal';
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { clients } from '../../db/schema.ts';
import { route } from '../../lib/endpoint.ts';
import { sessionOf } from '../../plugins/auth.ts';
import { danfePdf } from './danfe.ts';
import { cancelNote, epecStatusOf, voidNumbers } from './issue.ts';
import { monthZip } from './monthZip.ts';
import {
  getSettings,
  listNotes,
  noteOfSale,
  noteRow,
  productFiscal,
  type SettingsRow,
  saveProductFiscal,
  saveSettings,
  settingsRow,
  uploadCertificate,
} from './service.ts';

/** /v1/fiscal (issue 32): the handlers of `fiscalApi` (core declares the endpoints). */
export function fiscalRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const { db } = ctx;

    route(app, fiscalApi.settings, (request) => getSettings(db, sessionOf(request)));
    route(app, fiscalApi.status, async (request) => ({
      enabled: (await settingsRow(db, sessionOf(request).clientId))?.enabled ?? false,
    }));
    route(app, fiscalApi.epecStatus, (request) => epecStatusOf(ctx, sessionOf(request)));
    route(app, fiscalApi.saveSettings, (request) => saveSettings(ctx, sessionOf(request), request.body));
    route(app, fiscalApi.certificate, (request) => uploadCertificate(ctx, sessionOf(request), request.body));
    route(app, fiscalApi.notes, (request) => listNotes(db, sessionOf(request)));

    route(app, fiscalApi.monthZip, async (request, reply) => {
      const { stream, name } = await monthZip(db, sessionOf(request), request.query.month);
      return reply
        .header('content-type', 'application/zip')
        .header('content-disposition', `attachment; filename="${name}"`)
        .header('cache-control', 'no-store')
        .send(stream);
    });

    route(app, fiscalApi.xml, async (request, reply) => {
      const note = await noteRow(db, sessionOf(request), request.params.id);
      const xml = note.procXml ?? note.xml;
      return reply
        .header('content-type', 'application/xml; charset=utf-8')
        .header('content-disposition', `attachment; filename="${note.accessKey}-nfce.xml"`)
        .header('cache-control', 'no-store')
        .send(xml);
    });

    route(app, fiscalApi.danfe, async (request, reply) => {
      const session = sessionOf(request);
      const note = await noteRow(db, session, request.params.id);
      const settings = (await settingsRow(db, session.clientId)) as SettingsRow;
      const [client] = await db
        .select({ timeZone: clients.timeZone })
        .from(clients)
        .where(eq(clients.id, session.clientId));
      const pdf = await danfePdf(settings, note, client?.timeZone ?? 'America/Sao_Paulo');
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `inline; filename="nfce-${note.number}.pdf"`)
        .header('cache-control', 'no-store')
        .send(pdf);
    });

    route(app, fiscalApi.cancel, (request) =>
      cancelNote(ctx, sessionOf(request), request.params.id, request.body.reason),
    );
    route(app, fiscalApi.voidNumbers, (request) => voidNumbers(ctx, sessionOf(request), request.body));
    route(app, fiscalApi.ofSale, (request) => noteOfSale(db, sessionOf(request), request.params.id));
    route(app, fiscalApi.product, (request) => productFiscal(db, sessionOf(request), request.params.id));
    route(app, fiscalApi.saveProduct, (request) =>
      saveProductFiscal(db, sessionOf(request), request.params.id, request.body.fields),
    );
  };
}
