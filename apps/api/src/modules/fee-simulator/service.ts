import {
  type AnticipationBasis,
  type AnticipationModel,
  defaultMealVoucherRate,
  FEE_MESSAGES,
  type FeePdv,
  type FeeSettings,
  type FeeSettingsInput,
  type FeeTable,
  type FeeTableValues,
  type MealVoucherSettings,
} from '@balcao/core/fees';
import type { Deleted } from '@balcao/core/responses';
import { MEAL_VOUCHER_METHODS, type MealVoucherMethod } from '@balcao/core/sale';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { notFound, unprocessable } from '../../errors.ts';
import type { Actor } from '../../lib/actor.ts';
import { isSameVersion } from '../../lib/pg.ts';
import { assertNotStale, versionOf } from '../../lib/version.ts';
import { feeSettings, feeTables, mealVoucherRates } from './schema.ts';

/** What a change of rate tables or settings signals on the socket: the PDV's surcharge display follows. */
const FEE_RESOURCE = 'fee-simulator';

type TableRow = typeof feeTables.$inferSelect;

const toBp = (percent: number) => Math.round(percent * 100);
const fromBp = (bp: number) => bp / 100;
const nullableBp = (percent: number | null) => (percent === null ? null : toBp(percent));

function toTable(row: TableRow): FeeTable {
  return {
    id: row.id,
    name: row.name,
    acquirer: row.acquirer,
    presetKey: row.presetKey,
    plan: row.plan,
    tier: row.tier,
    settlementLabel: row.settlementLabel,
    brandGroup: row.brandGroup,
    ratesDate: row.ratesDate,
    verified: row.verified,
    debitRate: row.debitRateBp === null ? null : fromBp(row.debitRateBp),
    pixRate: row.pixRateBp === null ? null : fromBp(row.pixRateBp),
    creditRates: row.creditRatesBp.map(fromBp),
    anticipationModel: row.anticipationModel as AnticipationModel,
    anticipationRate: fromBp(row.anticipationRateBp),
    anticipationBasis: row.anticipationBasis as AnticipationBasis,
    linearSkipsFirst: row.linearSkipsFirst,
    settlementDays: row.settlementDays,
    settlesAtOnce: row.settlesAtOnce,
    buyerInterestRate: fromBp(row.buyerInterestRateBp),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function toColumns(input: FeeTableValues) {
  return {
    name: input.name,
    acquirer: input.acquirer,
    presetKey: input.presetKey,
    plan: input.plan,
    tier: input.tier,
    settlementLabel: input.settlementLabel,
    brandGroup: input.brandGroup,
    ratesDate: input.ratesDate,
    verified: input.verified,
    debitRateBp: nullableBp(input.debitRate),
    pixRateBp: nullableBp(input.pixRate),
    creditRatesBp: input.creditRates.map(toBp),
    anticipationModel: input.anticipationModel,
    anticipationRateBp: toBp(input.anticipationRate),
    anticipationBasis: input.anticipationBasis,
    linearSkipsFirst: input.linearSkipsFirst,
    settlementDays: input.settlementDays,
    settlesAtOnce: input.settlesAtOnce,
    buyerInterestRateBp: toBp(input.buyerInterestRate),
  };
}

const ofClient = (clientId: number, id: number) =>
  and(eq(feeTables.id, id), eq(feeTables.clientId, clientId));

/** The shop's rate tables, oldest first. */
export async function listFeeTables(db: Executor, actor: Actor): Promise<FeeTable[]> {
  const rows = await db
    .select()
    .from(feeTables)
    .where(eq(feeTables.clientId, actor.clientId))
    .orderBy(asc(feeTables.id));
  return rows.map(toTable);
}

async function findRow(db: Executor, clientId: number, id: number): Promise<TableRow> {
  const [row] = await db.select().from(feeTables).where(ofClient(clientId, id)).limit(1);
  if (!row) throw notFound(FEE_MESSAGES.tableNotFound);
  return row;
}

/** One table of the shop; 404 when it is another shop's or unknown. */
export async function findFeeTable(db: Executor, actor: Actor, id: number): Promise<FeeTable> {
  return toTable(await findRow(db, actor.clientId, id));
}

/**
 * Saves a new table. The shop's first table becomes its active one (the PDV's), in the same
 * transaction, so a shop never has tables and no active one unless it chose so.
 */
export async function createFeeTable(
  ctx: AppContext,
  actor: Actor,
  input: FeeTableValues,
): Promise<FeeTable> {
  const table = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(feeTables)
      .values({ ...toColumns(input), clientId: actor.clientId })
      .returning();
    await tx
      .insert(feeSettings)
      .values({ clientId: actor.clientId, activeTableId: row.id })
      .onConflictDoNothing({ target: feeSettings.clientId });
    return toTable(row);
  });
  ctx.changed(actor.clientId, FEE_RESOURCE, table.id);
  return table;
}

/** Updates a table; `input.updatedAt` is required and must match (else 409 stale). */
export async function updateFeeTable(
  ctx: AppContext,
  actor: Actor,
  id: number,
  input: FeeTableValues,
): Promise<FeeTable> {
  const version = versionOf(input.updatedAt);
  await findRow(ctx.db, actor.clientId, id);
  const updated = await ctx.db
    .update(feeTables)
    .set({ ...toColumns(input), updatedAt: new Date() })
    .where(and(ofClient(actor.clientId, id), isSameVersion(feeTables.updatedAt, version)))
    .returning();
  assertNotStale(updated);
  ctx.changed(actor.clientId, FEE_RESOURCE, id);
  return toTable(updated[0]);
}

/** Deletes a table (nothing else points at it but the settings, whose active table becomes none). */
export async function deleteFeeTable(ctx: AppContext, actor: Actor, id: number): Promise<Deleted> {
  const [row] = await ctx.db
    .delete(feeTables)
    .where(ofClient(actor.clientId, id))
    .returning({ id: feeTables.id });
  if (!row) throw notFound(FEE_MESSAGES.tableNotFound);
  ctx.changed(actor.clientId, FEE_RESOURCE, id);
  return { id: row.id };
}

/** The shop's settings; the defaults (no active table, surcharge off) until it saves them. */
export async function getFeeSettings(db: Executor, actor: Actor): Promise<FeeSettings> {
  const [row] = await db.select().from(feeSettings).where(eq(feeSettings.clientId, actor.clientId)).limit(1);
  return row
    ? {
        activeTableId: row.activeTableId,
        pdvSurcharge: row.pdvSurcharge,
        updatedAt: row.updatedAt.toISOString(),
      }
    : { activeTableId: null, pdvSurcharge: false, updatedAt: null };
}

/**
 * Saves the settings: the active table must be one of the shop's (422 otherwise, never another
 * shop's). The first save needs no version; later ones carry the `updatedAt` they were made on.
 */
export async function saveFeeSettings(
  ctx: AppContext,
  actor: Actor,
  input: FeeSettingsInput,
): Promise<FeeSettings> {
  const saved = await ctx.db.transaction(async (tx) => {
    if (input.activeTableId !== null) {
      const [own] = await tx
        .select({ id: feeTables.id })
        .from(feeTables)
        .where(ofClient(actor.clientId, input.activeTableId))
        .for('key share');
      if (!own)
        throw unprocessable(FEE_MESSAGES.activeTable, [
          { path: 'activeTableId', message: FEE_MESSAGES.activeTable },
        ]);
    }
    const values = {
      activeTableId: input.activeTableId,
      pdvSurcharge: input.pdvSurcharge,
      updatedAt: new Date(),
    };
    const [current] = await tx
      .select({ updatedAt: feeSettings.updatedAt })
      .from(feeSettings)
      .where(eq(feeSettings.clientId, actor.clientId))
      .for('update');
    if (!current) {
      const inserted = await tx
        .insert(feeSettings)
        .values({ clientId: actor.clientId, ...values })
        .onConflictDoNothing({ target: feeSettings.clientId })
        .returning();
      // A concurrent first save won: this one was made on a copy that no longer holds.
      assertNotStale(inserted);
      return inserted[0];
    }
    const updated = await tx
      .update(feeSettings)
      .set(values)
      .where(
        and(
          eq(feeSettings.clientId, actor.clientId),
          isSameVersion(feeSettings.updatedAt, versionOf(input.updatedAt)),
        ),
      )
      .returning();
    assertNotStale(updated);
    return updated[0];
  });
  ctx.changed(actor.clientId, FEE_RESOURCE);
  return {
    activeTableId: saved.activeTableId,
    pdvSurcharge: saved.pdvSurcharge,
    updatedAt: saved.updatedAt.toISOString(),
  };
}

/** For the PDV's installment picker: the active table when the surcharge display is on, else null. */
export async function feeTableForPdv(db: Executor, actor: Actor): Promise<FeePdv> {
  const [row] = await db
    .select({ table: feeTables })
    .from(feeSettings)
    .innerJoin(feeTables, eq(feeTables.id, feeSettings.activeTableId))
    .where(
      and(
        eq(feeSettings.clientId, actor.clientId),
        eq(feeSettings.pdvSurcharge, true),
        eq(feeTables.clientId, sql`${feeSettings.clientId}`),
      ),
    )
    .limit(1);
  const vouchers = await db
    .select({ method: mealVoucherRates.method })
    .from(mealVoucherRates)
    .where(and(eq(mealVoucherRates.clientId, actor.clientId), eq(mealVoucherRates.enabled, true)));
  const enabled = new Set(vouchers.map((v) => v.method));
  return {
    table: row ? toTable(row.table) : null,
    mealVouchers: MEAL_VOUCHER_METHODS.filter((method) => enabled.has(method)),
  };
}

/** The shop's meal voucher brands, every brand in order (a brand never saved: off, 0%, 30 days). */
export async function getMealVouchers(db: Executor, actor: Actor): Promise<MealVoucherSettings> {
  const rows = await db.select().from(mealVoucherRates).where(eq(mealVoucherRates.clientId, actor.clientId));
  const saved = new Map(rows.map((row) => [row.method, row]));
  return {
    brands: MEAL_VOUCHER_METHODS.map((method) => {
      const row = saved.get(method);
      return row
        ? { method, enabled: row.enabled, rate: fromBp(row.rateBp), settlementDays: row.settlementDays }
        : defaultMealVoucherRate(method);
    }),
  };
}

/** Saves the brands given (one statement: an upsert of each), the others keep theirs. */
export async function saveMealVouchers(
  ctx: AppContext,
  actor: Actor,
  input: { brands: { method: MealVoucherMethod; enabled: boolean; rate: number; settlementDays: number }[] },
): Promise<MealVoucherSettings> {
  if (input.brands.length > 0)
    await ctx.db
      .insert(mealVoucherRates)
      .values(
        input.brands.map((brand) => ({
          clientId: actor.clientId,
          method: brand.method,
          enabled: brand.enabled,
          rateBp: toBp(brand.rate),
          settlementDays: brand.settlementDays,
        })),
      )
      .onConflictDoUpdate({
        target: [mealVoucherRates.clientId, mealVoucherRates.method],
        set: {
          enabled: sql`excluded.enabled`,
          rateBp: sql`excluded.rate_bp`,
          settlementDays: sql`excluded.settlement_days`,
          updatedAt: sql`now()`,
        },
      });
  // The PDV's payment step follows (its query refetches on the socket's change).
  ctx.changed(actor.clientId, FEE_RESOURCE);
  return getMealVouchers(ctx.db, actor);
}
