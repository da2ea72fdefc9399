import {
  changeToCarry,
  DEFAULT_PROMISE_MINUTES,
  DELIVERY_MESSAGES,
  DELIVERY_STATUSES,
  type DeliveryAddressSnapshot,
  type DeliveryOnSale,
  type DeliveryOrder,
  type DeliveryOrigin,
  type DeliveryPanel,
  type DeliveryStatus,
  type DriverList,
  type DriverOrders,
  type DriverShift,
  defaultDeliveryCode,
  type OnDeliveryMethod,
  OPEN_DELIVERY_STATUSES,
  REOPEN_MINUTES,
} from '@balcao/core/delivery';
import { formatCents } from '@balcao/core/money';
import { can, DRIVERS, TAKES_DELIVERIES } from '@balcao/core/routes';
import type { OriginSale, Sale } from '@balcao/core/sale';
import { computeDriverFee, computeShippingFee } from '@balcao/core/shipping';
import { and, asc, desc, eq, gte, inArray, isNotNull, isNull, type SQL, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import { AppError, conflict, notFound, unprocessable } from '../../errors.ts';
import type { Actor } from '../../lib/actor.ts';
import { shopDayStartSql, shopToday } from '../../lib/shopToday.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { returnDeliveryFloat, takeDeliveryFloat } from '../cash-register/delivery.ts';
import { deliverSectorTickets } from '../printing/sectorTickets.ts';
import { cancelSale } from '../sale/cancel.ts';
import { findSale } from '../sale/read.ts';
import { findDefaultRuleSet } from '../shipping/service.ts';
import { sendShopMessage } from '../whatsapp/send.ts';
import { printProductionOfOrder, queueProductionOfSale } from './production.ts';
import { deliveryOrders, deliverySettings, driverShifts } from './schema.ts';

/**
 * Delivery orders (issue 18): made of a delivery sale in the sale's own transaction, moved along
 * PRODUCT.md's statuses by the shop (panel) and by drivers (driver area). Every move is ONE
 * conditional UPDATE: the status (and for drivers, the driver) it starts from is in its WHERE, so two
 * drivers taking one order, or a tap on a stale screen, get exactly one winner and a clear 409.
 */

type OrderRow = typeof deliveryOrders.$inferSelect;

const forbidden = (message: string) => new AppError(403, message, undefined, 'forbidden');

// ---------------------------------------------------------------------------------------------------
// Reads

const orderColumns = { order: deliveryOrders, driverName: users.name };

function toOrder(row: { order: OrderRow; driverName: string | null }): DeliveryOrder {
  const o = row.order;
  return {
    id: o.id,
    saleId: o.saleId,
    saleNumber: o.saleNumber,
    status: o.status as DeliveryStatus,
    customerName: o.customerName,
    customerPhone: o.customerPhone,
    address: (o.address as DeliveryAddressSnapshot | null) ?? null,
    neighborhood: o.neighborhood,
    itemsText: o.itemsText,
    totalCents: o.totalCents,
    freightCents: o.freightCents,
    collectCents: o.collectCents,
    onDeliveryMethod: o.onDeliveryMethod as OnDeliveryMethod | null,
    changeForCents: o.changeForCents,
    changeCents: o.changeCents,
    pixEndToEndId: o.pixEndToEndId,
    driverFeeCents: o.driverFeeCents,
    driver: o.driverId !== null ? { id: o.driverId, name: row.driverName ?? '' } : null,
    promisedAt: o.promisedAt.toISOString(),
    failureReason: o.failureReason,
    cancelReason: o.cancelReason,
    acceptedAt: o.acceptedAt?.toISOString() ?? null,
    pickedUpAt: o.pickedUpAt?.toISOString() ?? null,
    finishedAt: o.finishedAt?.toISOString() ?? null,
    settled: o.settlementId !== null,
    origin: o.origin as DeliveryOrigin,
    marketplaceCourier: o.marketplaceCourier,
    createdAt: o.createdAt.toISOString(),
    updatedAt: o.updatedAt.toISOString(),
  };
}

async function selectOrders(db: Executor, where: SQL | undefined, order: SQL[] = []) {
  const rows = await db
    .select(orderColumns)
    .from(deliveryOrders)
    .leftJoin(users, eq(users.id, deliveryOrders.driverId))
    .where(where)
    .orderBy(...(order.length > 0 ? order : [asc(deliveryOrders.promisedAt), asc(deliveryOrders.id)]));
  return rows.map(toOrder);
}

export async function findOrder(db: Executor, actor: Actor, id: number): Promise<DeliveryOrder> {
  const [order] = await selectOrders(
    db,
    and(eq(deliveryOrders.clientId, actor.clientId), eq(deliveryOrders.id, id)),
  );
  if (!order) throw notFound(DELIVERY_MESSAGES.notFound);
  return order;
}

/** The shop's drivers (Entregador, Entregador parceiro), active, with whether they are on shift. */
async function listDrivers(db: Executor, clientId: number) {
  const rows = await db
    .select({
      id: users.id,
      name: users.name,
      userTypeId: users.userTypeId,
      shiftId: driverShifts.id,
    })
    .from(users)
    .leftJoin(driverShifts, and(eq(driverShifts.userId, users.id), isNull(driverShifts.endedAt)))
    .where(and(eq(users.clientId, clientId), eq(users.active, true), inArray(users.userTypeId, [...DRIVERS])))
    .orderBy(asc(users.name));
  return rows.map((r) => ({ id: r.id, name: r.name, userTypeId: r.userTypeId, onShift: r.shiftId !== null }));
}

async function getDeliverySettings(db: Executor, clientId: number) {
  const [row] = await db
    .select({
      notifyCustomer: deliverySettings.notifyCustomer,
      acceptOutsideHours: deliverySettings.acceptOutsideHours,
    })
    .from(deliverySettings)
    .where(eq(deliverySettings.clientId, clientId));
  return {
    notifyCustomer: row?.notifyCustomer ?? false,
    acceptOutsideHours: row?.acceptOutsideHours ?? false,
  };
}

export { getDeliverySettings };

async function getNotifyCustomer(db: Executor, clientId: number): Promise<boolean> {
  return (await getDeliverySettings(db, clientId)).notifyCustomer;
}

export async function saveDeliverySettings(
  ctx: AppContext,
  actor: Actor,
  input: { notifyCustomer: boolean; acceptOutsideHours?: boolean },
) {
  const current = await getDeliverySettings(ctx.db, actor.clientId);
  const next = {
    notifyCustomer: input.notifyCustomer,
    acceptOutsideHours: input.acceptOutsideHours ?? current.acceptOutsideHours,
  };
  await ctx.db
    .insert(deliverySettings)
    .values({ clientId: actor.clientId, ...next })
    .onConflictDoUpdate({
      target: deliverySettings.clientId,
      set: { ...next, updatedAt: new Date() },
    });
  ctx.changed(actor.clientId, 'delivery');
  return next;
}

type PanelQuery = { driverId?: number; neighborhood?: string; onDelivery?: boolean; origin?: DeliveryOrigin };

/**
 * The panel: every open order and today's finished or canceled ones (shop's day), filtered; counters
 * per status over the unfiltered board; drivers and how many are on shift.
 */
export async function deliveryPanel(db: Executor, actor: Actor, query: PanelQuery): Promise<DeliveryPanel> {
  const { clientId } = actor;
  const today = await shopToday(db, clientId);
  const onBoard = and(
    eq(deliveryOrders.clientId, clientId),
    sql`(${deliveryOrders.status} in ('pending','waiting','available','accepted','sending')
      or ${deliveryOrders.updatedAt} >= ${shopDayStartSql(clientId, today)})`,
  );
  const [all, drivers, settings] = await Promise.all([
    selectOrders(db, onBoard),
    listDrivers(db, clientId),
    getDeliverySettings(db, clientId),
  ]);
  const counters = Object.fromEntries(DELIVERY_STATUSES.map((s) => [s, 0])) as Record<DeliveryStatus, number>;
  for (const o of all) counters[o.status]++;
  const hood = query.neighborhood?.trim().toLowerCase();
  const orders = all.filter(
    (o) =>
      (query.driverId === undefined || o.driver?.id === query.driverId) &&
      (!hood || o.neighborhood.toLowerCase() === hood) &&
      (query.onDelivery === undefined || o.collectCents > 0 === query.onDelivery) &&
      (query.origin === undefined || o.origin === query.origin),
  );
  return {
    orders,
    counters,
    driversOnShift: drivers.filter((d) => d.onShift).length,
    drivers,
    ...settings,
  };
}

async function currentShift(db: Executor, actor: Actor): Promise<DriverShift> {
  const [shift] = await db
    .select({ startedAt: driverShifts.startedAt })
    .from(driverShifts)
    .where(and(eq(driverShifts.userId, actor.userId), isNull(driverShifts.endedAt)));
  return { onShift: Boolean(shift), startedAt: shift?.startedAt.toISOString() ?? null };
}

/** A driver's list: available (Entregador only), awaiting collection, in transit, delivered today. */
export async function driverOrders(
  db: Executor,
  session: SessionUser,
  list: DriverList,
): Promise<DriverOrders> {
  const { clientId, userId } = session;
  const mine = and(eq(deliveryOrders.clientId, clientId), eq(deliveryOrders.driverId, userId));
  const shift = await currentShift(db, session);
  let orders: DeliveryOrder[] = [];
  if (list === 'available') {
    if (!can(session.userTypeId, TAKES_DELIVERIES)) throw forbidden(DELIVERY_MESSAGES.partnerCannotTake);
    orders = await selectOrders(
      db,
      and(
        eq(deliveryOrders.clientId, clientId),
        eq(deliveryOrders.status, 'available'),
        isNull(deliveryOrders.driverId),
        // Ready for the marketplace's own courier (issue 35): not the shop drivers' to take.
        isNull(deliveryOrders.marketplaceCourier),
      ),
    );
  } else if (list === 'awaiting-collection') {
    orders = await selectOrders(db, and(mine, eq(deliveryOrders.status, 'accepted')));
  } else if (list === 'in-transit') {
    orders = await selectOrders(db, and(mine, eq(deliveryOrders.status, 'sending')));
  } else {
    const today = await shopToday(db, clientId);
    orders = await selectOrders(
      db,
      and(
        mine,
        inArray(deliveryOrders.status, ['success', 'failed']),
        gte(deliveryOrders.finishedAt, shopDayStartSql(clientId, today)),
      ),
      [desc(deliveryOrders.finishedAt)],
    );
  }
  const delivered = orders.filter((o) => o.status === 'success');
  const totals =
    list === 'delivered'
      ? {
          count: delivered.length,
          collectedCents: delivered.reduce((s, o) => s + o.collectCents, 0),
          feesCents: delivered.reduce((s, o) => s + (o.driverFeeCents ?? 0), 0),
        }
      : { count: orders.length, collectedCents: 0, feesCents: 0 };
  return { orders, totals, shift };
}

// ---------------------------------------------------------------------------------------------------
// The order of a delivery sale (inside the sale's transaction)

function itemsTextOf(sale: Sale): string {
  const text = sale.items
    .map((i) => `${i.quantity}x ${i.description}${i.variantName ? ` (${i.variantName})` : ''}`)
    .join(', ');
  return text.length > 500 ? `${text.slice(0, 497)}...` : text;
}

/**
 * Creates the delivery order of a delivery sale just recorded (called by the sale's `onRecorded`,
 * inside its transaction: the order commits with the sale or not at all). Answers what to signal
 * after the commit: the panel's change and the bell.
 */
/** A delivery order's origin from its sale's (issue 35). */
function originOfSale(originSale: OriginSale): DeliveryOrigin {
  switch (originSale) {
    case 'ifood':
      return 'ifood';
    case 'marketplace':
      return 'opendelivery';
    case 'command':
    case 'waiter':
      return 'table';
    case 'delivery':
      return 'phone';
    default:
      return 'counter';
  }
}

export async function createOrderOfSale(
  ctx: AppContext,
  tx: Executor,
  session: SessionUser,
  recorded: { id: number; number: number },
  /** `marketplaceCourier`: the server's own (a marketplace order its couriers deliver), never a client's. */
  extra: (DeliveryOnSale & { marketplaceCourier?: string | null }) | undefined,
): Promise<() => void> {
  const sale = await findSale(tx, session, recorded.id);
  if (sale.typeOfSale !== 'delivery') {
    // A food shop's counter sale (pickup) has no delivery order, but its kitchen gets the lines.
    if (!session.saleCommand) throw unprocessable(DELIVERY_MESSAGES.onlyDelivery);
    const tickets = await queueProductionOfSale(tx, session, sale, null);
    return () => deliverSectorTickets(ctx, session.clientId, tickets);
  }
  const collectCents = sale.payments
    .filter((p) => p.method === 'paymentOnDelivery')
    .reduce((s, p) => s + p.amountCents, 0);
  // Money unless the sale says otherwise (most payments on delivery are cash).
  const method = collectCents > 0 ? (extra?.onDeliveryMethod ?? 'money') : null;
  const changeForCents = method === 'money' ? (extra?.changeForCents ?? 0) : 0;
  const fail = (message: string, path: string) =>
    new AppError(422, message, [{ path: `delivery.${path}`, message }]);
  if ((extra?.changeForCents ?? 0) > 0 && method !== 'money')
    throw fail(DELIVERY_MESSAGES.changeOnlyMoney, 'changeForCents');
  if (changeForCents > 0 && changeForCents < collectCents)
    throw fail(DELIVERY_MESSAGES.changeForLow, 'changeForCents');

  const address = sale.deliveryAddress;
  const neighborhood = address?.neighborhood ?? '';
  const rules = await findDefaultRuleSet(tx, session.clientId);
  const fee = rules ? computeDriverFee(rules, { neighborhood }) : null;
  // One promise and one minimum order (issue 30 item 17): the freight rule's, as the PDV's quote shows.
  const subtotalCents = sale.items.reduce((s, i) => s + i.totalCents, 0);
  if (rules && rules.minOrderCents > 0 && subtotalCents < rules.minOrderCents && !sale.madeOffline)
    throw fail(DELIVERY_MESSAGES.belowMinimum(formatCents(rules.minOrderCents)), 'minimum');
  const quote = rules
    ? computeShippingFee(rules, { subtotalCents, neighborhood, zipCode: address?.zipCode ?? null })
    : null;
  const ruleMinutes = quote?.ok ? quote.timeMinutes : (rules?.deliveryTimeMinutes ?? null);
  const code =
    defaultDeliveryCode(sale.customer?.phone) ?? String(Math.floor(Math.random() * 10000)).padStart(4, '0');
  const now = new Date();
  // A sale made offline (issue 21) took its order at the till's time: the promise counts from then.
  const takenAt = sale.madeOffline ? new Date(sale.createdAt) : now;
  const minutes = extra?.promiseMinutes ?? ruleMinutes ?? DEFAULT_PROMISE_MINUTES;
  const promisedAt = new Date(takenAt.getTime() + minutes * 60_000);
  const [order] = await tx
    .insert(deliveryOrders)
    .values({
      clientId: session.clientId,
      saleId: sale.id,
      saleNumber: recorded.number,
      customerName: sale.customer?.name ?? null,
      customerPhone: sale.customer?.phone ?? null,
      address: address
        ? {
            zipCode: address.zipCode,
            street: address.street,
            number: address.number,
            complement: address.complement,
            neighborhood: address.neighborhood,
            city: address.city,
            state: address.state,
          }
        : null,
      neighborhood,
      itemsText: itemsTextOf(sale),
      totalCents: sale.finalAmountCents,
      freightCents: sale.freightCents,
      collectCents,
      onDeliveryMethod: method,
      changeForCents,
      changeCents: changeToCarry({ onDeliveryMethod: method, collectCents, changeForCents }),
      driverFeeCents: fee?.feeCents ?? null,
      code,
      promisedAt,
      cashRegisterId: sale.cashRegisterId,
      floatCents:
        sale.cashRegisterId !== null
          ? changeToCarry({ onDeliveryMethod: method, collectCents, changeForCents })
          : 0,
      origin: originOfSale(sale.originSale),
      marketplaceCourier: extra?.marketplaceCourier ?? null,
      createdAt: takenAt,
      updatedAt: now,
    })
    .returning({ id: deliveryOrders.id, floatCents: deliveryOrders.floatCents });
  // The change the driver carries leaves the sale's register with the order (issue 30 item 5).
  if (sale.cashRegisterId !== null && order.floatCents > 0) {
    await takeDeliveryFloat(tx, {
      clientId: session.clientId,
      userId: session.userId,
      registerId: sale.cashRegisterId,
      amountCents: order.floatCents,
      reason: `Troco para a entrega nº ${recorded.number}`,
    });
  }
  // The kitchen gets the order's lines with the sale (issue 30 item 3).
  const tickets = await queueProductionOfSale(tx, session, sale, promisedAt);
  return () => {
    deliverSectorTickets(ctx, session.clientId, tickets);
    ctx.changed(session.clientId, 'delivery', order.id);
    ctx.notify(session.clientId, {
      message: `Novo pedido de entrega nº ${recorded.number}${sale.customer ? ` - ${sale.customer.name}` : ''}`,
      alertColor: 'info',
    });
  };
}

// ---------------------------------------------------------------------------------------------------
// Moves

type Move = {
  /** Statuses the move starts from. */
  from: readonly DeliveryStatus[];
  set: Partial<typeof deliveryOrders.$inferInsert>;
  /** Extra conditions (the driver, the code, the reopen window). */
  where?: SQL[];
};

/**
 * Applies one move with ONE conditional UPDATE; when no row matched, reads the order to say why:
 * 404 (not the shop's), 403 (a driver's move on another's order), 409 (its status moved on).
 */
async function move(
  ctx: AppContext,
  actor: Actor,
  id: number,
  m: Move,
  why?: (current: OrderRow) => AppError | null,
): Promise<DeliveryOrder> {
  const now = new Date();
  const [updated] = await ctx.db
    .update(deliveryOrders)
    .set({ ...m.set, updatedAt: now })
    .where(
      and(
        eq(deliveryOrders.clientId, actor.clientId),
        eq(deliveryOrders.id, id),
        inArray(deliveryOrders.status, [...m.from]),
        ...(m.where ?? []),
      ),
    )
    .returning({ id: deliveryOrders.id });
  if (!updated) {
    const [current] = await ctx.db
      .select()
      .from(deliveryOrders)
      .where(and(eq(deliveryOrders.clientId, actor.clientId), eq(deliveryOrders.id, id)));
    if (!current) throw notFound(DELIVERY_MESSAGES.notFound);
    const reason = why?.(current);
    if (reason) throw reason;
    throw conflict(DELIVERY_MESSAGES.transition(current.status as DeliveryStatus));
  }
  ctx.changed(actor.clientId, 'delivery', id);
  return findOrder(ctx.db, actor, id);
}

/**
 * The shop moves a new order to "em preparo" (its kitchen tickets print when they have not yet:
 * the same keys as the sale's, so never twice) or offers it to the drivers.
 */
export async function setStatus(ctx: AppContext, actor: Actor, id: number, status: 'waiting' | 'available') {
  const order = await move(
    ctx,
    actor,
    id,
    {
      // A failed order may be offered again (issue 30 item 5) while no acerto took it.
      from: status === 'waiting' ? ['pending'] : ['pending', 'waiting', 'failed'],
      set: status === 'waiting' ? { status } : { status, ...redispatch },
      where: [isNull(deliveryOrders.settlementId)],
    },
    settledAlready,
  );
  if (status === 'waiting') await printProductionOfOrder(ctx, actor, order);
  return order;
}

/** Assigns or reassigns a driver: the order waits for that driver's pickup. */
export async function assignDriver(ctx: AppContext, actor: Actor, id: number, driverId: number) {
  const [driver] = await ctx.db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        eq(users.id, driverId),
        eq(users.clientId, actor.clientId),
        eq(users.active, true),
        inArray(users.userTypeId, [...DRIVERS]),
      ),
    );
  if (!driver) {
    throw new AppError(422, DELIVERY_MESSAGES.driverNotFound, [
      { path: 'driverId', message: DELIVERY_MESSAGES.driverNotFound },
    ]);
  }
  return move(
    ctx,
    actor,
    id,
    {
      from: ['pending', 'waiting', 'available', 'accepted', 'failed'],
      set: { ...redispatch, status: 'accepted', driverId, acceptedAt: new Date() },
      where: [isNull(deliveryOrders.settlementId), isNull(deliveryOrders.marketplaceCourier)],
    },
    (current) => marketplaceDelivers(current) ?? settledAlready(current),
  );
}

/**
 * Issue 35: the marketplace's own courier moved the order of a sale (iFood's DISPATCHED / CONCLUDED
 * events): collected -> "sending" (in transit), delivered -> "success". Only an order those couriers
 * deliver (marketplaceCourier set), only forward (a repeated or late event changes nothing), one
 * conditional UPDATE. True when the order moved.
 */
export async function movedByMarketplaceCourier(
  ctx: AppContext,
  clientId: number,
  saleId: number,
  to: 'sending' | 'success',
): Promise<boolean> {
  const now = new Date();
  const [moved] = await ctx.db
    .update(deliveryOrders)
    .set({
      status: to,
      pickedUpAt: sql`coalesce(${deliveryOrders.pickedUpAt}, now())`,
      ...(to === 'success' ? { finishedAt: now } : {}),
      updatedAt: now,
    })
    .where(
      and(
        eq(deliveryOrders.clientId, clientId),
        eq(deliveryOrders.saleId, saleId),
        isNotNull(deliveryOrders.marketplaceCourier),
        inArray(
          deliveryOrders.status,
          to === 'sending'
            ? ['pending', 'waiting', 'available']
            : ['pending', 'waiting', 'available', 'sending'],
        ),
      ),
    )
    .returning({ id: deliveryOrders.id });
  if (!moved) return false;
  ctx.changed(clientId, 'delivery', moved.id);
  return true;
}

/** Issue 35: an order the marketplace's couriers deliver is never the shop's drivers' (422). */
const marketplaceDelivers = (current: OrderRow) =>
  current.marketplaceCourier !== null
    ? unprocessable(DELIVERY_MESSAGES.marketplaceCourier(current.marketplaceCourier))
    : null;

/**
 * What a failed order forgets when it goes out again (re-dispatched or reassigned): the float it
 * carries passes to the next driver with the bag, and whoever finishes it settles it.
 */
const redispatch = { driverId: null, pickedUpAt: null, finishedAt: null, failureReason: null } as const;

/** A failed order an acerto already took cannot go out again: its float went back to a register. */
const settledAlready = (current: OrderRow) =>
  current.status === 'failed' && current.settlementId !== null
    ? unprocessable(DELIVERY_MESSAGES.settledAlready)
    : null;

/**
 * A canceled sale cancels its delivery order while the order is still open (in the sale's cancel
 * transaction); a delivered or failed order keeps its history for the driver's settlement.
 */
export function cancelOrderOfSale(ctx: AppContext, prefix = 'Venda cancelada: ') {
  return async (tx: Executor, clientId: number, saleId: number, reason: string) => {
    const canceled = await tx
      .update(deliveryOrders)
      .set({
        status: 'canceled',
        cancelReason: `${prefix}${reason}`,
        finishedAt: new Date(),
        updatedAt: new Date(),
      })
      .where(
        and(
          eq(deliveryOrders.clientId, clientId),
          eq(deliveryOrders.saleId, saleId),
          // A failed order is over too (issue 30 item 5): the driver is back with its float.
          inArray(deliveryOrders.status, [...OPEN_DELIVERY_STATUSES, 'failed']),
        ),
      )
      .returning({
        id: deliveryOrders.id,
        saleNumber: deliveryOrders.saleNumber,
        pickedUpAt: deliveryOrders.pickedUpAt,
        cashRegisterId: deliveryOrders.cashRegisterId,
        floatCents: deliveryOrders.floatCents,
      });
    if (canceled.length === 0) return undefined;
    const [order] = canceled;
    // Not picked up yet: its change never left the shop, back into its register. Picked up: the
    // driver hands it over at the acerto (the canceled order is one of its lines).
    if (order.pickedUpAt === null && order.cashRegisterId !== null && order.floatCents > 0) {
      await returnDeliveryFloat(tx, {
        clientId,
        registerId: order.cashRegisterId,
        amountCents: order.floatCents,
        reason: `Troco da entrega nº ${order.saleNumber} cancelada`,
      });
    }
    return () => ctx.changed(clientId, 'delivery', order.id);
  };
}

/**
 * The panel's "Cancelar" on an open or failed order cancels its sale (issue 30 item 5): the sale's
 * cancel (a manager or their approval; stock back, coupon freed) cancels the order in its
 * transaction, so the day's sales no longer count it.
 */
export async function cancelOrder(
  ctx: AppContext,
  session: SessionUser,
  id: number,
  input: { reason: string; approval?: { email: string; password: string } },
) {
  const order = await findOrder(ctx.db, session, id);
  if (!([...OPEN_DELIVERY_STATUSES, 'failed'] as DeliveryStatus[]).includes(order.status))
    throw conflict(DELIVERY_MESSAGES.transition(order.status));
  await cancelSale(
    ctx,
    session,
    order.saleId,
    { reason: input.reason, approval: input.approval },
    cancelOrderOfSale(ctx, ''),
  );
  const canceled = await findOrder(ctx.db, session, id);
  if (canceled.status !== 'canceled') throw conflict(DELIVERY_MESSAGES.transition(canceled.status));
  return canceled;
}

const notYours = (session: SessionUser) => (current: OrderRow) =>
  current.driverId !== session.userId ? forbidden(DELIVERY_MESSAGES.notYours) : null;

/** An Entregador on shift takes an available order: the first UPDATE wins, the others get 409. */
export async function takeOrder(ctx: AppContext, session: SessionUser, id: number) {
  if (!can(session.userTypeId, TAKES_DELIVERIES)) throw forbidden(DELIVERY_MESSAGES.partnerCannotTake);
  if (!(await currentShift(ctx.db, session)).onShift) throw unprocessable(DELIVERY_MESSAGES.offShift);
  return move(
    ctx,
    session,
    id,
    {
      from: ['available'],
      set: { status: 'accepted', driverId: session.userId, acceptedAt: new Date() },
      where: [isNull(deliveryOrders.driverId), isNull(deliveryOrders.marketplaceCourier)],
    },
    (current) =>
      marketplaceDelivers(current) ?? (current.driverId !== null ? conflict(DELIVERY_MESSAGES.taken) : null),
  );
}

/** The assigned driver confirms the pickup: in transit (the customer may be told). */
export async function pickUp(ctx: AppContext, session: SessionUser, id: number) {
  const order = await move(
    ctx,
    session,
    id,
    {
      from: ['accepted'],
      set: { status: 'sending', pickedUpAt: new Date() },
      where: [eq(deliveryOrders.driverId, session.userId)],
    },
    notYours(session),
  );
  noticeCustomer(ctx, session.clientId, order, 'sending');
  return order;
}

/** The assigned driver delivers with the customer's 4-digit code (422 when it is not the order's). */
export async function deliver(ctx: AppContext, session: SessionUser, id: number, code: string) {
  const order = await move(
    ctx,
    session,
    id,
    {
      from: ['sending'],
      set: { status: 'success', finishedAt: new Date(), failureReason: null },
      where: [eq(deliveryOrders.driverId, session.userId), eq(deliveryOrders.code, code)],
    },
    (current) =>
      notYours(session)(current) ??
      (current.status === 'sending'
        ? new AppError(422, DELIVERY_MESSAGES.wrongCode, [
            { path: 'code', message: DELIVERY_MESSAGES.wrongCode },
          ])
        : null),
  );
  noticeCustomer(ctx, session.clientId, order, 'success');
  return order;
}

/** The assigned driver could not deliver: a reason from the list. */
export function failDelivery(ctx: AppContext, session: SessionUser, id: number, reason: string) {
  return move(
    ctx,
    session,
    id,
    {
      from: ['sending'],
      set: { status: 'failed', finishedAt: new Date(), failureReason: reason },
      where: [eq(deliveryOrders.driverId, session.userId)],
    },
    notYours(session),
  );
}

/** "Reabrir": a delivered or failed tap taken back by its driver within REOPEN_MINUTES, before any acerto. */
export function reopen(ctx: AppContext, session: SessionUser, id: number) {
  return move(
    ctx,
    session,
    id,
    {
      from: ['success', 'failed'],
      set: { status: 'sending', finishedAt: null, failureReason: null },
      where: [
        eq(deliveryOrders.driverId, session.userId),
        isNull(deliveryOrders.settlementId),
        sql`${deliveryOrders.finishedAt} > now() - make_interval(mins => ${REOPEN_MINUTES})`,
      ],
    },
    (current) =>
      notYours(session)(current) ??
      (current.status === 'success' || current.status === 'failed'
        ? unprocessable(DELIVERY_MESSAGES.reopenExpired)
        : null),
  );
}

// ---------------------------------------------------------------------------------------------------
// Shifts

export async function checkIn(ctx: AppContext, session: SessionUser): Promise<DriverShift> {
  const inserted = await ctx.db
    .insert(driverShifts)
    .values({ clientId: session.clientId, userId: session.userId })
    .onConflictDoNothing()
    .returning({ id: driverShifts.id });
  if (inserted.length === 0) throw conflict(DELIVERY_MESSAGES.alreadyOnShift);
  ctx.changed(session.clientId, 'delivery');
  return currentShift(ctx.db, session);
}

export async function checkOut(ctx: AppContext, session: SessionUser): Promise<DriverShift> {
  const ended = await ctx.db
    .update(driverShifts)
    .set({ endedAt: new Date() })
    .where(and(eq(driverShifts.userId, session.userId), isNull(driverShifts.endedAt)))
    .returning({ id: driverShifts.id });
  if (ended.length === 0) throw conflict(DELIVERY_MESSAGES.notOnShift);
  ctx.changed(session.clientId, 'delivery');
  return currentShift(ctx.db, session);
}

export { currentShift };

// ---------------------------------------------------------------------------------------------------
// Customer notice (WhatsApp, when switched on and the instance is connected; never blocks a move)

function noticeCustomer(
  ctx: AppContext,
  clientId: number,
  order: DeliveryOrder,
  what: 'sending' | 'success',
) {
  if (!order.customerPhone) return;
  const number = order.customerPhone;
  const text =
    what === 'sending'
      ? `Seu pedido nº ${order.saleNumber} saiu para entrega.${
          order.collectCents > 0 ? ` Valor a pagar na entrega: ${formatCents(order.collectCents)}.` : ''
        } Informe ao entregador o código de entrega: os 4 últimos dígitos do seu telefone.`
      : `Seu pedido nº ${order.saleNumber} foi entregue. Obrigado pela preferência!`;
  void (async () => {
    if (!(await getNotifyCustomer(ctx.db, clientId))) return;
    await sendShopMessage(ctx, clientId, { number, text });
  })().catch(() => null);
}
