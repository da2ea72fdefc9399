import { comandaApi } from '@balcao/core/endpoints/comanda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { urlOf } from '../../lib/client.ts';
import { sendQueued } from './api.ts';

type Sent = { method: string; url: string; key: string | undefined; body: unknown };

function serve(status = 201, answer: unknown = {}) {
  const calls: Sent[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const headers = (init.headers ?? {}) as Record<string, string>;
      calls.push({
        method: init.method ?? 'GET',
        url,
        key: headers['idempotency-key'],
        body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
      });
      return new Response(JSON.stringify(answer), { status });
    }),
  );
  return calls;
}

afterEach(() => vi.unstubAllGlobals());

const line = { productId: 3, quantity: 1 };

describe("the waiter outbox's sends", () => {
  it('sends each queued operation with its own Idempotency-Key, the same key on a retry', async () => {
    const calls = serve();
    const add = {
      key: 'add-key-0001',
      kind: 'add',
      comandaId: 7,
      comandaNumber: 7,
      line,
      description: 'Suco',
    } as const;
    await sendQueued(add);
    await sendQueued(add);
    await sendQueued({ key: 'send-key-0001', kind: 'send', comandaId: 7, comandaNumber: 7 });
    await sendQueued({ key: 'bill-key-0001', kind: 'bill', comandaId: 7, comandaNumber: 7 });
    expect(calls).toEqual([
      { method: 'POST', url: '/v1/comanda/7/line', key: 'add-key-0001', body: line },
      { method: 'POST', url: '/v1/comanda/7/line', key: 'add-key-0001', body: line },
      { method: 'POST', url: '/v1/comanda/7/send', key: 'send-key-0001', body: undefined },
      { method: 'POST', url: '/v1/comanda/7/request-bill', key: undefined, body: undefined },
    ]);
  });

  it('takes "nothing new to send" (a rule refusal) as done', async () => {
    serve(422, { code: 'rule', message: 'Nada novo para enviar' });
    await expect(
      sendQueued({ key: 'send-key-0002', kind: 'send', comandaId: 7, comandaNumber: 7 }),
    ).resolves.toBeUndefined();
  });
});

describe("the board's early GET", () => {
  it('is asked by the same path pages.tsx starts (/comanda)', () => {
    expect(urlOf(comandaApi.board, { query: {} })).toBe('/comanda');
    expect(urlOf(comandaApi.board, { query: { waiterId: undefined } })).toBe('/comanda');
  });
});
