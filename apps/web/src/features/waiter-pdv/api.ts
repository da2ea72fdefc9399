import { comandaApi } from '@balcao/core/endpoints/comanda';
import { ApiError } from '../../lib/api.ts';
import { call } from '../../lib/client.ts';
import type { QueuedOp } from './queue.ts';

/**
 * Sends one queued operation with its own Idempotency-Key. The outbox is the waiter's mutation queue:
 * persisted, sent in order, and the comandas refreshed once per flush (`onSent`), not once per
 * operation (a reconnect may flush many).
 */
export async function sendQueued(op: QueuedOp): Promise<void> {
  const params = { id: op.comandaId };
  const options = { idempotencyKey: op.key };
  if (op.kind === 'add') await call(comandaApi.addLine, { params, body: op.line }, options);
  else if (op.kind === 'send') {
    try {
      await call(comandaApi.send, { params }, options);
    } catch (error) {
      // Nothing new to send (already sent by a replay or by someone else): done.
      if (error instanceof ApiError && error.code === 'rule') return;
      throw error;
    }
  } else await call(comandaApi.requestBill, { params });
}
