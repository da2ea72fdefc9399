import { isIsoDate } from './date.ts';
import { listQuerySchema, pageOf } from './list.ts';
import { SALE_STATUSES, saleSchema, TYPES_OF_SALE } from './sale.ts';
import { PAYMENT_METHODS } from './status.ts';
import { z } from './zod.ts';

/** The sales list (/dashboard/sale): its query and its answer (a page with totals). */

const isoDateFilter = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v : undefined))
  .refine((v) => v === undefined || isIsoDate(v), 'Data inválida: use AAAA-MM-DD');

const idFilter = z.coerce
  .number()
  .int('Identificador inválido')
  .positive('Identificador inválido')
  .optional();

/** The list query; `q` is a sale number or a customer's name or document. */
export const saleListQuerySchema = listQuerySchema
  .extend({
    /** Period (shop dates, inclusive). */
    from: isoDateFilter,
    to: isoDateFilter,
    status: z.enum(SALE_STATUSES, { message: 'Status inválido' }).optional(),
    paymentMethod: z.enum(PAYMENT_METHODS, { message: 'Forma de pagamento inválida' }).optional(),
    /** The seller credited (saleSeller, or the user at the PDV when none). */
    sellerId: idFilter,
    customerId: idFilter,
    cashRegisterId: idFilter,
    typeOfSale: z.enum(TYPES_OF_SALE, { message: 'Tipo de venda inválido' }).optional(),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, {
    message: 'A data final deve ser depois da inicial',
    path: ['to'],
  });
export type SaleListQueryParsed = z.output<typeof saleListQuerySchema>;

export const saleListItemSchema = saleSchema
  .pick({
    id: true,
    number: true,
    status: true,
    typeOfSale: true,
    originSale: true,
    isSimple: true,
    customer: true,
    user: true,
    seller: true,
    totalItems: true,
    discountCents: true,
    couponDiscountCents: true,
    freightCents: true,
    finalAmountCents: true,
    createdAt: true,
    madeOffline: true,
    offlineFlags: true,
  })
  .extend({ paymentMethods: z.array(z.enum(PAYMENT_METHODS)) });
export type SaleListItem = z.infer<typeof saleListItemSchema>;

const countAndAmount = z.object({ count: z.number(), amountCents: z.number() });

export const saleListTotalsSchema = z.object({
  count: z.number(),
  finalAmountCents: z.number(),
  discountCents: z.number(),
  /** Sum over the filtered sales that are not canceled, less what was returned (issue 30). */
  activeCount: z.number(),
  activeAmountCents: z.number(),
  /** Refunded or credited for returned items of these sales (issue 30). */
  returnedCents: z.number(),
  byStatus: z.object({ pending: countAndAmount, finished: countAndAmount, canceled: countAndAmount }),
  /** Payment amounts by method over the sales not canceled. */
  byPaymentMethod: z.partialRecord(z.enum(PAYMENT_METHODS), z.number()),
});
export type SaleListTotals = z.infer<typeof saleListTotalsSchema>;

export const saleListResultSchema = pageOf(saleListItemSchema).extend({ totals: saleListTotalsSchema });
export type SaleListResult = z.infer<typeof saleListResultSchema>;
