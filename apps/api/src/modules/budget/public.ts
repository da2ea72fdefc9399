import {
  BUDGET_MESSAGES,
  type Budget,
  type BudgetPublic,
  type BudgetPublicPix,
  type BudgetStatus,
  budgetExpired,
} from '@balcao/core/budget';
import { budgetPixAttemptKey } from '@balcao/core/pixCharge';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { conflict, notFound, unprocessable } from '../../errors.ts';
import type { Actor } from '../../lib/actor.ts';
import { hashToken, newToken } from '../../lib/secrets.ts';
import { takeAttempt } from '../auth/limiter.ts';
import { createPixCharge, findPixCharge, pixChargesOfAttempt, pixOffered } from '../pix/service.ts';
import { budgetShopOf } from './pdf.ts';
import { budgetLinks, budgets } from './schema.ts';
import { findBudgetRow, findItems, toBudget } from './service.ts';

/**
 * The customer's approval link (issue 17): a random token of 192 bits (lib/secrets `newToken`) of
 * which only the SHA-256 is stored; the page it opens shows one budget and nothing else of the shop.
 * Guessing is useless (2^192 tokens) and each address is limited anyway (`takeAttempt`).
 */

/** Requests per address and window on the public budget routes (a customer needs a handful). */
const PUBLIC_LIMIT = { max: 120, windowMs: 10 * 60 * 1000 };

const approvalUrl = (publicUrl: string, token: string) =>
  `${publicUrl.replace(/\/+$/, '')}/orcamento/${token}`;

/**
 * Issues a new link for the budget (every issued link works while the budget is open). `publicUrl` is
 * the server's configured address (config.publicUrl), never a client-sent one.
 */
export async function issueLink(tx: Executor, budgetId: number, publicUrl: string) {
  const { token, hash } = newToken();
  await tx.insert(budgetLinks).values({ budgetId, tokenHash: hash });
  return { token, url: approvalUrl(publicUrl, token) };
}

/**
 * The Pix page polls its charge every 2 s while the customer pays (a charge lives 10 min by default):
 * its own, wider window, so paying never locks the customer out of the page.
 */
const PIX_POLL_LIMIT = { max: 600, windowMs: 10 * 60 * 1000 };

/** The budget of a token: its id and client (404 for an unknown token), after the address's limit. */
async function budgetOfToken(ctx: AppContext, token: string, address: string, poll = false) {
  await takeAttempt(
    ctx.db,
    [
      poll
        ? { key: `budget-pix:${address}`, ...PIX_POLL_LIMIT }
        : { key: `budget-link:${address}`, ...PUBLIC_LIMIT },
    ],
    BUDGET_MESSAGES.tooManyAttempts,
  );
  const [link] = await ctx.db
    .select({ budgetId: budgetLinks.budgetId, clientId: budgets.clientId })
    .from(budgetLinks)
    .innerJoin(budgets, eq(budgets.id, budgetLinks.budgetId))
    .where(eq(budgetLinks.tokenHash, hashToken(token)));
  if (!link) throw notFound(BUDGET_MESSAGES.linkNotFound);
  return link;
}

/** The link works only while the budget is open: 409 with why not (converted, canceled, expired). */
function assertLinkOpen(status: BudgetStatus, validUntil: string, today: string) {
  if (status === 'finished') throw conflict(BUDGET_MESSAGES.linkConverted);
  if (status === 'canceled') throw conflict(BUDGET_MESSAGES.linkCanceled);
  if (budgetExpired(status, validUntil, today)) throw conflict(BUDGET_MESSAGES.linkExpired);
}

/**
 * A converted budget's link still shows it, read-only, and its PDF (issue 30: the customer who paid
 * saw a bare 409 without the shop's name, and the PDF answered 409): only answering needs it open.
 */
function assertLinkReadable(status: BudgetStatus, validUntil: string, today: string) {
  if (status === 'finished') return;
  assertLinkOpen(status, validUntil, today);
}

/** What the customer sees of a budget (the PDF's content). */
export function toPublicBudget(budget: Budget): BudgetPublic['budget'] {
  return {
    number: budget.number,
    typeOfSale: budget.typeOfSale,
    deliveryAddress: budget.deliveryAddress,
    totalItems: budget.totalItems,
    totalQuantity: budget.totalQuantity,
    itemsGrossCents: budget.itemsGrossCents,
    itemsDiscountCents: budget.itemsDiscountCents,
    totalCents: budget.totalCents,
    discountType: budget.discountType,
    discountValue: budget.discountValue,
    discountCents: budget.discountCents,
    freightCents: budget.freightCents,
    finalAmountCents: budget.finalAmountCents,
    validUntil: budget.validUntil,
    notes: budget.notes,
    paymentConditions: budget.paymentConditions,
    answer: budget.answer,
    answeredAt: budget.answeredAt,
    refusalReason: budget.refusalReason,
    createdAt: budget.createdAt,
    customerName: budget.customer?.name ?? null,
    customerDocument: budget.customer?.document ?? null,
    customerPhone: budget.customer?.phone ?? null,
    sellerName: budget.seller?.name ?? budget.user.name,
    items: budget.items.map((i) => ({
      description: i.description,
      variantName: i.variantName,
      unit: i.unit,
      quantity: i.quantity,
      unitTotalCents: i.unitTotalCents,
      grossCents: i.grossCents,
      discountCents: i.discountCents,
      totalCents: i.totalCents,
      additionals: i.additionals,
      notes: i.notes,
    })),
    state:
      budget.status === 'finished'
        ? 'converted'
        : budget.status === 'canceled'
          ? 'canceled'
          : budget.expired
            ? 'expired'
            : 'open',
  };
}

/** The budget and the shop as the PDF shows them (a budget of the actor's client). */
export async function budgetDocument(db: Executor, actor: Actor, id: number) {
  const { row, names, today } = await findBudgetRow(db, actor.clientId, id);
  const budget = toBudget(row, names, await findItems(db, id), today);
  const shop = await budgetShopOf(db, actor);
  return { budget, shop };
}

/**
 * Opens the approval link: the budget as its PDF shows it. The first opening records "visualizado"
 * (viewed_at) once, with its date, and tells the shop's other screens. 404 for an unknown token,
 * 409 once the budget is converted, canceled or expired.
 */
export async function openPublicBudget(ctx: AppContext, token: string, address: string) {
  const { budgetId, clientId } = await budgetOfToken(ctx, token, address);
  const { row, today } = await findBudgetRow(ctx.db, clientId, budgetId);
  assertLinkReadable(row.status as BudgetStatus, row.validUntil, today);
  const viewed = await ctx.db
    .update(budgets)
    .set({ viewedAt: sql`now()` })
    .where(and(eq(budgets.id, budgetId), isNull(budgets.viewedAt)))
    .returning({ id: budgets.id });
  if (viewed.length > 0) ctx.changed(clientId, 'budget', budgetId);
  const actor = { clientId, userId: row.userId };
  const { budget, shop } = await budgetDocument(ctx.db, actor, budgetId);
  const { logoKey: _, timeZone: __, ...publicShop } = shop;
  return { budget, shop, answer: { shop: publicShop, budget: toPublicBudget(budget) } };
}

/** The PDF of the link's budget (same rules as opening it, without recording a view; converted too). */
export async function publicBudgetDocument(ctx: AppContext, token: string, address: string) {
  const { budgetId, clientId } = await budgetOfToken(ctx, token, address);
  const { row, today } = await findBudgetRow(ctx.db, clientId, budgetId);
  assertLinkReadable(row.status as BudgetStatus, row.validUntil, today);
  return budgetDocument(ctx.db, { clientId, userId: row.userId }, budgetId);
}

/**
 * The customer's answer: approved, or refused with a reason; once (409 when already answered),
 * only while the budget is open. The shop's bell hears it at once (`notify`) and the detail shows it.
 */
export async function answerPublicBudget(
  ctx: AppContext,
  token: string,
  address: string,
  input: { answer: 'approved' | 'refused'; reason: string | null },
) {
  const { budgetId, clientId } = await budgetOfToken(ctx, token, address);
  const row = await ctx.db.transaction(async (tx) => {
    const { row, today } = await findBudgetRow(tx, clientId, budgetId, true);
    assertLinkOpen(row.status as BudgetStatus, row.validUntil, today);
    if (row.answer !== null) throw conflict(BUDGET_MESSAGES.alreadyAnswered);
    const refused = input.answer === 'refused';
    if (refused && !input.reason) throw unprocessable(BUDGET_MESSAGES.reasonRequired);
    await tx
      .update(budgets)
      .set({
        answer: input.answer,
        answeredAt: new Date(),
        refusalReason: refused ? input.reason : null,
        viewedAt: sql`coalesce(${budgets.viewedAt}, now())`,
        updatedAt: new Date(),
      })
      .where(eq(budgets.id, budgetId));
    return row;
  });
  const { budget, shop } = await budgetDocument(ctx.db, { clientId, userId: row.userId }, budgetId);
  const customer = budget.customer?.name ?? 'o cliente';
  ctx.notify(clientId, {
    message:
      input.answer === 'approved'
        ? BUDGET_MESSAGES.approvedNotice(budget.number, customer)
        : BUDGET_MESSAGES.refusedNotice(budget.number, customer, input.reason ?? ''),
    alertColor: input.answer === 'approved' ? 'success' : 'warning',
  });
  ctx.changed(clientId, 'budget', budgetId);
  const { logoKey: _, timeZone: __, ...publicShop } = shop;
  return { shop: publicShop, budget: toPublicBudget(budget) };
}

/**
 * The approval link's Pix QR dinâmico (issue 33). `pay`: the customer who approved asks for the
 * charge of the budget's final amount (the server's figure, never the page's). Its attempt key is the
 * budget's (`budget-pix:<id>:<n>`): a retry or a reopened page gets the same charge, a new one only
 * after the last one expired unpaid. `status`: the charge as the page polls it (findPixCharge asks the
 * bank when no webhook came), still readable once the budget was converted.
 */
export async function publicBudgetPix(
  ctx: AppContext,
  token: string,
  address: string,
  mode: 'pay' | 'status',
): Promise<BudgetPublicPix> {
  const { budgetId, clientId } = await budgetOfToken(ctx, token, address, mode === 'status');
  const { row, today } = await findBudgetRow(ctx.db, clientId, budgetId);
  const actor = { clientId, userId: row.userId };
  const baseKey = budgetPixAttemptKey(budgetId);
  const charges = await pixChargesOfAttempt(ctx.db, clientId, baseKey);
  const paid = charges.find((c) => c.charge.status === 'paid');
  const last = charges.at(-1);
  if (mode === 'status') {
    assertLinkReadable(row.status as BudgetStatus, row.validUntil, today);
    const offered = await pixOffered(ctx, clientId);
    const shown = paid ?? last;
    if (!shown) return { offered, charge: null };
    return { offered, charge: await findPixCharge(ctx, actor, shown.charge.txid) };
  }
  if (paid) return { offered: true, charge: paid.charge };
  assertLinkOpen(row.status as BudgetStatus, row.validUntil, today);
  if (row.answer !== 'approved') throw unprocessable(BUDGET_MESSAGES.pixNotApproved);
  if (!(await pixOffered(ctx, clientId))) throw unprocessable(BUDGET_MESSAGES.pixNotOffered);
  const current =
    last && last.charge.status === 'active' && Date.parse(last.charge.expiresAt) > Date.now() ? last : null;
  const attemptKey = current?.attemptKey ?? `${baseKey}:${charges.length + 1}`;
  const charge = await createPixCharge(ctx, actor, { attemptKey, amountCents: row.finalAmountCents });
  ctx.changed(clientId, 'budget', budgetId);
  return { offered: true, charge };
}
