import { liveQuery } from 'dexie';
import { useEffect, useMemo, useState } from 'react';
import { LocalCatalog } from './catalog.ts';
import { type OfflineDb, type OutboxMovement, type OutboxSale, offlineDb } from './db.ts';

const catalogs = new WeakMap<OfflineDb, LocalCatalog>();

/** The shop's offline store for the logged user, and its local catalog (one per database). */
export function useOfflineStore(clientId: number | undefined, userId: number | undefined) {
  return useMemo(() => {
    if (!clientId || !userId || typeof indexedDB === 'undefined') return null;
    const db = offlineDb(clientId, userId);
    let catalog = catalogs.get(db);
    if (!catalog) {
      catalog = new LocalCatalog(db);
      catalogs.set(db, catalog);
    }
    return { db, catalog };
  }, [clientId, userId]);
}

/** The register movements waiting, live. */
export function useWaitingMovements(db: OfflineDb | null | undefined): OutboxMovement[] {
  const [waiting, setWaiting] = useState<OutboxMovement[]>([]);
  useEffect(() => {
    if (!db) return;
    const subscription = liveQuery(() => db.movements.orderBy('seq').toArray()).subscribe({
      next: setWaiting,
      error: (error) => console.error('outbox read failed', error),
    });
    return () => subscription.unsubscribe();
  }, [db]);
  return waiting;
}

/** The sales waiting in the outbox, live (another tab's sync empties it here too). */
export function useWaitingSales(db: OfflineDb | null | undefined): OutboxSale[] {
  const [waiting, setWaiting] = useState<OutboxSale[]>([]);
  useEffect(() => {
    if (!db) return;
    const subscription = liveQuery(() => db.outbox.orderBy('seq').toArray()).subscribe({
      next: setWaiting,
      // A failed read keeps the last count: the banner never hides waiting sales.
      error: (error) => console.error('outbox read failed', error),
    });
    return () => subscription.unsubscribe();
  }, [db]);
  return waiting;
}
