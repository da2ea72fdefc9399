import type { AppContext } from '../../context.ts';
import type { SessionUser } from '../../plugins/auth.ts';

/**
 * What runs after a sale's commit in modules above sale (issue 32: the sale's NFC-e), handed over at
 * wiring (modules/index.ts) because sale may not import them. Called by `recordSale` after the commit
 * for every origin (PDV, quick sale, comanda close, budget conversion, delivery, offline sync), never
 * awaited: the checkout answers without them and adds no statement to its transaction.
 */
export type SaleCommitted = (
  ctx: AppContext,
  session: SessionUser,
  sale: { id: number; consumerDocument: string | null },
) => void;

const followUps = new WeakMap<AppContext, SaleCommitted[]>();

export function onSaleCommitted(ctx: AppContext, followUp: SaleCommitted): void {
  const list = followUps.get(ctx) ?? [];
  list.push(followUp);
  followUps.set(ctx, list);
}

export function runSaleFollowUps(
  ctx: AppContext,
  session: SessionUser,
  sale: { id: number; consumerDocument: string | null },
): void {
  for (const followUp of followUps.get(ctx) ?? []) {
    try {
      followUp(ctx, session, sale);
    } catch {
      // A follow-up's failure never touches the recorded sale (each keeps its own durable retry).
    }
  }
}
