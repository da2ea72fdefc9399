import { csvFileSchema } from '@balcao/core/responses';
import { PDV, STAFF, WRITE } from '@balcao/core/routes';
import {
  offlineSaleInputSchema,
  saleCancelSchema,
  saleInputSchema,
  saleSchema,
  simpleSaleInputSchema,
} from '@balcao/core/sale';
import { saleListQuerySchema, saleListResultSchema } from '@balcao/core/saleList';
import { z } from '@balcao/core/zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { idParam } from '../../lib/params.ts';
import { assertOwnClient, sessionOf } from '../../plugins/auth.ts';
import { cancelSale, type SaleCanceled } from './cancel.ts';
import { checkout, type DeliveryOrderOfSale } from './checkout.ts';
import { csvFileName, listSales, salesCsv } from './list.ts';
import { syncOfflineSale } from './offlineSync.ts';
import { quickSale } from './quickSale.ts';
import { findSale } from './read.ts';
import type { RecordedSale } from './record.ts';

const id = idParam();
const tags = ['sale'];

/** The Idempotency-Key header: printable text up to 200 characters (a UUID per sale attempt). */
function idempotencyKey(request: FastifyRequest): string | null {
  const raw = request.headers['idempotency-key'];
  if (raw === undefined) return null;
  const key = (Array.isArray(raw) ? raw[0] : raw).trim();
  if (!/^[\x21-\x7e]{1,200}$/.test(key)) {
    throw new AppError(400, 'Idempotency-Key inválida: use até 200 caracteres sem espaços', [
      { path: 'Idempotency-Key', message: 'Idempotency-Key inválida' },
    ]);
  }
  return key;
}

/** 201 for a new sale; a retried request answers the first sale with 200 and Idempotent-Replayed. */
function sendCheckout(reply: FastifyReply, result: RecordedSale) {
  if (result.replayed) return reply.status(200).header('idempotent-replayed', 'true').send(result.sale);
  return reply.status(201).send(result.sale);
}

/**
 * /v1/sale (issue 7): checkout, quick sale, list with totals and CSV, detail, cancel. Settling an
 * installment and a customer's credit are the receivable module's.
 */
export function saleRoutes(
  ctx: AppContext,
  deliveryOrderOfSale?: DeliveryOrderOfSale,
  saleCanceled?: SaleCanceled,
): FastifyPluginAsyncZod {
  return async (app) => {
    const { db } = ctx;

    app.post(
      '/sale',
      {
        config: { access: WRITE.sales },
        schema: {
          tags,
          summary:
            'PDV checkout: sale, items, payments, receivables, coupon use and stock in one transaction (Idempotency-Key header honoured)',
          body: saleInputSchema,
          response: { 200: saleSchema, 201: saleSchema },
        },
      },
      async (request, reply) => {
        const key = idempotencyKey(request);
        const result = await checkout(
          ctx,
          sessionOf(request),
          request.body,
          { idempotencyKey: key, body: request.body },
          deliveryOrderOfSale,
        );
        return sendCheckout(reply, result);
      },
    );

    app.post(
      '/sale/simple',
      {
        config: { access: WRITE.sales },
        schema: {
          tags,
          summary: 'Quick sale: a description and a value, no catalog items',
          body: simpleSaleInputSchema,
          response: { 200: saleSchema, 201: saleSchema },
        },
      },
      async (request, reply) => {
        const key = idempotencyKey(request);
        const result = await quickSale(ctx, sessionOf(request), request.body, {
          idempotencyKey: key ? `simple:${key}` : null,
          body: request.body,
        });
        return sendCheckout(reply, result);
      },
    );

    app.post(
      '/sale/offline',
      {
        config: { access: WRITE.sales },
        schema: {
          tags,
          summary:
            'Offline sync (issue 21): a sale made at the PDV without a connection, at its original time, accepted as made and flagged on conflicts; clientSaleId is its Idempotency-Key',
          body: offlineSaleInputSchema,
          response: { 200: saleSchema, 201: saleSchema },
        },
      },
      async (request, reply) =>
        sendCheckout(
          reply,
          await syncOfflineSale(ctx, sessionOf(request), request.body, deliveryOrderOfSale),
        ),
    );

    app.get(
      '/sale/client/:clientId',
      {
        config: { access: STAFF },
        schema: {
          tags,
          summary:
            'Sales: period, status, payment method, seller, customer filters; totals of the filtered set',
          params: z.object({ clientId: id }),
          querystring: saleListQuerySchema,
          response: { 200: saleListResultSchema },
        },
      },
      async (request) => {
        const { clientId } = assertOwnClient(request, request.params.clientId);
        return listSales(db, clientId, request.query);
      },
    );

    app.get(
      '/sale/client/:clientId/export',
      {
        config: { access: STAFF },
        schema: {
          tags,
          summary: 'CSV of the filtered sales (";" separated, decimal comma, UTF-8 with BOM)',
          params: z.object({ clientId: id }),
          querystring: saleListQuerySchema,
          response: { 200: { content: { 'text/csv': { schema: csvFileSchema } } } },
        },
      },
      async (request, reply) => {
        const { clientId } = assertOwnClient(request, request.params.clientId);
        const csv = await salesCsv(db, clientId, request.query);
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${csvFileName(request.query)}"`)
          .send(csv);
      },
    );

    app.get(
      '/sale/:id',
      {
        config: { access: STAFF },
        schema: {
          tags,
          summary: 'A sale with items, payments and receivables',
          params: z.object({ id }),
          response: { 200: saleSchema },
        },
      },
      async (request) => findSale(db, sessionOf(request), request.params.id),
    );

    app.post(
      '/sale/:id/cancel',
      {
        config: { access: PDV },
        schema: {
          tags,
          summary:
            'Cancel with a reason (types 1, 2; others with a manager approval): returns stock, frees the coupon use, cancels receivables',
          params: z.object({ id }),
          body: saleCancelSchema,
          response: { 200: saleSchema },
        },
      },
      async (request) => cancelSale(ctx, sessionOf(request), request.params.id, request.body, saleCanceled),
    );
  };
}
