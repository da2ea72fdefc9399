import { and, eq } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import { isSameVersion } from '../../lib/pg.ts';
import { assertNotStale, staleEdit, versionOf } from '../../lib/version.ts';

/**
 * A settings page is one row per client, created on its first save. An edit carries the version it
 * was made on: null when the page had never been saved (the row must not exist yet), otherwise the
 * row's `updatedAt` (lib/version.ts). Either way a stale copy gets 409.
 */
type SettingsTable = PgTable & {
  clientId: PgColumn;
  updatedAt: PgColumn;
  updatedByUserId: PgColumn;
};

export async function saveSettingsRow<T extends SettingsTable>(
  tx: Executor,
  table: T,
  clientId: number,
  userId: number,
  updatedAt: string | null | undefined,
  values: Record<string, unknown>,
): Promise<void> {
  const stamp = { ...values, updatedByUserId: userId, updatedAt: new Date() };
  if (updatedAt === null) {
    const inserted = await tx
      .insert(table)
      .values({ ...stamp, clientId } as never)
      .onConflictDoNothing()
      .returning({ clientId: table.clientId });
    if (inserted.length === 0) throw staleEdit();
    return;
  }
  const version = versionOf(updatedAt);
  const updated = await tx
    .update(table)
    .set(stamp as never)
    .where(and(eq(table.clientId, clientId), isSameVersion(table.updatedAt, version)))
    .returning({ clientId: table.clientId });
  assertNotStale(updated);
}

/** `updatedAt` and `updatedBy` of a settings row as answered (both null before the first save). */
export async function changedByOf(
  db: Executor,
  row: { updatedAt: Date; updatedByUserId: number | null } | undefined,
): Promise<{ updatedAt: string | null; updatedBy: { id: number; name: string } | null }> {
  if (!row) return { updatedAt: null, updatedBy: null };
  let updatedBy: { id: number; name: string } | null = null;
  if (row.updatedByUserId !== null) {
    const [user] = await db
      .select({ id: users.id, name: users.name })
      .from(users)
      .where(eq(users.id, row.updatedByUserId));
    updatedBy = user ?? null;
  }
  return { updatedAt: row.updatedAt.toISOString(), updatedBy };
}
