import { CASH_FLOW_METHOD_LABELS, CASH_FLOW_METHODS } from '@balcao/core/cashFlowMethods';
import { type BankAccount, type BankAccountInput, PAYABLE_MESSAGES } from '@balcao/core/payable';
import { and, asc, eq, ne } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { AppError, duplicate, notFound, unprocessable } from '../../errors.ts';
import type { Actor } from '../../lib/actor.ts';
import { mapUnique } from '../../lib/pg.ts';
import { bankAccounts } from './schema.ts';

/** The shop's named bank accounts (issue 34): where a payment left from when not the till. */

const M = PAYABLE_MESSAGES;
const UNIQUE = { bank_accounts_client_name_uq: M.bankAccountTaken };

type Row = typeof bankAccounts.$inferSelect;
const toBankAccount = (r: Row): BankAccount => ({
  id: r.id,
  name: r.name,
  bank: r.bank,
  agency: r.agency,
  account: r.account,
  active: r.active,
  receives: CASH_FLOW_METHODS.filter((m) => r.receives.includes(m)),
});

const columns = (input: BankAccountInput) => ({
  name: input.name,
  bank: input.bank,
  agency: input.agency,
  account: input.account,
  active: input.active,
  receives: input.receives,
});

/**
 * A sale method lands in one active account at most (the cash flow would count it twice): 409 naming
 * the account that already receives it.
 */
async function assertMethodsFree(db: Executor, actor: Actor, input: BankAccountInput, id?: number) {
  if (!input.active || input.receives.length === 0) return;
  const others = await db
    .select({ name: bankAccounts.name, receives: bankAccounts.receives })
    .from(bankAccounts)
    .where(
      and(
        eq(bankAccounts.clientId, actor.clientId),
        eq(bankAccounts.active, true),
        id ? ne(bankAccounts.id, id) : undefined,
      ),
    );
  for (const method of input.receives) {
    const owner = others.find((o) => o.receives.includes(method));
    if (owner) throw duplicate(M.methodTaken(CASH_FLOW_METHOD_LABELS[method], owner.name));
  }
}

export async function listBankAccounts(db: Executor, actor: Actor): Promise<BankAccount[]> {
  const rows = await db
    .select()
    .from(bankAccounts)
    .where(eq(bankAccounts.clientId, actor.clientId))
    .orderBy(asc(bankAccounts.name), asc(bankAccounts.id));
  return rows.map(toBankAccount);
}

export async function createBankAccount(
  db: Executor,
  actor: Actor,
  input: BankAccountInput,
): Promise<BankAccount> {
  await assertMethodsFree(db, actor, input);
  const [row] = await mapUnique(
    () =>
      db
        .insert(bankAccounts)
        .values({ ...columns(input), clientId: actor.clientId })
        .returning(),
    UNIQUE,
  );
  return toBankAccount(row);
}

export async function updateBankAccount(
  db: Executor,
  actor: Actor,
  id: number,
  input: BankAccountInput,
): Promise<BankAccount> {
  await assertMethodsFree(db, actor, input, id);
  const rows = await mapUnique(
    () =>
      db
        .update(bankAccounts)
        .set({ ...columns(input), updatedAt: new Date() })
        .where(and(eq(bankAccounts.id, id), eq(bankAccounts.clientId, actor.clientId)))
        .returning(),
    UNIQUE,
  );
  if (!rows[0]) throw notFound(M.bankAccountNotFound);
  return toBankAccount(rows[0]);
}

/** The account a payment names: the shop's (404 otherwise) and active (422 otherwise). */
export async function assertPayingAccount(tx: Executor, actor: Actor, id: number): Promise<void> {
  const [row] = await tx
    .select({ active: bankAccounts.active })
    .from(bankAccounts)
    .where(and(eq(bankAccounts.id, id), eq(bankAccounts.clientId, actor.clientId)));
  if (!row)
    throw new AppError(404, M.bankAccountNotFound, [
      { path: 'bankAccountId', message: M.bankAccountNotFound },
    ]);
  if (!row.active)
    throw unprocessable(M.bankAccountInactive, [{ path: 'bankAccountId', message: M.bankAccountInactive }]);
}

/** One of the shop's accounts, by id (404 for another shop's or none): the cash flow's filter. */
export async function findBankAccount(db: Executor, actor: Actor, id: number): Promise<BankAccount> {
  const [row] = await db
    .select()
    .from(bankAccounts)
    .where(and(eq(bankAccounts.id, id), eq(bankAccounts.clientId, actor.clientId)));
  if (!row)
    throw new AppError(404, M.bankAccountNotFound, [{ path: 'accountId', message: M.bankAccountNotFound }]);
  return toBankAccount(row);
}
