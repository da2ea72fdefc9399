import {
  SHOP_DELETION_GRACE_DAYS,
  SHOP_DELETION_MESSAGES,
  type ShopDeletion,
} from '@balcao/core/endpoints/shop-export';
import { eq, lte } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import { conflict, notFound, unprocessable } from '../../errors.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { passwordLimiter, TOO_MANY_ATTEMPTS } from '../auth/limiter.ts';
import { verifyPassword } from '../auth/password.ts';
import type { Storage } from '../storage/storage.ts';
import { purgeShop } from './purge.ts';
import { shopDeletions } from './schema.ts';

const DAY_MS = 86_400_000;
const NONE: ShopDeletion = { requestedAt: null, dueAt: null };

function answer(row: { requestedAt: Date; dueAt: Date } | undefined): ShopDeletion {
  return row ? { requestedAt: row.requestedAt.toISOString(), dueAt: row.dueAt.toISOString() } : NONE;
}

export async function shopDeletionOf(db: Executor, clientId: number): Promise<ShopDeletion> {
  const [row] = await db.select().from(shopDeletions).where(eq(shopDeletions.clientId, clientId));
  return answer(row);
}

/** The Administrador asks, confirming with the password: due after the grace period. */
export async function requestShopDeletion(
  db: Db,
  session: SessionUser,
  password: string,
  now = new Date(),
): Promise<ShopDeletion> {
  const [user] = await db
    .select({ hash: users.passwordHash, email: users.email })
    .from(users)
    .where(eq(users.id, session.userId));
  // The one limiter of every password check (auth's): a stolen session cannot try passwords here.
  const right = await passwordLimiter(db).guard(
    user?.email ?? '',
    { userId: session.userId },
    TOO_MANY_ATTEMPTS,
    () => verifyPassword(user?.hash, password),
  );
  if (!right)
    throw unprocessable(SHOP_DELETION_MESSAGES.wrongPassword, [
      { path: 'password', message: 'Senha incorreta' },
    ]);
  const [row] = await db
    .insert(shopDeletions)
    .values({
      clientId: session.clientId,
      requestedByUserId: session.userId,
      requestedAt: now,
      dueAt: new Date(now.getTime() + SHOP_DELETION_GRACE_DAYS * DAY_MS),
    })
    .onConflictDoNothing()
    .returning();
  if (!row) throw conflict(SHOP_DELETION_MESSAGES.alreadyRequested);
  return answer(row);
}

export async function cancelShopDeletion(db: Db, clientId: number): Promise<ShopDeletion> {
  const gone = await db.delete(shopDeletions).where(eq(shopDeletions.clientId, clientId)).returning();
  if (gone.length === 0) throw notFound(SHOP_DELETION_MESSAGES.notRequested);
  return NONE;
}

/** The `shop-deletion` job: every shop whose grace period ended is removed (purgeShop). */
export async function purgeDueShops(db: Db, storage: Storage, now = new Date()) {
  const due = await db
    .select({ clientId: shopDeletions.clientId })
    .from(shopDeletions)
    .where(lte(shopDeletions.dueAt, now));
  const done: number[] = [];
  for (const { clientId } of due) {
    await purgeShop(db, storage, clientId);
    done.push(clientId);
  }
  return { deleted: done };
}
