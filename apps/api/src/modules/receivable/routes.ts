import { receivableApi } from '@balcao/core/endpoints/receivable';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { route } from '../../lib/endpoint.ts';
import { sessionOf } from '../../plugins/auth.ts';
import { customerCredit } from './credit.ts';
import { type SaleOfInstallments, settleReceivable } from './settle.ts';

/**
 * Receivables, under /sale as the PDV and the sale detail call them (the handlers of `receivableApi`):
 * settling an installment, and a customer's credit before a crediário sale.
 */
export function receivableRoutes(ctx: AppContext, sales: SaleOfInstallments): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, receivableApi.settle, (request) =>
      settleReceivable(ctx, sales, sessionOf(request), {
        saleId: request.params.id,
        receivableId: request.params.receivableId,
        paymentMethod: request.body?.paymentMethod ?? 'money',
      }),
    );

    route(app, receivableApi.customerCredit, (request) =>
      customerCredit(ctx.db, sessionOf(request), request.params.customerId, request.query.creditShopCents),
    );
  };
}
