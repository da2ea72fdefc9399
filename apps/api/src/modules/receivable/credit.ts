import { type CustomerCredit, creditWarnings } from '@balcao/core/receivable';
import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { notFound } from '../../errors.ts';
import type { Actor } from '../../lib/actor.ts';
import { shopTodaySql } from '../../lib/shopToday.ts';
import { creditLimitSql } from '../customer/refs.ts';
import { receivables } from './schema.ts';

/**
 * A customer's credit before a crediário sale: the limit (the customer module's) against the
 * receivables pending and overdue, with the warnings to show (never a refusal). One query.
 */
export async function customerCredit(
  db: Executor,
  actor: Actor,
  customerId: number,
  creditShopCents = 0,
): Promise<CustomerCredit> {
  const clientId = actor.clientId;
  const today = shopTodaySql(clientId);
  const [row] = await db
    .select({
      creditLimitCents: creditLimitSql(clientId, customerId),
      pendingCents: sql<number>`coalesce(sum(${receivables.amountCents}), 0)::int`,
      overdueCents: sql<number>`coalesce(sum(${receivables.amountCents}) filter (where ${receivables.dueDate} < ${today}), 0)::int`,
    })
    .from(receivables)
    .where(
      and(
        eq(receivables.clientId, clientId),
        eq(receivables.customerId, customerId),
        eq(receivables.status, 'pending'),
      ),
    );
  if (row.creditLimitCents === null) throw notFound('Cliente não encontrado');
  const credit = {
    isDelinquent: Number(row.overdueCents) > 0,
    overdueCents: Number(row.overdueCents),
    pendingCents: Number(row.pendingCents),
    creditLimitCents: Number(row.creditLimitCents),
  };
  return {
    customerId,
    ...credit,
    availableCents: credit.creditLimitCents - credit.pendingCents,
    warnings: creditWarnings(credit, creditShopCents),
  };
}
