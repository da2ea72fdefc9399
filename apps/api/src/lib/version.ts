import { AppError } from '../errors.ts';
import { isTimestamp } from './pg.ts';

/**
 * Optimistic concurrency (DESIGN.md: no silent overwrite). Every update of an editable record
 * carries the `updatedAt` the client read; the UPDATE is guarded by `isSameVersion` (lib/pg.ts)
 * and `assertNotStale` refuses it when no row matched.
 */
const STALE_MESSAGE = 'Este registro foi alterado por outra pessoa. Recarregue a página e tente novamente.';

/** 409 `stale`: the edit was made on a copy someone changed meanwhile. */
export const staleEdit = () => new AppError(409, STALE_MESSAGE, undefined, 'stale');

/** The rows a version-guarded UPDATE returned: none means the client's copy is stale. */
export function assertNotStale(updated: readonly unknown[]): void {
  if (updated.length === 0) throw staleEdit();
}

const VERSION_MISSING =
  'Envie a versão do registro que você editou (updatedAt). Recarregue a página e tente novamente.';
const VERSION_INVALID = 'Versão do registro (updatedAt) inválida';

/**
 * The `updatedAt` an update must carry: 400 when it is missing (an edit without the version it
 * was made on would overwrite silently) or not a timestamp.
 */
export function versionOf(updatedAt: string | undefined): string {
  if (updatedAt === undefined)
    throw new AppError(400, VERSION_MISSING, [{ path: 'updatedAt', message: VERSION_MISSING }]);
  if (!isTimestamp(updatedAt))
    throw new AppError(400, VERSION_INVALID, [{ path: 'updatedAt', message: VERSION_INVALID }]);
  return updatedAt;
}

/**
 * The version a client may send (issue 31 item 5, spec 7 "PUT /coupon/{id}, same payload"): the
 * body's `updatedAt`, else an `If-Match` header (the updatedAt, quoted or not, `W/` ignored). Null when
 * neither is sent: the update is taken as is (last write wins), as a client following the spec expects.
 * A version that is sent is still checked (400 when not a timestamp, 409 when stale).
 */
export function optionalVersionOf(updatedAt: string | undefined, ifMatch: string | undefined): string | null {
  const header = ifMatch
    ?.trim()
    .replace(/^W\//, '')
    .replace(/^"(.*)"$/, '$1');
  const sent = updatedAt ?? (header && header !== '*' ? header : undefined);
  return sent === undefined ? null : versionOf(sent);
}
