import { endpoint } from '../contract.ts';
import { idParam } from '../params.ts';
import { customerCreditSchema } from '../receivable.ts';
import { ACTION, COUNTER } from '../routes.ts';
import { receivableSettleSchema, saleSchema } from '../sale.ts';
import { z } from '../zod.ts';

const id = idParam();

/** The query of a customer's credit before a crediário sale. */
export const customerCreditQuerySchema = z.object({
  creditShopCents: z.coerce.number().int().min(0).max(2_147_483_647).default(0),
});

/**
 * Receivables, under /sale as the PDV and the sale detail call them: settling an installment, and a
 * customer's credit before a crediário sale.
 */
export const receivableApi = {
  settle: endpoint({
    method: 'POST',
    path: '/sale/:id/receivable/:receivableId/settle',
    resource: 'sale',
    access: ACTION.settleReceivables,
    summary: 'Mark a crediário/boleto installment paid (pending sale -> finished when all are paid)',
    params: z.object({ id, receivableId: id }),
    body: receivableSettleSchema.optional(),
    response: { 200: saleSchema },
    changes: ['receivable', 'sale', 'cash-register'],
  }),
  customerCredit: endpoint({
    method: 'GET',
    path: '/sale/customer-credit/:customerId',
    resource: 'sale',
    access: COUNTER,
    summary:
      "A customer's credit before a crediário sale: delinquency, pending, limit and the warnings to show (never a refusal)",
    params: z.object({ customerId: id }),
    query: customerCreditQuerySchema,
    response: { 200: customerCreditSchema },
  }),
} as const;
