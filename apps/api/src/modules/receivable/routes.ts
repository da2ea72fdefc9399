import { receivableSettleSchema } from '@balcao/core/sale';
import type { UserTypeId } from '@balcao/core/userTypes';
import { z } from '@balcao/core/zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { sessionOf } from '../../plugins/auth.ts';
import { type SaleOfInstallments, settleReceivable } from './settle.ts';

const id = z.coerce.number().int().positive('Identificador inválido');
const tags = ['sale'];

/** Who may receive a crediário installment: the counter and the back office, not waiters or marketing. */
const SETTLE_TYPES: readonly UserTypeId[] = [1, 2, 3, 4, 7, 8];

/** Receivables: settling an installment (under its sale's path, as the PDV and the sale detail call it). */
export function receivableRoutes(ctx: AppContext, sales: SaleOfInstallments): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/sale/:id/receivable/:receivableId/settle',
      {
        config: { access: SETTLE_TYPES },
        schema: {
          tags,
          summary: 'Mark a crediário/boleto installment paid (pending sale -> finished when all are paid)',
          params: z.object({ id, receivableId: id }),
          body: receivableSettleSchema.optional(),
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
