import { ACTION, can } from '@balcao/core/routes';
import type { Approval } from '@balcao/core/sale';
import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import { AppError, forbidden } from '../../errors.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { passwordLimiter, TOO_MANY_ATTEMPTS } from './limiter.ts';
import { verifyPassword } from './password.ts';

/**
 * A sensitive action (cancel a sale, sangria): a manager (ACTION.approve) does it directly; anybody else needs a manager
 * of the same client to type their email and password on the spot. Returns the approving manager's
 * id (null when the actor is a manager). 403 without an approval, 422 with a wrong one, 429 after too
 * many wrong ones (the password limiter, per manager email and acting user, then per email).
 * `db` is the database itself: call it before the action's transaction, never inside it.
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
  const valid = await passwordLimiter(db).guard(
    approval.email,
    { userId: session.userId },
    TOO_MANY_ATTEMPTS,
    async () =>
      Boolean(
        (await verifyPassword(manager?.passwordHash, approval.password)) &&
          manager &&
          can(manager.userTypeId, ACTION.approve),
      ),
  );
  if (!manager || !valid) {
    throw new AppError(422, refusedMessage, [{ path: 'approval', message: refusedMessage }]);
  }
  return manager.id;
}
