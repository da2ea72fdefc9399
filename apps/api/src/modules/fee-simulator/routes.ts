import {
  feePdvSchema,
  feeSettingsInputSchema,
  feeSettingsSchema,
  feeTableInputSchema,
  feeTableSchema,
} from '@balcao/core/fees';
import { deletedSchema } from '@balcao/core/responses';
import { NOT_MKT, PDV, WRITE } from '@balcao/core/routes';
import { z } from '@balcao/core/zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { idParams } from '../../lib/params.ts';
import { assertCan, sessionOf } from '../../plugins/auth.ts';
import {
  createFeeTable,
  deleteFeeTable,
  feeTableForPdv,
  findFeeTable,
  getFeeSettings,
  listFeeTables,
  saveFeeSettings,
  updateFeeTable,
} from './service.ts';

const tags = ['fee-simulator'];

/**
 * /v1/fee-simulator (issue 20): the shop's card rate tables and the simulator settings. Reading: the
 * simulator's page set (NOT_MKT); writing: WRITE.fees. The PDV reads the active table for its
 * installment picker (PDV set).
 */
export function feeSimulatorRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const { db } = ctx;

    app.get(
      '/fee-simulator/table',
      {
        config: { access: NOT_MKT },
        schema: { tags, summary: "The shop's rate tables", response: { 200: z.array(feeTableSchema) } },
      },
      async (request) => listFeeTables(db, sessionOf(request)),
    );

    app.get(
      '/fee-simulator/table/:id',
      {
        config: { access: NOT_MKT },
        schema: { tags, summary: 'One rate table', params: idParams, response: { 200: feeTableSchema } },
      },
      async (request) => findFeeTable(db, sessionOf(request), request.params.id),
    );

    app.post(
      '/fee-simulator/table',
      {
        config: { access: NOT_MKT },
        schema: {
          tags,
          summary: "Save a rate table (from a preset or blank); the shop's first becomes the active one",
          body: feeTableInputSchema,
          response: { 201: feeTableSchema },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await createFeeTable(ctx, assertCan(request, WRITE.fees), request.body)),
    );

    app.put(
      '/fee-simulator/table/:id',
      {
        config: { access: NOT_MKT },
        schema: {
          tags,
          summary: 'Update a rate table: updatedAt is required (400 without it, 409 when stale)',
          params: idParams,
          body: feeTableInputSchema,
          response: { 200: feeTableSchema },
        },
      },
      async (request) => updateFeeTable(ctx, assertCan(request, WRITE.fees), request.params.id, request.body),
    );

    app.delete(
      '/fee-simulator/table/:id',
      {
        config: { access: NOT_MKT },
        schema: { tags, summary: 'Delete a rate table', params: idParams, response: { 200: deletedSchema } },
      },
      async (request) => deleteFeeTable(ctx, assertCan(request, WRITE.fees), request.params.id),
    );

    app.get(
      '/fee-simulator/settings',
      {
        config: { access: NOT_MKT },
        schema: {
          tags,
          summary: 'The active table and whether the PDV shows the installment surcharge',
          response: { 200: feeSettingsSchema },
        },
      },
      async (request) => getFeeSettings(db, sessionOf(request)),
    );

    app.put(
      '/fee-simulator/settings',
      {
        config: { access: NOT_MKT },
        schema: {
          tags,
          summary:
            'Save the settings (updatedAt required once they were saved; 422 for a table not of the shop)',
          body: feeSettingsInputSchema,
          response: { 200: feeSettingsSchema },
        },
      },
      async (request) => saveFeeSettings(ctx, assertCan(request, WRITE.fees), request.body),
    );

    app.get(
      '/fee-simulator/pdv',
      {
        config: { access: PDV },
        schema: {
          tags,
          summary: "The PDV's installment surcharge table: the active one when the display is on, else null",
          response: { 200: feePdvSchema },
        },
      },
      async (request) => feeTableForPdv(db, sessionOf(request)),
    );
  };
}
