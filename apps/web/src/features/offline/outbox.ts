import type { CashMovementInput } from '@balcao/core/cashRegister';
import { cashRegisterApi } from '@balcao/core/endpoints/cash-register';
import { saleApi } from '@balcao/core/endpoints/sale';
import type { OfflineSaleInput, Sale } from '@balcao/core/sale';
import { ApiError } from '../../lib/api.ts';
import { call, newIdempotencyKey } from '../../lib/client.ts';
import type { OfflineDb, OutboxSale } from './db.ts';
import { setUnreachable } from './status.ts';

/**
 * Sales finished without a connection (issue 21): kept in IndexedDB in the order they were made and
 * sent, in that order, to POST /v1/sale/offline when the connection returns. Each exactly once:
 *
 * - the sale's UUID is its Idempotency-Key: a request that reached the server but whose answer was
 *   lost (cut, reload) is answered with the same sale when sent again;
 * - one tab sends at a time: the Web Locks API (`navigator.locks`, one lock per shop database)
 *   makes a second tab wait, then find the outbox empty; a tab closed mid-send releases the lock;
 * - an entry leaves the outbox only after the server answered it.
 */

export async function enqueueSale(db: OfflineDb, sale: Omit<OutboxSale, 'seq' | 'error'>): Promise<void> {
  await db.outbox.add({ ...sale, error: null });
}

type SyncResult = { sent: Sale[]; stoppedBy: string | null };

/** Queues a suprimento or sangria made offline (its id makes a resend count once). */
export async function enqueueMovement(db: OfflineDb, body: CashMovementInput): Promise<void> {
  const clientMovementId = newIdempotencyKey();
  const madeAt = new Date().toISOString();
  await db.movements.add({
    clientMovementId,
    madeAt,
    body: { ...body, clientMovementId, madeAt },
    error: null,
  });
}

/** The register movements, after the sales (a sangria counts the cash the offline sales took in). */
async function sendMovements(db: OfflineDb): Promise<string | null> {
  for (;;) {
    const next = await db.movements.orderBy('seq').first();
    if (!next) return null;
    try {
      await call(cashRegisterApi.movement, { body: next.body });
      await db.movements.delete(next.seq as number);
    } catch (error) {
      if (error instanceof ApiError && error.status === 0) {
        setUnreachable(true);
        return error.message;
      }
      const message = error instanceof Error ? error.message : String(error);
      await db.movements.update(next.seq as number, { error: message });
      return message;
    }
  }
}

async function sendAll(db: OfflineDb): Promise<SyncResult> {
  const sales = await sendSales(db);
  if (sales.stoppedBy !== null) return sales;
  return { sent: sales.sent, stoppedBy: await sendMovements(db) };
}

async function sendSales(db: OfflineDb): Promise<SyncResult> {
  const sent: Sale[] = [];
  for (;;) {
    const next = await db.outbox.orderBy('seq').first();
    if (!next) return { sent, stoppedBy: null };
    try {
      const sale = await call(saleApi.offline, { body: next.body satisfies OfflineSaleInput });
      setUnreachable(false);
      await db.outbox.delete(next.seq as number);
      sent.push(sale);
    } catch (error) {
      if (error instanceof ApiError && error.status === 0) {
        setUnreachable(true);
        return { sent, stoppedBy: error.message };
      }
      // A refusal (no open register, a sale too old): kept, shown, and tried again on the next sync;
      // the sales after it wait so the order holds.
      const message = error instanceof Error ? error.message : String(error);
      await db.outbox.update(next.seq as number, { error: message });
      return { sent, stoppedBy: message };
    }
  }
}

/** Sends the waiting sales, one tab at a time (the others wait for the lock, then find nothing). */
export async function syncOutbox(db: OfflineDb): Promise<SyncResult> {
  if (typeof navigator !== 'undefined' && navigator.locks) {
    return navigator.locks.request(`${db.name}:outbox`, () => sendAll(db));
  }
  return sendAll(db);
}
