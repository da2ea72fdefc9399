import { kdsApi } from '@balcao/core/endpoints/kds';
import { printingApi } from '@balcao/core/endpoints/printing';
import { WRITE } from '@balcao/core/routes';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { route } from '../../lib/endpoint.ts';
import { assertCan, sessionOf } from '../../plugins/auth.ts';
import { agentPackage } from './agentPackage.ts';
import { attachPrintAgents, createAgent, listAgents, pairAgent, revokeAgent } from './agents.ts';
import {
  getKdsSettings,
  kdsBoard,
  kdsBump,
  kdsHeartbeat,
  kdsRecall,
  listKdsStations,
  saveKdsSettings,
} from './kds.ts';
import {
  confirmPrinted,
  enqueuePrintJob,
  findPrintJob,
  getPrintingSettings,
  listPrintJobs,
  printTestPage,
  reportPrintFailure,
  reprintJob,
  retryPrintJob,
  savePrintingSettings,
} from './service.ts';
import { attachPrintStations, listStations } from './stations.ts';

/** A new job answers 201; the same idempotency key again answers the job it made, 200. */
type Queued = { job: Awaited<ReturnType<typeof enqueuePrintJob>>['job']; replayed: boolean };
const statusOf = (queued: Queued) => (queued.replayed ? 200 : 201);

/** /v1/printing: the handlers of `printingApi` (core declares the endpoints). */
export function printingRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  attachPrintStations(ctx);
  attachPrintAgents(ctx);
  return async (app) => {
    const { db } = ctx;
    const api = printingApi;

    route(app, api.settings, (request) => getPrintingSettings(db, sessionOf(request)));

    route(app, api.saveSettings, (request) =>
      savePrintingSettings(ctx, assertCan(request, WRITE.settings), request.body),
    );

    route(app, api.stations, (request) => listStations(ctx, sessionOf(request).clientId));

    route(app, api.jobs, (request) => listPrintJobs(db, sessionOf(request), request.query.mine === 'true'));

    route(app, api.job, (request) => findPrintJob(db, sessionOf(request), request.params.id));

    route(app, api.enqueue, async (request, reply) => {
      const queued = await enqueuePrintJob(ctx, sessionOf(request), request.body);
      return reply.status(statusOf(queued)).send(queued.job);
    });

    route(app, api.testPage, async (request, reply) => {
      const queued = await printTestPage(
        ctx,
        sessionOf(request),
        request.params.id,
        request.body.idempotencyKey,
      );
      return reply.status(statusOf(queued)).send(queued.job);
    });

    route(app, api.reprint, async (request, reply) => {
      const queued = await reprintJob(
        ctx,
        sessionOf(request),
        request.params.id,
        request.body.idempotencyKey,
      );
      return reply.status(statusOf(queued)).send(queued.job);
    });

    route(app, api.retry, (request) => retryPrintJob(ctx, sessionOf(request), request.params.id));

    route(app, api.printed, (request) => confirmPrinted(ctx, sessionOf(request), request.params.id));

    route(app, api.failed, (request) =>
      reportPrintFailure(ctx, sessionOf(request), request.params.id, request.body.error),
    );

    route(app, api.agents, (request) => listAgents(ctx, sessionOf(request).clientId));

    route(app, api.createAgent, async (request, reply) =>
      reply.status(201).send(await createAgent(ctx, assertCan(request, WRITE.settings), request.body)),
    );

    route(app, api.pairAgent, (request) => pairAgent(ctx, request.body.code, request.ip));

    route(app, api.agentPackage, async (_request, reply) =>
      reply
        .header('content-type', 'application/gzip')
        .header('content-disposition', 'attachment; filename="balcao-print-agent.tgz"')
        .header('cache-control', 'no-cache')
        .send(await agentPackage(ctx.config.publicUrl)),
    );

    route(app, api.revokeAgent, (request) =>
      revokeAgent(ctx, assertCan(request, WRITE.settings), request.params.id),
    );

    // The kitchen display (issue 35): a station's screen over the same production tickets.
    const kds = kdsApi;
    route(app, kds.stations, (request) => listKdsStations(db, sessionOf(request)));
    route(app, kds.board, (request) => kdsBoard(db, sessionOf(request), request.params.id));
    route(app, kds.heartbeat, (request) => kdsHeartbeat(ctx, sessionOf(request), request.params.id));
    route(app, kds.ready, (request) =>
      kdsBump(ctx, sessionOf(request), request.params.id, request.body.line),
    );
    route(app, kds.recall, (request) => kdsRecall(ctx, sessionOf(request), request.params.id));
    route(app, kds.settings, (request) => getKdsSettings(db, sessionOf(request).clientId));
    route(app, kds.saveSettings, (request) =>
      saveKdsSettings(ctx, assertCan(request, WRITE.settings), request.body),
    );
  };
}
