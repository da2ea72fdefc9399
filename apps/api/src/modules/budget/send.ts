import { BUDGET_MESSAGES, type BudgetSendResult } from '@balcao/core/budget';
import { formatDateBr } from '@balcao/core/date';
import { formatCents } from '@balcao/core/money';
import { whatsappDigits } from '@balcao/core/whatsapp';
import { and, eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import type { Actor } from '../../lib/actor.ts';
import { findCustomerRef } from '../customer/refs.ts';
import type { Storage } from '../storage/storage.ts';
import { sendShopMessage } from '../whatsapp/send.ts';
import { budgetPdf, logoBytes } from './pdf.ts';
import { budgetDocument, issueLink, toPublicBudget } from './public.ts';
import { budgets } from './schema.ts';
import { assertOpen, findBudget, findBudgetRow } from './service.ts';

/** The message that goes with the budget: number, total, validity and the approval link. */
function messageOf(shopName: string, number: number, totalCents: number, validUntil: string, url: string) {
  return [
    `Olá! Segue o orçamento nº ${number} de ${shopName}: ${formatCents(totalCents)}, válido até ${formatDateBr(validUntil)}.`,
    `Para ver, aprovar ou recusar: ${url}`,
  ].join('\n');
}

/**
 * Sends a budget (issue 17): issues an approval link (only its hash is stored) and moves pending ->
 * sent. By WhatsApp the PDF goes as a document through the shop's instance when it is connected;
 * otherwise the answer carries a wa.me link with the message and the approval link prefilled. A
 * copied link or a print is a send too. The link is built from the server's PUBLIC_URL, never from
 * anything the client sends (issue 31 item 2). The customer is required (422), the budget must be open.
 */
export async function sendBudget(
  ctx: AppContext,
  storage: Storage,
  actor: Actor,
  id: number,
  input: { channel: 'whatsapp' | 'link' | 'print' },
): Promise<BudgetSendResult> {
  const { clientId } = actor;
  const { link, number } = await ctx.db.transaction(async (tx) => {
    const { row, today } = await findBudgetRow(tx, clientId, id, true);
    assertOpen(row, today);
    if (row.customerId === null)
      throw new AppError(422, BUDGET_MESSAGES.customerToSend, [
        { path: 'customerId', message: BUDGET_MESSAGES.customerToSend },
      ]);
    // WhatsApp needs the customer's number: refused before anything is written.
    const phone =
      input.channel === 'whatsapp' ? (await findCustomerRef(tx, clientId, row.customerId))?.phone : null;
    const number = phone ? whatsappDigits(phone) : null;
    if (input.channel === 'whatsapp' && !number)
      throw new AppError(422, BUDGET_MESSAGES.customerPhone, [
        { path: 'customerId', message: BUDGET_MESSAGES.customerPhone },
      ]);
    const issued = await issueLink(tx, id, ctx.config.publicUrl);
    await tx
      .update(budgets)
      .set({
        status: sql`case when ${budgets.status} = 'pending' then 'sent' else ${budgets.status} end`,
        sentAt: sql`coalesce(${budgets.sentAt}, now())`,
        updatedAt: new Date(),
      })
      .where(and(eq(budgets.id, id), eq(budgets.clientId, clientId)));
    return { link: issued, number };
  });
  ctx.changed(clientId, 'budget', id);

  let whatsapp: BudgetSendResult['whatsapp'] = null;
  if (number) {
    const { budget, shop } = await budgetDocument(ctx.db, actor, id);
    const text = messageOf(shop.name, budget.number, budget.finalAmountCents, budget.validUntil, link.url);
    const pdf = await budgetPdf(shop, toPublicBudget(budget), await logoBytes(storage, shop.logoKey));
    const sent = await sendShopMessage(ctx, clientId, {
      number,
      text,
      document: {
        base64: pdf.toString('base64'),
        fileName: `orcamento-${budget.number}.pdf`,
        mimetype: 'application/pdf',
      },
    });
    whatsapp = sent.ok
      ? { sent: true, waLink: null, reason: null }
      : {
          sent: false,
          waLink: `https://wa.me/${number}?text=${encodeURIComponent(text)}`,
          reason: sent.reason,
        };
  }
  return { budget: await findBudget(ctx.db, actor, id), link, whatsapp };
}
