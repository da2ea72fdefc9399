import { ACTION } from '@balcao/core/routes';
import { receivableSettleSchema, saleSchema } from '@balcao/core/sale';
import { z } from '@balcao/core/zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { idParam } from '../../lib/params.ts';
import { sessionOf } from '../../plugins/auth.ts';
import { type SaleOfInstallments, settleReceivable } from './settle.ts';

const id = idParam();
const tags = ['sale'];

/** Receivables: settling an installment (under its sale's path, as the PDV and the sale detail call it). */
export function receivableRoutes(ctx: AppContext, sales: SaleOfInstallments): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/sale/:id/receivable/:receivableId/settle',
      {
        config: { access: ACTION.settleReceivables },
        schema: {
          tags,
          summary: 'Mark a crediário/boleto installment paid (pending sale -> finished when all are paid)',
          params: z.object({ id, receivableId: id }),
          body: receivableSettleSchema.optional(),
          response: { 200: saleSchema },
        },
      },
      async (request) =>
        settleReceivable(ctx, sales, sessionOf(request), {
          saleId: request.params.id,
          receivableId: request.params.receivableId,
          paymentMethod: request.body?.paymentMethod ?? 'money',
        }),
    );
  };
}
