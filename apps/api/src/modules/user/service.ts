import type { ListResult } from '@balcao/core/list';
import type { Deleted } from '@balcao/core/responses';
import {
  CANNOT_CHANGE_OWN_TYPE,
  CANNOT_DEACTIVATE_SELF,
  CANNOT_DELETE_SELF,
  canManageUserType,
  type changePasswordSchema,
  EMAIL_TAKEN,
  LAST_ADMIN,
  MANAGER_CANNOT_TOUCH_ADMIN,
  type StaffUser,
  USER_NOT_FOUND,
  type userCreateSchema,
  type userListQuerySchema,
  userTypeName,
  type userUpdateSchema,
  WRONG_CURRENT_PASSWORD,
} from '@balcao/core/user';
import { UserType, type UserTypeId } from '@balcao/core/userTypes';
import { and, eq, ne, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db, Executor } from '../../db/client.ts';
import { sessions, users } from '../../db/schema.ts';
import { AppError, conflict, duplicate, forbidden, notFound } from '../../errors.ts';
import type { Actor } from '../../lib/actor.ts';
import { countRows, listResult, orderByOf, pageWindow, searchAny } from '../../lib/list.ts';
import { isForeignKeyViolation, isSameVersion, violatedUnique } from '../../lib/pg.ts';
import { assertNotStale, versionOf } from '../../lib/version.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { passwordLimiter, TOO_MANY_ATTEMPTS } from '../auth/limiter.ts';
import { hashPassword, verifyPassword } from '../auth/password.ts';
import { assertUserRoom } from '../billing/service.ts';

type ListQuery = z.output<typeof userListQuerySchema>;
type CreateInput = z.output<typeof userCreateSchema>;
type UpdateInput = z.output<typeof userUpdateSchema>;
type ChangePasswordInput = z.output<typeof changePasswordSchema>;

const columns = {
  id: users.id,
  clientId: users.clientId,
  name: users.name,
  email: users.email,
  userTypeId: users.userTypeId,
  active: users.active,
  createdAt: users.createdAt,
  updatedAt: users.updatedAt,
};

type Row = { [K in keyof typeof columns]: (typeof users.$inferSelect)[K] };

function toStaffUser(row: Row): StaffUser {
  return {
    id: row.id,
    clientId: row.clientId,
    name: row.name,
    email: row.email,
    userType: { id: row.userTypeId, name: userTypeName(row.userTypeId) },
    active: row.active,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function listUsers(db: Db, actor: Actor, query: ListQuery): Promise<ListResult<StaffUser>> {
  const where = and(
    eq(users.clientId, actor.clientId),
    searchAny(query.q, [users.name, users.email]),
    query.active === undefined ? undefined : eq(users.active, query.active),
    query.userTypeId === undefined ? undefined : eq(users.userTypeId, query.userTypeId),
  );
  const order = orderByOf(
    query.sort,
    {
      name: sql`lower(${users.name})`,
      email: users.email,
      userTypeId: users.userTypeId,
      createdAt: users.createdAt,
    },
    { field: 'name', direction: 'asc' },
    users.id,
  );
  const { limit, offset } = pageWindow(query);
  const [rows, total] = await Promise.all([
    db
      .select(columns)
      .from(users)
      .where(where)
      .orderBy(...order)
      .limit(limit)
      .offset(offset),
    countRows(db, users, where),
  ]);
  return listResult(rows.map(toStaffUser), total, query);
}

async function findRow(db: Executor, clientId: number, id: number, lock = false): Promise<Row> {
  const query = db
    .select(columns)
    .from(users)
    .where(and(eq(users.clientId, clientId), eq(users.id, id)));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw notFound(USER_NOT_FOUND);
  return row;
}

export async function findUser(db: Executor, actor: Actor, id: number): Promise<StaffUser> {
  return toStaffUser(await findRow(db, actor.clientId, id));
}

async function assertEmailFree(db: Executor, email: string, exceptId?: number) {
  const [taken] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(sql`lower(${users.email})`, email.toLowerCase()))
    .limit(1);
  if (taken && taken.id !== exceptId) throw duplicate(EMAIL_TAKEN);
}

async function mapEmailTaken<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (violatedUnique(error) === 'users_email_uq') throw duplicate(EMAIL_TAKEN);
    throw error;
  }
}

/** The actor's current type, read again inside the transaction (it may have changed since login). */
async function actorType(tx: Executor, actor: SessionUser): Promise<UserTypeId> {
  const row = await findRow(tx, actor.clientId, actor.userId);
  if (!row.active) throw forbidden();
  return row.userTypeId as UserTypeId;
}

function assertCanManage(actorTypeId: UserTypeId, ...targetTypes: number[]) {
  for (const target of targetTypes) {
    if (!canManageUserType(actorTypeId, target as UserTypeId)) {
      throw target === UserType.ADMIN ? forbidden(MANAGER_CANNOT_TOUCH_ADMIN) : forbidden();
    }
  }
}

/**
 * The client must keep an active Administrador. Locks the client's active Administradores (FOR UPDATE)
 * so two concurrent demotions cannot both pass.
 */
async function assertNotLastAdmin(tx: Executor, clientId: number, target: Row) {
  if (target.userTypeId !== UserType.ADMIN || !target.active) return;
  const admins = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.clientId, clientId), eq(users.userTypeId, UserType.ADMIN), eq(users.active, true)))
    .for('update');
  if (!admins.some((a) => a.id !== target.id)) throw conflict(LAST_ADMIN);
}

/** Ends every session of a user (all, or all but the caller's own). */
async function revokeSessions(tx: Executor, userId: number, keepSessionId?: number) {
  await tx
    .delete(sessions)
    .where(
      keepSessionId === undefined
        ? eq(sessions.userId, userId)
        : and(eq(sessions.userId, userId), ne(sessions.id, keepSessionId)),
    );
}

export async function createUser(db: Db, actor: SessionUser, input: CreateInput): Promise<StaffUser> {
  await assertEmailFree(db, input.email);
  const passwordHash = await hashPassword(input.password);
  const id = await mapEmailTaken(() =>
    db.transaction(async (tx) => {
      assertCanManage(await actorType(tx, actor), input.userTypeId);
      if (input.active) await assertUserRoom(tx, actor.clientId);
      const now = new Date();
      const [row] = await tx
        .insert(users)
        .values({
          clientId: actor.clientId,
          name: input.name,
          email: input.email,
          userTypeId: input.userTypeId,
          active: input.active,
          passwordHash,
          createdAt: now,
          updatedAt: now,
        })
        .returning({ id: users.id });
      return row.id;
    }),
  );
  return findUser(db, actor, id);
}

/**
 * Edit a staff user. Rules, in order: a Gerente cannot touch an Administrador (403); the last active
 * Administrador stays (409); nobody changes their own type or deactivates themselves (422); email unique
 * (409); a stale `updatedAt` is 409. Deactivating or resetting someone's password ends their sessions.
 */
export async function updateUser(
  db: Db,
  actor: SessionUser,
  id: number,
  input: UpdateInput,
): Promise<StaffUser> {
  const version = versionOf(input.updatedAt);
  await findRow(db, actor.clientId, id);
  await assertEmailFree(db, input.email, id);
  const passwordHash = input.password ? await hashPassword(input.password) : undefined;
  await mapEmailTaken(() =>
    db.transaction(async (tx) => {
      const target = await findRow(tx, actor.clientId, id, true);
      assertCanManage(await actorType(tx, actor), target.userTypeId, input.userTypeId);
      const demoted = target.userTypeId === UserType.ADMIN && input.userTypeId !== UserType.ADMIN;
      if (demoted || (target.active && !input.active)) await assertNotLastAdmin(tx, actor.clientId, target);
      const isSelf = target.id === actor.userId;
      if (isSelf && input.userTypeId !== target.userTypeId) throw new AppError(422, CANNOT_CHANGE_OWN_TYPE);
      if (isSelf && !input.active) throw new AppError(422, CANNOT_DEACTIVATE_SELF);
      // Reactivating takes a seat of the plan again.
      if (!target.active && input.active) await assertUserRoom(tx, actor.clientId);
      const updated = await tx
        .update(users)
        .set({
          name: input.name,
          email: input.email,
          userTypeId: input.userTypeId,
          active: input.active,
          ...(passwordHash ? { passwordHash } : {}),
          updatedAt: new Date(),
        })
        .where(and(eq(users.id, id), isSameVersion(users.updatedAt, version)))
        .returning({ id: users.id });
      assertNotStale(updated);
      if (!input.active) await revokeSessions(tx, id);
      else if (passwordHash) await revokeSessions(tx, id, isSelf ? actor.sessionId : undefined);
    }),
  );
  return findUser(db, actor, id);
}

export async function deleteUser(db: Db, actor: SessionUser, id: number): Promise<Deleted> {
  try {
    return await db.transaction(async (tx) => {
      const target = await findRow(tx, actor.clientId, id, true);
      assertCanManage(await actorType(tx, actor), target.userTypeId);
      await assertNotLastAdmin(tx, actor.clientId, target);
      if (target.id === actor.userId) throw new AppError(422, CANNOT_DELETE_SELF);
      await revokeSessions(tx, id);
      await tx.delete(users).where(eq(users.id, id));
      return { id };
    });
  } catch (error) {
    if (isForeignKeyViolation(error)) {
      throw conflict(
        'Este usuário tem vendas ou outros registros ligados a ele: desative-o em vez de excluir.',
      );
    }
    throw error;
  }
}

/** "Alterar senha": checks the current password; the user's other sessions end, this one stays. */
export async function changeOwnPassword(
  db: Db,
  session: SessionUser,
  input: ChangePasswordInput,
): Promise<void> {
  const [row] = await db
    .select({ passwordHash: users.passwordHash, email: users.email })
    .from(users)
    .where(eq(users.id, session.userId));
  const email = row?.email ?? '';
  const right = await passwordLimiter(db).guard(email, { userId: session.userId }, TOO_MANY_ATTEMPTS, () =>
    verifyPassword(row?.passwordHash, input.currentPassword),
  );
  if (!row || !right) {
    throw new AppError(422, WRONG_CURRENT_PASSWORD, [
      { path: 'currentPassword', message: WRONG_CURRENT_PASSWORD },
    ]);
  }
  const passwordHash = await hashPassword(input.newPassword);
  await db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, session.userId));
    await revokeSessions(tx, session.userId, session.sessionId);
  });
}
