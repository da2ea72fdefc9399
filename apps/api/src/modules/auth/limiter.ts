import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Db, Executor } from '../../db/client.ts';
import { rateLimits } from '../../db/schema.ts';
import { rateLimited } from '../../errors.ts';

/** One counter: at most `max` attempts per `windowMs`, counted under `key`. */
type Limit = { key: string; max: number; windowMs: number };

export const TOO_MANY_ATTEMPTS = 'Muitas tentativas. Aguarde alguns minutos e tente novamente.';
export const TOO_MANY_LOGINS = 'Muitas tentativas de login. Aguarde alguns minutos e tente novamente.';
const TOO_MANY_SIGN_UPS = 'Muitas contas criadas deste endereço. Aguarde e tente novamente mais tarde.';

/**
 * Counts one attempt on every limit in one statement and answers the limits now over, each with the
 * seconds until its window ends. The attempt is counted BEFORE the work it guards (a password check),
 * so parallel requests cannot all slip in under the limit. Counters live in the `rate_limits` table
 * (shared by every API instance); a window starts at the first attempt and ends on its own.
 */
async function countAttempt(db: Db, limits: Limit[]): Promise<{ limit: Limit; retryAfter: number }[]> {
  // One order for every caller: two requests locking the same rows never wait on each other in a loop.
  const sorted = [...limits].sort((a, b) => a.key.localeCompare(b.key));
  const rows = sorted.map(
    (limit) => sql`(${limit.key}, 1, now() + ${`${limit.windowMs} milliseconds`}::interval)`,
  );
  const result = (await db.execute(sql`
    insert into rate_limits (key, hits, expires_at) values ${sql.join(rows, sql`, `)}
    on conflict (key) do update set
      hits = case when rate_limits.expires_at <= now() then 1 else rate_limits.hits + 1 end,
      expires_at = case when rate_limits.expires_at <= now() then excluded.expires_at
                        else rate_limits.expires_at end
    returning key, hits, extract(epoch from expires_at - now())::float8 as "retryAfter"`)) as unknown as {
    rows: { key: string; hits: number; retryAfter: number }[];
  };
  // Ended windows of other keys go away now and then (the table stays the size of the live attempts).
  if (Math.random() < 0.05) await db.delete(rateLimits).where(sql`${rateLimits.expiresAt} < now()`);
  const byKey = new Map(result.rows.map((row) => [row.key, row]));
  return sorted.flatMap((limit) => {
    const row = byKey.get(limit.key);
    return row && Number(row.hits) > limit.max ? [{ limit, retryAfter: Number(row.retryAfter) }] : [];
  });
}

/** 429 with Retry-After: the latest end among the windows that refuse. */
const refuse = (message: string, over: { retryAfter: number }[]) =>
  rateLimited(message, Math.max(...over.map((o) => o.retryAfter)));

/**
 * Counts one attempt on every limit and answers 429 (with Retry-After) when any is over. Call with
 * the database itself, never a transaction: a rolled-back failure would not count.
 */
export async function takeAttempt(db: Db, limits: Limit[], message: string): Promise<void> {
  const over = await countAttempt(db, limits);
  if (over.length) throw refuse(message, over);
}

/**
 * A successful attempt: the narrow counters (`forget`) start over, the wide ones (`giveBack`) lose
 * the attempt `takeAttempt` counted, so a shop's own logins never fill a limit.
 */
async function releaseAttempt(db: Db, forget: string[], giveBack: string[] = []): Promise<void> {
  if (forget.length) await db.delete(rateLimits).where(inArray(rateLimits.key, forget));
  if (giveBack.length)
    await db
      .update(rateLimits)
      .set({ hits: sql`greatest(${rateLimits.hits} - 1, 0)` })
      .where(inArray(rateLimits.key, giveBack));
}

/**
 * Who tries a password: an address (login) or a logged user (a manager's approval typed at a till, a
 * password change). Three limits (issue 31 item 3, docs/decisions.md "Login limits per address"):
 * - narrow, per email AND source: a guesser at one address stops after a few failures, whoever else
 *   is locked out of nothing;
 * - per source across emails: password spraying (many emails, one address or one logged user);
 * - wide, per email from anywhere, slower: guessing one account from many addresses.
 * The last two never lock a known pair out: an email that logged in from this source within
 * `knownMs` (the shop's own counter, the owner's phone) still has its password checked while they are
 * over; only the narrow limit refuses it. An unknown source over either gets 429.
 */
type PasswordSource = { address: string } | { userId: number };

const sourceKey = (source: PasswordSource) =>
  'address' in source ? `address:${source.address}` : `user:${source.userId}`;

const configOf = new WeakMap<Executor, Config>();

/** buildApp: the limits of an app's database (services that only get `db` find them here). */
export function useLimits(db: Db, config: Config): void {
  configOf.set(db, config);
}

/**
 * The one limiter of every password check (login, manager approval, password change), on the app's
 * database. A transaction is refused loudly: a failure counted inside it would roll back with it.
 */
export function passwordLimiter(db: Executor) {
  const config = configOf.get(db);
  if (!config) throw new Error('Password checks run on the database itself, outside any transaction');
  return passwordLimiterWith(db as Db, config);
}

function passwordLimiterWith(db: Db, config: Config) {
  const keysOf = (email: string, source: PasswordSource) => {
    const normalized = email.trim().toLowerCase();
    const from = sourceKey(source);
    return {
      narrow: `password:${normalized}:${from}`,
      wide: `password:${normalized}`,
      source: `password-source:${from}`,
      known: `password-known:${normalized}:${from}`,
    };
  };
  /** Whether the email logged in from this source within the known window (a marker row). */
  const isKnown = async (key: string) => {
    const [row] = await db
      .select({ key: rateLimits.key })
      .from(rateLimits)
      .where(and(eq(rateLimits.key, key), sql`${rateLimits.expiresAt} > now()`))
      .limit(1);
    return Boolean(row);
  };
  return {
    /**
     * Runs `check` (true when the password is right) under the limits: 429 with `message` and
     * Retry-After when over, whatever the password; a right password frees the attempt and marks the
     * email's source as known.
     */
    async guard(email: string, source: PasswordSource, message: string, check: () => Promise<boolean>) {
      const keys = keysOf(email, source);
      const limit = config.passwordLimit;
      const over = await countAttempt(db, [
        { key: keys.narrow, max: limit.perEmailAndSource, windowMs: limit.windowMs },
        { key: keys.source, max: limit.perSource, windowMs: limit.windowMs },
        { key: keys.wide, max: limit.perEmail, windowMs: limit.emailWindowMs },
      ]);
      if (over.some((o) => o.limit.key === keys.narrow)) throw refuse(message, over);
      if (over.length && !(await isKnown(keys.known))) throw refuse(message, over);
      const ok = await check();
      if (ok) {
        await releaseAttempt(db, [keys.narrow], [keys.wide, keys.source]);
        await db.execute(sql`
          insert into rate_limits (key, hits, expires_at)
          values (${keys.known}, 0, now() + ${`${limit.knownMs} milliseconds`}::interval)
          on conflict (key) do update set expires_at = excluded.expires_at`);
      }
      return ok;
    },
  };
}

/** Sign-up: accounts created per address in a window (every attempt counts). */
export function takeSignUp(db: Db, config: Config, address: string): Promise<void> {
  const { perAddress, windowMs } = config.signUpLimit;
  return takeAttempt(db, [{ key: `sign-up:${address}`, max: perAddress, windowMs }], TOO_MANY_SIGN_UPS);
}
