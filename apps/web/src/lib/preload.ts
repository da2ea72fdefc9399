import { type MouseEvent, useEffect, useState, useSyncExternalStore } from 'react';

/**
 * Starting a page before React renders it: the menu calls `preloadPage` when the pointer comes
 * over an item (its code) and on the click (its code and its first GET), so the page's chunks and
 * data are on the way while React renders the navigation. pages.tsx registers how (lib cannot
 * import the pages).
 */
type Preloader = (routeName: string, withData: boolean) => void;

let preloader: Preloader | null = null;

export function setPagePreloader(next: Preloader): void {
  preloader = next;
}

function preloadPage(routeName: string, withData = false): void {
  preloader?.(routeName, withData);
}

/**
 * The props of a menu link to route `name`: the code on hover, focus or touch; the data too on a
 * plain click that leaves the current page (`current`: the link is the page open; a click that
 * opens a new browser tab, or on the page already open, starts no GET that nobody would take).
 */
export function preloadProps(name: string, current: boolean) {
  const code = () => preloadPage(name);
  return {
    onPointerEnter: code,
    onPointerDown: code,
    onFocus: code,
    onClick: (event: MouseEvent) => {
      const plain = event.button === 0 && !(event.metaKey || event.ctrlKey || event.shiftKey || event.altKey);
      preloadPage(name, plain && !current);
    },
  };
}

/**
 * Pages whose code a navigation waits for. A navigation is a transition: the current page stays on
 * screen until the next one's code is there (RouteGuard), so the shell shows a thin progress bar
 * when that takes long (a first visit on a slow connection, before the service worker has the code).
 */
let waiting = 0;
const listeners = new Set<() => void>();
const changed = (by: number) => {
  waiting += by;
  for (const listener of listeners) listener();
};

/** Counts `code` as waited for until it settles (called while React renders: the count moves after). */
export function waitFor<T>(code: Promise<T>): Promise<T> {
  queueMicrotask(() => changed(1));
  code.then(
    () => queueMicrotask(() => changed(-1)),
    () => queueMicrotask(() => changed(-1)),
  );
  return code;
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** True when a navigation has waited for a page's code longer than `afterMs` (no flash on fast loads). */
export function useWaitingForPage(afterMs = 150): boolean {
  const busy = useSyncExternalStore(subscribe, () => waiting > 0);
  const [late, setLate] = useState(false);
  useEffect(() => {
    if (!busy) {
      setLate(false);
      return;
    }
    const timer = setTimeout(() => setLate(true), afterMs);
    return () => clearTimeout(timer);
  }, [busy, afterMs]);
  return busy && late;
}
