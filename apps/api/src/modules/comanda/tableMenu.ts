import type { ComandaLineData } from '@balcao/core/comanda';
import { can, WRITE } from '@balcao/core/routes';
import { TABLE_MENU_MESSAGES, type TableMenu, type TableOrder } from '@balcao/core/tableMenu';
import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { clients, users } from '../../db/schema.ts';
import { conflict, forbidden, notFound, unprocessable } from '../../errors.ts';
import { hashToken, newToken, secretBox } from '../../lib/secrets.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { takeAttempt } from '../auth/limiter.ts';
import { priceItems } from '../product/pricing.ts';
import { tableMenuOffers, tableMenuProducts } from '../product/tableMenu.ts';
import { tableOrdersDirect } from '../settings/system.ts';
import { findWorkingHoursStatus } from '../settings/workingHours.ts';
import { sendToProduction } from './production.ts';
import { comandas, comandaTableOrders, comandaTableQrs } from './schema.ts';
import { addLine, openComanda } from './service.ts';

/**
 * The QR-code menu at the table (issue 35). A table's QR holds a random token (192 bits) of which only
 * the SHA-256 is stored; a new QR for the table revokes the old. The customer's order waits as a table
 * order until a waiter approves it: then its lines are added to the table's open tab (opened if none)
 * with keys derived from the order and sent to production with one more, so an approval retried or
 * doubled adds and sends each line once.
 */

/** Menu reads per address (a customer browses a handful of times). */
const READ_LIMIT = { max: 120, windowMs: 10 * 60_000 };
/** Orders and calls: per table and per address. */
const TABLE_LIMIT = { max: 10, windowMs: 10 * 60_000 };
const ADDRESS_LIMIT = { max: 20, windowMs: 10 * 60_000 };

type OrderRow = typeof comandaTableOrders.$inferSelect;

const toOrder = (row: OrderRow): TableOrder => ({
  id: row.id,
  tableLabel: row.tableLabel,
  status: row.status as TableOrder['status'],
  lines: row.lines.map((l) => ({
    description: l.description,
    quantity: l.quantity,
    additionals: l.additionalNames ?? [],
    notes: l.notes,
  })),
  comandaId: row.comandaId,
  createdAt: row.createdAt.toISOString(),
});

/** The secrets box of the QRs' sealed tokens (none without a key: cards then print new QRs). */
const boxOf = (ctx: AppContext) => (ctx.config.secretsKey ? secretBox(ctx.config.secretsKey) : null);

/** The transaction lock of one table's QR (its issue and a card's "the live one or a new one"). */
const QR_LOCK = 16035;
const lockTableQr = (tx: Executor, clientId: number, tableLabel: string) =>
  tx.execute(sql`select pg_advisory_xact_lock(${QR_LOCK}, hashtext(${`${clientId}:${tableLabel}`}))`);

/** The live QR's sealed token of a table (the newest), or null. */
async function liveSealedToken(db: Executor, clientId: number, tableLabel: string) {
  const [live] = await db
    .select({ tokenSealed: comandaTableQrs.tokenSealed })
    .from(comandaTableQrs)
    .where(
      and(
        eq(comandaTableQrs.clientId, clientId),
        eq(comandaTableQrs.tableLabel, tableLabel),
        isNull(comandaTableQrs.revokedAt),
      ),
    )
    .orderBy(desc(comandaTableQrs.id))
    .limit(1);
  return live?.tokenSealed ?? null;
}

/**
 * A new QR for the table (the previous one revoked), under the table's lock. `reuse` (a card's first
 * print): a live QR the lock waited for (another print at the same instant) is answered instead, so
 * two first prints issue ONE QR.
 */
async function newTableQr(
  ctx: AppContext,
  session: SessionUser,
  tableLabel: string,
  reuse?: (sealed: string) => string | null,
): Promise<string> {
  return ctx.db.transaction(async (tx) => {
    await lockTableQr(tx, session.clientId, tableLabel);
    if (reuse) {
      const sealed = await liveSealedToken(tx, session.clientId, tableLabel);
      const token = sealed ? reuse(sealed) : null;
      if (token) return token;
    }
    const { token, hash } = newToken();
    await tx
      .update(comandaTableQrs)
      .set({ revokedAt: new Date() })
      .where(
        and(
          eq(comandaTableQrs.clientId, session.clientId),
          eq(comandaTableQrs.tableLabel, tableLabel),
          isNull(comandaTableQrs.revokedAt),
        ),
      );
    await tx.insert(comandaTableQrs).values({
      clientId: session.clientId,
      tableLabel,
      tokenHash: hash,
      tokenSealed: boxOf(ctx)?.seal(token) ?? null,
      createdBy: session.userId,
    });
    return token;
  });
}

/** POST /v1/comanda/table-qr: a new QR for the table; the table's previous one stops working. */
export async function issueTableQr(ctx: AppContext, session: SessionUser, tableLabel: string) {
  const token = await newTableQr(ctx, session, tableLabel);
  return { tableLabel, token, path: `/mesa/${token}` };
}

/**
 * The cards of GET /v1/comanda/table-qr/pdf: each table's live QR (its sealed token), or a new one for
 * a table without a reprintable QR (only for who may issue QRs, WRITE.settings: any other gets 403);
 * the same tables print the same QRs again. Links from PUBLIC_URL.
 */
export async function tableQrCards(
  ctx: AppContext,
  session: SessionUser,
  tableLabels: readonly string[],
): Promise<{ shop: string; cards: { tableLabel: string; url: string }[] }> {
  const box = boxOf(ctx);
  const live = await ctx.db
    .select({ tableLabel: comandaTableQrs.tableLabel, tokenSealed: comandaTableQrs.tokenSealed })
    .from(comandaTableQrs)
    .where(
      and(
        eq(comandaTableQrs.clientId, session.clientId),
        inArray(comandaTableQrs.tableLabel, [...tableLabels]),
        isNull(comandaTableQrs.revokedAt),
      ),
    )
    .orderBy(asc(comandaTableQrs.id));
  const sealedOf = new Map(live.flatMap((q) => (q.tokenSealed ? [[q.tableLabel, q.tokenSealed]] : [])));
  const opened = (sealed: string | undefined) => {
    try {
      return sealed && box ? box.open<string>(sealed) : null;
    } catch {
      return null; // sealed with another key: a new QR below
    }
  };
  const cards: { tableLabel: string; url: string }[] = [];
  for (const tableLabel of tableLabels) {
    let token = opened(sealedOf.get(tableLabel));
    if (!token && !can(session.userTypeId, WRITE.settings))
      throw forbidden(TABLE_MENU_MESSAGES.noQrYet(tableLabel));
    // A first print: under the table's lock, the QR another print issued meanwhile, or a new one.
    token ??= await newTableQr(ctx, session, tableLabel, opened);
    cards.push({ tableLabel, url: `${ctx.config.publicUrl}/mesa/${token}` });
  }
  const [shop] = await ctx.db
    .select({ name: clients.name })
    .from(clients)
    .where(eq(clients.id, session.clientId));
  return { shop: shop?.name ?? '', cards };
}

/** The live QR of a token (404 with the "não é mais válido" text), after the address's limit. */
async function qrOf(ctx: AppContext, token: string, address: string, limits = [READ_LIMIT]) {
  if (limits.length > 0) {
    await takeAttempt(
      ctx.db,
      limits.map((l) => ({ key: `table-menu:${address}`, ...l })),
      TABLE_MENU_MESSAGES.tooMany,
    );
  }
  const [qr] = await ctx.db
    .select()
    .from(comandaTableQrs)
    .where(and(eq(comandaTableQrs.tokenHash, hashToken(token)), isNull(comandaTableQrs.revokedAt)));
  if (!qr) throw notFound(TABLE_MENU_MESSAGES.notFound);
  return qr;
}

type QrRow = typeof comandaTableQrs.$inferSelect;

/**
 * Why the table takes no order now, or null: the shop has comandas off (saleCommand: nobody could
 * approve it, the board answers 403), or it is outside its opening hours or paused.
 */
async function closedMessageOf(ctx: AppContext, qr: QrRow): Promise<string | null> {
  const [shop] = await ctx.db
    .select({ saleCommand: clients.saleCommand })
    .from(clients)
    .where(eq(clients.id, qr.clientId));
  if (!shop?.saleCommand) return TABLE_MENU_MESSAGES.noComandas;
  const hours = await findWorkingHoursStatus(ctx.db, { clientId: qr.clientId, userId: qr.createdBy });
  return !hours.enabled || (hours.open && !hours.paused) ? null : TABLE_MENU_MESSAGES.closed;
}

/** GET /v1/public/table/:token */
export async function tableMenu(ctx: AppContext, token: string, address: string): Promise<TableMenu> {
  const qr = await qrOf(ctx, token, address);
  const [shop] = await ctx.db.select({ name: clients.name }).from(clients).where(eq(clients.id, qr.clientId));
  const closedMessage = await closedMessageOf(ctx, qr);
  const hours = await findWorkingHoursStatus(ctx.db, { clientId: qr.clientId, userId: qr.createdBy });
  return {
    shop: shop?.name ?? '',
    tableLabel: qr.tableLabel,
    open: closedMessage === null,
    closedMessage,
    hours: hours.enabled
      ? {
          open: hours.open && !hours.paused,
          nextChange: hours.nextChange,
          timeZone: hours.timeZone,
        }
      : null,
    products: await tableMenuProducts(ctx.db, qr.clientId),
  };
}

/** The staff member acting for the shop when a table order is accepted directly: who issued the QR. */
async function qrIssuerSession(ctx: AppContext, qr: QrRow): Promise<SessionUser> {
  const [u] = await ctx.db
    .select({ userTypeId: users.userTypeId, saleCommand: clients.saleCommand })
    .from(users)
    .innerJoin(clients, eq(clients.id, users.clientId))
    .where(and(eq(users.id, qr.createdBy), eq(users.clientId, qr.clientId)));
  return {
    sessionId: 0,
    userId: qr.createdBy,
    clientId: qr.clientId,
    userTypeId: u.userTypeId as SessionUser['userTypeId'],
    saleCommand: u.saleCommand,
  };
}

/**
 * POST /v1/public/table/:token/order: priced and checked now (inactive products, add-ons outside their
 * group's min..max: 422 on the line), stored waiting for approval. The same key answers the same order.
 */
export async function placeTableOrder(
  ctx: AppContext,
  token: string,
  address: string,
  input: { lines: ComandaLineData[] },
  idempotencyKey: string,
): Promise<{ order: TableOrder; replayed: boolean }> {
  const qr = await qrOf(ctx, token, address, []);
  const [seen] = await ctx.db
    .select()
    .from(comandaTableOrders)
    .where(
      and(
        eq(comandaTableOrders.clientId, qr.clientId),
        eq(comandaTableOrders.idempotencyKey, idempotencyKey),
      ),
    );
  if (seen) return { order: toOrder(seen), replayed: true };
  await takeAttempt(
    ctx.db,
    [
      { key: `table-order:${qr.id}`, ...TABLE_LIMIT },
      { key: `table-order-address:${address}`, ...ADDRESS_LIMIT },
    ],
    TABLE_MENU_MESSAGES.tooMany,
  );
  const closedMessage = await closedMessageOf(ctx, qr);
  if (closedMessage) throw unprocessable(closedMessage);
  // Only what the menu offers now: the public page is not trusted (a weighed, variant or sold-out product).
  const offers = await tableMenuOffers(
    ctx.db,
    qr.clientId,
    input.lines.map((l) => l.productId),
  );
  if (input.lines.some((l) => l.variantId || !offers.has(l.productId)))
    throw unprocessable(TABLE_MENU_MESSAGES.notOnMenu);
  const lines = input.lines.map((l) => ({
    productId: l.productId,
    variantId: l.variantId ?? null,
    quantity: l.quantity,
    additionals: l.additionals ?? [],
    notes: l.notes ?? null,
  }));
  const priced = await priceItems(ctx.db, qr.clientId, lines);
  const [row] = await ctx.db
    .insert(comandaTableOrders)
    .values({
      clientId: qr.clientId,
      qrId: qr.id,
      tableLabel: qr.tableLabel,
      lines: lines.map((l, i) => ({
        ...l,
        description: priced[i].description,
        additionalNames: priced[i].additionals.map((a) => a.name),
      })),
      idempotencyKey,
    })
    .onConflictDoNothing()
    .returning();
  if (!row) return placeTableOrder(ctx, token, address, input, idempotencyKey);
  if (await tableOrdersDirect(ctx.db, qr.clientId)) {
    // "Aceitar pedidos da mesa direto": approved now, as a waiter would (the same claim and keys:
    // once). Should it fail, the order stays waiting on the board for a waiter.
    try {
      const approved = await approveTableOrder(ctx, await qrIssuerSession(ctx, qr), row.id);
      ctx.notify(qr.clientId, {
        message: `Mesa ${qr.tableLabel} fez um pedido pelo QR Code (já enviado para a produção)`,
        alertColor: 'info',
      });
      return { order: approved, replayed: false };
    } catch {
      // Not accepted now (a line no longer sellable, the QR's issuer gone): the board's bell below.
    }
  }
  ctx.notify(qr.clientId, {
    message: `Mesa ${qr.tableLabel} fez um pedido pelo QR Code`,
    alertColor: 'info',
  });
  ctx.changed(qr.clientId, 'comanda');
  return { order: toOrder(row), replayed: false };
}

/** POST /v1/public/table/:token/call: "Chamar garçom" or "Pedir a conta" rings the shop's bell. */
export async function callFromTable(
  ctx: AppContext,
  token: string,
  address: string,
  kind: 'waiter' | 'bill',
) {
  const qr = await qrOf(ctx, token, address, []);
  await takeAttempt(
    ctx.db,
    [
      { key: `table-call:${qr.id}`, ...TABLE_LIMIT },
      { key: `table-call-address:${address}`, ...ADDRESS_LIMIT },
    ],
    TABLE_MENU_MESSAGES.tooMany,
  );
  ctx.notify(qr.clientId, {
    message: TABLE_MENU_MESSAGES.called[kind].replace('{table}', qr.tableLabel),
    alertColor: 'warning',
  });
  return { ok: true };
}

/** GET /v1/comanda/table-orders: the orders waiting, oldest first. */
export async function listTableOrders(ctx: AppContext, session: SessionUser): Promise<TableOrder[]> {
  const rows = await ctx.db
    .select()
    .from(comandaTableOrders)
    .where(and(eq(comandaTableOrders.clientId, session.clientId), eq(comandaTableOrders.status, 'pending')))
    .orderBy(asc(comandaTableOrders.id))
    .limit(100);
  return rows.map(toOrder);
}

async function orderOf(ctx: AppContext, session: SessionUser, id: number): Promise<OrderRow> {
  const [row] = await ctx.db
    .select()
    .from(comandaTableOrders)
    .where(and(eq(comandaTableOrders.clientId, session.clientId), eq(comandaTableOrders.id, id)));
  if (!row) throw notFound(TABLE_MENU_MESSAGES.orderNotFound);
  return row;
}

/**
 * POST /v1/comanda/table-order/:id/approve: the lines go to the table's open tab (the oldest, or a new
 * one), then to production. Keys derived from the order make every step once across retries.
 */
export async function approveTableOrder(
  ctx: AppContext,
  session: SessionUser,
  id: number,
): Promise<TableOrder> {
  const order = await orderOf(ctx, session, id);
  if (order.status === 'approved') return toOrder(order);
  if (order.status === 'rejected') throw conflict(TABLE_MENU_MESSAGES.alreadyDecided);
  // Two waiters approving at once (two API connections on PostgreSQL): one claims the order (its
  // decision stamped while still pending), the other waits for that approval and answers it.
  const [claimed] = await ctx.db
    .update(comandaTableOrders)
    .set({ decidedBy: session.userId, decidedAt: new Date() })
    .where(
      and(
        eq(comandaTableOrders.id, order.id),
        eq(comandaTableOrders.status, 'pending'),
        isNull(comandaTableOrders.decidedAt),
      ),
    )
    .returning({ id: comandaTableOrders.id });
  if (!claimed) return approvalUnderWay(ctx, session, order.id);
  try {
    return await approveClaimed(ctx, session, order);
  } catch (error) {
    // Given back: a later approval starts again (each step below is keyed, so nothing doubles).
    await ctx.db
      .update(comandaTableOrders)
      .set({ decidedBy: null, decidedAt: null })
      .where(and(eq(comandaTableOrders.id, order.id), eq(comandaTableOrders.status, 'pending')));
    throw error;
  }
}

/** The answer of an approval another request has claimed: its result once it is written. */
async function approvalUnderWay(ctx: AppContext, session: SessionUser, id: number): Promise<TableOrder> {
  for (let waited = 0; waited < 15_000; waited += 50) {
    const now = await orderOf(ctx, session, id);
    if (now.status === 'approved') return toOrder(now);
    if (now.status === 'rejected') throw conflict(TABLE_MENU_MESSAGES.alreadyDecided);
    if (now.decidedAt === null) return approveTableOrder(ctx, session, id);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw conflict(TABLE_MENU_MESSAGES.alreadyDecided);
}

async function approveClaimed(
  ctx: AppContext,
  session: SessionUser,
  order: Awaited<ReturnType<typeof orderOf>>,
): Promise<TableOrder> {
  const [tab] = await ctx.db
    .select({ id: comandas.id })
    .from(comandas)
    .where(
      and(
        eq(comandas.clientId, session.clientId),
        eq(comandas.status, 'active'),
        eq(comandas.tableLabel, order.tableLabel),
      ),
    )
    .orderBy(asc(comandas.id))
    .limit(1);
  const comandaId =
    tab?.id ??
    (await openComanda(ctx, session, {
      number: null,
      tableLabel: order.tableLabel,
      customerId: null,
      customerName: null,
      customerPhone: null,
      people: 1,
      waiterId: null,
    }));
  for (const [index, line] of order.lines.entries()) {
    await addLine(
      ctx,
      session,
      comandaId,
      {
        productId: line.productId,
        variantId: line.variantId,
        quantity: line.quantity,
        additionals: line.additionals,
        notes: line.notes,
      },
      `table-order-${order.id}-${index}`,
    );
  }
  await sendToProduction(ctx, session, comandaId, `table-order-send-${order.id}`);
  const [updated] = await ctx.db
    .update(comandaTableOrders)
    .set({ status: 'approved', comandaId, decidedBy: session.userId, decidedAt: new Date() })
    .where(eq(comandaTableOrders.id, order.id))
    .returning();
  ctx.changed(session.clientId, 'comanda', comandaId);
  return toOrder(updated);
}

/** POST /v1/comanda/table-order/:id/reject */
export async function rejectTableOrder(
  ctx: AppContext,
  session: SessionUser,
  id: number,
): Promise<TableOrder> {
  const order = await orderOf(ctx, session, id);
  if (order.status === 'approved') throw conflict('Este pedido da mesa já foi aprovado');
  if (order.status === 'rejected') return toOrder(order);
  // Not while an approval has it (claimed: pending with its decision stamped).
  const [updated] = await ctx.db
    .update(comandaTableOrders)
    .set({ status: 'rejected', decidedBy: session.userId, decidedAt: new Date() })
    .where(
      and(
        eq(comandaTableOrders.id, order.id),
        eq(comandaTableOrders.status, 'pending'),
        isNull(comandaTableOrders.decidedAt),
      ),
    )
    .returning();
  if (!updated) throw conflict('Este pedido da mesa já foi aprovado');
  ctx.changed(session.clientId, 'comanda');
  return toOrder(updated);
}
