import { formatCents } from '@balcao/core/money';
import { STORE_CREDIT_MESSAGES, type StoreCredit } from '@balcao/core/saleReturn';
import { and, desc, eq, gte, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { AppError, notFound } from '../../errors.ts';
import type { Actor } from '../../lib/actor.ts';
import { customerStoreCredits, customers } from './schema.ts';

/**
 * A customer's vale-troca (issue 30): the balance on the customer row, each change in
 * customer_store_credits. The sale module credits it (a return, a canceled sale paid with it) and
 * spends it (a sale paid with it), inside its own transaction.
 */

const CUSTOMER_NOT_FOUND = 'Cliente não encontrado';

type CreditChange = {
  customerId: number;
  amountCents: number;
  kind: 'return' | 'sale' | 'sale-cancel';
  saleId: number | null;
  saleReturnId?: number | null;
};

async function record(tx: Executor, actor: Actor, change: CreditChange) {
  await tx.insert(customerStoreCredits).values({
    clientId: actor.clientId,
    customerId: change.customerId,
    amountCents: change.amountCents,
    kind: change.kind,
    saleId: change.saleId,
    saleReturnId: change.saleReturnId ?? null,
    userId: actor.userId,
  });
}

/** Adds to the balance (a return, a canceled sale's credit back). 404 for another client's customer. */
export async function addStoreCredit(tx: Executor, actor: Actor, change: CreditChange): Promise<number> {
  const [row] = await tx
    .update(customers)
    .set({
      storeCreditCents: sql`${customers.storeCreditCents} + ${change.amountCents}`,
      updatedAt: new Date(),
    })
    .where(and(eq(customers.id, change.customerId), eq(customers.clientId, actor.clientId)))
    .returning({ balance: customers.storeCreditCents });
  if (!row)
    throw new AppError(422, CUSTOMER_NOT_FOUND, [{ path: 'customerId', message: CUSTOMER_NOT_FOUND }]);
  await record(tx, actor, change);
  return row.balance;
}

/**
 * Spends from the balance (a sale paid with vale-troca): one guarded UPDATE, so two tills spending
 * the same credit cannot both pass; 422 with the balance when it is not enough. `allowNegative`: an
 * offline sale, accepted as made.
 */
export async function spendStoreCredit(
  tx: Executor,
  actor: Actor,
  change: Omit<CreditChange, 'kind'>,
  allowNegative = false,
): Promise<void> {
  const where = and(
    eq(customers.id, change.customerId),
    eq(customers.clientId, actor.clientId),
    allowNegative ? undefined : gte(customers.storeCreditCents, change.amountCents),
  );
  const [row] = await tx
    .update(customers)
    .set({
      storeCreditCents: sql`${customers.storeCreditCents} - ${change.amountCents}`,
      updatedAt: new Date(),
    })
    .where(where)
    .returning({ balance: customers.storeCreditCents });
  if (!row) {
    const [current] = await tx
      .select({ balance: customers.storeCreditCents })
      .from(customers)
      .where(and(eq(customers.id, change.customerId), eq(customers.clientId, actor.clientId)));
    const message = current
      ? STORE_CREDIT_MESSAGES.insufficient(formatCents(current.balance))
      : CUSTOMER_NOT_FOUND;
    throw new AppError(422, message, [{ path: 'payments', message }]);
  }
  await record(tx, actor, { ...change, amountCents: -change.amountCents, kind: 'sale' });
}

/** The balance and the last 50 changes. */
export async function findStoreCredit(db: Executor, actor: Actor, customerId: number): Promise<StoreCredit> {
  const [customer] = await db
    .select({ balance: customers.storeCreditCents })
    .from(customers)
    .where(and(eq(customers.id, customerId), eq(customers.clientId, actor.clientId)));
  if (!customer) throw notFound(CUSTOMER_NOT_FOUND);
  const rows = await db
    .select()
    .from(customerStoreCredits)
    .where(eq(customerStoreCredits.customerId, customerId))
    .orderBy(desc(customerStoreCredits.id))
    .limit(50);
  return {
    customerId,
    balanceCents: customer.balance,
    movements: rows.map((r) => ({
      id: r.id,
      amountCents: r.amountCents,
      kind: r.kind as StoreCredit['movements'][number]['kind'],
      saleId: r.saleId,
      createdAt: r.createdAt.toISOString(),
    })),
  };
}
