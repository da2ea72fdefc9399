import { PRODUCT_SEARCH_CAP } from '@balcao/core/product';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClientWithUsers, createTestApp, type TestApp } from '../../../test/helper.ts';
import { api, type Headers, makeProduct } from '../../../test/kit.ts';

/**
 * Product search at scale (issue 21): a search counts up to PRODUCT_SEARCH_CAP matches ("mais de
 * 1.000"), ranks names that start with the search first unless a sort is asked for, and keeps each
 * shop's catalog its own. The catalogs here are imported through the CSV import (the real path).
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type Page = { items: { name: string }[]; total: number; totalCapped: boolean; page: number };

const pad = (i: number) => String(i).padStart(4, '0');

async function importCatalog(auth: Headers, names: string[]) {
  const lines = ['nome;preco_venda', ...names.map((n) => `${n};1,00`)];
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/product/import',
    headers: auth,
    payload: { csv: lines.join('\n'), dryRun: false },
  });
  expect(res.statusCode).toBe(200);
  expect(res.json().created).toBe(names.length);
}

describe('product search: capped count and relevance', () => {
  // 2,050 "Sabão em pó" (more than the cap, more than one chunk of the index walk), 5 kits that
  // contain the word but sort before it by name, 3 others.
  let shop: Awaited<ReturnType<typeof createClientWithUsers>>;
  const search = async (qs: string): Promise<Page> => {
    const res = await api(t, shop.auth).get(`/product/client/${shop.client.id}?${qs}`);
    expect(res.statusCode).toBe(200);
    return res.json();
  };
  const names = (page: Page) => page.items.map((p) => p.name);

  beforeAll(async () => {
    shop = await createClientWithUsers(t, [1]);
    const soap = Array.from({ length: 2050 }, (_, i) => `Sabão em pó ${pad(i)}`);
    const kits = Array.from({ length: 5 }, (_, i) => `Kit limpeza com sabão ${i + 1}`);
    await importCatalog(shop.auth, [...soap, ...kits, 'Água sanitária', 'Esponja dupla face', 'Rodo']);
  }, 120_000);

  it('says "more than 1,000" instead of counting every match, and counts exactly up to the cap', async () => {
    const broad = await search('q=sabao');
    expect(broad).toMatchObject({ total: PRODUCT_SEARCH_CAP, totalCapped: true, page: 1 });
    expect(broad.items).toHaveLength(20);
    const narrow = await search('q=limpeza');
    expect(narrow).toMatchObject({ total: 5, totalCapped: false });
    expect(names(narrow)).toEqual([1, 2, 3, 4, 5].map((i) => `Kit limpeza com sabão ${i}`));
    expect(await search('q=nada-assim')).toMatchObject({ items: [], total: 0, totalCapped: false });
    // LIKE wildcards and the last code point are text like any other.
    for (const odd of ['100%_', 'sab%', '\u{10FFFF}'])
      expect(await search(`q=${encodeURIComponent(odd)}`)).toMatchObject({ total: 0, totalCapped: false });
    // Without a search the total is exact (the per-client counter).
    expect(await search('')).toMatchObject({ total: 2058, totalCapped: false });
  });

  it('ranks names that start with the search first, then the others, each by name', async () => {
    const first = await search('q=sab&pageSize=3');
    expect(names(first)).toEqual(['Sabão em pó 0000', 'Sabão em pó 0001', 'Sabão em pó 0002']);
    // The page where the names that start with "sabão" end and the kits begin.
    const seam = await search('q=sabao&pageSize=10&page=205');
    expect(names(seam)).toEqual([
      ...[2040, 2041, 2042, 2043, 2044, 2045, 2046, 2047, 2048, 2049].map((i) => `Sabão em pó ${pad(i)}`),
    ]);
    const after = await search('q=sabao&pageSize=10&page=206');
    expect(names(after)).toEqual([1, 2, 3, 4, 5].map((i) => `Kit limpeza com sabão ${i}`));
    const crossing = await search('q=sabao&pageSize=12&page=171');
    expect(names(crossing)).toEqual([
      ...[2040, 2041, 2042, 2043, 2044, 2045, 2046, 2047, 2048, 2049].map((i) => `Sabão em pó ${pad(i)}`),
      'Kit limpeza com sabão 1',
      'Kit limpeza com sabão 2',
    ]);
  });

  it('walks the whole name order when the search is not the start of the names', async () => {
    const page1 = await search('q=em%20po&pageSize=5');
    expect(page1).toMatchObject({ total: PRODUCT_SEARCH_CAP, totalCapped: true });
    expect(names(page1)).toEqual([0, 1, 2, 3, 4].map((i) => `Sabão em pó ${pad(i)}`));
    // Past the first chunk of the walk (2,000 rows of the index).
    const deep = await search('q=em%20po&pageSize=100&page=21');
    expect(names(deep)).toEqual(Array.from({ length: 50 }, (_, i) => `Sabão em pó ${pad(2000 + i)}`));
  });

  it('keeps a chosen sort exact over every match', async () => {
    const byName = await search('q=sabao&sort=name&pageSize=6');
    expect(byName).toMatchObject({ total: PRODUCT_SEARCH_CAP, totalCapped: true });
    expect(names(byName)).toEqual([
      ...[1, 2, 3, 4, 5].map((i) => `Kit limpeza com sabão ${i}`),
      'Sabão em pó 0000',
    ]);
    const desc = await search('q=sabao&sort=-name&pageSize=2');
    expect(names(desc)).toEqual(['Sabão em pó 2049', 'Sabão em pó 2048']);
    // Price walks its index (equal prices: by id), past the first chunk of the walk.
    const cheapLast = await search('q=em%20po&sort=-salePriceCents&pageSize=100&page=21');
    expect(names(cheapLast)).toEqual(Array.from({ length: 50 }, (_, i) => `Sabão em pó ${pad(49 - i)}`));
    const newest = await search('q=sabao&sort=-createdAt&pageSize=1');
    expect(newest.items).toHaveLength(1);
    expect(
      (await api(t, shop.auth).get(`/product/client/${shop.client.id}?q=sabao&sort=senha`)).statusCode,
    ).toBe(400);
  });

  it('sorts a broad word by name exactly, with the capped total, from the word table', async () => {
    // One word, no filter: the word table's order. "limp" is inside "limpeza" only (5 kits).
    const kits = await search('q=limp&sort=name');
    expect(kits).toMatchObject({ total: 5, totalCapped: false });
    expect(names(kits)).toEqual([1, 2, 3, 4, 5].map((i) => `Kit limpeza com sabão ${i}`));
    // Past the cap: the first 1,000 by name, the kits (inside the name) before the soaps.
    const last = await search('q=sabao&sort=name&pageSize=100&page=10');
    expect(last).toMatchObject({ total: PRODUCT_SEARCH_CAP, totalCapped: true, page: 10 });
    expect(names(last)).toEqual(Array.from({ length: 100 }, (_, i) => `Sabão em pó ${pad(895 + i)}`));
    const desc = await search('q=abao&sort=-name&pageSize=3&page=2');
    expect(names(desc)).toEqual(['Sabão em pó 2046', 'Sabão em pó 2045', 'Sabão em pó 2044']);
    // A word inside no name start: relevance is the name order, with the capped total.
    const inside = await search('q=abao&pageSize=6');
    expect(inside).toMatchObject({ total: PRODUCT_SEARCH_CAP, totalCapped: true });
    expect(names(inside)).toEqual([
      ...[1, 2, 3, 4, 5].map((i) => `Kit limpeza com sabão ${i}`),
      'Sabão em pó 0000',
    ]);
    // The same order with a filter (the indexed walk, not the word table).
    const active = await search('q=abao&sort=name&active=true&pageSize=6');
    expect(names(active)).toEqual(names(inside));
  });

  it('keeps the word table true when products are renamed, re-coded and deleted', async () => {
    const { client, auth } = await createClientWithUsers(t, [1]);
    const list = async (q: string) =>
      (await api(t, auth).get(`/product/client/${client.id}?q=${encodeURIComponent(q)}&sort=name`)).json();
    const made = await makeProduct(t, auth, { name: 'Caneta esferográfica azul', sku: 'CAN-001' });
    expect((await list('esferografica')).items.map((p: { name: string }) => p.name)).toEqual([
      'Caneta esferográfica azul',
    ]);
    expect((await list('can-0')).total).toBe(1);
    const renamed = await api(t, auth).put(`/product/${made.id}`, {
      salePriceCents: 1000,
      name: 'Lápis grafite',
      sku: 'LAP-002',
      updatedAt: made.updatedAt,
    });
    expect(renamed.statusCode).toBe(200);
    expect(await list('esferografica')).toMatchObject({ items: [], total: 0 });
    expect((await list('can-0')).total).toBe(0);
    expect((await list('grafite')).items.map((p: { name: string }) => p.name)).toEqual(['Lápis grafite']);
    expect((await list('lap-0')).total).toBe(1);
    expect((await api(t, auth).delete(`/product/${made.id}`)).statusCode).toBe(200);
    expect(await list('grafite')).toMatchObject({ items: [], total: 0, totalCapped: false });
  });

  it('ranks the start of the name first in a small catalog too (the PDV search)', async () => {
    const { client, auth } = await createClientWithUsers(t, [1]);
    for (const name of ['Torta de chocolate', 'Chocolate ao leite', 'Bolo de chocolate', 'Chocolate amargo'])
      await makeProduct(t, auth, { name });
    const pdv = (
      await api(t, auth).get(`/product/client/${client.id}?q=chocolate&active=true&pageSize=8`)
    ).json();
    expect(pdv).toMatchObject({ total: 4, totalCapped: false });
    expect(pdv.items.map((p: { name: string }) => p.name)).toEqual([
      'Chocolate amargo',
      'Chocolate ao leite',
      'Bolo de chocolate',
      'Torta de chocolate',
    ]);
    const byName = (await api(t, auth).get(`/product/client/${client.id}?q=chocolate&sort=name`)).json();
    expect(byName.items.map((p: { name: string }) => p.name)).toEqual([
      'Bolo de chocolate',
      'Chocolate amargo',
      'Chocolate ao leite',
      'Torta de chocolate',
    ]);
    // Two words: names that start with both, then with the first word, then the others.
    for (const name of ['Leite com chocolate', 'Chocolate leite condensado', 'Bolo de chocolate com leite'])
      await makeProduct(t, auth, { name });
    const twoWords = (await api(t, auth).get(`/product/client/${client.id}?q=chocolate%20leite`)).json();
    expect(twoWords.items.map((p: { name: string }) => p.name)).toEqual([
      'Chocolate leite condensado',
      'Chocolate ao leite',
      'Bolo de chocolate com leite',
      'Leite com chocolate',
    ]);
    // Another shop's 2,050 soaps are not this shop's: nothing found, nothing counted.
    expect((await api(t, auth).get(`/product/client/${client.id}?q=sabao`)).json()).toMatchObject({
      items: [],
      total: 0,
      totalCapped: false,
    });
  });
});
