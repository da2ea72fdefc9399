import { useSyncExternalStore } from 'react';

/**
 * Whether the PDV is offline: the browser says so (navigator.onLine false), or the last request to
 * the API could not reach it (a network error while the browser still thinks it is online, e.g. a
 * dead Wi-Fi). Back online when the browser says so or a request gets through.
 */

let unreachable = false;
const listeners = new Set<() => void>();
const emit = () => {
  for (const l of listeners) l();
};

export function isOffline(): boolean {
  return (typeof navigator !== 'undefined' && navigator.onLine === false) || unreachable;
}

/** The API could not be reached (ApiError status 0), or could again. */
export function setUnreachable(value: boolean) {
  if (unreachable === value) return;
  unreachable = value;
  emit();
}

if (typeof window !== 'undefined') {
  window.addEventListener('online', () => {
    unreachable = false;
    emit();
  });
  window.addEventListener('offline', emit);
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function useOffline(): boolean {
  return useSyncExternalStore(subscribe, isOffline, () => false);
}

/** Runs `listener` when the connection comes back. */
export function onOnline(listener: () => void): () => void {
  const wrapped = () => {
    if (!isOffline()) listener();
  };
  return subscribe(wrapped);
}
