import { ACTION, can } from '@balcao/core/routes';
import type { Approval } from '@balcao/core/sale';
import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import { AppError, forbidden } from '../../errors.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { verifyPassword } from './password.ts';

/**
 * A sensitive action (cancel a sale, sangria): a manager (ACTION.approve) does it directly; anybody else needs a manager
 * of the same client to type their email and password on the spot. Returns the approving manager's
 * id (null when the actor is a manager). 403 without an approval, 422 with a wrong one.
 */
export async function resolveApproval(
  db: Executor,
  session: SessionUser,
  approval: Approval | undefined,
  needsApprovalMessage: string,
  refusedMessage: string,
): Promise<number | null> {
  if (can(session.userTypeId, ACTION.approve)) return null;
  if (!approval) throw forbidden(needsApprovalMessage);
  const [manager] = await db
    .select({ id: users.id, passwordHash: users.passwordHash, userTypeId: users.userTypeId })
    .from(users)
    .where(
      and(
        eq(users.clientId, session.clientId),
        eq(sql`lower(${users.email})`, approval.email.trim().toLowerCase()),
        eq(users.active, true),
      ),
    )
    .limit(1);
  const valid = await verifyPassword(manager?.passwordHash, approval.password);
  if (!manager || !valid || !can(manager.userTypeId, ACTION.approve)) {
    throw new AppError(422, refusedMessage, [{ path: 'approval', message: refusedMessage }]);
  }
  return manager.id;
}
