import { useSyncExternalStore } from 'react';

/**
 * This browser as a print station: its name and the profiles it prints, kept in localStorage so a
 * station tab stays one after a reload. The shell runs the station (StationRunner) while it is set.
 */
type StationConfig = { name: string; profileIds: number[] };

const STORAGE_KEY = 'balcao.printStation';
const listeners = new Set<() => void>();

function read(): StationConfig | null {
  try {
    const parsed = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null') as StationConfig | null;
    return parsed && Array.isArray(parsed.profileIds) && parsed.profileIds.length > 0 ? parsed : null;
  } catch {
    return null;
  }
}

let current = typeof localStorage === 'undefined' ? null : read();

export function setStationConfig(config: StationConfig | null) {
  if (config && config.profileIds.length > 0) localStorage.setItem(STORAGE_KEY, JSON.stringify(config));
  else localStorage.removeItem(STORAGE_KEY);
  current = read();
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useStationConfig(): StationConfig | null {
  return useSyncExternalStore(subscribe, () => current);
}

/** What the running station reports to the page: connected (with its socket id) or the reason it is not. */
type StationState = { status: 'connecting' | 'active' | 'error'; message?: string; printed: number };
let state: StationState = { status: 'connecting', printed: 0 };
const stateListeners = new Set<() => void>();

export function setStationState(next: StationState) {
  state = next;
  for (const listener of stateListeners) listener();
}

export function useStationState(): StationState {
  return useSyncExternalStore(
    (listener) => {
      stateListeners.add(listener);
      return () => stateListeners.delete(listener);
    },
    () => state,
  );
}
