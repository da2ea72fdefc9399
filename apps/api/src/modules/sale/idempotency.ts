import { createHash } from 'node:crypto';
import { and, eq, lt, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { saleIdempotencyKeys } from './schema.ts';

/**
 * Idempotency-Keys of the sale endpoints: the first request with a key claims it in its own
 * checkout transaction; a retry (even racing) waits on the key's primary key and answers the sale
 * recorded for it. The same key with another body is refused.
 */

export const IDEMPOTENCY_KEY_REUSED =
  'Esta Idempotency-Key já foi usada em outra venda: gere uma nova chave para uma nova venda';

export type KeyClaim = { key: string; hash: string };

/** What a request claims: its key and the hash of its body (null without a key). */
export function claimOf(key: string | null | undefined, body: unknown): KeyClaim | null {
  return key ? { key, hash: createHash('sha256').update(JSON.stringify(body)).digest('hex') } : null;
}

/**
 * The CTE `claim` of the checkout's first statement: inserts the key (ON CONFLICT DO NOTHING: a
 * racing retry waits here until the first commits), and the expression that is 1 when this request
 * claimed it, 0 when the key was there. Without a key: no CTE, always 1.
 */
export function claimSql(clientId: number, claim: KeyClaim | null): { cte: SQL; claimed: SQL } {
  if (!claim) return { cte: sql``, claimed: sql`1` };
  return {
    cte: sql`with claim as (insert into sale_idempotency_keys (client_id, key, request_hash)
      values (${clientId}, ${claim.key}, ${claim.hash}) on conflict do nothing returning key) `,
    claimed: sql`(select count(*) from claim)::int`,
  };
}

/** The key's row as committed by the request that claimed it first. */
export async function findKey(tx: Executor, clientId: number, key: string) {
  const [row] = await tx
    .select()
    .from(saleIdempotencyKeys)
    .where(and(eq(saleIdempotencyKeys.clientId, clientId), eq(saleIdempotencyKeys.key, key)));
  return row ?? null;
}

/**
 * How long an Idempotency-Key answers with its first sale. A PDV retries within seconds or minutes
 * (a timeout, a reconnect); a week also covers a till that queued a sale offline over a weekend.
 */
const IDEMPOTENCY_KEY_DAYS = 7;

/** Forgets the keys older than IDEMPOTENCY_KEY_DAYS (the sales stay). Returns how many went. */
export async function purgeIdempotencyKeys(db: Executor, now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - IDEMPOTENCY_KEY_DAYS * 86_400_000);
  const gone = await db
    .delete(saleIdempotencyKeys)
    .where(lt(saleIdempotencyKeys.createdAt, before))
    .returning({ key: saleIdempotencyKeys.key });
  return gone.length;
}
