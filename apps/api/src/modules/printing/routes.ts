import {
  printActionInputSchema,
  printFailureInputSchema,
  printingSettingsInputSchema,
  printingSettingsSchema,
  printJobInputSchema,
  printJobSchema,
  printStationSchema,
} from '@balcao/core/printing';
import { BACKOFFICE, STAFF, WRITE } from '@balcao/core/routes';
import { z } from '@balcao/core/zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { idParams } from '../../lib/params.ts';
import { assertCan, sessionOf } from '../../plugins/auth.ts';
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

const tags = ['printing'];

/**
 * /v1/printing: the printer page (BACKOFFICE reads, WRITE.settings saves) and the print jobs every
 * staff user sends (PDV receipts, comandas) and every station confirms.
 */
export function printingRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  attachPrintStations(ctx);
  return async (app) => {
    const { db } = ctx;

    app.get(
      '/printing/settings',
      {
        config: { access: BACKOFFICE },
        schema: {
          tags,
          summary: 'Printer profiles, production sectors with their categories, receipt options',
          response: { 200: printingSettingsSchema },
        },
      },
      async (request) => getPrintingSettings(db, sessionOf(request)),
    );

    app.put(
      '/printing/settings',
      {
        config: { access: BACKOFFICE },
        schema: {
          tags,
          summary: 'Save the whole printer page (updatedAt required once saved, 409 when stale)',
          body: printingSettingsInputSchema,
          response: { 200: printingSettingsSchema },
        },
      },
      async (request) => savePrintingSettings(ctx, assertCan(request, WRITE.settings), request.body),
    );

    app.get(
      '/printing/stations',
      {
        config: { access: STAFF },
        schema: {
          tags,
          summary: 'The print stations connected now',
          response: { 200: z.array(printStationSchema) },
        },
      },
      async (request) => listStations(ctx, sessionOf(request).clientId),
    );

    app.get(
      '/printing/jobs',
      {
        config: { access: STAFF },
        schema: {
          tags,
          summary: "The shop's latest 50 print jobs, newest first (mine=true: only the caller's)",
          querystring: z.object({ mine: z.enum(['true', 'false']).optional() }),
          response: { 200: z.array(printJobSchema) },
        },
      },
      async (request) => listPrintJobs(db, sessionOf(request), request.query.mine === 'true'),
    );

    app.get(
      '/printing/job/:id',
      {
        config: { access: STAFF },
        schema: { tags, summary: 'One print job', params: idParams, response: { 200: printJobSchema } },
      },
      async (request) => findPrintJob(db, sessionOf(request), request.params.id),
    );

    app.post(
      '/printing/job',
      {
        config: { access: STAFF },
        schema: {
          tags,
          summary: 'Queue a print job (201; the same idempotencyKey again answers the same job, 200)',
          body: printJobInputSchema,
          response: { 200: printJobSchema, 201: printJobSchema },
        },
      },
      async (request, reply) => {
        const { job, replayed } = await enqueuePrintJob(ctx, sessionOf(request), request.body);
        return reply.status(replayed ? 200 : 201).send(job);
      },
    );

    app.post(
      '/printing/profile/:id/test',
      {
        config: { access: BACKOFFICE },
        schema: {
          tags,
          summary: 'Print a test page on a profile',
          params: idParams,
          body: printActionInputSchema,
          response: { 200: printJobSchema, 201: printJobSchema },
        },
      },
      async (request, reply) => {
        const { job, replayed } = await printTestPage(
          ctx,
          sessionOf(request),
          request.params.id,
          request.body.idempotencyKey,
        );
        return reply.status(replayed ? 200 : 201).send(job);
      },
    );

    app.post(
      '/printing/job/:id/reprint',
      {
        config: { access: STAFF },
        schema: {
          tags,
          summary: 'Print a job again, marked REIMPRESSÃO (a new job)',
          params: idParams,
          body: printActionInputSchema,
          response: { 200: printJobSchema, 201: printJobSchema },
        },
      },
      async (request, reply) => {
        const { job, replayed } = await reprintJob(
          ctx,
          sessionOf(request),
          request.params.id,
          request.body.idempotencyKey,
        );
        return reply.status(replayed ? 200 : 201).send(job);
      },
    );

    app.post(
      '/printing/job/:id/retry',
      {
        config: { access: STAFF },
        schema: {
          tags,
          summary: 'Send a failed or unconfirmed job again (409 when printed or just sent)',
          params: idParams,
          response: { 200: printJobSchema },
        },
      },
      async (request) => retryPrintJob(ctx, sessionOf(request), request.params.id),
    );

    app.post(
      '/printing/job/:id/printed',
      {
        config: { access: STAFF },
        schema: {
          tags,
          summary: 'A station confirms the job printed (again: the job as it is)',
          params: idParams,
          response: { 200: printJobSchema },
        },
      },
      async (request) => confirmPrinted(ctx, sessionOf(request), request.params.id),
    );

    app.post(
      '/printing/job/:id/failed',
      {
        config: { access: STAFF },
        schema: {
          tags,
          summary: 'A station reports it could not print the job',
          params: idParams,
          body: printFailureInputSchema,
          response: { 200: printJobSchema },
        },
      },
      async (request) => reportPrintFailure(ctx, sessionOf(request), request.params.id, request.body.error),
    );
  };
}
