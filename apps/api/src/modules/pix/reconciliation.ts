import { addDays } from '@balcao/core/date';
import { PIX_DAY_STATUS_LABELS, type PixDay } from '@balcao/core/pixCharge';
import { formatInZone, instantAt } from '@balcao/core/time';
import { and, eq, inArray } from 'drizzle-orm';
import Papa from 'papaparse';
import type { AppContext } from '../../context.ts';
import { unavailable } from '../../errors.ts';
import type { Actor } from '../../lib/actor.ts';
import { shopClock } from '../../lib/shopToday.ts';
import { centsOfValor, PspError, PspUnreachable } from './psp.ts';
import { pixCharges } from './schema.ts';
import { configuredPsp, pspMessage } from './service.ts';

/**
 * "Conciliação Pix" (issue 33): every Pix the PSP reports for a shop day (GET /pix?inicio&fim, the
 * day's start and end on the shop's clock) against the charges of its sales: matched (a sale has it),
 * unmatched (no sale: a static QR, a late or wrong Pix) or refunded (devolução DEVOLVIDO for all of it).
 */
export async function pixDay(ctx: AppContext, actor: Actor, date: string): Promise<PixDay> {
  const { timeZone } = await shopClock(ctx.db, actor.clientId);
  const start = instantAt(Date.parse(`${date}T00:00:00Z`), timeZone);
  const end = new Date(instantAt(Date.parse(`${addDays(date, 1)}T00:00:00Z`), timeZone).getTime() - 1000);
  const { psp } = await configuredPsp(ctx, actor.clientId);
  let pixes: Awaited<ReturnType<typeof psp.listPix>>;
  try {
    pixes = await psp.listPix(start.toISOString(), end.toISOString());
  } catch (error) {
    if (error instanceof PspError || error instanceof PspUnreachable)
      throw unavailable(pspMessage(error, 'cob'));
    throw error;
  }
  const e2es = pixes.map((p) => p.endToEndId);
  const charges = e2es.length
    ? await ctx.db
        .select({ e2e: pixCharges.endToEndId, saleId: pixCharges.saleId })
        .from(pixCharges)
        .where(and(eq(pixCharges.clientId, actor.clientId), inArray(pixCharges.endToEndId, e2es)))
    : [];
  const saleOf = new Map(charges.map((c) => [c.e2e, c.saleId]));
  const items = pixes.map((p) => {
    const cents = centsOfValor(p.valor);
    const refunded = (p.devolucoes ?? [])
      .filter((d) => d.status === 'DEVOLVIDO')
      .reduce((s, d) => s + centsOfValor(d.valor), 0);
    const saleId = saleOf.get(p.endToEndId) ?? null;
    const status =
      refunded >= cents
        ? ('refunded' as const)
        : saleId !== null
          ? ('matched' as const)
          : ('unmatched' as const);
    return {
      endToEndId: p.endToEndId,
      txid: p.txid ?? null,
      amountCents: cents,
      paidAt: new Date(p.horario).toISOString(),
      status,
      saleId,
    };
  });
  const sum = (status: string) =>
    items.filter((i) => i.status === status).reduce((s, i) => s + i.amountCents, 0);
  return {
    date,
    items,
    totals: {
      matchedCents: sum('matched'),
      unmatchedCents: sum('unmatched'),
      refundedCents: sum('refunded'),
    },
  };
}

export const PIX_DAY_CSV_HEADER = `\uFEFF${Papa.unparse(
  [['horario', 'end_to_end_id', 'txid', 'valor', 'situacao', 'venda']],
  {
    delimiter: ';',
    escapeFormulae: true,
    newline: '\r\n',
  },
)}\r\n`;

/** The CSV lines of a day's reconciliation (times on the shop's clock, decimal comma). */
export async function pixDayCsvLines(ctx: AppContext, clientId: number) {
  const { timeZone, today } = await shopClock(ctx.db, clientId);
  const lines = (items: PixDay['items']) =>
    items.length === 0
      ? ''
      : `${Papa.unparse(
          items.map((i) => [
            formatInZone(i.paidAt, timeZone, 'sheet'),
            i.endToEndId,
            i.txid ?? '',
            (i.amountCents / 100).toFixed(2).replace('.', ','),
            PIX_DAY_STATUS_LABELS[i.status],
            i.saleId === null ? '' : String(i.saleId),
          ]),
          { delimiter: ';', escapeFormulae: true, newline: '\r\n' },
        )}\r\n`;
  return { today, lines };
}
