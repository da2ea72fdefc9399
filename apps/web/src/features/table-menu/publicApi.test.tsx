import { afterEach, describe, expect, it, vi } from 'vitest';
import { fetchTableMenu } from './publicApi.ts';

const MENU = { shop: 'Lanchonete', tableLabel: '7', products: [] };
const json = (body: unknown, status = 200, url = 'http://localhost/v1/public/table/tok-7') => {
  const res = new Response(JSON.stringify(body), { status });
  Object.defineProperty(res, 'url', { value: url });
  return res;
};

afterEach(() => {
  vi.unstubAllGlobals();
  window.__mesaMenu = undefined;
});

describe("the table page's menu (issue 35: asked for by mesa.html)", () => {
  it('takes the answer mesa.html asked for, once, without asking again', async () => {
    const fetch = vi.fn(async () => json(MENU));
    vi.stubGlobal('fetch', fetch);
    window.__mesaMenu = Promise.resolve(json(MENU));
    expect(await fetchTableMenu('tok-7')).toEqual(MENU);
    expect(fetch).not.toHaveBeenCalled();
    // A second read (a retry) asks the server.
    await fetchTableMenu('tok-7');
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it("asks again when the early answer failed: the server's message is shown", async () => {
    const message = 'Este QR Code não é mais válido: peça ao garçom o novo cardápio';
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json({ message }, 404)),
    );
    window.__mesaMenu = Promise.reject(new TypeError('Failed to fetch'));
    await expect(fetchTableMenu('tok-7')).rejects.toThrow(message);
  });
});
