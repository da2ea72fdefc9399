import { AppError } from '../errors.ts';

/**
 * Optimistic concurrency (DESIGN.md: no silent overwrite). Every update of an editable record
 * carries the `updatedAt` the client read; the UPDATE is guarded by `isSameVersion` (lib/pg.ts)
 * and `assertNotStale` refuses it when no row matched.
 */
export const STALE_MESSAGE =
  'Este registro foi alterado por outra pessoa. Recarregue a página e tente novamente.';

/** 409 `stale`: the edit was made on a copy someone changed meanwhile. */
export const staleEdit = () => new AppError(409, STALE_MESSAGE, undefined, 'stale');

/** The rows a version-guarded UPDATE returned: none means the client's copy is stale. */
export function assertNotStale(updated: readonly unknown[]): void {
  if (updated.length === 0) throw staleEdit();
}
