import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PaymentPanel } from './PaymentPanel.tsx';
import { TAB } from './testData.ts';

type Sent = { url: string; key: string | undefined; body: unknown };

/** The API: the first `failures` writes find no connection, the others answer the tab. */
function serve(failures: number) {
  const writes: Sent[] = [];
  let left = failures;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      if ((init.method ?? 'GET') === 'GET') return new Response(JSON.stringify(TAB), { status: 200 });
      const headers = (init.headers ?? {}) as Record<string, string>;
      writes.push({ url, key: headers['idempotency-key'], body: JSON.parse(String(init.body)) });
      if (left-- > 0) throw new TypeError('Failed to fetch');
      return new Response(JSON.stringify(TAB), { status: 201 });
    }),
  );
  return writes;
}

function renderPanel() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <PaymentPanel comanda={TAB} canReceive />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("receiving a payment (a mutation with the action's Idempotency-Key)", { timeout: 20_000 }, () => {
  it('sends a retry after a lost answer with the same key, and the next payment with a new one', async () => {
    const writes = serve(1);
    renderPanel();
    const pay = (text: string) => {
      fireEvent.change(screen.getByLabelText('Valor a receber'), { target: { value: text } });
      fireEvent.click(screen.getByRole('button', { name: `Receber R$ ${text}` }));
    };
    pay('10,00');
    expect(await screen.findByText(/Não foi possível conectar/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Receber R$ 10,00' }));
    await waitFor(() => expect(writes).toHaveLength(2));
    await waitFor(() =>
      expect((screen.getByLabelText('Valor a receber') as HTMLInputElement).value).toBe(''),
    );
    pay('5,00');
    await waitFor(() => expect(writes).toHaveLength(3));
    const body = (cents: number) => ({ kind: 'amount', method: 'money', amountCents: cents });
    expect(writes.map((w) => ({ url: w.url, body: w.body }))).toEqual([
      { url: '/v1/comanda/1/payment', body: body(1000) },
      { url: '/v1/comanda/1/payment', body: body(1000) },
      { url: '/v1/comanda/1/payment', body: body(500) },
    ]);
    expect(writes[0].key).toMatch(/^[\x21-\x7e]{8,200}$/);
    expect(writes[1].key).toBe(writes[0].key);
    expect(writes[2].key).not.toBe(writes[0].key);
  });
});

describe('a refused payment (form kit)', { timeout: 20_000 }, () => {
  it("puts the server's issue under the received cash and sends once", async () => {
    const writes: unknown[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init: RequestInit = {}) => {
        if ((init.method ?? 'GET') === 'GET') return new Response(JSON.stringify(TAB), { status: 200 });
        writes.push(JSON.parse(String(init.body)));
        return new Response(
          JSON.stringify({
            message: 'Dados inválidos',
            issues: [{ path: 'receivedCents', message: 'O valor recebido é menor que o pagamento' }],
          }),
          { status: 400 },
        );
      }),
    );
    renderPanel();
    fireEvent.change(screen.getByLabelText('Valor a receber'), { target: { value: '10,00' } });
    const received = screen.getByLabelText('Valor recebido');
    fireEvent.change(received, { target: { value: '20,00' } });
    expect(await screen.findByText('Troco: R$ 10,00')).toBeTruthy();
    const button = screen.getByRole('button', { name: 'Receber R$ 10,00' });
    fireEvent.click(button);
    fireEvent.click(button);
    await waitFor(() => expect(received.getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getByText('O valor recebido é menor que o pagamento')).toBeTruthy();
    expect(writes).toEqual([{ kind: 'amount', method: 'money', amountCents: 1000, receivedCents: 2000 }]);
  });
});

describe('"Restante" (issue 30)', { timeout: 20_000 }, () => {
  it('fills the amount with what is left after a partial payment', async () => {
    serve(0);
    renderPanel();
    fireEvent.click(screen.getByRole('button', { name: 'Restante' }));
    const left = TAB.totals.remainingCents;
    const text = (left / 100).toFixed(2).replace('.', ',');
    await waitFor(() =>
      expect((screen.getByLabelText('Valor a receber') as HTMLInputElement).value).toBe(text),
    );
    expect(screen.getByRole('button', { name: `Receber R$ ${text}` })).toBeTruthy();
  });
});

describe("the garçom's view of a tab's payment", { timeout: 20_000 }, () => {
  it("asks nothing of the counter's fee answer (403 to him): no request, and says where to pay", async () => {
    const asked: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        asked.push(String(url));
        return new Response(JSON.stringify({ statusCode: 403, message: 'Sem permissão' }), { status: 403 });
      }),
    );
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <MemoryRouter>
          <PaymentPanel comanda={TAB} canReceive={false} />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    expect(await screen.findByText('O pagamento é recebido no caixa.')).toBeTruthy();
    // Give any query a chance to start: none may ask the counter's fee table.
    await waitFor(() => expect(client.isFetching()).toBe(0));
    expect(asked.filter((u) => u.includes('/fee-simulator/'))).toEqual([]);
  });
});
