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

/** What follows a sale's cancel after its commit (issue 32: the NFC-e's cancel event), handed over at wiring. */
export type SaleCanceledFollowUp = (
  ctx: AppContext,
  session: SessionUser,
  sale: { id: number; reason: string },
) => void;

const cancelFollowUps = new WeakMap<AppContext, SaleCanceledFollowUp[]>();

export function onSaleCanceledCommitted(ctx: AppContext, followUp: SaleCanceledFollowUp): void {
  const list = cancelFollowUps.get(ctx) ?? [];
  list.push(followUp);
  cancelFollowUps.set(ctx, list);
}

export function runSaleCanceledFollowUps(
  ctx: AppContext,
  session: SessionUser,
  sale: { id: number; reason: string },
): void {
  for (const followUp of cancelFollowUps.get(ctx) ?? []) {
    try {
      followUp(ctx, session, sale);
    } catch {
      // Never touches the canceled sale.
    }
  }
}
