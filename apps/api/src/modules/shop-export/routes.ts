import { shopExportApi } from '@balcao/core/endpoints/shop-export';
import { WRITE } from '@balcao/core/routes';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { route } from '../../lib/endpoint.ts';
import { shopClock } from '../../lib/shopToday.ts';
import { assertCan, sessionOf } from '../../plugins/auth.ts';
import { storageFor } from '../storage/storage.ts';
import { cancelShopDeletion, requestShopDeletion, shopDeletionOf } from './deletion.ts';
import { exportShop } from './export.ts';

/** /v1/shop-export (issue 37): the Administrador's "Exportar todos os dados". */
export function shopExportRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const storage = storageFor(ctx.config);
    route(app, shopExportApi.download, async (request, reply) => {
      const session = assertCan(request, WRITE.system);
      const { clientId } = session;
      const { today } = await shopClock(ctx.db, clientId);
      const { stream } = await exportShop(ctx.db, storage, clientId);
      return reply
        .header('content-type', 'application/zip')
        .header('content-disposition', `attachment; filename="balcao-dados-${clientId}-${today}.zip"`)
        .header('cache-control', 'no-store')
        .send(stream);
    });

    route(app, shopExportApi.deletion, (request) => shopDeletionOf(ctx.db, sessionOf(request).clientId));

    route(app, shopExportApi.requestDeletion, (request) =>
      requestShopDeletion(
        ctx.db,
        assertCan(request, shopExportApi.requestDeletion.access),
        request.body.password,
      ),
    );

    route(app, shopExportApi.cancelDeletion, (request) =>
      cancelShopDeletion(ctx.db, assertCan(request, shopExportApi.cancelDeletion.access).clientId),
    );
  };
}
