import {
  DEFAULT_BLIND_COUNT_USER_TYPES,
  DEFAULT_DISCOUNT_LIMITS,
  DEFAULT_RETURN_SETTINGS,
  DEFAULT_SYSTEM_SETTINGS,
  DISCOUNT_LIMITED_TYPES,
  type SystemSettings,
  type SystemSettingsData,
} from '@balcao/core/settings';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { clients } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import type { Actor } from '../../lib/actor.ts';
import { findStockSettings, updateStockSettings } from '../stock/service.ts';
import { type StoredDelivery, type StoredDiscountLimits, systemSettings } from './schema.ts';
import { changedByOf, saveSettingsRow } from './version.ts';

/** Issue 35: whether table orders (QR menu) skip the waiter's approval (the comanda module asks). */
export async function tableOrdersDirect(db: Executor, clientId: number): Promise<boolean> {
  const [row] = await db
    .select({ direct: systemSettings.tableOrdersDirect })
    .from(systemSettings)
    .where(eq(systemSettings.clientId, clientId));
  return row?.direct ?? false;
}

/** System preferences (system): time zone (clients), negative stock (the stock module's), the rest here. */

/**
 * What must follow a change of the shop's time zone in the same transaction: the sale module's daily
 * summaries move to the new days (`rebuildSaleSummary`). Sale is above settings, so it is handed over
 * in `modules/index.ts`.
 */
export type TimeZoneChanged = (db: Executor, clientId: number) => Promise<void>;

/**
 * What follows a change of the shop's couvert in the same transaction (issue 30): the open tabs
 * without payments take it (`comanda/service.ts` `applyCouvertToOpenTabs`, handed over at wiring).
 */
export type CouvertChanged = (db: Executor, clientId: number, couvertCents: number) => Promise<void>;

/** One limit per limited type, the stored one or the default. */
function discountLimitsOf(stored: StoredDiscountLimits | null | undefined) {
  return DISCOUNT_LIMITED_TYPES.map((userTypeId) => ({
    userTypeId,
    ...(stored?.[String(userTypeId)] ?? DEFAULT_DISCOUNT_LIMITS[userTypeId]),
  }));
}

export async function findSystemSettings(db: Executor, actor: Actor): Promise<SystemSettings> {
  const [row] = await db
    .select({ timeZone: clients.timeZone, settings: systemSettings })
    .from(clients)
    .leftJoin(systemSettings, eq(systemSettings.clientId, clients.id))
    .where(eq(clients.id, actor.clientId));
  if (!row) throw notFound('Cliente não encontrado');
  const s = row.settings;
  const stock = await findStockSettings(db, actor);
  return {
    timeZone: row.timeZone,
    allowNegativeStock: stock.allowNegativeStock,
    discountLimits: discountLimitsOf(s?.discountLimits),
    budgetValidityDays: s?.budgetValidityDays ?? DEFAULT_SYSTEM_SETTINGS.budgetValidityDays,
    serviceFeePercent: s?.serviceFeePercent ?? DEFAULT_SYSTEM_SETTINGS.serviceFeePercent,
    couvertCents: s?.couvertCents ?? DEFAULT_SYSTEM_SETTINGS.couvertCents,
    tabIdleMinutes: s?.tabIdleMinutes ?? DEFAULT_SYSTEM_SETTINGS.tabIdleMinutes,
    delivery: (s?.delivery as SystemSettings['delivery'] | undefined) ?? {
      ...DEFAULT_SYSTEM_SETTINGS.delivery,
    },
    returns: s?.returns ?? DEFAULT_RETURN_SETTINGS(),
    blindCountUserTypeIds: s?.blindCountUserTypeIds ?? DEFAULT_BLIND_COUNT_USER_TYPES(),
    tableOrdersDirect: s?.tableOrdersDirect ?? false,
    ...(await changedByOf(db, s ?? undefined)),
  };
}

/**
 * Saves the system page in one transaction. allowNegativeStock is written through the stock
 * module's service, only when it changes (422 while stock control is off, as on the exit page).
 * A time zone change rebuilds the day summaries of the sales in the new zone and reloads every logged
 * user's session (dates are shown in it).
 */
export async function saveSystemSettings(
  ctx: AppContext,
  actor: Actor,
  input: SystemSettingsData,
  timeZoneChanged: TimeZoneChanged,
  couvertChanged?: CouvertChanged,
): Promise<SystemSettings> {
  const { clientId } = actor;
  const discountLimits: StoredDiscountLimits = Object.fromEntries(
    discountLimitsOf(
      Object.fromEntries(
        input.discountLimits.map((l) => [String(l.userTypeId), { line: l.line, sale: l.sale }]),
      ),
    ).map((l) => [String(l.userTypeId), { line: l.line, sale: l.sale }]),
  );
  const zoneChanged = await ctx.db.transaction(async (tx) => {
    const [previous] = await tx
      .select({ couvertCents: systemSettings.couvertCents })
      .from(systemSettings)
      .where(eq(systemSettings.clientId, clientId));
    await saveSettingsRow(tx, systemSettings, clientId, actor.userId, input.updatedAt, {
      discountLimits,
      budgetValidityDays: input.budgetValidityDays,
      serviceFeePercent: input.serviceFeePercent,
      couvertCents: input.couvertCents,
      tabIdleMinutes: input.tabIdleMinutes,
      delivery: input.delivery satisfies StoredDelivery,
      ...(input.returns ? { returns: input.returns } : {}),
      ...(input.blindCountUserTypeIds ? { blindCountUserTypeIds: input.blindCountUserTypeIds } : {}),
      ...(input.tableOrdersDirect !== undefined ? { tableOrdersDirect: input.tableOrdersDirect } : {}),
    });
    if (couvertChanged && (previous?.couvertCents ?? 0) !== input.couvertCents) {
      await couvertChanged(tx, clientId, input.couvertCents);
    }
    const stock = await findStockSettings(tx, actor);
    if (stock.allowNegativeStock !== input.allowNegativeStock) {
      await updateStockSettings(tx, actor, { allowNegativeStock: input.allowNegativeStock });
    }
    const [before] = await tx
      .select({ timeZone: clients.timeZone })
      .from(clients)
      .where(eq(clients.id, clientId))
      .for('update');
    if (before?.timeZone === input.timeZone) return false;
    await tx
      .update(clients)
      .set({ timeZone: input.timeZone, updatedAt: new Date() })
      .where(eq(clients.id, clientId));
    await timeZoneChanged(tx, clientId);
    return true;
  });
  ctx.changed(clientId, 'settings');
  ctx.changed(clientId, 'stock');
  if (zoneChanged) ctx.changed(clientId, 'session');
  return findSystemSettings(ctx.db, actor);
}

/** Issue 30: the return window and who returns without an approval (the sale module's returns). */
export async function returnSettings(db: Executor, clientId: number) {
  const [row] = await db
    .select({ returns: systemSettings.returns })
    .from(systemSettings)
    .where(eq(systemSettings.clientId, clientId));
  return row?.returns ?? DEFAULT_RETURN_SETTINGS();
}

/** Issue 30: whether a user type closes its register by a blind count (the cash-register module). */
export async function countsBlind(db: Executor, clientId: number, userTypeId: number): Promise<boolean> {
  const [row] = await db
    .select({ types: systemSettings.blindCountUserTypeIds })
    .from(systemSettings)
    .where(eq(systemSettings.clientId, clientId));
  return (row?.types ?? DEFAULT_BLIND_COUNT_USER_TYPES()).includes(userTypeId);
}
