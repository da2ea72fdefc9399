import { fromThousandths, insufficientStockMessage } from '@balcao/core/stock';
import { and, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { insufficientStock } from '../../errors.ts';
import { findStockFigures, lockProductLevels, lockVariantLevels } from '../product/stockLevels.ts';
import { stockReservations } from './schema.ts';

/**
 * Stock reservations (issue 17): units held for a holder (a budget) that OTHER sales may not take
 * while the reservation is active: not released and `expires_at` ahead of now. Expiry is computed
 * from the timestamp when stock is taken or read (contract 6: no timer). The holder releases its
 * reservation on cancel or conversion (in the same transaction as its own change).
 */

type ReservationHolder = { kind: 'budget'; id: number };
type ReservedLine = { productId: number; variantId: number | null; quantity: number };

const thousandths = (value: unknown) => Math.round(Number(value ?? 0) * 1000);

/** Active reservations: the condition every read of reserved units uses. */
const activeSql = sql`${stockReservations.releasedAt} is null and ${stockReservations.expiresAt} > now()`;

/**
 * Holds `lines` for `holder` until `expiresAt` (a SQL instant), inside the caller's transaction:
 * locks the levels (the stock service's order: variants, then products, by id), so a sale and a
 * reservation of the same product queue, and refuses with 409 when a line asks more than what is
 * available (level minus the other active reservations). Products that do not control stock are
 * skipped (nothing to hold).
 */
export async function reserveStock(
  tx: Executor,
  clientId: number,
  holder: ReservationHolder,
  lines: ReservedLine[],
  expiresAt: SQL,
): Promise<void> {
  const wanted = new Map<string, ReservedLine>();
  for (const l of lines) {
    const key = `${l.productId}:${l.variantId ?? 0}`;
    const prev = wanted.get(key);
    wanted.set(key, { ...l, quantity: (prev?.quantity ?? 0) + l.quantity });
  }
  if (wanted.size === 0) return;
  const variantIds = [...new Set(lines.flatMap((l) => (l.variantId ? [l.variantId] : [])))].sort(
    (a, b) => a - b,
  );
  const productIds = [...new Set(lines.map((l) => l.productId))].sort((a, b) => a - b);
  const variants = new Map((await lockVariantLevels(tx, clientId, variantIds)).map((v) => [v.id, v]));
  const products = new Map(
    (await lockProductLevels(tx, clientId, productIds, sql`null`)).map((p) => [p.id, p]),
  );
  const held = await reservedUnits(tx, clientId, productIds);
  const rows: (typeof stockReservations.$inferInsert)[] = [];
  for (const [key, line] of wanted) {
    const product = products.get(line.productId);
    if (!product?.stockControl) continue;
    const variant = line.variantId ? variants.get(line.variantId) : undefined;
    const level = thousandths(variant ? variant.stock : product.stock);
    const available = level - (held.get(key) ?? 0);
    const asked = Math.round(line.quantity * 1000);
    if (asked > available) {
      const name = variant ? `${product.name} (${variant.name})` : product.name;
      throw insufficientStock(insufficientStockMessage(name, fromThousandths(Math.max(available, 0))));
    }
    rows.push({
      clientId,
      productId: line.productId,
      variantId: line.variantId,
      holderKind: holder.kind,
      holderId: holder.id,
      quantity: (asked / 1000).toFixed(3),
      expiresAt: sql`${expiresAt}` as unknown as Date,
    });
  }
  if (rows.length > 0) await tx.insert(stockReservations).values(rows);
}

/** Ends the holder's active reservation now (cancel, conversion, before a renewal reserves again). */
export async function releaseReservation(tx: Executor, clientId: number, holder: ReservationHolder) {
  await tx
    .update(stockReservations)
    .set({ releasedAt: sql`now()` })
    .where(
      and(
        eq(stockReservations.clientId, clientId),
        eq(stockReservations.holderKind, holder.kind),
        eq(stockReservations.holderId, holder.id),
        isNull(stockReservations.releasedAt),
      ),
    );
}

/** Active reserved thousandths by "productId:variantId" (variant 0 = the product itself). */
async function reservedUnits(
  db: Executor,
  clientId: number,
  productIds: number[],
): Promise<Map<string, number>> {
  if (productIds.length === 0) return new Map();
  const rows = await db
    .select({
      productId: stockReservations.productId,
      variantId: stockReservations.variantId,
      quantity: sql<string>`sum(${stockReservations.quantity})`,
    })
    .from(stockReservations)
    .where(
      and(
        eq(stockReservations.clientId, clientId),
        sql`${stockReservations.productId} in (${sql.join(
          productIds.map((id) => sql`${id}`),
          sql`, `,
        )})`,
        activeSql,
      ),
    )
    .groupBy(stockReservations.productId, stockReservations.variantId);
  return new Map(rows.map((r) => [`${r.productId}:${r.variantId ?? 0}`, thousandths(r.quantity)]));
}

/**
 * What active reservations hold of the products and variants `lines` take, as a scalar subquery
 * (json rows `{productId, variantId (0 for the product itself), reserved}`, null when none), for
 * the statement that writes the levels: its snapshot is taken after the levels were locked, so it
 * sees every reservation committed before (a reservation locks the same levels first).
 */
export function reservedOfLinesSql(
  clientId: number,
  lines: { productId: number; variantId: number | null }[],
): SQL {
  const pairs = sql.join(
    lines.map((l) => sql`(${l.productId}::int, ${l.variantId ?? 0}::int)`),
    sql`, `,
  );
  return sql`(select json_agg(r) from (
      select product_id as "productId", coalesce(variant_id, 0) as "variantId", sum(quantity)::text as reserved
      from stock_reservations
      where client_id = ${clientId} and released_at is null and expires_at > now()
        and (product_id, coalesce(variant_id, 0)) in (${pairs})
      group by product_id, variant_id) r)`;
}

export type ReservedRow = { productId: number; variantId: number; reserved: string };

/**
 * After a sale took its stock (same transaction, levels still locked): refuses with 409 when a
 * level it lowered is now below what other holders reserve, so a sale never takes reserved units.
 * A holder's own sale (a budget's conversion) releases its reservation before. `levelAfter` answers
 * a product's or variant's level (thousandths) after the sale; `reserved` is what
 * `reservedOfLinesSql` read.
 */
export function assertReservationsKept(
  lines: { productId: number; variantId: number | null; quantity: number }[],
  reserved: ReservedRow[] | null,
  levelAfter: (productId: number, variantId: number) => { name: string; level: number },
): void {
  for (const row of reserved ?? []) {
    const { name, level } = levelAfter(Number(row.productId), Number(row.variantId));
    const held = thousandths(row.reserved);
    if (level >= held) continue;
    const taken = lines
      .filter((l) => l.productId === Number(row.productId) && (l.variantId ?? 0) === Number(row.variantId))
      .reduce((sum, l) => sum + Math.round(l.quantity * 1000), 0);
    const available = Math.max(level + taken - held, 0);
    throw insufficientStock(insufficientStockMessage(name, fromThousandths(available)));
  }
}

/** A product's level, what active reservations hold of it and what is left to sell (stock screens). */
export async function reservationFigures(
  db: Executor,
  actor: { clientId: number; userId: number },
  productId: number,
): Promise<{ stock: number; reserved: number; available: number }> {
  const product = await findStockFigures(db, actor, productId);
  const held = await reservedUnits(db, actor.clientId, [productId]);
  const reserved = [...held.values()].reduce((sum, q) => sum + q, 0);
  const stock = thousandths(product.stock);
  return {
    stock: fromThousandths(stock),
    reserved: fromThousandths(reserved),
    available: fromThousandths(Math.max(stock - reserved, 0)),
  };
}
