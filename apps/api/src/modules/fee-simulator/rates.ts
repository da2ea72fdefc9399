import { DEFAULT_MEAL_VOUCHER_DAYS } from '@balcao/core/fees';
import { MEAL_VOUCHER_METHODS } from '@balcao/core/sale';
import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { feeSettings, feeTables, mealVoucherRates } from './schema.ts';

/** The rates of the shop's active fee table (issue 34: card fees and settlement in the cash flow and DRE). */
export type ActiveFeeRates = {
  debitBp: number;
  pixBp: number;
  /** Index 0 is 1x. */
  creditBp: number[];
  settlementDays: number;
};

export async function activeFeeRates(db: Executor, clientId: number): Promise<ActiveFeeRates | null> {
  const [row] = await db
    .select({
      debit: feeTables.debitRateBp,
      pix: feeTables.pixRateBp,
      credit: feeTables.creditRatesBp,
      days: feeTables.settlementDays,
    })
    .from(feeSettings)
    .innerJoin(feeTables, eq(feeTables.id, feeSettings.activeTableId))
    .where(eq(feeSettings.clientId, clientId));
  if (!row) return null;
  return { debitBp: row.debit ?? 0, pixBp: row.pix ?? 0, creditBp: row.credit, settlementDays: row.days };
}

/** A meal voucher brand's rate (hundredths of a percent) and days until it pays. */
export type MealVoucherTerms = { bp: number; days: number };

/**
 * The shop's meal voucher brands (issue 33) as the cash flow and DRE read them: a brand the shop never
 * saved pays in DEFAULT_MEAL_VOUCHER_DAYS with no rate known.
 */
export async function mealVoucherTerms(
  db: Executor,
  clientId: number,
): Promise<Map<string, MealVoucherTerms>> {
  const rows = await db
    .select({
      method: mealVoucherRates.method,
      bp: mealVoucherRates.rateBp,
      days: mealVoucherRates.settlementDays,
    })
    .from(mealVoucherRates)
    .where(eq(mealVoucherRates.clientId, clientId));
  const saved = new Map(rows.map((r) => [r.method, { bp: r.bp, days: r.days }]));
  return new Map(
    MEAL_VOUCHER_METHODS.map((method) => [
      method,
      saved.get(method) ?? { bp: 0, days: DEFAULT_MEAL_VOUCHER_DAYS },
    ]),
  );
}
