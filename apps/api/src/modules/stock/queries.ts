import type { ListResult } from '@balcao/core/list';
import { isLowStock, variantName } from '@balcao/core/product';
import {
  type FractionRatio,
  fromThousandths,
  type LowStockProduct,
  type StockCard,
  type StockCardLine,
  type StockMovement,
  type StockMovementType,
  type stockMovementListQuerySchema,
} from '@balcao/core/stock';
import { and, asc, desc, eq, inArray, lte, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db, Executor } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import type { Actor } from '../../lib/actor.ts';
import { countRows, listResult, orderByOf, pageWindow } from '../../lib/list.ts';
import { shopDayStartSql } from '../../lib/shopToday.ts';
import {
  findStockFigures,
  listLowStockProducts,
  productMatches,
  productNameOf,
  productUnitOf,
  variantColorOf,
  variantSizeOf,
} from '../product/stockLevels.ts';
import { stockFractionRatios, stockMovements } from './schema.ts';

type ListQuery = z.output<typeof stockMovementListQuerySchema>;

const thousandthsOf = (value: unknown) => Math.round(Number(value ?? 0) * 1000);
const quantityOf = (value: unknown) => fromThousandths(thousandthsOf(value));

const movementColumns = {
  id: stockMovements.id,
  type: stockMovements.type,
  quantity: stockMovements.quantity,
  unitCostCents: stockMovements.unitCostCents,
  reason: stockMovements.reason,
  document: stockMovements.document,
  note: stockMovements.note,
  saleId: stockMovements.saleId,
  createdAt: stockMovements.createdAt,
  productId: stockMovements.productId,
  productName: productNameOf(stockMovements.productId),
  productUnit: productUnitOf(stockMovements.productId),
  variantId: stockMovements.variantId,
  color: variantColorOf(stockMovements.variantId),
  size: variantSizeOf(stockMovements.variantId),
  userId: stockMovements.userId,
  userName: users.name,
};

function selectMovements(db: Executor) {
  return db.select(movementColumns).from(stockMovements).leftJoin(users, eq(users.id, stockMovements.userId));
}

type MovementRow = Awaited<ReturnType<ReturnType<typeof selectMovements>['execute']>>[number];

function toMovement(r: MovementRow): StockMovement {
  return {
    id: r.id,
    type: r.type as StockMovementType,
    quantity: quantityOf(r.quantity),
    unitCostCents: r.unitCostCents,
    reason: r.reason,
    document: r.document,
    note: r.note,
    saleId: r.saleId,
    product: { id: r.productId, name: r.productName, unit: r.productUnit },
    variant: r.variantId !== null ? { id: r.variantId, name: variantName(r.color, r.size) } : null,
    user: r.userId !== null ? { id: r.userId, name: r.userName ?? '' } : null,
    createdAt: r.createdAt.toISOString(),
  };
}

/** Full rows of the given movements (answers of entry, exit and fractionate), in id order. */
export async function findMovements(db: Executor, actor: Actor, ids: number[]): Promise<StockMovement[]> {
  const clientId = actor.clientId;
  if (ids.length === 0) return [];
  const rows = await selectMovements(db)
    .where(and(eq(stockMovements.clientId, clientId), inArray(stockMovements.id, ids)))
    .orderBy(asc(stockMovements.id));
  return rows.map(toMovement);
}

function listWhere(clientId: number, query: ListQuery): SQL | undefined {
  return and(
    eq(stockMovements.clientId, clientId),
    query.productId === undefined ? undefined : eq(stockMovements.productId, query.productId),
    query.variantId === undefined ? undefined : eq(stockMovements.variantId, query.variantId),
    query.userId === undefined ? undefined : eq(stockMovements.userId, query.userId),
    query.type === undefined ? undefined : inArray(stockMovements.type, query.type),
    query.from === undefined
      ? undefined
      : sql`${stockMovements.createdAt} >= ${shopDayStartSql(clientId, query.from)}`,
    query.to === undefined
      ? undefined
      : sql`${stockMovements.createdAt} < ${shopDayStartSql(clientId, query.to, 1)}`,
    productMatches(stockMovements.productId, clientId, query.q),
  );
}

function listOrder(query: ListQuery) {
  return orderByOf<'createdAt' | 'quantity' | 'type'>(
    query.sort,
    { createdAt: stockMovements.createdAt, quantity: stockMovements.quantity, type: stockMovements.type },
    { field: 'createdAt', direction: 'desc' },
    stockMovements.id,
  );
}

/** The movement history (list contract), newest first by default. `q` searches the product. */
export async function listMovements(
  db: Db,
  actor: Actor,
  query: ListQuery,
): Promise<ListResult<StockMovement>> {
  const clientId = actor.clientId;
  const where = listWhere(clientId, query);
  const { limit, offset } = pageWindow(query);
  const rows = await selectMovements(db)
    .where(where)
    .orderBy(...listOrder(query))
    .limit(limit)
    .offset(offset);
  const total = await countRows(db, stockMovements, where);
  return listResult(rows.map(toMovement), total, query);
}

/** Every movement of a filtered history, in batches (CSV export). */
export async function* eachMovement(db: Db, actor: Actor, query: ListQuery, batch = 1000) {
  const clientId = actor.clientId;
  const where = listWhere(clientId, query);
  for (let offset = 0; ; offset += batch) {
    const rows = await selectMovements(db)
      .where(where)
      .orderBy(...listOrder(query))
      .limit(batch)
      .offset(offset);
    for (const r of rows) yield toMovement(r);
    if (rows.length < batch) return;
  }
}

/**
 * A product's stock card: its movements, newest first, each with the level right after it (the
 * product's total, or the variant's when `variantId` is given).
 */
export async function findStockCard(
  db: Db,
  actor: Actor,
  productId: number,
  query: { page: number; pageSize: number; variantId?: number },
): Promise<StockCard> {
  const clientId = actor.clientId;
  const product = await findStockFigures(db, actor, productId);
  const where = and(
    eq(stockMovements.clientId, clientId),
    eq(stockMovements.productId, productId),
    query.variantId === undefined ? undefined : eq(stockMovements.variantId, query.variantId),
  );
  const { limit, offset } = pageWindow(query);
  const rows = await selectMovements(db)
    .where(where)
    .orderBy(desc(stockMovements.id))
    .limit(limit)
    .offset(offset);
  const total = await countRows(db, stockMovements, where);
  const items: StockCardLine[] = [];
  if (rows.length > 0) {
    // The level after the newest row of the page; older rows walk back from it.
    const [{ balance }] = await db
      .select({ balance: sql<string>`coalesce(sum(${stockMovements.quantity}), 0)` })
      .from(stockMovements)
      .where(and(where, lte(stockMovements.id, rows[0].id)));
    let level = thousandthsOf(balance);
    for (const r of rows) {
      items.push({ ...toMovement(r), balance: fromThousandths(level) });
      level -= thousandthsOf(r.quantity);
    }
  }
  const stock = quantityOf(product.stock);
  const minStock = quantityOf(product.minStock);
  return {
    product: {
      ...product,
      stock,
      minStock,
      isLowStock: isLowStock({ stockControl: product.stockControl, stock, minStock }),
    },
    items,
    total: Number(total),
    page: query.page,
    pageSize: query.pageSize,
  };
}

/** Active products at or below their minimum (stock control on, minimum above zero). */
export async function listLowStock(
  db: Db,
  actor: Actor,
  query: { page: number; pageSize: number; q: string | undefined },
): Promise<ListResult<LowStockProduct>> {
  const page = await listLowStockProducts(db, actor, query);
  return {
    ...page,
    items: page.items.map((r) => ({ ...r, stock: quantityOf(r.stock), minStock: quantityOf(r.minStock) })),
  };
}

/** Remembered fractionation ratios, most recent first (optionally of one source and/or target). */
export async function listFractionRatios(
  db: Db,
  actor: Actor,
  filter: { sourceProductId?: number; targetProductId?: number },
): Promise<FractionRatio[]> {
  const clientId = actor.clientId;
  const rows = await db
    .select({
      sourceProductId: stockFractionRatios.sourceProductId,
      targetProductId: stockFractionRatios.targetProductId,
      targetProductName: productNameOf(stockFractionRatios.targetProductId),
      sourceQuantity: stockFractionRatios.sourceQuantity,
      targetQuantity: stockFractionRatios.targetQuantity,
      updatedAt: stockFractionRatios.updatedAt,
    })
    .from(stockFractionRatios)
    .where(
      and(
        eq(stockFractionRatios.clientId, clientId),
        filter.sourceProductId === undefined
          ? undefined
          : eq(stockFractionRatios.sourceProductId, filter.sourceProductId),
        filter.targetProductId === undefined
          ? undefined
          : eq(stockFractionRatios.targetProductId, filter.targetProductId),
      ),
    )
    .orderBy(desc(stockFractionRatios.updatedAt), desc(stockFractionRatios.id))
    .limit(50);
  return rows.map((r) => ({
    ...r,
    sourceQuantity: quantityOf(r.sourceQuantity),
    targetQuantity: quantityOf(r.targetQuantity),
    updatedAt: r.updatedAt.toISOString(),
  }));
}
