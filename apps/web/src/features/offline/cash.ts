import type { OutboxMovement, OutboxSale } from './db.ts';

/**
 * The register's expected cash (issue 21): the total last seen from the server plus the cash of the
 * sales and movements this device has not sent yet (they are not in the server's total). A sale's
 * cash is its money payments (the change comes out of what was handed over, not the drawer's total).
 */
export function expectedCash(
  serverCents: number,
  sales: OutboxSale[],
  movements: OutboxMovement[],
): { cents: number; unsynced: boolean } {
  let cents = serverCents;
  for (const s of sales)
    for (const p of s.body.sale.payments ?? []) if (p.method === 'money') cents += p.amountCents ?? 0;
  for (const m of movements) cents += m.body.type === 'deposit' ? m.body.amountCents : -m.body.amountCents;
  return { cents, unsynced: sales.length + movements.length > 0 };
}
