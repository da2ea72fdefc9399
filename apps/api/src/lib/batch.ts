import DataLoader from 'dataloader';

/**
 * A loader that gathers the calls made at the same moment into one statement (DataLoader, the
 * well-kept library for exactly this). "The same moment" is one turn of the event loop: the
 * requests whose bytes arrived together (20 waiters tapping "adicionar" at once) each reach their
 * `load` before the loop's check phase, where the batch runs. Nothing is cached: every request
 * still reads the database, only the statement is shared.
 *
 * Why: PGlite runs one statement at a time in the process, and each statement costs a fixed
 * overhead (about 1 ms through its protocol) however many rows it serves; PostgreSQL saves the
 * round trips and the pool's connections. `batch` must answer one value (or Error) per key, in the
 * keys' order (DataLoader's contract); keys may repeat.
 */
export function sameMomentLoader<K, V>(
  batch: (keys: readonly K[]) => Promise<readonly (V | Error)[]>,
  options: { maxBatchSize?: number } = {},
): DataLoader<K, V> {
  return new DataLoader<K, V>(batch, {
    cache: false,
    maxBatchSize: options.maxBatchSize ?? 100,
    // After the I/O of this turn (every request that arrived with it), not just this tick's promises.
    batchScheduleFn: (run) => setImmediate(run),
  });
}

/**
 * One loader per executor (a database or a transaction's connection): a transaction's statements
 * run on its own connection, so its loads never join another's batch.
 */
export function loaderPer<E extends object, L>(make: (executor: E) => L): (executor: E) => L {
  const loaders = new WeakMap<E, L>();
  return (executor) => {
    let loader = loaders.get(executor);
    if (!loader) {
      loader = make(executor);
      loaders.set(executor, loader);
    }
    return loader;
  };
}
