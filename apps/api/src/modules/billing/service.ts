import { timingSafeEqual } from 'node:crypto';
import {
  ASAAS_OVERDUE_EVENT,
  ASAAS_PAID_EVENTS,
  ASAAS_UNPAID_EVENTS,
  type AsaasWebhook,
  type Billing,
  type BillingStatus,
  type ChangePlanInput,
  DEFAULT_PLAN,
  fitsPlan,
  type Invoice,
  OVERDUE_GRACE_DAYS,
  PLAN_CODES,
  PLANS,
  type Plan,
  type PlanCode,
  type PlanResource,
  periodsUntil,
  planLimitMessage,
  planTooSmallMessage,
} from '@balcao/core/billing';
import { addDays } from '@balcao/core/date';
import { DEFAULT_TIME_ZONE, dateIn, instantAt } from '@balcao/core/time';
import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { clients, users } from '../../db/schema.ts';
import { AppError, conflict, notFound, unauthorized } from '../../errors.ts';
import type { Actor } from '../../lib/actor.ts';
import { isSameVersion } from '../../lib/pg.ts';
import { assertNotStale, versionOf } from '../../lib/version.ts';
import type { AsaasClient } from './asaas.ts';
import { billingInvoices, billingSubscriptions, billingWebhookEvents } from './schema.ts';

/** How many products a shop has: the product module's count, handed over at wiring. */
export type ProductCount = (db: Executor, clientId: number) => Promise<number>;

const INVOICE_NOT_FOUND = 'Fatura não encontrada';
const WRONG_TOKEN = 'Token do webhook inválido';

type SubscriptionRow = typeof billingSubscriptions.$inferSelect;
type InvoiceRow = typeof billingInvoices.$inferSelect;

const planOf = (code: string): Plan =>
  PLANS[(PLAN_CODES as readonly string[]).includes(code) ? (code as PlanCode) : DEFAULT_PLAN];

/** The client's subscription, created on first use: the default plan, from the day the shop was created. */
async function subscriptionOf(db: Executor, clientId: number): Promise<SubscriptionRow> {
  const [found] = await db
    .select()
    .from(billingSubscriptions)
    .where(eq(billingSubscriptions.clientId, clientId));
  if (found) return found;
  const [client] = await db
    .select({ createdAt: clients.createdAt })
    .from(clients)
    .where(eq(clients.id, clientId));
  await db
    .insert(billingSubscriptions)
    .values({
      clientId,
      planCode: DEFAULT_PLAN,
      startedOn: dateIn(DEFAULT_TIME_ZONE, client?.createdAt ?? new Date()),
    })
    .onConflictDoNothing();
  const [row] = await db
    .select()
    .from(billingSubscriptions)
    .where(eq(billingSubscriptions.clientId, clientId));
  return row;
}

/** Issues the invoices of every period up to today that has none yet (at the plan's price then). */
async function ensureInvoices(db: Executor, subscription: SubscriptionRow, today: string): Promise<void> {
  const periods = periodsUntil(subscription.startedOn, today);
  if (periods.length === 0) return;
  const amountCents = planOf(subscription.planCode).priceCents;
  await db
    .insert(billingInvoices)
    .values(
      periods.map((p) => ({
        clientId: subscription.clientId,
        periodStart: p.start,
        periodEnd: p.end,
        dueDate: p.due,
        amountCents,
      })),
    )
    .onConflictDoNothing();
}

const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000);

function toInvoice(row: InvoiceRow, today: string): Invoice {
  const status =
    row.status === 'pending' && row.dueDate < today ? 'overdue' : (row.status as Invoice['status']);
  return {
    id: row.id,
    periodStart: row.periodStart,
    periodEnd: row.periodEnd,
    dueDate: row.dueDate,
    amountCents: row.amountCents,
    status,
    paidAt: row.paidAt?.toISOString() ?? null,
    pix:
      row.pixPayload && row.pixImage
        ? { payload: row.pixPayload, encodedImage: row.pixImage, expirationDate: row.pixExpiresAt ?? '' }
        : null,
    boleto:
      row.boletoUrl && row.boletoLine ? { url: row.boletoUrl, identificationField: row.boletoLine } : null,
  };
}

/** The oldest unpaid invoice whose grace period is over: the banner's reason (never a block). */
function overdueOf(rows: InvoiceRow[], today: string): BillingStatus['overdue'] {
  const late = rows
    .filter(
      (r) =>
        (r.status === 'pending' || r.status === 'overdue') && addDays(r.dueDate, OVERDUE_GRACE_DAYS) < today,
    )
    .sort((a, b) => a.dueDate.localeCompare(b.dueDate))[0];
  return late
    ? {
        invoiceId: late.id,
        dueDate: late.dueDate,
        amountCents: late.amountCents,
        daysOverdue: daysBetween(late.dueDate, today),
      }
    : null;
}

async function countUsers(db: Executor, clientId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(users)
    .where(and(eq(users.clientId, clientId), eq(users.active, true)));
  return Number(row?.n ?? 0);
}

/** GET /v1/billing: plan, usage, current period, invoices (newest first), the overdue banner's reason. */
export async function getBilling(
  db: Executor,
  actor: Actor,
  productCount: ProductCount,
  today = dateIn(DEFAULT_TIME_ZONE),
): Promise<Billing> {
  const subscription = await subscriptionOf(db, actor.clientId);
  await ensureInvoices(db, subscription, today);
  const [rows, userCount, products, [updater]] = await Promise.all([
    db
      .select()
      .from(billingInvoices)
      .where(eq(billingInvoices.clientId, actor.clientId))
      .orderBy(asc(billingInvoices.periodStart)),
    countUsers(db, actor.clientId),
    productCount(db, actor.clientId),
    subscription.updatedBy
      ? db.select({ id: users.id, name: users.name }).from(users).where(eq(users.id, subscription.updatedBy))
      : Promise.resolve([]),
  ]);
  const current = periodsUntil(subscription.startedOn, today, 1)[0] ?? {
    start: subscription.startedOn,
    end: subscription.startedOn,
  };
  return {
    plan: planOf(subscription.planCode),
    plans: PLAN_CODES.map((code) => PLANS[code]),
    usage: { users: userCount, products },
    currentPeriod: { start: current.start, end: current.end },
    invoices: rows.map((r) => toInvoice(r, today)).reverse(),
    overdue: overdueOf(rows, today),
    updatedAt: subscription.updatedAt.toISOString(),
    updatedBy: updater ?? null,
  };
}

/** GET /v1/billing/status: only the banner's reason (the shell asks it for administrators). */
export async function getBillingStatus(
  db: Executor,
  actor: Actor,
  today = dateIn(DEFAULT_TIME_ZONE),
): Promise<BillingStatus> {
  const subscription = await subscriptionOf(db, actor.clientId);
  await ensureInvoices(db, subscription, today);
  const rows = await db
    .select()
    .from(billingInvoices)
    .where(
      and(
        eq(billingInvoices.clientId, actor.clientId),
        inArray(billingInvoices.status, ['pending', 'overdue']),
      ),
    );
  return { overdue: overdueOf(rows, today) };
}

/** PUT /v1/billing/plan: a smaller plan must fit the shop's users and products (422 otherwise). */
export async function changePlan(
  ctx: AppContext,
  actor: Actor,
  input: ChangePlanInput,
  productCount: ProductCount,
): Promise<Billing> {
  const version = versionOf(input.updatedAt ?? undefined);
  const plan = PLANS[input.planCode];
  await subscriptionOf(ctx.db, actor.clientId);
  await ctx.db.transaction(async (tx) => {
    const userCount = await countUsers(tx, actor.clientId);
    if (!fitsPlan(plan, 'users', userCount, 0))
      throw new AppError(422, planTooSmallMessage(plan, 'users', userCount), [
        { path: 'planCode', message: planTooSmallMessage(plan, 'users', userCount) },
      ]);
    const products = await productCount(tx, actor.clientId);
    if (!fitsPlan(plan, 'products', products, 0))
      throw new AppError(422, planTooSmallMessage(plan, 'products', products), [
        { path: 'planCode', message: planTooSmallMessage(plan, 'products', products) },
      ]);
    const updated = await tx
      .update(billingSubscriptions)
      .set({ planCode: plan.code, updatedBy: actor.userId, updatedAt: new Date() })
      .where(
        and(
          eq(billingSubscriptions.clientId, actor.clientId),
          isSameVersion(billingSubscriptions.updatedAt, version),
        ),
      )
      .returning({ clientId: billingSubscriptions.clientId });
    assertNotStale(updated);
  });
  ctx.changed(actor.clientId, 'billing');
  return getBilling(ctx.db, actor, productCount);
}

/**
 * What the user and product modules call before a create: 422 with the plan's limit when `adding`
 * more would pass it. (Two creates racing for the last seat may both pass: the limit is commercial,
 * not a safety rule.)
 */
export async function assertPlanRoom(
  db: Executor,
  clientId: number,
  resource: PlanResource,
  current: number,
  adding = 1,
): Promise<void> {
  const subscription = await subscriptionOf(db, clientId);
  const plan = planOf(subscription.planCode);
  if (!fitsPlan(plan, resource, current, adding)) throw new AppError(422, planLimitMessage(plan, resource));
}

/** The user module's check before a new active user. */
export async function assertUserRoom(db: Executor, clientId: number): Promise<void> {
  await assertPlanRoom(db, clientId, 'users', await countUsers(db, clientId));
}

const reais = (cents: number) => Math.round(cents) / 100;

/**
 * Whether a Pix QR code's `expirationDate` ("YYYY-MM-DD HH:mm:ss", Brasília time, as Asaas answers it)
 * has passed: a cached code past it is fetched again. An unreadable date counts as expired.
 */
export function pixExpired(expirationDate: string | null, now = new Date()): boolean {
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}(?::\d{2})?)/.exec(expirationDate ?? '');
  if (!m) return true;
  const wall = Date.parse(`${m[1]}T${m[2].length === 5 ? `${m[2]}:00` : m[2]}Z`);
  return instantAt(wall, DEFAULT_TIME_ZONE).getTime() <= now.getTime();
}

/**
 * POST /v1/billing/invoice/{id}/pay: the invoice at the gateway (customer and payment created once,
 * each under its row lock, so a double click creates one charge), then its Pix QR code or its boleto
 * line, kept on the invoice (a Pix code past its expiration is fetched again).
 * Before creating a customer or a charge, it is looked up by its `externalReference` (issue 31 item
 * 13): a create that timed out after Asaas accepted it rolled our row back, and the retry reuses what
 * Asaas made instead of charging twice.
 */
export async function payInvoice(
  ctx: AppContext,
  actor: Actor,
  id: number,
  method: 'pix' | 'boleto',
  gateway: AsaasClient,
): Promise<Invoice> {
  const { clientId } = actor;
  const today = dateIn(DEFAULT_TIME_ZONE);
  const [found] = await ctx.db
    .select()
    .from(billingInvoices)
    .where(and(eq(billingInvoices.clientId, clientId), eq(billingInvoices.id, id)));
  if (!found) throw notFound(INVOICE_NOT_FOUND);
  if (found.status === 'paid') throw conflict('Esta fatura já está paga');
  if (found.status === 'canceled') throw conflict('Esta fatura foi cancelada');

  // Each step commits what the gateway created before the next one calls it, so a failure later
  // (the gateway down between two calls) never makes a retry create a second customer or charge.
  const customerId = await ctx.db.transaction(async (tx) => {
    const [subscription] = await tx
      .select()
      .from(billingSubscriptions)
      .where(eq(billingSubscriptions.clientId, clientId))
      .for('update');
    if (subscription.gatewayCustomerId) return subscription.gatewayCustomerId;
    const [client] = await tx
      .select({ name: clients.name, document: clients.document })
      .from(clients)
      .where(eq(clients.id, clientId));
    const reference = `client-${clientId}`;
    const customer =
      (await gateway.findCustomer(reference)) ??
      (await gateway.createCustomer({
        name: client.name,
        cpfCnpj: client.document,
        externalReference: reference,
      }));
    await tx
      .update(billingSubscriptions)
      .set({ gatewayCustomerId: customer.id })
      .where(eq(billingSubscriptions.clientId, clientId));
    return customer.id;
  });

  const invoice = await ctx.db.transaction(async (tx) => {
    const [row] = await tx.select().from(billingInvoices).where(eq(billingInvoices.id, id)).for('update');
    if (row.status === 'paid') throw conflict('Esta fatura já está paga');
    if (row.gatewayPaymentId) return row;
    const reference = `invoice-${row.id}`;
    const payment =
      (await gateway.findPayment(reference)) ??
      (await gateway.createPayment({
        customer: customerId,
        billingType: 'UNDEFINED',
        value: reais(row.amountCents),
        // A late invoice is charged for today (the gateway refuses a due date in the past).
        dueDate: row.dueDate < today ? today : row.dueDate,
        description: `Assinatura Balcão ${row.periodStart} a ${row.periodEnd}`,
        externalReference: reference,
      }));
    const [updated] = await tx
      .update(billingInvoices)
      .set({ gatewayPaymentId: payment.id, boletoUrl: payment.bankSlipUrl ?? null })
      .where(eq(billingInvoices.id, id))
      .returning();
    return updated;
  });
  const paymentId = invoice.gatewayPaymentId as string;

  if (method === 'pix' && (!invoice.pixPayload || pixExpired(invoice.pixExpiresAt))) {
    const qr = await gateway.pixQrCode(paymentId);
    await ctx.db
      .update(billingInvoices)
      .set({ pixPayload: qr.payload, pixImage: qr.encodedImage, pixExpiresAt: qr.expirationDate })
      .where(eq(billingInvoices.id, id));
  }
  if (method === 'boleto' && !invoice.boletoLine) {
    const line = await gateway.identificationField(paymentId);
    const url = invoice.boletoUrl ?? (await gateway.getPayment(paymentId)).bankSlipUrl ?? '';
    await ctx.db
      .update(billingInvoices)
      .set({ boletoLine: line.identificationField, boletoUrl: url })
      .where(eq(billingInvoices.id, id));
  }
  const [row] = await ctx.db.select().from(billingInvoices).where(eq(billingInvoices.id, id));
  return toInvoice(row, today);
}

/** Constant-time comparison of the webhook's token with the configured one (empty config refuses all). */
function tokenMatches(expected: string, given: string | undefined): boolean {
  if (!expected || typeof given !== 'string') return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The invoice id our `externalReference` names ("invoice-12" -> 12), or null. */
function invoiceOfReference(reference: string | null | undefined): number | null {
  const m = /^invoice-(\d+)$/.exec(reference ?? '');
  return m ? Number(m[1]) : null;
}

/**
 * POST /v1/billing/webhook/asaas: PAYMENT_RECEIVED / PAYMENT_CONFIRMED mark the invoice paid (found by
 * its charge, or by the charge's externalReference when it was forgotten after a chargeback that was
 * then reversed), PAYMENT_OVERDUE marks it overdue, and a refund, chargeback, undone cash receipt or
 * removed charge (`ASAAS_UNPAID_EVENTS`) makes it unpaid again: pending, its charge and codes
 * forgotten. The event id is recorded in the same transaction, so a retried event (Asaas retries until
 * it gets a 200) acts once; a wrong token is 401 and changes nothing.
 */
export async function receiveWebhook(
  ctx: AppContext,
  token: string | undefined,
  event: AsaasWebhook,
): Promise<{ received: boolean; processed: boolean }> {
  if (!tokenMatches(ctx.config.asaas.webhookToken, token)) throw unauthorized(WRONG_TOKEN);
  const paymentId = event.payment?.id ?? null;
  const changedClient = await ctx.db.transaction(async (tx) => {
    const [fresh] = await tx
      .insert(billingWebhookEvents)
      .values({ eventId: event.id, event: event.event, paymentId })
      .onConflictDoNothing()
      .returning({ eventId: billingWebhookEvents.eventId });
    if (!fresh || !paymentId) return null;
    const paid = (ASAAS_PAID_EVENTS as readonly string[]).includes(event.event);
    const unpaid = (ASAAS_UNPAID_EVENTS as readonly string[]).includes(event.event);
    if (unpaid) {
      const [undone] = await tx
        .update(billingInvoices)
        .set({
          status: 'pending',
          paidAt: null,
          gatewayPaymentId: null,
          pixPayload: null,
          pixImage: null,
          pixExpiresAt: null,
          boletoUrl: null,
          boletoLine: null,
        })
        .where(eq(billingInvoices.gatewayPaymentId, paymentId))
        .returning({ clientId: billingInvoices.clientId });
      return undone?.clientId ?? null;
    }
    if (!paid && event.event !== ASAAS_OVERDUE_EVENT) return null;
    const byReference = paid ? invoiceOfReference(event.payment?.externalReference) : null;
    const [updated] = await tx
      .update(billingInvoices)
      .set(paid ? { status: 'paid', paidAt: new Date(), gatewayPaymentId: paymentId } : { status: 'overdue' })
      .where(
        and(
          byReference === null
            ? eq(billingInvoices.gatewayPaymentId, paymentId)
            : sql`(${billingInvoices.gatewayPaymentId} = ${paymentId} or (${billingInvoices.id} = ${byReference} and ${billingInvoices.gatewayPaymentId} is null))`,
          paid ? sql`${billingInvoices.status} <> 'paid'` : eq(billingInvoices.status, 'pending'),
        ),
      )
      .returning({ clientId: billingInvoices.clientId });
    return updated?.clientId ?? null;
  });
  if (changedClient !== null) ctx.changed(changedClient, 'billing');
  return { received: true, processed: changedClient !== null };
}
