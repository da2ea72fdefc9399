import { type Billing, PLANS } from '@balcao/core/billing';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import BillingPage from './BillingPage.tsx';

const BILLING: Billing = {
  plan: PLANS.profissional,
  plans: Object.values(PLANS),
  usage: { users: 4, products: 120 },
  currentPeriod: { start: '2026-01-01', end: '2026-01-31' },
  invoices: [],
  overdue: null,
  updatedAt: '2026-01-01T12:00:00.000Z',
  updatedBy: null,
};

const TOO_SMALL = 'O plano Essencial permite até 3 usuários e a loja tem 4.';

/** The subscription; a plan change the server refuses with an issue on the plan. */
function serve() {
  const puts: unknown[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_url: string, init?: RequestInit) => {
      const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });
      if (init?.method === 'PUT') {
        puts.push(JSON.parse(String(init.body)));
        return json({ message: 'Dados inválidos', issues: [{ path: 'planCode', message: TOO_SMALL }] }, 400);
      }
      return json(BILLING);
    }),
  );
  return puts;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the subscription page', () => {
  it("tells a refused plan change's issue, not the answer's summary", { timeout: 20_000 }, async () => {
    const puts = serve();
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter>
          <BillingPage />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    fireEvent.click((await screen.findAllByRole('button', { name: 'Mudar para este plano' }))[0]);
    expect(await screen.findByText('Mudar para o plano Essencial?')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Mudar plano' }));
    expect(await screen.findByText('Não foi possível mudar o plano')).toBeTruthy();
    expect(screen.getByText(TOO_SMALL)).toBeTruthy();
    expect(puts).toEqual([{ planCode: 'essencial', updatedAt: BILLING.updatedAt }]);
    await waitFor(() => expect(screen.queryByText('Mudar para o plano Essencial?')).toBeNull());
  });
});
