import type { DeliveryStatus } from '@balcao/core/delivery';
import {
  CONFIRM_DEADLINE_MINUTES,
  MARKETPLACE_KIND_LABELS,
  MARKETPLACE_MESSAGES,
  MARKETPLACE_STATUS_SENDS,
  type MarketplaceAccount,
  type MarketplaceAccountData,
  type MarketplaceAccounts,
  type MarketplaceKind,
  type MarketplaceMappingInput,
  type MarketplaceOrder,
  type MarketplaceOrderStatus,
} from '@balcao/core/marketplace';
import { and, asc, desc, eq, inArray, isNull, lte, ne, or, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { clients, users } from '../../db/schema.ts';
import { AppError, conflict, duplicate, notFound, unprocessable } from '../../errors.ts';
import type { Actor } from '../../lib/actor.ts';
import { logRemoteError } from '../../lib/outbound.ts';
import { violatedUnique } from '../../lib/pg.ts';
import { secretBox } from '../../lib/secrets.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { hasOpenRegister } from '../cash-register/service.ts';
import { deliveryStatusesOfSales } from '../delivery/ofSales.ts';
import { cancelOrderOfSale, movedByMarketplaceCourier } from '../delivery/service.ts';
import { deliverSectorTickets } from '../printing/sectorTickets.ts';
import { priceItems } from '../product/pricing.ts';
import { cancelSale } from '../sale/cancel.ts';
import { findWorkingHoursStatus } from '../settings/workingHours.ts';
import {
  type MarketplaceAdapter,
  MarketplaceCallFailed,
  type MarketplaceEvent,
  MarketplaceRateLimited,
  marketplaceAdapter,
  type NormalizedOrder,
  type StatusSend,
} from './adapters.ts';
import { cancelKitchenOfOrder, queueKitchenOfOrders } from './kitchen.ts';
import { recordMarketplaceSale } from './sale.ts';
import {
  marketplaceAccounts,
  marketplaceItemMaps,
  marketplaceOrders,
  marketplaceStatusSends,
} from './schema.ts';

type AccountRow = typeof marketplaceAccounts.$inferSelect;
type OrderRow = typeof marketplaceOrders.$inferSelect;

const boxOf = (ctx: AppContext) => {
  if (!ctx.config.secretsKey) throw new AppError(503, 'O servidor não tem SECRETS_KEY configurada');
  return secretBox(ctx.config.secretsKey);
};

// ---------------------------------------------------------------------------------------------------
// Accounts

function toAccount(row: AccountRow, operatorName: string): MarketplaceAccount {
  return {
    id: row.id,
    kind: row.kind as MarketplaceKind,
    provider: row.provider,
    name: row.name,
    merchantId: row.merchantId,
    clientId: row.appClientId,
    hasSecret: row.clientSecret !== '',
    active: row.active,
    autoConfirm: row.autoConfirm,
    operator: { id: row.operatorId, name: operatorName },
    lastPolledAt: row.lastPolledAt?.toISOString() ?? null,
    lastError: row.lastError,
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function listAccounts(ctx: AppContext, actor: Actor): Promise<MarketplaceAccounts> {
  const rows = await ctx.db
    .select({ account: marketplaceAccounts, operatorName: users.name })
    .from(marketplaceAccounts)
    .innerJoin(users, eq(users.id, marketplaceAccounts.operatorId))
    .where(eq(marketplaceAccounts.clientId, actor.clientId))
    .orderBy(asc(marketplaceAccounts.id));
  return {
    accounts: rows.map((r) => toAccount(r.account, r.operatorName)),
    providers: Object.keys(ctx.config.marketplace.openDeliveryProviders),
  };
}

async function findAccount(ctx: AppContext, actor: Actor, id: number): Promise<MarketplaceAccount> {
  const found = (await listAccounts(ctx, actor)).accounts.find((a) => a.id === id);
  if (!found) throw notFound(MARKETPLACE_MESSAGES.accountNotFound);
  return found;
}

function checkProvider(ctx: AppContext, data: MarketplaceAccountData) {
  if (data.kind === 'ifood') return '';
  if (!ctx.config.marketplace.openDeliveryProviders[data.provider]) {
    const message = MARKETPLACE_MESSAGES.providerUnknown;
    throw unprocessable(message, [{ path: 'provider', message }]);
  }
  return data.provider;
}

const duplicateAccount = (error: unknown) => {
  if (violatedUnique(error) !== undefined) {
    const message = MARKETPLACE_MESSAGES.duplicateAccount;
    return duplicate(message, [{ path: 'merchantId', message }]);
  }
  return error;
};

export async function createAccount(ctx: AppContext, actor: Actor, data: MarketplaceAccountData) {
  const provider = checkProvider(ctx, data);
  if (!data.clientSecret.trim()) {
    const message = MARKETPLACE_MESSAGES.secretRequired;
    throw unprocessable(message, [{ path: 'clientSecret', message }]);
  }
  const [row] = await ctx.db
    .insert(marketplaceAccounts)
    .values({
      clientId: actor.clientId,
      kind: data.kind,
      provider,
      name: data.name,
      merchantId: data.merchantId,
      appClientId: data.clientId,
      clientSecret: boxOf(ctx).seal(data.clientSecret.trim()),
      active: data.active,
      autoConfirm: data.autoConfirm,
      operatorId: actor.userId,
    })
    .returning({ id: marketplaceAccounts.id })
    .catch((error) => {
      throw duplicateAccount(error);
    });
  return findAccount(ctx, actor, row.id);
}

export async function updateAccount(ctx: AppContext, actor: Actor, id: number, data: MarketplaceAccountData) {
  const provider = checkProvider(ctx, data);
  const [row] = await ctx.db
    .update(marketplaceAccounts)
    .set({
      kind: data.kind,
      provider,
      name: data.name,
      merchantId: data.merchantId,
      appClientId: data.clientId,
      ...(data.clientSecret.trim() ? { clientSecret: boxOf(ctx).seal(data.clientSecret.trim()) } : {}),
      active: data.active,
      autoConfirm: data.autoConfirm,
      operatorId: actor.userId,
      pausedUntil: null,
      updatedAt: new Date(),
    })
    .where(and(eq(marketplaceAccounts.clientId, actor.clientId), eq(marketplaceAccounts.id, id)))
    .returning({ id: marketplaceAccounts.id })
    .catch((error) => {
      throw duplicateAccount(error);
    });
  if (!row) throw notFound(MARKETPLACE_MESSAGES.accountNotFound);
  return findAccount(ctx, actor, id);
}

/** The adapter of an account (its secret opened here, never answered). */
export function adapterOfAccount(ctx: AppContext, row: AccountRow): MarketplaceAdapter {
  const baseUrl =
    row.kind === 'ifood'
      ? ctx.config.marketplace.ifoodUrl
      : (ctx.config.marketplace.openDeliveryProviders[row.provider] ?? '');
  return marketplaceAdapter(
    {
      accountId: row.id,
      kind: row.kind as MarketplaceKind,
      baseUrl,
      merchantId: row.merchantId,
      clientId: row.appClientId,
      clientSecret: boxOf(ctx).open<string>(row.clientSecret) ?? '',
    },
    ctx.config.marketplace.timeoutMs,
  );
}

const accountLabel = (row: Pick<AccountRow, 'kind' | 'name'>) =>
  row.name || MARKETPLACE_KIND_LABELS[row.kind as MarketplaceKind];

// ---------------------------------------------------------------------------------------------------
// Orders: the inbox

async function mapsOf(db: Executor, accountIds: number[]) {
  if (accountIds.length === 0) return new Map<string, { productId: number; name: string }>();
  const rows = await db
    .select({
      accountId: marketplaceItemMaps.accountId,
      externalCode: marketplaceItemMaps.externalCode,
      productId: marketplaceItemMaps.productId,
      productName: marketplaceItemMaps.productName,
    })
    .from(marketplaceItemMaps)
    .where(inArray(marketplaceItemMaps.accountId, accountIds));
  return new Map(
    rows.map((r) => [`${r.accountId}:${r.externalCode}`, { productId: r.productId, name: r.productName }]),
  );
}

function toOrder(
  row: OrderRow,
  account: Pick<AccountRow, 'kind' | 'name'>,
  maps: Map<string, { productId: number; name: string }>,
): MarketplaceOrder {
  const d = row.detail as NormalizedOrder;
  const a = d.address;
  return {
    id: row.id,
    accountId: row.accountId,
    marketplace: accountLabel(account),
    externalId: row.externalId,
    displayId: row.displayId,
    status: row.status as MarketplaceOrderStatus,
    type: d.type,
    customerName: d.customer.name,
    customerPhone: d.customer.phone,
    address: a
      ? `${a.street}, ${a.number}${a.complement ? ` - ${a.complement}` : ''} - ${a.neighborhood}, ${a.city}/${a.state}`
      : null,
    items: d.items.map((i) => {
      const m = maps.get(`${row.accountId}:${i.externalCode}`);
      return {
        index: i.index,
        externalCode: i.externalCode,
        name: i.name,
        quantity: i.quantity,
        unitPriceCents: i.unitPriceCents,
        totalCents: i.totalCents,
        notes: i.notes,
        product: m ? { id: m.productId, name: m.name } : null,
      };
    }),
    subtotalCents: d.subtotalCents,
    deliveryFeeCents: d.deliveryFeeCents,
    feesCents: d.feesCents,
    discountCents: d.discountCents,
    totalCents: d.totalCents,
    prepaidCents: d.prepaidCents,
    pendingCents: d.pendingCents,
    confirmDeadline: row.confirmDeadline.toISOString(),
    cancellationRequested: row.cancellationRequested,
    saleId: row.saleId,
    saleNumber: row.saleNumber,
    problem: row.problem,
    createdAt: row.createdAt.toISOString(),
  };
}

export async function listOrders(
  db: Executor,
  actor: Actor,
  view: 'open' | 'all',
): Promise<{ orders: MarketplaceOrder[] }> {
  const rows = await db
    .select({ order: marketplaceOrders, kind: marketplaceAccounts.kind, name: marketplaceAccounts.name })
    .from(marketplaceOrders)
    .innerJoin(marketplaceAccounts, eq(marketplaceAccounts.id, marketplaceOrders.accountId))
    .where(
      and(
        eq(marketplaceOrders.clientId, actor.clientId),
        view === 'open'
          ? or(
              inArray(marketplaceOrders.status, ['new', 'mapping']),
              eq(marketplaceOrders.cancellationRequested, true),
            )
          : undefined,
      ),
    )
    .orderBy(view === 'open' ? asc(marketplaceOrders.createdAt) : desc(marketplaceOrders.createdAt))
    .limit(100);
  const maps = await mapsOf(db, [...new Set(rows.map((r) => r.order.accountId))]);
  return { orders: rows.map((r) => toOrder(r.order, r, maps)) };
}

async function orderWithAccount(db: Executor, actor: Actor, id: number) {
  const [row] = await db
    .select({ order: marketplaceOrders, account: marketplaceAccounts })
    .from(marketplaceOrders)
    .innerJoin(marketplaceAccounts, eq(marketplaceAccounts.id, marketplaceOrders.accountId))
    .where(and(eq(marketplaceOrders.clientId, actor.clientId), eq(marketplaceOrders.id, id)));
  if (!row) throw notFound(MARKETPLACE_MESSAGES.orderNotFound);
  return row;
}

export async function findMarketplaceOrder(db: Executor, actor: Actor, id: number) {
  const { order, account } = await orderWithAccount(db, actor, id);
  return toOrder(order, account, await mapsOf(db, [account.id]));
}

/** The products of an order's items; null when one has no mapping yet. */
async function productsOfOrder(db: Executor, row: OrderRow): Promise<Map<string, number> | null> {
  const maps = await mapsOf(db, [row.accountId]);
  const out = new Map<string, number>();
  for (const item of (row.detail as NormalizedOrder).items) {
    const m = maps.get(`${row.accountId}:${item.externalCode}`);
    if (!m) return null;
    out.set(item.externalCode, m.productId);
  }
  return out;
}

/**
 * Confirms an order: its sale at `session`'s register (the sale seam, once per order) and its
 * delivery order or kitchen tickets; the "confirmed" status goes to the marketplace by the outbox.
 */
export async function confirmOrder(ctx: AppContext, session: SessionUser, id: number) {
  const { order, account } = await orderWithAccount(ctx.db, session, id);
  if (order.saleId !== null) throw conflict(MARKETPLACE_MESSAGES.alreadyConfirmed);
  if (order.status === 'canceled') throw conflict(MARKETPLACE_MESSAGES.notNew);
  const products = await productsOfOrder(ctx.db, order);
  if (!products) throw unprocessable(MARKETPLACE_MESSAGES.unmapped);
  await recordMarketplaceSale(ctx, session, account, order, products);
  await applyEarlyCourierEvent(ctx, id);
  ctx.changed(session.clientId, 'marketplace', id);
  return findMarketplaceOrder(ctx.db, session, id);
}

/** The shop refuses an unconfirmed order: a cancellation request to the marketplace. */
export async function rejectOrder(ctx: AppContext, actor: Actor, id: number) {
  const updated = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(marketplaceOrders)
      .set({ status: 'canceled', updatedAt: new Date() })
      .where(
        and(
          eq(marketplaceOrders.clientId, actor.clientId),
          eq(marketplaceOrders.id, id),
          inArray(marketplaceOrders.status, ['new', 'mapping']),
        ),
      )
      .returning({ id: marketplaceOrders.id });
    if (row)
      await tx
        .insert(marketplaceStatusSends)
        .values({ clientId: actor.clientId, orderId: id, status: 'canceled' })
        .onConflictDoNothing();
    return row;
  });
  if (!updated) {
    await orderWithAccount(ctx.db, actor, id);
    throw conflict(MARKETPLACE_MESSAGES.notNew);
  }
  // Its tickets written with it (an automatic confirmation that could not record the sale).
  await cancelKitchenOfOrder(ctx, actor, { id, saleId: null });
  ctx.changed(actor.clientId, 'marketplace', id);
  return findMarketplaceOrder(ctx.db, actor, id);
}

/** The customer's cancellation request answered: accepted (the order and its sale canceled) or denied. */
export async function answerCancellation(ctx: AppContext, session: SessionUser, id: number, accept: boolean) {
  const { order } = await orderWithAccount(ctx.db, session, id);
  if (!order.cancellationRequested) throw conflict(MARKETPLACE_MESSAGES.noCancellationRequest);
  await ctx.db.transaction(async (tx) => {
    await tx
      .update(marketplaceOrders)
      .set({
        cancellationRequested: false,
        ...(accept ? { status: 'canceled' } : {}),
        updatedAt: new Date(),
      })
      .where(eq(marketplaceOrders.id, id));
    await tx
      .insert(marketplaceStatusSends)
      .values({
        clientId: session.clientId,
        orderId: id,
        status: accept ? 'acceptCancellation' : 'denyCancellation',
      })
      .onConflictDoNothing();
  });
  if (accept && order.saleId !== null)
    await cancelSaleOf(ctx, session, order.saleId, 'Cancelamento pedido pelo cliente');
  if (accept) await cancelKitchenOfOrder(ctx, session, { id, saleId: order.saleId });
  ctx.changed(session.clientId, 'marketplace', id);
  return findMarketplaceOrder(ctx.db, session, id);
}

async function cancelSaleOf(ctx: AppContext, session: SessionUser, saleId: number, reason: string) {
  await cancelSale(ctx, session, saleId, { reason }, cancelOrderOfSale(ctx, 'Marketplace: ')).catch(
    (error) => {
      // Already canceled on the panel: nothing more to do.
      if (!(error instanceof AppError && error.statusCode === 409)) throw error;
    },
  );
}

// ---------------------------------------------------------------------------------------------------
// Mapping

export async function listMappings(db: Executor, actor: Actor) {
  const rows = await db
    .select()
    .from(marketplaceItemMaps)
    .where(eq(marketplaceItemMaps.clientId, actor.clientId))
    .orderBy(asc(marketplaceItemMaps.name));
  return {
    mappings: rows.map((r) => ({
      accountId: r.accountId,
      externalCode: r.externalCode,
      name: r.name,
      product: { id: r.productId, name: r.productName },
    })),
  };
}

/** Maps an item's code to a product (remembered); orders waiting for it become confirmable. */
export async function mapItem(ctx: AppContext, actor: Actor, input: MarketplaceMappingInput) {
  const [account] = await ctx.db
    .select({ id: marketplaceAccounts.id })
    .from(marketplaceAccounts)
    .where(
      and(eq(marketplaceAccounts.clientId, actor.clientId), eq(marketplaceAccounts.id, input.accountId)),
    );
  if (!account) throw notFound(MARKETPLACE_MESSAGES.accountNotFound);
  // A product whose add-ons are required maps too (a lanche asks "Ponto da carne"): the marketplace's
  // customer chose in the marketplace's own options (the item's notes).
  const [priced] = await priceItems(
    ctx.db,
    actor.clientId,
    [{ productId: input.productId, variantId: null, quantity: 1, additionals: [] }],
    { requiredChoices: false },
  ).catch(() => {
    const message = MARKETPLACE_MESSAGES.productNotFound;
    throw unprocessable(message, [{ path: 'productId', message }]);
  });
  // The item's marketplace name, from a waiting order that has it.
  const waiting = await ctx.db
    .select()
    .from(marketplaceOrders)
    .where(
      and(
        eq(marketplaceOrders.accountId, input.accountId),
        inArray(marketplaceOrders.status, ['new', 'mapping']),
      ),
    );
  const name =
    waiting
      .flatMap((o) => (o.detail as NormalizedOrder).items)
      .find((i) => i.externalCode === input.externalCode)?.name ?? input.externalCode;
  const values = {
    clientId: actor.clientId,
    accountId: input.accountId,
    externalCode: input.externalCode,
    name,
    productId: input.productId,
    productName: priced.description,
    updatedAt: new Date(),
  };
  await ctx.db
    .insert(marketplaceItemMaps)
    .values(values)
    .onConflictDoUpdate({
      target: [marketplaceItemMaps.accountId, marketplaceItemMaps.externalCode],
      set: { productId: values.productId, productName: values.productName, updatedAt: values.updatedAt },
    });
  for (const order of waiting.filter((o) => o.status === 'mapping')) {
    if (await productsOfOrder(ctx.db, order))
      await ctx.db
        .update(marketplaceOrders)
        .set({ status: 'new', updatedAt: new Date() })
        .where(and(eq(marketplaceOrders.id, order.id), eq(marketplaceOrders.status, 'mapping')));
  }
  ctx.changed(actor.clientId, 'marketplace');
  return {
    accountId: input.accountId,
    externalCode: input.externalCode,
    name,
    product: { id: input.productId, name: priced.description },
  };
}

// ---------------------------------------------------------------------------------------------------
// Polling (the 'marketplace-polling' job, every 30 s: iFood's rule)

/** The operator's session for the sales of an account (no request: the account's saved user). */
async function operatorSession(db: Executor, row: AccountRow): Promise<SessionUser & { name: string }> {
  const [u] = await db
    .select({ userTypeId: users.userTypeId, name: users.name, saleCommand: clients.saleCommand })
    .from(users)
    .innerJoin(clients, eq(clients.id, users.clientId))
    .where(eq(users.id, row.operatorId));
  return {
    sessionId: 0,
    userId: row.operatorId,
    clientId: row.clientId,
    userTypeId: u.userTypeId as SessionUser['userTypeId'],
    saleCommand: u.saleCommand,
    name: u.name,
  };
}

type AutoConfirmBatch = {
  session: SessionUser & { name: string };
  maps: Awaited<ReturnType<typeof mapsOf>>;
};

/** Automatic confirmation: only while the shop is open (null: closed, every order waits). */
async function autoConfirmBatch(
  ctx: AppContext,
  account: AccountRow,
  maps: Awaited<ReturnType<typeof mapsOf>>,
): Promise<AutoConfirmBatch | null> {
  const session = await operatorSession(ctx.db, account);
  const hours = await findWorkingHoursStatus(ctx.db, session);
  if (hours.enabled && !hours.open) return null;
  return { session, maps };
}

/** Automatic confirmation of one order: every item mapped, else it waits (and says why on a failure). */
async function tryAutoConfirm(
  ctx: AppContext,
  account: AccountRow,
  order: OrderRow,
  batch: AutoConfirmBatch,
) {
  const { session, maps } = batch;
  const products = new Map<string, number>();
  for (const item of (order.detail as NormalizedOrder).items) {
    const m = maps.get(`${order.accountId}:${item.externalCode}`);
    if (!m) return;
    products.set(item.externalCode, m.productId);
  }
  try {
    await recordMarketplaceSale(ctx, session, account, order, products);
    await applyEarlyCourierEvent(ctx, order.id);
  } catch (error) {
    const problem =
      error instanceof AppError && error.code === 'register_closed'
        ? MARKETPLACE_MESSAGES.noRegister(session.name)
        : error instanceof AppError
          ? error.message
          : 'Não foi possível confirmar automaticamente';
    if (!(error instanceof AppError)) console.error('marketplace auto-confirm', error);
    await ctx.db.update(marketplaceOrders).set({ problem }).where(eq(marketplaceOrders.id, order.id));
  }
}

/** How many order details are read at once from the marketplace in a polling. */
const DETAIL_READS_AT_ONCE = 8;

type DetailRead = { detail: NormalizedOrder } | { error: unknown };

/** How many orders a polling stores in one transaction (with their kitchen tickets). */
const STORE_AT_ONCE = 50;

/**
 * The details of `ids`, DETAIL_READS_AT_ONCE calls at a time; each id's answer (or its error) as a
 * promise, so the caller stores them in order while the next are being read, and the answers already
 * in (`settled`). After a 429 no further call is made (the rest answer the same error).
 */
function readDetails(
  adapter: MarketplaceAdapter,
  ids: string[],
): { answers: Map<string, Promise<DetailRead>>; settled: Map<string, DetailRead> } {
  const answers = new Map<string, Promise<DetailRead>>();
  const settled = new Map<string, DetailRead>();
  let limited: unknown = null;
  let next = 0;
  const resolvers = new Map<string, (r: DetailRead) => void>();
  for (const id of ids)
    answers.set(
      id,
      new Promise((resolve) =>
        resolvers.set(id, (r) => {
          settled.set(id, r);
          resolve(r);
        }),
      ),
    );
  const worker = async () => {
    while (next < ids.length) {
      const id = ids[next++];
      const resolve = resolvers.get(id) as (r: DetailRead) => void;
      if (limited) {
        resolve({ error: limited });
        continue;
      }
      try {
        resolve({ detail: await adapter.order(id) });
      } catch (error) {
        if (error instanceof MarketplaceRateLimited) limited = error;
        resolve({ error });
      }
    }
  };
  for (let i = 0; i < Math.min(DETAIL_READS_AT_ONCE, ids.length); i++) void worker();
  return { answers, settled };
}

export type PollResult = { events: number; stored: number; acknowledged: number; rateLimited?: boolean };

/**
 * One polling of an account: every order an event names is stored ONCE (unique per account and
 * order id) before any of its events is acknowledged; an order whose details could not be read keeps
 * its events unacknowledged (they come back next time). Repeated events in a batch count once; events
 * are applied in their time order (a cancel read before its order's placement still cancels it).
 */
export async function pollAccount(ctx: AppContext, account: AccountRow): Promise<PollResult> {
  const adapter = adapterOfAccount(ctx, account);
  const label = accountLabel(account);

  let received: MarketplaceEvent[];
  try {
    received = await adapter.poll();
  } catch (error) {
    await pausedOrFailed(ctx.db, account, error);
    return { events: 0, stored: 0, acknowledged: 0, rateLimited: error instanceof MarketplaceRateLimited };
  }
  const seen = new Set<string>();
  const events = received
    .filter((e) => !seen.has(e.id) && seen.add(e.id))
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  const orderIds = [...new Set(events.map((e) => e.orderId))];
  const stored = new Map<string, OrderRow>();
  if (orderIds.length > 0)
    for (const row of await ctx.db
      .select()
      .from(marketplaceOrders)
      .where(
        and(eq(marketplaceOrders.accountId, account.id), inArray(marketplaceOrders.externalId, orderIds)),
      ))
      stored.set(row.externalId, row);
  const created: OrderRow[] = [];
  const fresh = orderIds.filter((id) => !stored.has(id));
  // The account's mappings and, for the automatic confirmations, the operator, the shop's hours and
  // the operator's register: read once for the batch.
  const maps = fresh.length > 0 ? await mapsOf(ctx.db, [account.id]) : new Map<string, never>();
  const auto = account.autoConfirm && fresh.length > 0 ? await autoConfirmBatch(ctx, account, maps) : null;
  // An order confirmed automatically goes to the kitchen WITH its storing, before its sale (issue 35:
  // a burst's last card no longer waits for every sale before it); only when its sale can follow
  // (the shop open, the operator's register open).
  const kitchen = auto && (await hasOpenRegister(ctx.db, auto.session)) ? auto : null;
  // The new orders' details read a few at a time (a burst of 200 orders is 200 calls), stored in
  // order as they come: the next one and every following one already read, in one transaction.
  const details = readDetails(adapter, fresh);
  let limited = false;
  for (let next = 0; next < fresh.length && !limited; ) {
    await details.answers.get(fresh[next]);
    const values: (typeof marketplaceOrders.$inferInsert)[] = [];
    for (; next < fresh.length && values.length < STORE_AT_ONCE; next++) {
      const orderId = fresh[next];
      const read = details.settled.get(orderId);
      if (!read) break;
      if (!('detail' in read)) {
        if (read.error instanceof MarketplaceRateLimited) {
          await pausedOrFailed(ctx.db, account, read.error);
          limited = true;
          break;
        }
        continue;
      }
      const detail = read.detail;
      const canceled = detail.canceled || events.some((e) => e.orderId === orderId && e.kind === 'canceled');
      const placedAt = Number.isNaN(Date.parse(detail.createdAt)) ? new Date() : new Date(detail.createdAt);
      const unmapped = detail.items.some((i) => !maps.has(`${account.id}:${i.externalCode}`));
      values.push({
        clientId: account.clientId,
        accountId: account.id,
        externalId: orderId,
        displayId: detail.displayId || orderId.slice(0, 8),
        status: canceled ? 'canceled' : unmapped ? 'mapping' : 'new',
        detail,
        confirmDeadline: new Date(placedAt.getTime() + CONFIRM_DEADLINE_MINUTES * 60_000),
      });
    }
    if (values.length === 0) continue;
    const { rows, tickets } = await ctx.db.transaction(async (tx) => {
      const rows = await tx.insert(marketplaceOrders).values(values).onConflictDoNothing().returning();
      const tickets = kitchen
        ? await queueKitchenOfOrders(
            tx,
            kitchen.session,
            account,
            rows.filter((r) => r.status === 'new'),
            maps,
          )
        : null;
      return { rows, tickets };
    });
    // The kitchen displays first: their cards before anything else of the polling.
    if (tickets) deliverSectorTickets(ctx, account.clientId, tickets, { signalFirst: true });
    for (const row of rows) {
      stored.set(row.externalId, row);
      if (row.status !== 'canceled') created.push(row);
    }
    // Stored by another polling at the same time: read as it is.
    const raced = values.flatMap((v) => (stored.has(v.externalId) ? [] : [v.externalId]));
    if (raced.length > 0)
      for (const again of await ctx.db
        .select()
        .from(marketplaceOrders)
        .where(
          and(eq(marketplaceOrders.accountId, account.id), inArray(marketplaceOrders.externalId, raced)),
        ))
        stored.set(again.externalId, again);
  }
  const acknowledged: MarketplaceEvent[] = [];
  for (const event of events) {
    const row = stored.get(event.orderId);
    if (!row) continue;
    if (event.kind === 'canceled') await canceledByMarketplace(ctx, account, row);
    if (event.kind === 'dispatched' || event.kind === 'concluded')
      await movedByMarketplace(ctx, row, event.kind);
    if (event.kind === 'cancellationRequested' && row.status !== 'canceled') {
      await ctx.db
        .update(marketplaceOrders)
        .set({ cancellationRequested: true, updatedAt: new Date() })
        .where(eq(marketplaceOrders.id, row.id));
      ctx.notify(account.clientId, {
        message: MARKETPLACE_MESSAGES.cancellationRequested(label, row.displayId),
        alertColor: 'warning',
      });
    }
    acknowledged.push(event);
  }
  // Acknowledged only now: what each event carries is stored.
  let ackFailed: unknown = null;
  if (acknowledged.length > 0) await adapter.ack(acknowledged).catch((error) => (ackFailed = error));
  await ctx.db
    .update(marketplaceAccounts)
    .set({
      lastPolledAt: new Date(),
      lastError: ackFailed ? failureText(account, 'ack', ackFailed) : null,
    })
    .where(eq(marketplaceAccounts.id, account.id));
  for (const row of created)
    ctx.notify(account.clientId, {
      message: MARKETPLACE_MESSAGES.newOrder(label, row.displayId),
      alertColor: 'info',
    });
  // The sales last (their tickets are on the kitchen displays already when the register was open).
  if (auto)
    for (const row of created) if (row.status === 'new') await tryAutoConfirm(ctx, account, row, auto);
  if (created.length > 0 || acknowledged.length > 0) ctx.changed(account.clientId, 'marketplace');
  return { events: events.length, stored: created.length, acknowledged: acknowledged.length };
}

async function pausedOrFailed(db: Executor, account: AccountRow, error: unknown) {
  const rateLimited = error instanceof MarketplaceRateLimited;
  await db
    .update(marketplaceAccounts)
    .set({
      pausedUntil: rateLimited ? new Date(Date.now() + error.retryAfterMs) : null,
      lastError: rateLimited
        ? 'O marketplace pediu uma pausa (limite de chamadas): nova tentativa em seguida'
        : failureText(account, 'poll', error),
    })
    .where(eq(marketplaceAccounts.id, account.id));
}

/**
 * A failed call in the shop's words: the marketplace's own answer (its text, an HTML error page, a
 * stack) is logged for the operator and never shown (issue 31 item 1).
 */
function failureText(account: { id: number; kind: string }, step: string, error: unknown): string {
  const raw = String((error as Error)?.message ?? error);
  logRemoteError(account.kind, { account: account.id, step, error: raw.slice(0, 500) });
  if (error instanceof MarketplaceCallFailed) {
    if (error.status === 401 || error.status === 403)
      return MARKETPLACE_MESSAGES.credentialsRefused(error.status);
    if (error.status >= 500) return MARKETPLACE_MESSAGES.remoteUnavailable(error.status);
    return MARKETPLACE_MESSAGES.remoteRefused(error.status);
  }
  return MARKETPLACE_MESSAGES.noAnswer;
}

async function canceledByMarketplace(ctx: AppContext, account: AccountRow, row: OrderRow) {
  const [changed] = await ctx.db
    .update(marketplaceOrders)
    .set({ status: 'canceled', cancellationRequested: false, updatedAt: new Date() })
    .where(and(eq(marketplaceOrders.id, row.id), ne(marketplaceOrders.status, 'canceled')))
    .returning({ saleId: marketplaceOrders.saleId });
  if (!changed) return;
  // Told by the marketplace: never sent back to it.
  await ctx.db
    .insert(marketplaceStatusSends)
    .values({
      clientId: row.clientId,
      orderId: row.id,
      status: 'canceled',
      sentAt: new Date(),
      skipped: true,
    })
    .onConflictDoNothing();
  const session = await operatorSession(ctx.db, account);
  if (changed.saleId !== null) await cancelSaleOf(ctx, session, changed.saleId, 'Cancelado pelo marketplace');
  // Its tickets already in the kitchen (written with the order or by its sale): canceled there too.
  await cancelKitchenOfOrder(ctx, session, { id: row.id, saleId: changed.saleId });
  ctx.notify(account.clientId, {
    message: MARKETPLACE_MESSAGES.canceledByMarketplace(accountLabel(account), row.displayId),
    alertColor: 'warning',
  });
}

/**
 * The marketplace's courier collected (DISPATCHED) or delivered (CONCLUDED) an order it delivers
 * itself (issue 35): its delivery order on the panel moves to "sending" / "success". The statuses up
 * to that point are the marketplace's own news: marked told (skipped), never sent back to it, and an
 * unsent earlier one (a "ready" still being retried) is dropped, as the order is past it. An order the
 * shop's drivers deliver is untouched (the DSP its own dispatch call causes comes back too).
 */
async function movedByMarketplace(ctx: AppContext, row: OrderRow, kind: CourierEvent) {
  const [current] = await ctx.db
    .select({ saleId: marketplaceOrders.saleId, status: marketplaceOrders.status })
    .from(marketplaceOrders)
    .where(eq(marketplaceOrders.id, row.id));
  if (!current || current.status === 'canceled') return;
  if (current.saleId === null || current.status !== 'confirmed') {
    // Not confirmed in Balcão yet (out of order, or waiting for the shop): kept, applied at
    // confirmation. A later step never goes back (a DSP read after the CON keeps "concluded").
    await ctx.db
      .update(marketplaceOrders)
      .set({ courierEvent: kind })
      .where(
        and(
          eq(marketplaceOrders.id, row.id),
          kind === 'dispatched' ? isNull(marketplaceOrders.courierEvent) : undefined,
        ),
      );
    return;
  }
  const moved = await movedByMarketplaceCourier(
    ctx,
    row.clientId,
    current.saleId,
    kind === 'dispatched' ? 'sending' : 'success',
  );
  if (!moved) return;
  const told: StatusSend[] =
    kind === 'dispatched'
      ? ['preparing', 'ready', 'dispatched']
      : ['preparing', 'ready', 'dispatched', 'delivered'];
  await ctx.db
    .insert(marketplaceStatusSends)
    .values(
      told.map((status) => ({
        clientId: row.clientId,
        orderId: row.id,
        status,
        sentAt: new Date(),
        skipped: true,
      })),
    )
    .onConflictDoNothing();
  await ctx.db
    .update(marketplaceStatusSends)
    .set({ sentAt: new Date(), skipped: true })
    .where(
      and(
        eq(marketplaceStatusSends.orderId, row.id),
        inArray(marketplaceStatusSends.status, told),
        isNull(marketplaceStatusSends.sentAt),
      ),
    );
  ctx.changed(row.clientId, 'marketplace', row.id);
}

type CourierEvent = 'dispatched' | 'concluded';

/**
 * An order just confirmed: the courier news the marketplace sent before (kept on the order) moves its
 * delivery order now, once (the field is cleared by the same statement that reads it).
 */
async function applyEarlyCourierEvent(ctx: AppContext, id: number) {
  const [row] = await ctx.db.select().from(marketplaceOrders).where(eq(marketplaceOrders.id, id));
  const kind = row?.courierEvent as CourierEvent | null | undefined;
  if (!row || !kind) return;
  const [taken] = await ctx.db
    .update(marketplaceOrders)
    .set({ courierEvent: null })
    .where(and(eq(marketplaceOrders.id, id), eq(marketplaceOrders.courierEvent, kind)))
    .returning({ id: marketplaceOrders.id });
  if (taken) await movedByMarketplace(ctx, row, kind);
}

/** Every active account not paused by a 429: one polling each. */
export async function pollMarketplaces(ctx: AppContext): Promise<{ accounts: number; stored: number }> {
  const accounts = await ctx.db
    .select()
    .from(marketplaceAccounts)
    .where(
      and(
        eq(marketplaceAccounts.active, true),
        or(isNull(marketplaceAccounts.pausedUntil), lte(marketplaceAccounts.pausedUntil, sql`now()`)),
      ),
    );
  let stored = 0;
  for (const account of accounts) stored += (await pollAccount(ctx, account)).stored;
  return { accounts: accounts.length, stored };
}

// ---------------------------------------------------------------------------------------------------
// Statuses back to the marketplace (the 'marketplace-status' job)

const RANK: Record<string, number> = Object.fromEntries(
  [...MARKETPLACE_STATUS_SENDS, 'acceptCancellation', 'denyCancellation'].map((s, i) => [s, i]),
);

/** What the panel's status means for the marketplace, every step up to it (each sent once). */
function impliedSends(status: DeliveryStatus): StatusSend[] {
  switch (status) {
    case 'waiting':
      return ['preparing'];
    case 'available':
    case 'accepted':
      return ['preparing', 'ready'];
    case 'sending':
    case 'failed':
      return ['preparing', 'ready', 'dispatched'];
    case 'success':
      return ['preparing', 'ready', 'dispatched', 'delivered'];
    case 'canceled':
      return ['canceled'];
    default:
      return [];
  }
}

/** Queues the statuses the delivery panel reached for confirmed orders (the last two days'). */
async function queueStatusesFromPanel(db: Executor) {
  const open = await db
    .select({
      id: marketplaceOrders.id,
      clientId: marketplaceOrders.clientId,
      saleId: marketplaceOrders.saleId,
    })
    .from(marketplaceOrders)
    .where(
      and(
        eq(marketplaceOrders.status, 'confirmed'),
        sql`${marketplaceOrders.updatedAt} > now() - interval '2 days'`,
      ),
    );
  if (open.length === 0) return;
  const statuses = await deliveryStatusesOfSales(
    db,
    [...new Set(open.map((o) => o.clientId))],
    open.flatMap((o) => (o.saleId === null ? [] : [o.saleId])),
  );
  const rows = open.flatMap((o) => {
    const status = o.saleId === null ? undefined : statuses.get(o.saleId);
    return status
      ? impliedSends(status).map((s) => ({ clientId: o.clientId, orderId: o.id, status: s }))
      : [];
  });
  for (let i = 0; i < rows.length; i += 500)
    await db
      .insert(marketplaceStatusSends)
      .values(rows.slice(i, i + 500))
      .onConflictDoNothing();
}

/**
 * Sends the due statuses, per order in their natural order (a status waits for the ones before it);
 * a refused call is retried with a growing pause (5 s, 10 s... up to 5 min) until accepted.
 */
export async function sendMarketplaceStatuses(ctx: AppContext): Promise<{ sent: number; failed: number }> {
  await queueStatusesFromPanel(ctx.db);
  // Every unsent status (not only the due ones): a status never overtakes an earlier one of its order.
  const unsent = await ctx.db
    .select({
      send: marketplaceStatusSends,
      externalId: marketplaceOrders.externalId,
      account: marketplaceAccounts,
    })
    .from(marketplaceStatusSends)
    .innerJoin(marketplaceOrders, eq(marketplaceOrders.id, marketplaceStatusSends.orderId))
    .innerJoin(marketplaceAccounts, eq(marketplaceAccounts.id, marketplaceOrders.accountId))
    .where(
      and(
        isNull(marketplaceStatusSends.sentAt),
        or(isNull(marketplaceAccounts.pausedUntil), lte(marketplaceAccounts.pausedUntil, sql`now()`)),
      ),
    )
    .orderBy(asc(marketplaceStatusSends.nextAt))
    .limit(500);
  const byOrder = new Map<number, typeof unsent>();
  for (const row of unsent) byOrder.set(row.send.orderId, [...(byOrder.get(row.send.orderId) ?? []), row]);
  let sent = 0;
  let failed = 0;
  const paused = new Set<number>();
  const now = Date.now();
  for (const rows of byOrder.values()) {
    rows.sort((a, b) => RANK[a.send.status] - RANK[b.send.status]);
    for (const { send, externalId, account } of rows) {
      if (paused.has(account.id) || send.nextAt.getTime() > now) break;
      try {
        const outcome = await adapterOfAccount(ctx, account).send(externalId, send.status as StatusSend);
        await ctx.db
          .update(marketplaceStatusSends)
          .set({
            sentAt: new Date(),
            skipped: outcome === 'unsupported',
            attempts: send.attempts + 1,
            lastError: null,
          })
          .where(eq(marketplaceStatusSends.id, send.id));
        sent++;
      } catch (error) {
        failed++;
        if (error instanceof MarketplaceRateLimited) {
          paused.add(account.id);
          await pausedOrFailed(ctx.db, account, error);
        }
        const waitMs = Math.min(5 * 60_000, 5_000 * 2 ** send.attempts);
        await ctx.db
          .update(marketplaceStatusSends)
          .set({
            attempts: send.attempts + 1,
            nextAt: new Date(Date.now() + waitMs),
            lastError: failureText(account, `send ${send.status}`, error),
          })
          .where(eq(marketplaceStatusSends.id, send.id));
        break;
      }
    }
  }
  return { sent, failed };
}
