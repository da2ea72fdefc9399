import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { feeSettings, feeTables } from './schema.ts';

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
