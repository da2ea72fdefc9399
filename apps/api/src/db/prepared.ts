import { AsyncLocalStorage } from 'node:async_hooks';
import {
  type PGlite,
  parse,
  protocol,
  type QueryOptions,
  type Results,
  type Transaction,
} from '@electric-sql/pglite';

/**
 * Prepared statements on PGlite for the hot paths that ask for them (`withPreparedStatements`: the
 * checkout). PGlite's `query` parses and plans every statement each time and talks to the database
 * in six calls (parse, describe, bind, describe, execute, sync). Inside the scope a statement is
 * parsed once per database under a name (its parameter types kept), then each execution is ONE call
 * (bind, describe, execute, sync) that reuses the parse and, as PostgreSQL decides (plan_cache_mode
 * auto, as any driver's prepared statements), the plan. Outside the scope every query runs as
 * before. Values are serialized and rows parsed by PGlite's own serializers and parsers, so answers
 * are the same. PostgreSQL (node-postgres) is untouched: the scope is a no-op there.
 * docs/decisions.md, "The checkout's own cost".
 */

const scope = new AsyncLocalStorage<true>();
/**
 * Whether this process has a PGlite database (`preparingClient` was called). On PostgreSQL alone the
 * scope is never entered: an AsyncLocalStorage in use makes every promise of the process track it.
 */
let pgliteOpened = false;

/** Runs `work` with its PGlite statements prepared (see the file's comment). */
export function withPreparedStatements<T>(work: () => Promise<T>): Promise<T> {
  return pgliteOpened ? scope.run(true, work) : work();
}

/** Named statements per database; past this many, new texts run unprepared (nothing is evicted). */
const MAX_STATEMENTS = 500;

type Statement = { name: string; paramTypes: number[] };
type Cache = { statements: Map<string, Statement>; next: number };

const concat = (parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((sum, p) => sum + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
};

const { serialize } = protocol;

/** DDL invalidates what the named statements describe (a `select *` may change shape): forget them. */
const DDL = /^\s*(create|alter|drop|truncate|comment|grant|revoke)\b/i;

async function runPrepared<T>(
  pg: PGlite,
  cache: Cache,
  text: string,
  params: unknown[],
  options: QueryOptions | undefined,
  inTransaction: boolean,
): Promise<Results<T>> {
  let statement = cache.statements.get(text);
  if (!statement) {
    const name = `balcao_${cache.next++}`;
    const described = await pg.execProtocolStream(
      concat([serialize.parse({ name, text }), serialize.describe({ type: 'S', name }), serialize.sync()]),
      { syncToFs: false },
    );
    statement = { name, paramTypes: parse.parseDescribeStatementResults(described) };
    cache.statements.set(text, statement);
  }
  const { paramTypes } = statement;
  const values = params.map((value, i) => {
    if (value === null || value === undefined) return null;
    const serializer = options?.serializers?.[paramTypes[i]] ?? pg.serializers[paramTypes[i]];
    return serializer ? serializer(value) : String(value);
  });
  let messages: Awaited<ReturnType<PGlite['execProtocolStream']>>;
  try {
    messages = await pg.execProtocolStream(
      concat([
        serialize.bind({ statement: statement.name, values }),
        serialize.describe({ type: 'P' }),
        serialize.execute({}),
        serialize.sync(),
      ]),
      { syncToFs: false },
    );
  } catch (error) {
    Object.assign(error as object, { query: text, params });
    throw error;
  }
  if (!inTransaction) await pg.syncToFs();
  return parse.parseResults(messages, pg.parsers, options)[0] as Results<T>;
}

/**
 * The PGlite client drizzle is given: `query` (on the client and inside transactions) prepares its
 * statement when called inside `withPreparedStatements`; everything else is PGlite's own.
 */
export function preparingClient(pg: PGlite): PGlite {
  pgliteOpened = true;
  const cache: Cache = { statements: new Map(), next: 1 };
  const useNamed = (text: string, options: QueryOptions | undefined) => {
    if (DDL.test(text)) {
      // Named statements stay parsed for the old tables: start again (PostgreSQL keeps the old
      // ones until the session ends; they are never used again).
      cache.statements.clear();
      return false;
    }
    return (
      scope.getStore() === true &&
      !options?.blob &&
      (cache.statements.has(text) || cache.statements.size < MAX_STATEMENTS)
    );
  };
  const query = <T>(text: string, params: unknown[] = [], options?: QueryOptions) =>
    useNamed(text, options)
      ? pg._runExclusiveTransaction(() =>
          pg.runExclusive(() => runPrepared<T>(pg, cache, text, params, options, false)),
        )
      : pg.query<T>(text, params, options);
  const inTransaction = (tx: Transaction): Transaction =>
    new Proxy(tx, {
      get(target, property, receiver) {
        if (property !== 'query') return Reflect.get(target, property, receiver);
        return <T>(text: string, params: unknown[] = [], options?: QueryOptions) => {
          if (!useNamed(text, options)) return target.query<T>(text, params, options);
          if (target.closed) throw new Error('Transaction is closed');
          return pg.runExclusive(() => runPrepared<T>(pg, cache, text, params, options, true));
        };
      },
    });
  return new Proxy(pg, {
    get(target, property) {
      if (property === 'query') return query;
      if (property === 'transaction')
        return <T>(work: (tx: Transaction) => Promise<T>) =>
          target.transaction((tx) => work(inTransaction(tx)));
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
