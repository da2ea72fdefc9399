import type { settlementLineSchema } from '@balcao/core/delivery';
import {
  DELIVERY_MESSAGES,
  type DeliveryStatus,
  type OnDeliveryMethod,
  type Settlement,
  type SettlementPreview,
  type SettlementSummary,
} from '@balcao/core/delivery';
import { DRIVERS } from '@balcao/core/routes';
import type { z } from '@balcao/core/zod';
import { and, asc, desc, eq, gte, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import { AppError, conflict, notFound } from '../../errors.ts';
import type { Actor } from '../../lib/actor.ts';
import { shopDayStartSql } from '../../lib/shopToday.ts';
import { settleDriverCash } from '../cash-register/delivery.ts';
import type { RegisterSales } from '../cash-register/service.ts';
import { deliveryOrders, driverSettlements } from './schema.ts';

/**
 * The per-driver settlement (acerto), held by the API: for a driver and a period (shop days), the
 * finished orders not settled yet give the change handed out at dispatch, the cash collected on
 * delivery, card/pix collected, and the fees the driver earned (the shipping rule's, fixed when the
 * order was made). What the driver hands over = change + cash; what the shop owes = fees. A manager
 * confirms with the counted cash: the settlement stores the lines as confirmed and marks the orders.
 */

type Line = z.infer<typeof settlementLineSchema>;

async function findDriver(db: Executor, clientId: number, driverId: number) {
  const [driver] = await db
    .select({ id: users.id, name: users.name })
    .from(users)
    .where(
      and(eq(users.id, driverId), eq(users.clientId, clientId), inArray(users.userTypeId, [...DRIVERS])),
    );
  if (!driver) throw notFound(DELIVERY_MESSAGES.driverNotFound);
  return driver;
}

/** A finished order's line: change and cash for every finished order, fees and card for delivered ones. */
function lineOf(o: typeof deliveryOrders.$inferSelect): Line {
  const success = o.status === 'success';
  const method = o.onDeliveryMethod as OnDeliveryMethod | null;
  return {
    orderId: o.id,
    saleNumber: o.saleNumber,
    status: o.status as DeliveryStatus,
    customerName: o.customerName,
    finishedAt: o.finishedAt?.toISOString() ?? null,
    onDeliveryMethod: method,
    changeCents: o.changeCents,
    cashCents: success && method === 'money' ? o.collectCents : 0,
    otherCents: success && method !== null && method !== 'money' ? o.collectCents : 0,
    feeCents: success ? (o.driverFeeCents ?? 0) : 0,
    feeUnknown: success && o.driverFeeCents === null,
  };
}

function sum(lines: Line[]) {
  const total = (k: 'changeCents' | 'cashCents' | 'otherCents' | 'feeCents') =>
    lines.reduce((s, l) => s + l[k], 0);
  const changeCents = total('changeCents');
  const cashCents = total('cashCents');
  const feesCents = total('feeCents');
  return {
    changeCents,
    cashCents,
    otherCents: total('otherCents'),
    feesCents,
    toHandOverCents: changeCents + cashCents,
    owedCents: feesCents,
  };
}

export async function previewSettlement(
  db: Executor,
  actor: Actor,
  query: { driverId: number; from: string; to: string },
): Promise<SettlementPreview> {
  const { clientId } = actor;
  const driver = await findDriver(db, clientId, query.driverId);
  const rows = await db
    .select()
    .from(deliveryOrders)
    .where(
      and(
        eq(deliveryOrders.clientId, clientId),
        eq(deliveryOrders.driverId, query.driverId),
        // Canceled after it left (issue 30 item 5): the driver still hands its change back.
        or(
          inArray(deliveryOrders.status, ['success', 'failed']),
          and(eq(deliveryOrders.status, 'canceled'), isNotNull(deliveryOrders.pickedUpAt)),
        ),
        isNull(deliveryOrders.settlementId),
        gte(deliveryOrders.finishedAt, shopDayStartSql(clientId, query.from)),
        lt(deliveryOrders.finishedAt, shopDayStartSql(clientId, query.to, 1)),
      ),
    )
    .orderBy(asc(deliveryOrders.finishedAt), asc(deliveryOrders.id));
  const lines = rows.map(lineOf);
  return { driver, from: query.from, to: query.to, lines, ...sum(lines) };
}

/**
 * Confirms a settlement: the orders the manager saw (`orderIds`) must be exactly the period's unsettled
 * ones (409 otherwise: something moved, look again); one transaction stores it and marks the orders,
 * whose UPDATE only takes orders still unsettled (two confirmations at once: one wins).
 */
export async function confirmSettlement(
  ctx: AppContext,
  actor: Actor,
  input: {
    driverId: number;
    from: string;
    to: string;
    countedCents: number;
    cashRegisterId: number;
    orderIds: number[];
  },
): Promise<Settlement> {
  const id = await ctx.db.transaction(async (tx) => {
    const preview = await previewSettlement(tx, actor, input);
    if (preview.lines.length === 0) throw new AppError(422, DELIVERY_MESSAGES.settlementEmpty);
    const seen = [...new Set(input.orderIds)].sort((a, b) => a - b);
    const now = preview.lines.map((l) => l.orderId).sort((a, b) => a - b);
    if (seen.join(',') !== now.join(',')) throw conflict(DELIVERY_MESSAGES.settlementChanged);
    // The money lands in a register (issue 30 item 5): the counted cash in, the fees out.
    await settleDriverCash(tx, {
      clientId: actor.clientId,
      userId: actor.userId,
      registerId: input.cashRegisterId,
      countedCents: input.countedCents,
      feesCents: preview.feesCents,
      driverName: preview.driver.name,
    });
    const [row] = await tx
      .insert(driverSettlements)
      .values({
        clientId: actor.clientId,
        driverId: input.driverId,
        periodFrom: input.from,
        periodTo: input.to,
        changeCents: preview.changeCents,
        cashCents: preview.cashCents,
        otherCents: preview.otherCents,
        feesCents: preview.feesCents,
        toHandOverCents: preview.toHandOverCents,
        countedCents: input.countedCents,
        cashRegisterId: input.cashRegisterId,
        lines: preview.lines,
        confirmedBy: actor.userId,
      })
      .returning({ id: driverSettlements.id });
    const marked = await tx
      .update(deliveryOrders)
      .set({ settlementId: row.id })
      .where(
        and(
          eq(deliveryOrders.clientId, actor.clientId),
          inArray(deliveryOrders.id, now),
          isNull(deliveryOrders.settlementId),
        ),
      )
      .returning({ id: deliveryOrders.id });
    if (marked.length !== now.length) throw conflict(DELIVERY_MESSAGES.settlementChanged);
    return row.id;
  });
  ctx.changed(actor.clientId, 'delivery');
  return findSettlement(ctx.db, actor, id);
}

const manager = alias(users, 'manager');

function toSummary(row: {
  s: typeof driverSettlements.$inferSelect;
  driverName: string;
  managerName: string;
}): SettlementSummary {
  const { s } = row;
  return {
    id: s.id,
    driver: { id: s.driverId, name: row.driverName },
    from: s.periodFrom,
    to: s.periodTo,
    changeCents: s.changeCents,
    cashCents: s.cashCents,
    otherCents: s.otherCents,
    feesCents: s.feesCents,
    toHandOverCents: s.toHandOverCents,
    owedCents: s.feesCents,
    countedCents: s.countedCents,
    differenceCents: s.countedCents - s.toHandOverCents,
    confirmedBy: { id: s.confirmedBy, name: row.managerName },
    confirmedAt: s.confirmedAt.toISOString(),
    cashRegisterId: s.cashRegisterId,
  };
}

function selectSettlements(db: Executor) {
  return db
    .select({ s: driverSettlements, driverName: users.name, managerName: manager.name })
    .from(driverSettlements)
    .innerJoin(users, eq(users.id, driverSettlements.driverId))
    .innerJoin(manager, eq(manager.id, driverSettlements.confirmedBy));
}

export async function findSettlement(db: Executor, actor: Actor, id: number): Promise<Settlement> {
  const [row] = await selectSettlements(db).where(
    and(eq(driverSettlements.clientId, actor.clientId), eq(driverSettlements.id, id)),
  );
  if (!row) throw notFound('Acerto não encontrado');
  return { ...toSummary(row), lines: row.s.lines as Line[] };
}

/** The history, newest first (optionally one driver's). */
export async function listSettlements(
  db: Executor,
  actor: Actor,
  driverId?: number,
): Promise<SettlementSummary[]> {
  const rows = await selectSettlements(db)
    .where(
      and(
        eq(driverSettlements.clientId, actor.clientId),
        driverId !== undefined ? eq(driverSettlements.driverId, driverId) : undefined,
      ),
    )
    .orderBy(desc(driverSettlements.confirmedAt), desc(driverSettlements.id))
    .limit(200);
  return rows.map(toSummary);
}

/**
 * The money drivers still hold (issue 30 item 5, the home's "a receber dos entregadores"): for every
 * order that left and no acerto took yet, its change, and the cash it collected when delivered.
 */
export async function toCollectFromDrivers(db: Executor, clientId: number) {
  const [row] = await db
    .select({
      cents: sql<string>`coalesce(sum(${deliveryOrders.changeCents} + case when ${deliveryOrders.status} = 'success'
        and ${deliveryOrders.onDeliveryMethod} = 'money' then ${deliveryOrders.collectCents} else 0 end), 0)`,
      orders: sql<string>`count(*)`,
    })
    .from(deliveryOrders)
    .where(
      and(
        eq(deliveryOrders.clientId, clientId),
        isNotNull(deliveryOrders.pickedUpAt),
        isNotNull(deliveryOrders.driverId),
        isNull(deliveryOrders.settlementId),
        inArray(deliveryOrders.status, ['sending', 'success', 'failed', 'canceled']),
      ),
    );
  return { cents: Number(row?.cents ?? 0), orders: Number(row?.orders ?? 0) };
}

/**
 * A register's sale figures without the payments on delivery an acerto already took (issue 30
 * item 5): the close then lists "Pagamento na entrega (a receber)" only for what is still out.
 * Wraps the sale module's reader at wiring (modules/index.ts).
 */
export function withSettledDeliveries(sales: RegisterSales): RegisterSales {
  return async (db, registerId) => {
    const figures = await sales(db, registerId);
    const owed = figures.byMethod.get('paymentOnDelivery') ?? 0;
    if (owed === 0) return figures;
    const [row] = await db
      .select({ cents: sql<string>`coalesce(sum(${deliveryOrders.collectCents}), 0)` })
      .from(deliveryOrders)
      .where(
        and(
          eq(deliveryOrders.cashRegisterId, registerId),
          eq(deliveryOrders.status, 'success'),
          isNotNull(deliveryOrders.settlementId),
          // Paid by Pix QR dinâmico (issue 33): the sale's payment is Pix already, never "a receber".
          isNull(deliveryOrders.pixEndToEndId),
        ),
      );
    const settled = Number(row?.cents ?? 0);
    if (settled === 0) return figures;
    const byMethod = new Map(figures.byMethod);
    const left = Math.max(0, owed - settled);
    if (left > 0) byMethod.set('paymentOnDelivery', left);
    else byMethod.delete('paymentOnDelivery');
    return { ...figures, byMethod };
  };
}
