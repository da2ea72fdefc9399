import { labelApi } from '@balcao/core/endpoints/label';
import { labelCommands } from '@balcao/core/labels/printerLabels';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { route } from '../../lib/endpoint.ts';
import { sessionOf } from '../../plugins/auth.ts';
import { labelsPdf } from './pdf.ts';
import { labelItems, printLabels } from './service.ts';

/** /v1/label (issue 36): the handlers of `labelApi` (core declares the endpoints). */
export function labelRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const { db } = ctx;

    route(app, labelApi.pdf, async (request, reply) => {
      const items = await labelItems(db, sessionOf(request), request.query.items);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', 'inline; filename="etiquetas.pdf"')
        .header('cache-control', 'no-store')
        .send(await labelsPdf(items));
    });

    route(app, labelApi.commands, async (request, reply) => {
      const language = request.query.language ?? 'zpl';
      const items = await labelItems(db, sessionOf(request), request.query.items);
      return reply
        .header('content-type', 'text/plain; charset=utf-8')
        .header('content-disposition', `attachment; filename="etiquetas.${language}"`)
        .header('cache-control', 'no-store')
        .send(labelCommands(language, items));
    });

    route(app, labelApi.print, (request) => printLabels(ctx, sessionOf(request), request.body));
  };
}
