import type { OutboxMovement, OutboxSale } from './db.ts';

/**
 * The register's expected cash (issue 21): the total last seen from the server plus the cash of the
 * sales and movements this device has not sent yet (they are not in the server's total). A sale's
 * cash is its money payments less the change: what was typed in money beyond the sale's total (as
 * core `checkPayments` applies it) went back to the customer.
 */
export function expectedCash(
  serverCents: number,
  sales: OutboxSale[],
  movements: OutboxMovement[],
): { cents: number; unsynced: boolean } {
  let cents = serverCents;
  for (const s of sales) {
    const payments = s.body.sale.payments ?? [];
    const paid = payments.reduce((sum, p) => sum + (p.amountCents ?? 0), 0);
    const money = payments.reduce((sum, p) => sum + (p.method === 'money' ? (p.amountCents ?? 0) : 0), 0);
    cents += money - Math.max(0, paid - s.finalAmountCents);
  }
  for (const m of movements) cents += m.body.type === 'deposit' ? m.body.amountCents : -m.body.amountCents;
  return { cents, unsynced: sales.length + movements.length > 0 };
}
