/**
 * Awaits drizzle queries one after the other. Query builders only run when awaited, so this is the
 * `Promise.all` to use on a transaction: a transaction is one connection, and node-postgres would
 * otherwise queue concurrent queries on it (deprecated behaviour).
 */
export async function inOrder<T extends readonly unknown[]>(
  queries: readonly [...{ [K in keyof T]: PromiseLike<T[K]> }],
): Promise<T> {
  const results: unknown[] = [];
  for (const query of queries) results.push(await query);
  return results as unknown as T;
}
