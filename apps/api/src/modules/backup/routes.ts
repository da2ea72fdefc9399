import { createReadStream } from 'node:fs';
import { backupApi } from '@balcao/core/endpoints/backup';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { route } from '../../lib/endpoint.ts';
import { sessionOf } from '../../plugins/auth.ts';
import { backupFile, listBackups, saveSchedule, takeBackupFor } from './service.ts';

/** /v1/backup (issue 37): the handlers of `backupApi` (core declares the endpoints). */
export function backupRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const { db, config } = ctx;

    route(app, backupApi.list, (request) => listBackups(db, config, sessionOf(request)));

    route(app, backupApi.create, (request) => takeBackupFor(ctx, sessionOf(request)));

    route(app, backupApi.download, async (request, reply) => {
      const file = await backupFile(db, config, sessionOf(request), request.params.id);
      return reply
        .header(
          'content-type',
          file.fileName.endsWith('.zip') ? 'application/zip' : 'application/octet-stream',
        )
        .header('content-disposition', `attachment; filename="${file.fileName}"`)
        .header('content-length', String(file.sizeBytes))
        .header('cache-control', 'no-store')
        .send(createReadStream(file.path));
    });

    route(app, backupApi.schedule, (request) => saveSchedule(db, sessionOf(request), request.body));
  };
}
