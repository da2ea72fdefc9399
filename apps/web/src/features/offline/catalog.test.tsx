import type { Product } from '@balcao/core/product';
import { buildScaleLabel } from '@balcao/core/scale/weighedLabel';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LocalCatalog } from './catalog.ts';
import type { LocalProduct, OfflineDb } from './db.ts';

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

describe('a weighed label read offline (issue 36)', () => {
  it("adds the cached product of the label's scale code with the weight and the scale's amount", async () => {
    const rows = new Map<number, LocalProduct>();
    const db = {
      products: {
        bulkPut: async (list: LocalProduct[]) => {
          for (const p of list) rows.set(p.id, p);
        },
        each: async (visit: (p: LocalProduct) => void) => {
          for (const p of rows.values()) visit(p);
        },
        get: async (id: number) => rows.get(id),
      },
    } as unknown as OfflineDb;
    const catalog = new LocalCatalog(db);
    const ham = {
      id: 41,
      name: 'Presunto',
      sku: null,
      barcode: null,
      unit: 'kg',
      salePriceCents: 2990,
      scaleCode: '12',
      variants: [],
    } as unknown as Product;
    await catalog.put([ham]);
    const layout = { codeLength: 5, content: 'weight', rounding: 'truncate' } as const;

    // 0,347 kg x R$ 29,90 = R$ 10,3753: the scale truncates to R$ 10,37, and so does the PDV offline.
    const match = await catalog.byScaleLabel(buildScaleLabel('00012', 347, layout), layout);
    expect(match).toMatchObject({ scaleCode: '00012', quantity: 0.347, amountCents: 1037, truncate: true });
    expect(match?.product.id).toBe(41);
    // A price label: the weight that costs exactly the printed amount.
    const priced = { ...layout, content: 'price' } as const;
    expect(await catalog.byScaleLabel(buildScaleLabel('00012', 1037, priced), priced)).toMatchObject({
      quantity: 0.347,
      amountCents: 1037,
      priceMismatch: false,
    });
    // No cached product has the code: the code is looked up as an ordinary barcode.
    expect(await catalog.byScaleLabel(buildScaleLabel('00099', 347, layout), layout)).toBeNull();
    const good = buildScaleLabel('00012', 512, layout);
    await expect(
      catalog.byScaleLabel(`${good.slice(0, 12)}${(Number(good[12]) + 1) % 10}`, layout),
    ).rejects.toThrow('Etiqueta de balança inválida: o dígito verificador não confere. Leia de novo.');
  });
});
