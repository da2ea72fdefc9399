import {
  EMPTY_WORKING_HOURS,
  openStatus,
  type WorkingHours,
  type WorkingHoursData,
  type WorkingHoursSettings,
  type WorkingHoursStatus,
} from '@balcao/core/workingHours';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { clients } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import type { Actor } from '../../lib/actor.ts';
import { workingHours } from './schema.ts';
import { changedByOf, saveSettingsRow } from './version.ts';

async function readHours(db: Executor, clientId: number) {
  const [row] = await db
    .select({ client: { timeZone: clients.timeZone, checkIsOpen: clients.checkIsOpen }, hours: workingHours })
    .from(clients)
    .leftJoin(workingHours, eq(workingHours.clientId, clients.id))
    .where(eq(clients.id, clientId));
  if (!row) throw notFound('Cliente não encontrado');
  const h = row.hours;
  const hours: WorkingHours = h
    ? {
        weekly: h.weekly,
        exceptions: h.exceptions,
        pause: { paused: h.paused, reason: h.pauseReason, until: h.pausedUntil?.toISOString() ?? null },
      }
    : EMPTY_WORKING_HOURS;
  return { ...row.client, hours, row: h };
}

export async function findWorkingHours(db: Executor, actor: Actor): Promise<WorkingHoursSettings> {
  const { hours, row } = await readHours(db, actor.clientId);
  return { ...hours, ...(await changedByOf(db, row ?? undefined)) };
}

export async function saveWorkingHours(
  ctx: AppContext,
  actor: Actor,
  input: WorkingHoursData,
): Promise<WorkingHoursSettings> {
  await ctx.db.transaction((tx) =>
    saveSettingsRow(tx, workingHours, actor.clientId, actor.userId, input.updatedAt, {
      weekly: input.weekly,
      exceptions: [...input.exceptions].sort((a, b) => a.date.localeCompare(b.date)),
      paused: input.pause.paused,
      pauseReason: input.pause.paused ? input.pause.reason : '',
      pausedUntil: input.pause.paused && input.pause.until ? new Date(input.pause.until) : null,
    }),
  );
  ctx.changed(actor.clientId, 'settings');
  return findWorkingHours(ctx.db, actor);
}

/** Open or closed now (top bar, PDV warning); `enabled` false when the shop does not use hours. */
export async function findWorkingHoursStatus(
  db: Executor,
  actor: Actor,
  now = new Date(),
): Promise<WorkingHoursStatus> {
  const { hours, timeZone, checkIsOpen } = await readHours(db, actor.clientId);
  const status = openStatus(hours, now, timeZone);
  return {
    enabled: checkIsOpen,
    open: status.open,
    paused: status.paused,
    pauseReason: status.pauseReason,
    nextChange: status.nextChange?.toISOString() ?? null,
    timeZone,
    now: now.toISOString(),
  };
}
