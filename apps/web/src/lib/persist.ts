/** Persisted client state in local storage (spec 4: removed at logout), theme aside. */
const PERSIST_PREFIX = 'balcao:state:';
export const THEME_KEY = 'balcao:theme';

export function loadPersisted<T>(key: string, fallback: T): T {
  try {
    const raw = localStorage.getItem(PERSIST_PREFIX + key);
    return raw ? (JSON.parse(raw) as T) : fallback;
  } catch {
    return fallback;
  }
}

export function savePersisted(key: string, value: unknown): void {
  try {
    localStorage.setItem(PERSIST_PREFIX + key, JSON.stringify(value));
  } catch {
    // storage full or disabled: the state simply is not kept
  }
}

export function removePersisted(key: string): void {
  localStorage.removeItem(PERSIST_PREFIX + key);
}

export function clearPersistedState(): void {
  for (const key of Object.keys(localStorage)) {
    if (key.startsWith(PERSIST_PREFIX)) localStorage.removeItem(key);
  }
}
