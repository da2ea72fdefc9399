import { afterEach, describe, expect, it, vi } from 'vitest';
import { LocalCatalog } from './catalog.ts';
import type { OfflineDb } from './db.ts';

/**
 * The tables `sync` writes, in memory (jsdom has no IndexedDB): what Dexie's bulkPut, bulkDelete,
 * get and put do for these calls.
 */
function memoryDb(): OfflineDb {
  const meta = new Map<string, unknown>();
  return {
    products: { bulkPut: async () => undefined, bulkDelete: async () => undefined },
    meta: {
      get: async (key: string) => (meta.has(key) ? { key, value: meta.get(key) } : undefined),
      put: async (row: { key: string; value: unknown }) => {
        meta.set(row.key, row.value);
      },
    },
  } as unknown as OfflineDb;
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the local catalog fill gives way to the PDV lookups (issue 30 item 20)', () => {
  it('asks no page while a scan is in flight nor within a second of its answer, in pages of 200', async () => {
    vi.useFakeTimers();
    const asked: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        asked.push(url);
        const body = { items: [], deletedIds: [], until: new Date().toISOString(), nextAfterId: null };
        return new Response(JSON.stringify(body), { status: 200 });
      }),
    );
    const catalog = new LocalCatalog(memoryDb());
    let answer: (value: string) => void = () => undefined;
    const scan = catalog.lookingUp(() => new Promise<string>((resolve) => (answer = resolve)));
    const sync = catalog.sync();

    await vi.advanceTimersByTimeAsync(3000);
    expect(asked).toEqual([]);

    answer('found');
    expect(await scan).toBe('found');
    await vi.advanceTimersByTimeAsync(900);
    expect(asked).toEqual([]);

    await vi.advanceTimersByTimeAsync(200);
    await sync;
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('/v1/product/changes?');
    expect(asked[0]).toContain('limit=200');
  });
});
