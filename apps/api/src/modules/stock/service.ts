import { formatQuantity } from '@balcao/core/product';
import {
  averageCost,
  fromThousandths,
  insufficientStockMessage,
  STOCK_MESSAGES,
  STOCK_MOVEMENT_DIRECTION,
  STOCK_MOVEMENT_TYPES,
  type StockEntryInputParsed,
  type StockExitInputParsed,
  type StockFractionateInputParsed,
  type StockMovementType,
  toThousandths,
} from '@balcao/core/stock';
import { eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Db, Executor } from '../../db/client.ts';
import { clients } from '../../db/schema.ts';
import { AppError, insufficientStock, notFound } from '../../errors.ts';
import type { Actor } from '../../lib/actor.ts';
import { insertJsonRows, pgCode } from '../../lib/pg.ts';
import { PRODUCT_NOT_FOUND } from '../product/find.ts';
import {
  lockProductLevels,
  lockVariantLevels,
  productLevelsUpdate,
  variantLevelsUpdate,
} from '../product/stockLevels.ts';
import { assertReservationsKept, type ReservedRow, reservedOfLinesSql } from './reservation.ts';
import { stockFractionRatios, stockMovements, stockSettings } from './schema.ts';

/*
 * The stock service: the only code that moves stock. Entries, exits and fractionation (this
 * module's routes) and the PDV's sales (issue 7) all go through `applyStockMovements`, inside the
 * caller's transaction.
 *
 *   const { lowStock } = await db.transaction(async (tx) => {
 *     // ...insert the sale...
 *     return applyStockMovements(tx, { clientId, userId }, [
 *       { productId: 7, variantId: null, type: 'sale', quantity: '2', saleId },
 *     ]);
 *   });
 *   notifyLowStock(ctx.notify, clientId, lowStock); // after the commit
 *
 * or `moveStock(db, {clientId, userId, notify}, movements)`, which opens the transaction and
 * notifies after it commits.
 */

export type StockContext = {
  clientId: number;
  /** Who moved the stock (null only for system work). */
  userId: number | null;
  /** Used by `moveStock` after the commit; `applyStockMovements` never notifies (it runs inside a transaction). */
  notify?: AppContext['notify'];
};

export type StockMovementInput = {
  productId: number;
  variantId?: number | null;
  type: StockMovementType;
  /**
   * How much moved: positive, at most 3 decimals (a number, or text like "1.5"). The type gives the
   * direction. For 'adjustment' only, the signed change (-2 takes 2 away).
   */
  quantity: string | number;
  /**
   * Cost per unit of what came in: entries (required) and fractionate-in (when omitted, the
   * source's cost times N/M of the fractionate-out in the same call). Updates the weighted average
   * cost (products.cost_price_cents).
   */
  unitCostCents?: number | null;
  /** Exit reason code (core STOCK_EXIT_REASONS) or free text. */
  reason?: string | null;
  /** Invoice or other document number. */
  document?: string | null;
  note?: string | null;
  saleId?: number | null;
};

type StockOptions = {
  /**
   * Let levels go below zero. Default: the client's allowNegativeStock setting (always allowed
   * when the client's stockManagement is off: sales are recorded but not checked).
   */
  allowNegative?: boolean;
  /** The client's settings when the caller already read them (the checkout does, with its register). */
  settings?: { stockManagement: boolean; allowNegativeStock: boolean };
  /**
   * The caller writes no stock level after this call in its transaction (the checkout): the ledger
   * flag is left on, one statement less. Otherwise it is turned off again.
   */
  lastLevelWrite?: boolean;
  /**
   * Refuse (409) when a level this call lowered falls below what active reservations (budgets,
   * issue 17) hold: the reservations are read by the statement that writes the levels (the sale).
   */
  keepReservations?: boolean;
};

/** A product whose level went from above its minimum to at/below it in this call. */
export type LowStockAlert = {
  productId: number;
  name: string;
  unit: string;
  stock: number;
  minStock: number;
};

export type AppliedMovement = {
  id: number;
  productId: number;
  variantId: number | null;
  type: StockMovementType;
  /** Signed: positive added to the stock, negative took from it. */
  quantity: number;
};

export type StockResult = {
  movements: AppliedMovement[];
  /** Notify these after the transaction commits (`notifyLowStock`). */
  lowStock: LowStockAlert[];
};

const SALE_TYPES: readonly StockMovementType[] = ['sale', 'sale-cancel'];
const COST_TYPES: readonly StockMovementType[] = ['entry', 'fractionate-in'];

const VARIANT_NOT_FOUND = 'Variação não encontrada';

/** The client's stock flags (GET /stock-setting). */
export function findStockSettings(db: Executor, actor: Actor) {
  return stockSettingsOf(db, actor.clientId);
}

/** The client's stock flags: stockManagement (clients) and allowNegativeStock (stock_settings). */
async function stockSettingsOf(
  db: Executor,
  clientId: number,
): Promise<{ stockManagement: boolean; allowNegativeStock: boolean }> {
  const [row] = await db
    .select({
      stockManagement: clients.stockManagement,
      allowNegativeStock: sql<boolean>`coalesce(${stockSettings.allowNegativeStock}, false)`,
    })
    .from(clients)
    .leftJoin(stockSettings, eq(stockSettings.clientId, clients.id))
    .where(eq(clients.id, clientId));
  if (!row) throw notFound('Cliente não encontrado');
  return { stockManagement: row.stockManagement, allowNegativeStock: Boolean(row.allowNegativeStock) };
}

/** 422 when the client's stock control is off (every manual stock write). */
async function assertStockEnabled(db: Executor, clientId: number) {
  const settings = await stockSettingsOf(db, clientId);
  if (!settings.stockManagement) throw new AppError(422, STOCK_MESSAGES.disabled);
  return settings;
}

function parseQuantity(m: StockMovementInput, index: number): number {
  const thousandths = toThousandths(m.quantity);
  const signed = m.type === 'adjustment';
  if (Number.isNaN(thousandths) || (signed ? thousandths === 0 : thousandths <= 0)) {
    const message = Number.isNaN(thousandths) ? STOCK_MESSAGES.quantity : STOCK_MESSAGES.quantityPositive;
    throw new AppError(400, message, [{ path: `items.${index}.quantity`, message }]);
  }
  return thousandths;
}

type LockedProduct = {
  id: number;
  name: string;
  unit: string;
  stock: number;
  minStock: number;
  costPriceCents: number;
  stockControl: boolean;
  hasVariants: boolean;
};

type LockedVariant = { id: number; productId: number; name: string; stock: number };

const thousandthsOf = (value: unknown) => Math.round(Number(value ?? 0) * 1000);

/**
 * Moves stock inside the caller's transaction (must be one: the rows are locked until it ends).
 *
 * - Locks the variants, then the products involved (SELECT ... FOR NO KEY UPDATE, each by ascending
 *   id: a stable order, so concurrent calls queue instead of deadlocking). NO KEY: the cached level
 *   and cost are not key columns, so foreign-key checks (FOR KEY SHARE, e.g. inserting sale items
 *   that reference these rows) are not blocked, while other stock writers and catalog edits still
 *   queue behind the lock.
 * - Refuses with 409 "Estoque insuficiente para {name} (disponível: X)" when a movement would take
 *   a level below zero, unless negative stock is allowed (options / client setting). A variant's
 *   own level is checked for variant movements.
 * - 404 for a product or variant of another client; 422 when a product with variants gets a
 *   movement without its variant, when a manual movement hits a product that does not control
 *   stock (sales of such products are skipped), and for manual movements while the client's
 *   stockManagement is off.
 * - Writes one ledger row per movement (signed quantity, one multi-row INSERT), updates the cached
 *   levels (product_variants.stock, products.stock: one UPDATE ... FROM (VALUES ...) per table)
 *   and, on entries and fractionate-in, the weighted average cost (products.cost_price_cents). A
 *   product whose cost changed gets a new updatedAt, so a product form opened before is refused as
 *   stale (409) instead of restoring the old cost; other movements leave updatedAt alone (the
 *   product form sends the level only when the user changed it, and the ledger records such a
 *   change as an adjustment).
 * - Returns the written rows and the products that crossed their minimum (from above it to at or
 *   below it): notify them after the commit.
 */
export async function applyStockMovements(
  tx: Executor,
  ctx: StockContext,
  movements: StockMovementInput[],
  options: StockOptions = {},
): Promise<StockResult> {
  if (movements.length === 0) return { movements: [], lowStock: [] };
  const quantities = movements.map((m, index) => {
    if (!STOCK_MOVEMENT_TYPES.includes(m.type)) throw new AppError(400, 'Tipo de movimentação inválido');
    return parseQuantity(m, index);
  });
  const settings = options.settings ?? (await stockSettingsOf(tx, ctx.clientId));
  if (!settings.stockManagement && movements.some((m) => !SALE_TYPES.includes(m.type)))
    throw new AppError(422, STOCK_MESSAGES.disabled);
  const allowNegative = options.allowNegative ?? (settings.allowNegativeStock || !settings.stockManagement);

  // Lock order: variants, then products, each by id (the catalog edits a variant, then its product).
  const variantIds = [
    ...new Set(movements.map((m) => m.variantId).filter((v): v is number => v != null)),
  ].sort((a, b) => a - b);
  const productIds = [...new Set(movements.map((m) => m.productId))].sort((a, b) => a - b);

  const variants = new Map<number, LockedVariant>();
  for (const r of await lockVariantLevels(tx, ctx.clientId, variantIds))
    variants.set(r.id, { ...r, stock: thousandthsOf(r.stock) });

  const lockedProducts = new Map<number, LockedProduct>();
  // The ledger flag (see below) is set by the locking statement itself: one round trip less while
  // the rows are locked. Nothing between here and the level writes writes a level.
  const ledgerOn = sql`set_config('balcao.stock_ledger', 'on', true)`;
  for (const r of await lockProductLevels(tx, ctx.clientId, productIds, ledgerOn))
    lockedProducts.set(r.id, { ...r, stock: thousandthsOf(r.stock), minStock: thousandthsOf(r.minStock) });

  const initialLevels = new Map([...lockedProducts].map(([id, p]) => [id, p.stock]));
  const initialCosts = new Map([...lockedProducts].map(([id, p]) => [id, p.costPriceCents]));
  const rows: (typeof stockMovements.$inferInsert)[] = [];
  const touchedVariants = new Set<number>();
  const touchedProducts = new Set<number>();
  const fractionOut = movements.findIndex((m) => m.type === 'fractionate-out');
  const fractionOutCost =
    fractionOut >= 0 ? lockedProducts.get(movements[fractionOut].productId)?.costPriceCents : undefined;

  for (const [index, m] of movements.entries()) {
    const product = lockedProducts.get(m.productId);
    if (!product) throw notFound(PRODUCT_NOT_FOUND);
    const variant = m.variantId != null ? variants.get(m.variantId) : undefined;
    if (m.variantId != null && (!variant || variant.productId !== product.id))
      throw notFound(VARIANT_NOT_FOUND);
    if (!variant && product.hasVariants)
      throw new AppError(422, `Escolha a variação (cor/tamanho) de ${product.name}`);
    if (!product.stockControl) {
      if (SALE_TYPES.includes(m.type)) continue;
      throw new AppError(422, `O produto ${product.name} não controla estoque`);
    }
    const direction = STOCK_MOVEMENT_DIRECTION[m.type];
    const delta = direction === 0 ? quantities[index] : direction * quantities[index];
    const level = variant ? variant.stock : product.stock;
    if (delta < 0 && !allowNegative && level + delta < 0) {
      const name = variant ? `${product.name} (${variant.name})` : product.name;
      throw insufficientStock(insufficientStockMessage(name, fromThousandths(Math.max(level, 0))));
    }

    let unitCostCents = m.unitCostCents ?? null;
    if (m.type === 'entry' && unitCostCents === null)
      throw new AppError(400, STOCK_MESSAGES.unitCost, [
        { path: `items.${index}.unitCostCents`, message: STOCK_MESSAGES.unitCost },
      ]);
    if (
      m.type === 'fractionate-in' &&
      unitCostCents === null &&
      fractionOut >= 0 &&
      fractionOutCost !== undefined
    )
      unitCostCents = Math.round((fractionOutCost * quantities[fractionOut]) / quantities[index]);
    if (unitCostCents !== null && COST_TYPES.includes(m.type)) {
      if (!Number.isSafeInteger(unitCostCents) || unitCostCents < 0)
        throw new AppError(400, STOCK_MESSAGES.unitCost);
      product.costPriceCents = averageCost(product.stock, product.costPriceCents, delta, unitCostCents);
    }

    if (variant) {
      variant.stock += delta;
      touchedVariants.add(variant.id);
    }
    product.stock += delta;
    touchedProducts.add(product.id);
    rows.push({
      clientId: ctx.clientId,
      productId: product.id,
      variantId: variant?.id ?? null,
      type: m.type,
      quantity: (delta / 1000).toFixed(3),
      // A sale's row keeps the weighted average cost of that moment: the DRE's CMV (issue 34).
      unitCostCents: COST_TYPES.includes(m.type)
        ? unitCostCents
        : m.type === 'sale'
          ? product.costPriceCents
          : null,
      reason: m.reason ?? null,
      document: m.document ?? null,
      note: m.note ?? null,
      userId: ctx.userId,
      saleId: m.saleId ?? null,
    });
  }
  if (rows.length === 0) {
    if (!options.lastLevelWrite) await tx.execute(sql`select set_config('balcao.stock_ledger', 'off', true)`);
    return { movements: [], lowStock: [] };
  }

  // The ledger rows and the cached levels change together, in ONE statement (a round trip per
  // product, each with its own trigger call, cost 50-70 ms of a 10-product sale on PGlite; a statement
  // per table still cost a round trip each while the rows are locked). The flag set by the locking
  // read above tells the ledger triggers (migration stock_ledger_triggers), which fire at the end of
  // the statement, that these level writes are already explained by the rows. The VALUES columns are
  // cast so PostgreSQL 15 and PGlite type them alike; the level goes as the same text the numeric
  // column got before.
  const variantUpdate =
    touchedVariants.size > 0
      ? sql`, variant_levels as (${variantLevelsUpdate(
          ctx.clientId,
          [...touchedVariants].map((id) => ({
            id,
            stock: String(fromThousandths((variants.get(id) as LockedVariant).stock)),
          })),
        )})`
      : sql``;
  const productLevels = [...touchedProducts].map((id) => {
    const p = lockedProducts.get(id) as LockedProduct;
    const cost = p.costPriceCents !== initialCosts.get(id) ? p.costPriceCents : null;
    return { id, stock: String(fromThousandths(p.stock)), cost };
  });
  const now = new Date().toISOString();
  // The lines whose level this call lowered (a product without stock control keeps its level).
  const lines = movements.flatMap((m, index) =>
    touchedProducts.has(m.productId)
      ? [{ productId: m.productId, variantId: m.variantId ?? null, quantity: quantities[index] / 1000 }]
      : [],
  );
  const reserved = options.keepReservations
    ? sql`, ${reservedOfLinesSql(ctx.clientId, lines)} as reserved`
    : sql``;
  const inserted = (
    (await tx.execute(sql`with
      m as (${insertJsonRows(stockMovements, rows)}
        returning id, product_id as "productId", variant_id as "variantId", type, quantity)
      ${variantUpdate},
      product_levels as (${productLevelsUpdate(ctx.clientId, productLevels, now)})
      select m.*${reserved} from m order by id`)) as unknown as {
      rows: {
        id: number;
        productId: number;
        variantId: number | null;
        type: string;
        quantity: string;
        reserved?: ReservedRow[] | null;
      }[];
    }
  ).rows;
  if (options.keepReservations)
    assertReservationsKept(lines, inserted[0]?.reserved ?? null, (productId, variantId) => {
      const product = lockedProducts.get(productId) as LockedProduct;
      const variant = variantId ? variants.get(variantId) : undefined;
      return { name: product.name, level: variant ? variant.stock : product.stock };
    });
  if (!options.lastLevelWrite) await tx.execute(sql`select set_config('balcao.stock_ledger', 'off', true)`);

  const lowStock: LowStockAlert[] = [];
  if (settings.stockManagement) {
    for (const id of touchedProducts) {
      const p = lockedProducts.get(id) as LockedProduct;
      const before = initialLevels.get(id) as number;
      if (p.minStock > 0 && before > p.minStock && p.stock <= p.minStock)
        lowStock.push({
          productId: id,
          name: p.name,
          unit: p.unit,
          stock: fromThousandths(p.stock),
          minStock: fromThousandths(p.minStock),
        });
    }
  }

  return {
    movements: inserted.map(({ reserved: _, ...r }) => ({
      ...r,
      type: r.type as StockMovementType,
      quantity: fromThousandths(thousandthsOf(r.quantity)),
    })),
    lowStock,
  };
}

const lowStockMessage = (alert: LowStockAlert) =>
  `Estoque baixo: ${alert.name} está com ${formatQuantity(alert.stock, alert.unit)} (mínimo ${formatQuantity(alert.minStock, alert.unit)})`;

/** Sends each low-stock crossing to the client's channel (call after the transaction commits). */
export function notifyLowStock(
  notify: AppContext['notify'] | undefined,
  clientId: number,
  alerts: LowStockAlert[],
) {
  if (!notify) return;
  for (const alert of alerts) notify(clientId, { message: lowStockMessage(alert), alertColor: 'warning' });
}

/** numeric(14,3) overflow (22003): a level past 99.999.999.999,999. */
const isNumericOverflow = (error: unknown) => pgCode(error, '22003') !== undefined;

/**
 * `applyStockMovements` in its own transaction (plus `extra` work in the same transaction), then
 * the low-stock notifications once it committed.
 */
export async function moveStock<T = undefined>(
  db: Db,
  ctx: StockContext,
  movements: StockMovementInput[],
  options: StockOptions = {},
  extra?: (tx: Executor, result: StockResult) => Promise<T>,
): Promise<StockResult & { extra: T | undefined }> {
  let result: StockResult & { extra: T | undefined };
  try {
    result = await db.transaction(async (tx) => {
      const applied = await applyStockMovements(tx, ctx, movements, options);
      return { ...applied, extra: extra ? await extra(tx, applied) : undefined };
    });
  } catch (error) {
    if (isNumericOverflow(error))
      throw new AppError(422, 'A quantidade passa do limite de estoque (99.999.999.999,999)');
    throw error;
  }
  notifyLowStock(ctx.notify, ctx.clientId, result.lowStock);
  return result;
}

// ---------------------------------------------------------------- manual operations

/** One movement of `type` per item of an entry or an exit, with the input's reason, document and note. */
function itemMovements(
  type: 'entry' | 'exit',
  input: {
    items: { productId: number; variantId: number | null; quantity: number; unitCostCents?: number }[];
    reason?: string;
    document: string | null;
    note: string | null;
  },
): StockMovementInput[] {
  return input.items.map((item) => ({
    productId: item.productId,
    variantId: item.variantId,
    type,
    quantity: item.quantity,
    unitCostCents: item.unitCostCents,
    reason: input.reason,
    document: input.document,
    note: input.note,
  }));
}

/**
 * POST /stock-movement/entry: several products in one go; each updates its average cost. `extra` runs
 * in the entry's transaction (issue 34: the purchase's bill, payable's `POST /payable/purchase`).
 */
export async function registerEntry<T = undefined>(
  db: Db,
  ctx: StockContext,
  input: StockEntryInputParsed,
  extra?: (tx: Executor, result: StockResult) => Promise<T>,
) {
  return moveStock(db, ctx, itemMovements('entry', input), {}, extra);
}

/** POST /stock-movement/exit: loss, breakage, internal use, return to the supplier or other. */
export async function registerExit(db: Db, ctx: StockContext, input: StockExitInputParsed) {
  return moveStock(db, ctx, itemMovements('exit', input));
}

/**
 * POST /stock-movement/fractionate: N units of the source go out, M units of the target come in
 * (at the source's cost x N / M each), and the ratio is remembered for the pair: one transaction.
 */
export async function fractionate(db: Db, ctx: StockContext, input: StockFractionateInputParsed) {
  return moveStock(
    db,
    ctx,
    [
      {
        productId: input.sourceProductId,
        variantId: input.sourceVariantId,
        type: 'fractionate-out',
        quantity: input.sourceQuantity,
        note: input.note,
      },
      {
        productId: input.targetProductId,
        variantId: input.targetVariantId,
        type: 'fractionate-in',
        quantity: input.targetQuantity,
        note: input.note,
      },
    ],
    {},
    async (tx) => {
      const now = new Date();
      const values = {
        sourceQuantity: input.sourceQuantity.toFixed(3),
        targetQuantity: input.targetQuantity.toFixed(3),
        updatedAt: now,
      };
      await tx
        .insert(stockFractionRatios)
        .values({
          clientId: ctx.clientId,
          sourceProductId: input.sourceProductId,
          targetProductId: input.targetProductId,
          ...values,
        })
        .onConflictDoUpdate({
          target: [
            stockFractionRatios.clientId,
            stockFractionRatios.sourceProductId,
            stockFractionRatios.targetProductId,
          ],
          set: values,
        });
    },
  );
}

/** PUT /stock-setting: allowNegativeStock (a row per client, created on the first change). */
export async function updateStockSettings(
  db: Executor,
  actor: Actor,
  input: { allowNegativeStock: boolean },
) {
  const clientId = actor.clientId;
  await assertStockEnabled(db, clientId);
  await db
    .insert(stockSettings)
    .values({ clientId, allowNegativeStock: input.allowNegativeStock, updatedAt: new Date() })
    .onConflictDoUpdate({
      target: stockSettings.clientId,
      set: { allowNegativeStock: input.allowNegativeStock, updatedAt: new Date() },
    });
  return findStockSettings(db, actor);
}
