import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { io } from 'socket.io-client';
import { invalidateResource } from '../../lib/queryKeys.ts';

export type AlertColor = 'success' | 'info' | 'warning' | 'error';
export type AppNotification = { id: number; message: string; alertColor: AlertColor; at: Date };

const API_KEY = import.meta.env.VITE_API_KEY ?? 'balcao-public-key';
let nextId = 1;

/** What the API emits as `change` when a resource of the shop changes (a sale at another till). */
type Change = { resource: string; id?: number };

/**
 * Real-time notifications (spec 4 and 7): joins notifications_{clientId}, listens for newChannelMessage.
 * Each pushed message raises the badge and queues a toast; opening the drawer resets the count.
 * A `change` event marks the changed resource's queries stale (lib/queryKeys.ts), so the lists on
 * screen show another till's sale without a reload.
 */
export function useNotifications(clientId: number | undefined, token: string | undefined) {
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
    socket.on('change', (change: Change | undefined) => {
      if (typeof change?.resource === 'string') void invalidateResource(queryClient, change.resource);
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
