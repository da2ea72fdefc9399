import { UserType } from '@balcao/core/userTypes';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { users } from '../db/schema.ts';

/**
 * Who acts in a service call: the session's client (every read and write is scoped to it) and user.
 * Services take `(db, actor, ...input)`; routes pass `sessionOf(request)`, seeds a seeded user.
 */
export type Actor = { clientId: number; userId: number };

/** The client's first Administrador as the actor of work no request asked for (the demo seed). */
export async function adminOf(db: Executor, clientId: number): Promise<Actor> {
  const [admin] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.clientId, clientId), eq(users.userTypeId, UserType.ADMIN)))
    .orderBy(asc(users.id))
    .limit(1);
  if (!admin) throw new Error(`client ${clientId} has no Administrador`);
  return { clientId, userId: admin.id };
}

/**
 * Names the actor for the database's own writes in this transaction: the stock ledger's trigger logs a
 * level typed by hand (product form, variant stock, CSV import) with this user, not as "Sistema".
 */
export async function actInTransaction(tx: Executor, actor: Actor): Promise<void> {
  await tx.execute(sql`select set_config('balcao.user_id', ${String(actor.userId)}, true)`);
}
