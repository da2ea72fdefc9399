import { RESOURCES, type Resource } from '@balcao/core/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { io } from 'socket.io-client';
import { invalidateResources } from '../../lib/queryKeys.ts';

export type AlertColor = 'success' | 'info' | 'warning' | 'error';
export type AppNotification = { id: number; message: string; alertColor: AlertColor; at: Date };

const API_KEY = import.meta.env.VITE_API_KEY ?? 'balcao-public-key';
let nextId = 1;

/** What the API emits as `change` when a resource of the shop changes (a sale at another till). */
type Change = { resource: Resource; id?: number };
const KNOWN = new Set<string>(RESOURCES);
/** One write may signal several resources (a settled installment: receivable, sale, register). */
const CHANGE_BATCH_MS = 100;

/**
 * Real-time notifications (spec 4 and 7): joins notifications_{clientId}, listens for newChannelMessage.
 * Each pushed message raises the badge and queues a toast; opening the drawer resets the count.
 * `change` events, gathered for CHANGE_BATCH_MS after the first, mark the changed resources' queries stale
 * (lib/queryKeys.ts), so the lists on screen show another till's sale without a reload.
 */
export function useNotifications(
  clientId: number | undefined,
  token: string | undefined,
  /** Told each batch of changed resources after the queries are marked (the session reloads on 'session'). */
  onChanges?: (resources: Resource[]) => void,
) {
  const onChangesRef = useRef(onChanges);
  onChangesRef.current = onChanges;
  const [items, setItems] = useState<AppNotification[]>([]);
  const [unread, setUnread] = useState(0);
  const [toasts, setToasts] = useState<AppNotification[]>([]);
  const queryClient = useQueryClient();

  useEffect(() => {
    if (!clientId || !token) return;
    const channel = `notifications_${clientId}`;
    const socket = io({
      path: '/socket.io',
      query: { key: API_KEY },
      auth: { token },
      reconnectionDelay: 1000,
      reconnectionDelayMax: 5000,
      timeout: 20_000,
    });
    socket.on('connect', () => socket.emit('joinChannel', channel));
    // Events sent while this socket was away (a phone asleep, a dropped Wi-Fi, another instance
    // restarting) are not replayed by the transport: on every reconnect the shown data is read
    // again, so a board or panel is never left stale (docs/decisions.md, "Live data after a reconnect").
    socket.io.on('reconnect', () => {
      void queryClient.invalidateQueries();
      onChangesRef.current?.(['session']);
    });
    const changed = new Set<Resource>();
    let batch: ReturnType<typeof setTimeout> | undefined;
    socket.on('change', (change: Change | undefined) => {
      if (typeof change?.resource !== 'string' || !KNOWN.has(change.resource)) return;
      changed.add(change.resource);
      batch ??= setTimeout(() => {
        batch = undefined;
        const resources = [...changed];
        changed.clear();
        void invalidateResources(queryClient, resources);
        onChangesRef.current?.(resources);
      }, CHANGE_BATCH_MS);
    });
    socket.on('newChannelMessage', (payload: { message?: string }) => {
      let parsed: { message?: string; alertColor?: AlertColor } = {};
      try {
        parsed = JSON.parse(payload?.message ?? '{}');
      } catch {
        parsed = { message: payload?.message };
      }
      if (!parsed.message) return;
      const notification: AppNotification = {
        id: nextId++,
        message: parsed.message,
        alertColor: parsed.alertColor ?? 'info',
        at: new Date(),
      };
      setItems((list) => [notification, ...list].slice(0, 100));
      setUnread((n) => n + 1);
      setToasts((list) => [...list, notification]);
    });
    return () => {
      clearTimeout(batch);
      socket.emit('leaveChannel', channel);
      socket.disconnect();
    };
  }, [clientId, token, queryClient]);

  const markAllRead = useCallback(() => setUnread(0), []);
  /** A dismissed (or expired) toast leaves the queue and is never shown again. */
  const dismissToast = useCallback((id: number) => setToasts((list) => list.filter((t) => t.id !== id)), []);
  const clear = useCallback(() => setItems([]), []);

  return { items, unread, toasts, markAllRead, dismissToast, clear };
}
