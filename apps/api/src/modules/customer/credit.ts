import { todayIso } from '@balcao/core/date';
import { type CustomerCredit, creditWarnings } from '@balcao/core/receivable';
import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { notFound } from '../../errors.ts';
import { pendingCentsSql } from '../receivable/service.ts';
import { customers } from './schema.ts';

/**
 * A customer's credit before a crediário sale: the limit (this module's) against the receivables
 * pending and overdue (the receivable module's), with the warnings to show (never a refusal).
 */
export async function customerCredit(
  db: Executor,
  clientId: number,
  customerId: number,
  creditShopCents = 0,
): Promise<CustomerCredit> {
  const today = todayIso();
  const [row] = await db
    .select({
      creditLimitCents: customers.creditLimitCents,
      pendingCents: pendingCentsSql(clientId, customerId),
      overdueCents: pendingCentsSql(clientId, customerId, today),
    })
    .from(customers)
    .where(and(eq(customers.id, customerId), eq(customers.clientId, clientId)));
  if (!row) throw notFound('Cliente não encontrado');
  const credit = {
    isDelinquent: Number(row.overdueCents) > 0,
    overdueCents: Number(row.overdueCents),
    pendingCents: Number(row.pendingCents),
    creditLimitCents: row.creditLimitCents,
  };
  return {
    customerId,
    ...credit,
    availableCents: credit.creditLimitCents - credit.pendingCents,
    warnings: creditWarnings(credit, creditShopCents),
  };
}
