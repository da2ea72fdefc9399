import { customerCreditSchema } from '@balcao/core/receivable';
import { ACTION, PDV } from '@balcao/core/routes';
import { receivableSettleSchema, saleSchema } from '@balcao/core/sale';
import { z } from '@balcao/core/zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { idParam } from '../../lib/params.ts';
import { sessionOf } from '../../plugins/auth.ts';
import { customerCredit } from './credit.ts';
import { type SaleOfInstallments, settleReceivable } from './settle.ts';

const id = idParam();
const tags = ['sale'];

/**
 * Receivables, under /sale as the PDV and the sale detail call them: settling an installment, and a
 * customer's credit before a crediário sale.
 */
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

    app.get(
      '/sale/customer-credit/:customerId',
      {
        config: { access: PDV },
        schema: {
          tags,
          summary:
            "A customer's credit before a crediário sale: delinquency, pending, limit and the warnings to show (never a refusal)",
          params: z.object({ customerId: id }),
          querystring: z.object({
            creditShopCents: z.coerce.number().int().min(0).max(2_147_483_647).default(0),
          }),
          response: { 200: customerCreditSchema },
        },
      },
      async (request) =>
        customerCredit(ctx.db, sessionOf(request), request.params.customerId, request.query.creditShopCents),
    );
  };
}
