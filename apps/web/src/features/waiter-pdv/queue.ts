import type { ComandaLineInput } from '@balcao/core/comanda';
import type { ErrorCode } from '@balcao/core/contract';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../../lib/api.ts';
import { newIdempotencyKey } from '../../lib/client.ts';
import { loadPersisted, savePersisted } from '../../lib/persist.ts';
import { sendQueued } from './api.ts';

/**
 * The waiter PDV's outbox (issue 16): every add, send and bill request is queued in local storage
 * with its Idempotency-Key, then sent in order, once, whenever the phone has a connection. A request
 * whose answer was lost is sent again with the same key, so the server applies it once. Kept until
 * the server answers; removed at logout with the rest of the persisted state.
 */
export type QueuedOp =
  | {
      key: string;
      kind: 'add';
      comandaId: number;
      comandaNumber: number;
      line: ComandaLineInput;
      description: string;
    }
  | { key: string; kind: 'send'; comandaId: number; comandaNumber: number }
  | { key: string; kind: 'bill'; comandaId: number; comandaNumber: number };

type NewOp =
  | Omit<Extract<QueuedOp, { kind: 'add' }>, 'key'>
  | Omit<Extract<QueuedOp, { kind: 'send' }>, 'key'>
  | Omit<Extract<QueuedOp, { kind: 'bill' }>, 'key'>;

/**
 * Worth another try later: no answer or the server's trouble, too many attempts, or a conflict (a
 * request with the same key still in flight). A closed tab (`tab_closed`) and every refusal are final.
 */
const RETRYABLE: readonly ErrorCode[] = ['unavailable', 'internal', 'rate_limited', 'conflict'];

/** No answer, or the server could not answer now: keep the operation and try again later. */
export function isRetryable(error: unknown): boolean {
  if (!(error instanceof ApiError)) return true;
  return RETRYABLE.includes(error.code);
}

export function useOutbox(userId: number | undefined, onSent: () => void) {
  const storeKey = `waiterOutbox:${userId ?? 0}`;
  const [ops, setOps] = useState<QueuedOp[]>(() => loadPersisted<QueuedOp[]>(storeKey, []));
  const [failed, setFailed] = useState<string | null>(null);
  const [online, setOnline] = useState(() => (typeof navigator === 'undefined' ? true : navigator.onLine));
  const flushing = useRef(false);
  const opsRef = useRef(ops);
  const onSentRef = useRef(onSent);
  onSentRef.current = onSent;

  const save = useCallback(
    (next: QueuedOp[]) => {
      opsRef.current = next;
      savePersisted(storeKey, next);
      setOps(next);
    },
    [storeKey],
  );

  const flush = useCallback(async () => {
    if (flushing.current) return;
    flushing.current = true;
    let sent = false;
    try {
      while (opsRef.current.length > 0) {
        const [op] = opsRef.current;
        try {
          await sendQueued(op);
          setOnline(true);
        } catch (error) {
          if (isRetryable(error)) {
            // No answer at all (status 0): the phone is offline.
            if (error instanceof ApiError && error.status === 0) setOnline(false);
            break;
          }
          setFailed(
            `${op.kind === 'add' ? op.description : 'Envio'} (comanda ${op.comandaNumber}): ${(error as Error).message}`,
          );
        }
        sent = true;
        save(opsRef.current.filter((o) => o.key !== op.key));
      }
    } finally {
      flushing.current = false;
      if (sent) onSentRef.current();
    }
  }, [save]);

  const enqueue = useCallback(
    (op: NewOp) => {
      save([...opsRef.current, { ...op, key: newIdempotencyKey() } as QueuedOp]);
      void flush();
    },
    [save, flush],
  );

  useEffect(() => {
    const up = () => {
      setOnline(true);
      void flush();
    };
    const down = () => setOnline(false);
    window.addEventListener('online', up);
    window.addEventListener('offline', down);
    const timer = setInterval(() => void flush(), 5000);
    void flush();
    return () => {
      window.removeEventListener('online', up);
      window.removeEventListener('offline', down);
      clearInterval(timer);
    };
  }, [flush]);

  return { ops, enqueue, flush, online, failed, clearFailed: () => setFailed(null) };
}
