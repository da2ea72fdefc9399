import type { CashFlow } from '@balcao/core/finance';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import CashFlowPage from './CashFlowPage.tsx';

const TOTALS = {
  salesInCents: 30000,
  receivablesInCents: 0,
  payablesOutCents: 10000,
  projectedInCents: 0,
  projectedOutCents: 0,
  netCents: 20000,
};

const FLOW: CashFlow = {
  from: '2026-03-10',
  to: '2026-03-11',
  groupBy: 'day',
  today: '2026-03-11',
  openingCents: 5000,
  rows: [
    { period: '2026-03-10', ...TOTALS, balanceCents: 25000 },
    {
      period: '2026-03-11',
      salesInCents: 0,
      receivablesInCents: 0,
      payablesOutCents: 0,
      projectedInCents: 0,
      projectedOutCents: 0,
      netCents: 0,
      balanceCents: 25000,
    },
  ],
  totals: TOTALS,
  closingCents: 25000,
  previous: {
    from: '2026-03-08',
    to: '2026-03-09',
    openingCents: 1000,
    totals: { ...TOTALS, salesInCents: 20000, payablesOutCents: 16000, netCents: 4000 },
    closingCents: 5000,
  },
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('Financeiro > Fluxo de caixa', () => {
  it("shows the period's money beside the previous period's, with the change", {
    timeout: 20_000,
  }, async () => {
    const urls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        urls.push(url);
        return new Response(JSON.stringify(FLOW), { status: 200 });
      }),
    );
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter initialEntries={['/dashboard/finance/cash-flow?from=2026-03-10&to=2026-03-11']}>
          <CashFlowPage />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    const previous = await screen.findByLabelText('Período anterior');
    expect(previous.textContent).toBe(
      'Período anterior (08/03/2026 a 09/03/2026): saldo inicial R$ 10,00; entradas R$ 200,00 (+50,0%); saídas R$ 160,00 (-37,5%); saldo no fim R$ 50,00.',
    );
    expect(urls).toContain('/v1/finance/cash-flow?from=2026-03-10&to=2026-03-11&groupBy=day');
    expect(screen.getByText('Saldo inicial:').textContent).toContain('R$ 50,00');
  });
});
