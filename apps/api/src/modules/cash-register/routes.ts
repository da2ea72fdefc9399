import {
  cashMovementInputSchema,
  cashRegisterCloseSchema,
  cashRegisterOpenSchema,
  cashRegisterSchema,
  cashRegisterSummarySchema,
  currentRegisterSchema,
} from '@balcao/core/cashRegister';
import { pageOf } from '@balcao/core/list';
import { PDV } from '@balcao/core/routes';
import { z } from '@balcao/core/zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { idParam } from '../../lib/params.ts';
import { assertOwnClient, sessionOf } from '../../plugins/auth.ts';
import {
  addMovement,
  closeRegister,
  currentRegister,
  findRegister,
  listRegisters,
  openRegister,
  type RegisterSales,
} from './service.ts';

const id = idParam();
const tags = ['cash-register'];

const listQuery = z.object({
  page: z.coerce.number().int().min(1, 'Página inválida').default(1),
  pageSize: z.coerce.number().int().min(1).max(100, 'Use no máximo 100 itens por página').default(20),
  status: z.enum(['open', 'closed'], { message: 'Use open ou closed' }).optional(),
  userId: id.optional(),
});

/**
 * /v1/cash-register (issue 7): the caller's own register at the PDV (PDV user types). Reports of every
 * register of the client are for Administrador, Gerente and Financeiro.
 */
export function cashRegisterRoutes(ctx: AppContext, sales: RegisterSales): FastifyPluginAsyncZod {
  return async (app) => {
    const { db } = ctx;

    app.get(
      '/cash-register/current',
      {
        config: { access: PDV },
        schema: {
          tags,
          summary: "The caller's open register with expected amounts per method, or null (open one first)",
          response: { 200: currentRegisterSchema },
        },
      },
      async (request) => ({ cashRegister: await currentRegister(db, sales, sessionOf(request)) }),
    );

    app.post(
      '/cash-register/open',
      {
        config: { access: PDV },
        schema: {
          tags,
          summary: 'Open a register with an opening amount (one open per user: 409)',
          body: cashRegisterOpenSchema,
          response: { 201: cashRegisterSummarySchema },
        },
      },
      async (request, reply) => {
        const summary = await openRegister(ctx, sales, sessionOf(request), request.body.openingAmountCents);
        return reply.status(201).send(summary);
      },
    );

    app.post(
      '/cash-register/movement',
      {
        config: { access: PDV },
        schema: {
          tags,
          summary:
            'Suprimento (deposit) or sangria (withdrawal) with a reason; a sangria by types other than 1 and 2 needs a manager approval',
          body: cashMovementInputSchema,
          response: { 201: cashRegisterSummarySchema },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await addMovement(ctx, sales, sessionOf(request), request.body)),
    );

    app.post(
      '/cash-register/close',
      {
        config: { access: PDV },
        schema: {
          tags,
          summary: 'Close the open register with the counted amount per method; answers the closing report',
          body: cashRegisterCloseSchema,
          response: { 200: cashRegisterSummarySchema },
        },
      },
      async (request) => closeRegister(ctx, sales, sessionOf(request), request.body),
    );

    app.get(
      '/cash-register/client/:clientId',
      {
        config: { access: PDV },
        schema: {
          tags,
          summary: "Registers, newest first: the caller's own, or all of the client's for types 1, 2, 7",
          params: z.object({ clientId: id }),
          querystring: listQuery,
          response: { 200: pageOf(cashRegisterSchema) },
        },
      },
      async (request) => {
        assertOwnClient(request, request.params.clientId);
        return listRegisters(db, sessionOf(request), request.query);
      },
    );

    app.get(
      '/cash-register/:id',
      {
        config: { access: PDV },
        schema: {
          tags,
          summary: 'A register report (open or closed)',
          params: z.object({ id }),
          response: { 200: cashRegisterSummarySchema },
        },
      },
      async (request) => findRegister(db, sales, sessionOf(request), request.params.id),
    );
  };
}
