import { formatCents } from './money.ts';
import { PAYMENT_METHODS } from './status.ts';
import { z } from './zod.ts';

/** Receivables (crediário/boleto installments of a sale) and the customer's credit situation. */

export const saleReceivableSchema = z.object({
  id: z.number(),
  installment: z.number(),
  method: z.enum(PAYMENT_METHODS),
  amountCents: z.number(),
  dueDate: z.string(),
  status: z.enum(['pending', 'finished', 'canceled']),
  paidAt: z.string().nullable(),
  isOverdue: z.boolean(),
});
export type SaleReceivable = z.infer<typeof saleReceivableSchema>;

export const saleWarningSchema = z.object({
  code: z.enum(['delinquent', 'over_credit_limit', 'no_credit_limit']),
  message: z.string(),
});
type SaleWarning = z.infer<typeof saleWarningSchema>;

/** Credit situation of a customer before a crediário sale (warnings, never a refusal). */
export const customerCreditSchema = z.object({
  customerId: z.number(),
  isDelinquent: z.boolean(),
  overdueCents: z.number(),
  pendingCents: z.number(),
  creditLimitCents: z.number(),
  /** Limit minus what is pending (may be negative). */
  availableCents: z.number(),
  warnings: z.array(saleWarningSchema),
});
export type CustomerCredit = z.infer<typeof customerCreditSchema>;

/** The warnings of a crediário amount for a customer's credit situation. */
export function creditWarnings(
  credit: Pick<CustomerCredit, 'isDelinquent' | 'overdueCents' | 'pendingCents' | 'creditLimitCents'>,
  creditShopCents: number,
): SaleWarning[] {
  const warnings: SaleWarning[] = [];
  if (credit.isDelinquent) {
    warnings.push({
      code: 'delinquent',
      message: `Cliente inadimplente: ${formatCents(credit.overdueCents)} em parcelas vencidas`,
    });
  }
  if (creditShopCents > 0) {
    if (credit.creditLimitCents <= 0) {
      warnings.push({
        code: 'no_credit_limit',
        message: 'Este cliente não tem limite de crédito cadastrado',
      });
    } else if (credit.pendingCents + creditShopCents > credit.creditLimitCents) {
      warnings.push({
        code: 'over_credit_limit',
        message: `Esta venda passa o limite de crédito do cliente (${formatCents(credit.creditLimitCents)}; em aberto ${formatCents(credit.pendingCents)})`,
      });
    }
  }
  return warnings;
}
