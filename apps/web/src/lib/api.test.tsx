import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiFetch, startGet } from './api.ts';

/** The network as the browser's fetch: each call answers the next number. */
function countingFetch() {
  let calls = 0;
  const fake = vi.fn(async (_url: string | URL | Request, init?: RequestInit) => {
    calls++;
    return new Response(JSON.stringify({ call: calls, method: init?.method ?? 'GET' }), { status: 200 });
  });
  vi.stubGlobal('fetch', fake);
  return fake;
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('startGet', () => {
  it("hands a page's first GET of the path the answer started with its code, once", async () => {
    const fake = countingFetch();
    startGet('/comanda');
    expect(fake).toHaveBeenCalledTimes(1);
    expect(await apiFetch('/comanda')).toEqual({ call: 1, method: 'GET' });
    expect(fake).toHaveBeenCalledTimes(1);
    // The next call asks again (a refetch must not get the old answer).
    expect(await apiFetch('/comanda')).toEqual({ call: 2, method: 'GET' });
    // Another path and a write are never served from it.
    startGet('/comanda');
    expect(await apiFetch('/comanda/menu')).toEqual({ call: 4, method: 'GET' });
    expect(await apiFetch('/comanda', { method: 'POST', body: {} })).toEqual({ call: 5, method: 'POST' });
    expect(await apiFetch('/comanda')).toEqual({ call: 3, method: 'GET' });
  });

  it('is not used after 10 s: the page asks anew', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const fake = countingFetch();
    startGet('/comanda');
    vi.setSystemTime(Date.now() + 10_001);
    expect(await apiFetch('/comanda')).toEqual({ call: 2, method: 'GET' });
    expect(fake).toHaveBeenCalledTimes(2);
  });
});
