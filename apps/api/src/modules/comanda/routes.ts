import {
  COMANDA_MESSAGES,
  comandaBoardSchema,
  comandaCloseInputSchema,
  comandaLineCancelInputSchema,
  comandaLineInputSchema,
  comandaLineSchema,
  comandaMenuSchema,
  comandaMergeInputSchema,
  comandaOpenInputSchema,
  comandaPaymentInputSchema,
  comandaSchema,
  comandaSendResultSchema,
  comandaServiceFeeInputSchema,
  comandaTransferInputSchema,
  comandaUpdateInputSchema,
  comandaWaitersSchema,
} from '@balcao/core/comanda';
import { printDocumentSchema } from '@balcao/core/printing';
import { NOT_MKT, WRITE } from '@balcao/core/routes';
import { saleSchema } from '@balcao/core/sale';
import { z } from '@balcao/core/zod';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { AppError, forbidden } from '../../errors.ts';
import { idParam, idParams } from '../../lib/params.ts';
import { assertCan, sessionOf } from '../../plugins/auth.ts';
import { closeComanda } from './close.ts';
import { comandaMenu } from './menu.ts';
import { addPayment } from './payment.ts';
import { preBill, reprintSend, sendToProduction } from './production.ts';
import { findComanda, listBoard } from './read.ts';
import {
  addLine,
  cancelLine,
  listWaiters,
  mergeComanda,
  openComanda,
  requestBill,
  setServiceFee,
  transferLine,
  updateComanda,
} from './service.ts';

const tags = ['comanda'];

/** The Idempotency-Key header (printable, up to 200 characters); `required` answers 400 without one. */
function keyOf(request: FastifyRequest, required = false): string | null {
  const raw = request.headers['idempotency-key'];
  if (raw === undefined) {
    if (!required) return null;
    throw new AppError(400, 'Envie o cabeçalho Idempotency-Key (uma chave por envio)', [
      { path: 'Idempotency-Key', message: 'Idempotency-Key obrigatória' },
    ]);
  }
  const key = (Array.isArray(raw) ? raw[0] : raw).trim();
  if (!/^[\x21-\x7e]{8,200}$/.test(key)) {
    throw new AppError(400, 'Idempotency-Key inválida: use de 8 a 200 caracteres sem espaços', [
      { path: 'Idempotency-Key', message: 'Idempotency-Key inválida' },
    ]);
  }
  return key;
}

const lineParams = z.object({ id: idParam(), lineId: idParam('Item inválido') });
const sendParams = z.object({ id: idParam(), sendId: idParam('Envio inválido') });
const boardQuery = z.object({ waiterId: idParam('Garçom inválido').optional() });
const preBillSchema = z.object({ document: printDocumentSchema, jobId: z.number().nullable() });

/**
 * /v1/comanda (issue 16): the board, a tab, lines appended one per request, production, transfer,
 * merge, fee, pre-bill, payments and the close into one sale. NOT_MKT (ROUTES.md); receiving and
 * closing also need WRITE.sales (a register). Every route answers 403 with the Portuguese message
 * while the client's saleCommand flag is off.
 */
export function comandaRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const { db } = ctx;
    const config = { access: NOT_MKT };

    // The switch comes with the session (plugins/auth.ts): no query of its own on every tap.
    app.addHook('preHandler', async (request) => {
      if (request.session && !request.session.saleCommand) throw forbidden(COMANDA_MESSAGES.disabled);
    });

    const detail = (request: FastifyRequest, id: number) => findComanda(db, sessionOf(request), id);

    app.get(
      '/comanda',
      {
        config,
        schema: {
          tags,
          summary:
            "The board: the client's open tabs by number (waiterId: one waiter's), idle limit, server time",
          querystring: boardQuery,
          response: { 200: comandaBoardSchema },
        },
      },
      async (request) => listBoard(db, sessionOf(request), request.query.waiterId ?? null),
    );

    app.get(
      '/comanda/waiters',
      {
        config,
        schema: {
          tags,
          summary: "Who may serve a tab (the open form's waiter picker): Garçons first",
          response: { 200: comandaWaitersSchema },
        },
      },
      async (request) => listWaiters(db, sessionOf(request)),
    );

    app.get(
      '/comanda/menu',
      {
        config,
        schema: {
          tags,
          summary: "The waiter PDV's menu: active categories and the products most added to tabs lately",
          response: { 200: comandaMenuSchema },
        },
      },
      async (request) => comandaMenu(db, sessionOf(request)),
    );

    app.get(
      '/comanda/:id',
      {
        config,
        schema: {
          tags,
          summary: 'One tab: lines, payments, sends with their print jobs, log, totals',
          params: idParams,
          response: { 200: comandaSchema },
        },
      },
      async (request) => detail(request, request.params.id),
    );

    app.post(
      '/comanda',
      {
        config,
        schema: {
          tags,
          summary: 'Open a tab: typed number (409 when an open tab has it) or the next free one',
          body: comandaOpenInputSchema,
          response: { 201: comandaSchema },
        },
      },
      async (request, reply) => {
        const id = await openComanda(ctx, sessionOf(request), request.body);
        return reply.status(201).send(await detail(request, id));
      },
    );

    app.put(
      '/comanda/:id',
      {
        config,
        schema: {
          tags,
          summary: 'Table, customer, people, waiter (updatedAt required; a table move is logged)',
          params: idParams,
          body: comandaUpdateInputSchema,
          response: { 200: comandaSchema },
        },
      },
      async (request) => {
        await updateComanda(ctx, sessionOf(request), request.params.id, request.body);
        return detail(request, request.params.id);
      },
    );

    app.post(
      '/comanda/:id/line',
      {
        config,
        schema: {
          tags,
          summary: 'Append ONE line, priced from the catalog (Idempotency-Key: a retry adds it once)',
          params: idParams,
          body: comandaLineInputSchema,
          response: { 200: comandaLineSchema, 201: comandaLineSchema },
        },
      },
      async (request, reply) => {
        const result = await addLine(
          ctx,
          sessionOf(request),
          request.params.id,
          request.body,
          keyOf(request),
        );
        if (result.replayed) return reply.status(200).header('idempotent-replayed', 'true').send(result.line);
        return reply.status(201).send(result.line);
      },
    );

    app.post(
      '/comanda/:id/line/:lineId/cancel',
      {
        config,
        schema: {
          tags,
          summary: 'Cancel a line (sent: reason, approval for non-managers, cancel ticket printed)',
          params: lineParams,
          body: comandaLineCancelInputSchema,
          response: { 200: comandaSchema },
        },
      },
      async (request) => {
        const { id, lineId } = request.params;
        await cancelLine(ctx, sessionOf(request), id, lineId, request.body);
        return detail(request, id);
      },
    );

    app.post(
      '/comanda/:id/send',
      {
        config,
        schema: {
          tags,
          summary:
            'Send the lines not sent yet to production: one ticket per sector (Idempotency-Key required)',
          params: idParams,
          response: { 200: comandaSendResultSchema, 201: comandaSendResultSchema },
        },
      },
      async (request, reply) => {
        const result = await sendToProduction(
          ctx,
          sessionOf(request),
          request.params.id,
          keyOf(request, true) as string,
        );
        return reply.status(result.replayed ? 200 : 201).send(result);
      },
    );

    app.post(
      '/comanda/:id/send/:sendId/reprint',
      {
        config,
        schema: {
          tags,
          summary: "Reprint a send's tickets, marked REIMPRESSÃO (Idempotency-Key required)",
          params: sendParams,
          response: { 200: comandaSchema },
        },
      },
      async (request) => {
        const { id, sendId } = request.params;
        await reprintSend(ctx, sessionOf(request), id, sendId, keyOf(request, true) as string);
        return detail(request, id);
      },
    );

    app.post(
      '/comanda/:id/transfer',
      {
        config,
        schema: {
          tags,
          summary: 'Move a line, whole or part of its quantity, to another open tab (logged)',
          params: idParams,
          body: comandaTransferInputSchema,
          response: { 200: comandaSchema },
        },
      },
      async (request) => {
        await transferLine(ctx, sessionOf(request), request.params.id, request.body);
        return detail(request, request.params.id);
      },
    );

    app.post(
      '/comanda/:id/merge',
      {
        config,
        schema: {
          tags,
          summary: "Bring another open tab's lines into this one; the other is canceled (logged)",
          params: idParams,
          body: comandaMergeInputSchema,
          response: { 200: comandaSchema },
        },
      },
      async (request) => {
        await mergeComanda(ctx, sessionOf(request), request.params.id, request.body);
        return detail(request, request.params.id);
      },
    );

    app.put(
      '/comanda/:id/service-fee',
      {
        config,
        schema: {
          tags,
          summary: 'The tab’s service fee (hundredths of a percent): another than the default needs a reason',
          params: idParams,
          body: comandaServiceFeeInputSchema,
          response: { 200: comandaSchema },
        },
      },
      async (request) => {
        await setServiceFee(ctx, sessionOf(request), request.params.id, request.body);
        return detail(request, request.params.id);
      },
    );

    app.post(
      '/comanda/:id/request-bill',
      {
        config,
        schema: {
          tags,
          summary: 'The waiter asks for the bill (board colour)',
          params: idParams,
          response: { 200: comandaSchema },
        },
      },
      async (request) => {
        await requestBill(ctx, sessionOf(request), request.params.id);
        return detail(request, request.params.id);
      },
    );

    app.post(
      '/comanda/:id/pre-bill',
      {
        config,
        schema: {
          tags,
          summary:
            'Print the pre-bill (conferência) on the receipt printer; answers the document (Idempotency-Key required)',
          params: idParams,
          response: { 200: preBillSchema },
        },
      },
      async (request) => preBill(ctx, sessionOf(request), request.params.id, keyOf(request, true) as string),
    );

    app.post(
      '/comanda/:id/payment',
      {
        config,
        schema: {
          tags,
          summary:
            "Receive a payment (items, share or amount) at the receiver's open register (Idempotency-Key honoured)",
          params: idParams,
          body: comandaPaymentInputSchema,
          response: { 201: comandaSchema },
        },
      },
      async (request, reply) => {
        const session = assertCan(request, WRITE.sales);
        await addPayment(ctx, session, request.params.id, request.body, keyOf(request));
        return reply.status(201).send(await detail(request, request.params.id));
      },
    );

    app.post(
      '/comanda/:id/close',
      {
        config,
        schema: {
          tags,
          summary: 'Close the tab into ONE sale once nothing remains (Idempotency-Key honoured)',
          params: idParams,
          body: comandaCloseInputSchema,
          response: { 200: saleSchema, 201: saleSchema },
        },
      },
      async (request, reply) => {
        const session = assertCan(request, WRITE.sales);
        const result = await closeComanda(ctx, session, request.params.id, request.body, keyOf(request));
        if (result.replayed) return reply.status(200).header('idempotent-replayed', 'true').send(result.sale);
        return reply.status(201).send(result.sale);
      },
    );
  };
}
