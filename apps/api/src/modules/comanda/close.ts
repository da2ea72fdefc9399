import { COMANDA_MESSAGES } from '@balcao/core/comanda';
import { formatCents } from '@balcao/core/money';
import { comandaPixAttemptKey } from '@balcao/core/pixCharge';
import { percentText } from '@balcao/core/settings';
import type { PaymentMethod } from '@balcao/core/status';
import { eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { unprocessable } from '../../errors.ts';
import { lineSnapshotOf } from '../../lib/lineSnapshot.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { moveComandaCash } from '../cash-register/comanda.ts';
import { openRegisterForSaleSql } from '../cash-register/service.ts';
import { tiePixChargesToSale } from '../pix/service.ts';
import { type RecordedSale, recordSale, type SaleDraft, type SaleLineDraft } from '../sale/record.ts';
import { lockOpenComanda, logEvent, type PaymentRow, readLinesAndPayments, totalsOf } from './read.ts';
import { comandas } from './schema.ts';

/**
 * The comanda's origin of a sale (the sale seam, docs/architecture.md): a tab whose remaining is
 * zero closes into ONE sale through `recordSale`. The draft is built inside the sale's transaction
 * with the tab locked (no line or payment can slip in between), so stock moves once, at close; the
 * tab is marked closed in `onRecorded`, in the same transaction. A tab already closed answers 409;
 * a retried close with the same Idempotency-Key answers the first sale.
 */

const free = (description: string, cents: number): SaleLineDraft => ({
  productId: null,
  variantId: null,
  description,
  variantName: null,
  sku: null,
  barcode: null,
  unit: 'un',
  quantity: 1,
  unitPriceCents: cents,
  additionals: [],
  discountType: 'fixed_amount',
  discountValue: 0,
  notes: null,
});

/** The cash handed over for a tab's money payments (0 when no change was given: exactly the amount). */
function cashHandedOver(payments: readonly PaymentRow[]): number {
  const money = payments.filter((p) => p.method === 'money');
  const change = money.reduce((s, p) => s + p.changeCents, 0);
  return change > 0 ? money.reduce((s, p) => s + p.amountCents + p.changeCents, 0) : 0;
}

async function comandaDraft(
  tx: Executor,
  session: SessionUser,
  id: number,
  originSale: 'command' | 'waiter',
  seen: { payments: PaymentRow[]; number: number },
): Promise<SaleDraft> {
  const c = await lockOpenComanda(tx, session.clientId, id);
  const { lines, payments } = await readLinesAndPayments(tx, id);
  seen.payments = payments;
  seen.number = c.number;
  const active = lines.filter((l) => l.status === 'active');
  if (active.length === 0) throw unprocessable(COMANDA_MESSAGES.empty);
  const totals = totalsOf(c, lines, payments);
  if (totals.remainingCents > 0) {
    throw unprocessable(COMANDA_MESSAGES.remaining(formatCents(totals.remainingCents)));
  }
  if (totals.remainingCents < 0) {
    throw unprocessable(COMANDA_MESSAGES.overpaid(formatCents(-totals.remainingCents)));
  }
  const saleLines: SaleLineDraft[] = active.map((l) => ({
    ...lineSnapshotOf(l),
    discountType: 'fixed_amount',
    discountValue: 0,
    notes: l.notes,
  }));
  if (totals.serviceFeeCents > 0) {
    saleLines.push(
      free(`Taxa de serviço (${percentText(totals.serviceFeePercent)})`, totals.serviceFeeCents),
    );
  }
  if (totals.couvertCents > 0) {
    saleLines.push({
      ...free('Couvert', c.couvertPerPersonCents),
      quantity: c.people,
    });
  }
  const splits = payments.map((p) => `${p.label}: ${formatCents(p.amountCents)}`).join('; ');
  return {
    originSale,
    typeOfSale: 'command',
    isSimple: false,
    customerId: c.customerId,
    sellerId: c.waiterId,
    deliveryAddress: null,
    discountType: 'fixed_amount',
    discountValue: 0,
    couponCode: null,
    freightCents: 0,
    notes:
      `Comanda ${c.number}${c.tableLabel ? ` · Mesa ${c.tableLabel}` : ''} · Pagamentos: ${splits}`.slice(
        0,
        500,
      ),
    payments: payments.map((p) => ({
      method: p.method as PaymentMethod,
      amountCents: p.amountCents,
      numberInstallments: 1,
    })),
    // Issue 30: the change given at each money payment is the sale's: the cash handed over is the
    // money paid plus its change, so the sale (and its receipt) shows "Recebido" and "Troco".
    cashDepositAmountCents: cashHandedOver(payments),
    lines: saleLines,
  };
}

export async function closeComanda(
  ctx: AppContext,
  session: SessionUser,
  id: number,
  input: { originSale: 'command' | 'waiter' },
  idempotencyKey: string | null,
): Promise<RecordedSale> {
  const seen: { payments: PaymentRow[]; number: number } = { payments: [], number: 0 };
  const recorded = await recordSale(
    ctx,
    session,
    (tx) => comandaDraft(tx, session, id, input.originSale, seen),
    {
      idempotencyKey: idempotencyKey ? `comanda-close:${idempotencyKey}` : null,
      body: { comandaId: id, ...input },
      onRecorded: async (tx, sale) => {
        const now = new Date();
        await tx
          .update(comandas)
          .set({ status: 'finished', saleId: sale.id, closedAt: now, updatedAt: now })
          .where(eq(comandas.id, id));
        await logEvent(tx, session, id, 'closed', `Fechou a comanda na venda ${sale.number}`);
        // Pix QR dinâmico payments: their charges become the sale's (endToEndId, refund on cancel).
        await tiePixChargesToSale(
          tx,
          session.clientId,
          seen.payments.flatMap((p) =>
            p.method === 'pixQrCode' && p.idempotencyKey ? [comandaPixAttemptKey(p.idempotencyKey)] : [],
          ),
          sale.id,
        );
        // Cash taken early at another register moves to the sale's (docs/decisions.md, issue 16).
        const [closing] = (
          (await tx.execute(sql`select r.id from (${openRegisterForSaleSql(session)}) r`)) as unknown as {
            rows: { id: number }[];
          }
        ).rows;
        for (const p of seen.payments) {
          if (p.method !== 'money' || !closing) continue;
          await moveComandaCash(tx, {
            clientId: session.clientId,
            userId: session.userId,
            heldAt: p.cashRegisterId,
            saleAt: Number(closing.id),
            amountCents: p.amountCents,
            reason: `Comanda ${seen.number} (venda ${sale.number}): dinheiro recebido neste caixa`,
          });
        }
      },
    },
  );
  if (!recorded.replayed) ctx.changed(session.clientId, 'comanda', id);
  return recorded;
}
