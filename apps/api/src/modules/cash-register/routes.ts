import { cashRegisterApi } from '@balcao/core/endpoints/cash-register';
import { ACTION } from '@balcao/core/routes';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { route } from '../../lib/endpoint.ts';
import { assertCan, assertOwnClient, sessionOf } from '../../plugins/auth.ts';
import {
  addMovement,
  closeRegister,
  currentRegister,
  findRegister,
  listRegisters,
  openDrawerByHand,
  openRegister,
  type RegisterSales,
} from './service.ts';

/**
 * /v1/cash-register (issue 7): the handlers of `cashRegisterApi`. The caller's own register at the
 * PDV (PDV user types); reports of every register of the client are for Administrador, Gerente and
 * Financeiro.
 */
export function cashRegisterRoutes(ctx: AppContext, sales: RegisterSales): FastifyPluginAsyncZod {
  return async (app) => {
    const { db } = ctx;

    route(app, cashRegisterApi.current, async (request) => ({
      cashRegister: await currentRegister(db, sales, sessionOf(request)),
    }));

    route(app, cashRegisterApi.open, (request) =>
      openRegister(ctx, sales, sessionOf(request), request.body.openingAmountCents),
    );

    route(app, cashRegisterApi.movement, (request) =>
      addMovement(ctx, sales, sessionOf(request), request.body),
    );

    route(app, cashRegisterApi.openDrawer, async (request, reply) =>
      reply
        .status(201)
        .send(
          await openDrawerByHand(ctx, assertCan(request, ACTION.openDrawer), request.body.idempotencyKey),
        ),
    );

    route(app, cashRegisterApi.close, (request) =>
      closeRegister(ctx, sales, sessionOf(request), request.body),
    );

    route(app, cashRegisterApi.list, (request) => {
      assertOwnClient(request, request.params.clientId);
      return listRegisters(db, sessionOf(request), request.query);
    });

    route(app, cashRegisterApi.get, (request) =>
      findRegister(db, sales, sessionOf(request), request.params.id),
    );
  };
}
