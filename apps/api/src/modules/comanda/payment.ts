import { CASH_REGISTER_MESSAGES } from '@balcao/core/cashRegister';
import {
  COMANDA_MESSAGES,
  type comandaPaymentInputSchema,
  itemsPaymentCents,
  paymentLabel,
} from '@balcao/core/comanda';
import { formatCents } from '@balcao/core/money';
import { comandaPixAttemptKey, PIX_CHARGE_MESSAGES } from '@balcao/core/pixCharge';
import type { z } from '@balcao/core/zod';
import { and, eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { AppError, unprocessable } from '../../errors.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { openRegisterForSaleSql } from '../cash-register/service.ts';
import { paidPixChargeOfPayment } from '../pix/service.ts';
import { lockOpenComanda, logEvent, paidQuantities, readLinesAndPayments, totalsOf } from './read.ts';
import { comandaPayments, comandas } from './schema.ts';

/**
 * Money received against a tab (issue 16): by items (partial quantities), a share of equal parts,
 * or a typed amount; early partial payments when a guest leaves. Each is recorded with the user who
 * received it and that user's open register; the sale the tab closes into has exactly these
 * payments (docs/decisions.md). The Idempotency-Key makes a retried payment count once.
 */

const fail = (message: string, path: string) => new AppError(422, message, [{ path, message }]);
const round3 = (v: number) => Math.round(v * 1000) / 1000;

export async function addPayment(
  ctx: AppContext,
  session: SessionUser,
  id: number,
  input: z.output<typeof comandaPaymentInputSchema>,
  idempotencyKey: string | null,
): Promise<void> {
  const { db } = ctx;
  const { clientId } = session;
  if (idempotencyKey) {
    const [seen] = await db
      .select({ comandaId: comandaPayments.comandaId })
      .from(comandaPayments)
      .where(and(eq(comandaPayments.clientId, clientId), eq(comandaPayments.idempotencyKey, idempotencyKey)));
    if (seen) {
      if (seen.comandaId !== id) throw unprocessable(COMANDA_MESSAGES.keyReused);
      return;
    }
  }
  const inserted = await db.transaction(async (tx) => {
    const c = await lockOpenComanda(tx, clientId, id);
    const { lines, payments } = await readLinesAndPayments(tx, id);
    const totals = totalsOf(c, lines, payments);
    if (totals.remainingCents <= 0) throw unprocessable('Não há nada a receber nesta comanda');
    let amountCents: number;
    if (input.kind === 'items') {
      const paid = paidQuantities(payments);
      const chosen = input.items.map((item, i) => {
        const line = lines.find((l) => l.id === item.lineId && l.status === 'active');
        if (!line) throw fail(COMANDA_MESSAGES.lineNotFound, `items.${i}.lineId`);
        if (round3((paid.get(line.id) ?? 0) + item.quantity) > line.quantity) {
          throw fail(COMANDA_MESSAGES.itemsTooMany, `items.${i}.quantity`);
        }
        return { line, quantity: item.quantity };
      });
      // Rounding of fee and lines never charges past the tab's total: the last cents are the remaining.
      amountCents = Math.min(itemsPaymentCents(chosen, c.serviceFeePercent), totals.remainingCents);
    } else {
      amountCents = input.amountCents ?? 0;
      if (amountCents > totals.remainingCents) {
        throw fail(COMANDA_MESSAGES.paymentTooHigh(formatCents(totals.remainingCents)), 'amountCents');
      }
    }
    let changeCents = 0;
    if (input.method === 'money' && input.receivedCents !== undefined && input.receivedCents > 0) {
      if (input.receivedCents < amountCents)
        throw fail('O valor recebido é menor que o pagamento', 'receivedCents');
      changeCents = input.receivedCents - amountCents;
    }
    // Pix QR dinâmico (issue 33): the payment is the bank's confirmed charge of this very payment.
    if (input.method === 'pixQrCode') {
      if (!idempotencyKey) throw fail(PIX_CHARGE_MESSAGES.notPaid, 'method');
      await paidPixChargeOfPayment(tx, clientId, comandaPixAttemptKey(idempotencyKey), amountCents);
    }
    const label = paymentLabel(input.kind, input.method, input.share);
    const rows = (
      (await tx.execute(sql`insert into comanda_payments (client_id, comanda_id, kind, method, amount_cents,
          change_cents, label, items, received_by, cash_register_id, idempotency_key)
        select ${clientId}, ${id}, ${input.kind}, ${input.method}, ${amountCents}, ${changeCents}, ${label},
          ${JSON.stringify(input.kind === 'items' ? input.items : [])}::jsonb, ${session.userId}, r.id, ${idempotencyKey}
        from (${openRegisterForSaleSql(session)}) r
        on conflict (client_id, idempotency_key) where idempotency_key is not null do nothing
        returning id`)) as unknown as { rows: { id: number }[] }
    ).rows;
    if (rows.length === 0) {
      // No open register (or the same key committed meanwhile: then it was already counted).
      const [again] = idempotencyKey
        ? await tx
            .select({ id: comandaPayments.id })
            .from(comandaPayments)
            .where(
              and(eq(comandaPayments.clientId, clientId), eq(comandaPayments.idempotencyKey, idempotencyKey)),
            )
        : [];
      if (again) return false;
      throw new AppError(
        422,
        'Abra o caixa para receber pagamentos da comanda',
        [{ path: 'method', message: CASH_REGISTER_MESSAGES.mustOpen }],
        'register_closed',
      );
    }
    await tx.update(comandas).set({ updatedAt: new Date() }).where(eq(comandas.id, id));
    await logEvent(tx, session, id, 'payment', `Recebeu ${formatCents(amountCents)} (${label})`);
    return true;
  });
  if (inserted) ctx.changed(clientId, 'comanda', id);
}
