/** What the offline feature offers the other features (the structure check allows no other way in). */

export { expectedCash } from './cash.ts';
export type { LocalCatalog, SearchHit } from './catalog.ts';
export type { LocalCustomer, OfflineDb } from './db.ts';
export { OfflineSync } from './OfflineSync.tsx';
export { enqueueMovement, enqueueSale } from './outbox.ts';
export { isOffline, onOnline, setUnreachable, useOffline } from './status.ts';
export { useOfflineStore, useWaitingMovements, useWaitingSales } from './useOfflineStore.ts';
