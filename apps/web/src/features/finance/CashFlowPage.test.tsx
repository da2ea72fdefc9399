import type { CashFlow } from '@balcao/core/finance';
import type { BankAccount } from '@balcao/core/payable';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import CashFlowPage from './CashFlowPage.tsx';

const split = (money: number, pix: number, voucher = 0) => ({
  money,
  pix,
  creditCard: 0,
  debitCard: 0,
  voucher,
  other: 0,
});

const row = (period: string, money: number, pix: number, voucher: number, out: number) => ({
  period,
  salesInCents: money + pix + voucher,
  salesByMethodCents: split(money, pix, voucher),
  receivablesInCents: 0,
  payablesOutCents: out,
  projectedInCents: 0,
  projectedOutCents: 0,
  netCents: money + pix + voucher - out,
  balanceCents: 0,
});

const FLOW: CashFlow = {
  from: '2026-03-02',
  to: '2026-03-03',
  groupBy: 'day',
  today: '2026-03-03',
  account: null,
  openingCents: 0,
  rows: [row('2026-03-02', 4000, 5942, 0, 0), row('2026-03-03', 1000, 0, 9501, 150000)],
  totals: {
    salesInCents: 4000 + 5942 + 1000 + 9501,
    salesByMethodCents: split(5000, 5942, 9501),
    receivablesInCents: 0,
    payablesOutCents: 150000,
    projectedInCents: 0,
    projectedOutCents: 0,
    netCents: 4000 + 5942 + 1000 + 9501 - 150000,
  },
  closingCents: 0,
  previous: {
    from: '2026-02-28',
    to: '2026-03-01',
    openingCents: 0,
    totals: {
      salesInCents: 0,
      salesByMethodCents: split(0, 0),
      receivablesInCents: 0,
      payablesOutCents: 0,
      projectedInCents: 0,
      projectedOutCents: 0,
      netCents: 0,
    },
    closingCents: 0,
  },
};

const ACCOUNTS: BankAccount[] = [
  { id: 4, name: 'Itaú', bank: null, agency: null, account: null, active: true, receives: [] },
];

const TOTALS = {
  salesInCents: 30000,
  salesByMethodCents: split(30000, 0),
  receivablesInCents: 0,
  payablesOutCents: 10000,
  projectedInCents: 0,
  projectedOutCents: 0,
  netCents: 20000,
};

const COMPARED: CashFlow = {
  from: '2026-03-10',
  to: '2026-03-11',
  groupBy: 'day',
  today: '2026-03-11',
  account: null,
  openingCents: 5000,
  rows: [
    { period: '2026-03-10', ...TOTALS, balanceCents: 25000 },
    {
      period: '2026-03-11',
      salesInCents: 0,
      salesByMethodCents: split(0, 0),
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
    totals: {
      ...TOTALS,
      salesInCents: 20000,
      salesByMethodCents: split(20000, 0),
      payablesOutCents: 16000,
      netCents: 4000,
    },
    closingCents: 5000,
  },
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('Financeiro > Fluxo de caixa', () => {
  it('shows the sales received by method in the chart and a table that adds up, and reads one bank account', {
    timeout: 20_000,
  }, async () => {
    const urls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        urls.push(url);
        const body = url.includes('/payable/bank-account') ? ACCOUNTS : FLOW;
        return new Response(JSON.stringify(body), { status: 200 });
      }),
    );
    const { container } = render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter initialEntries={['/dashboard/finance/cash-flow?from=2026-03-02&to=2026-03-03']}>
          <CashFlowPage />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    const table = await screen.findByRole('table', { name: 'Vendas recebidas por forma de pagamento' });
    // Only the methods the period received money by: no empty credit, debit or "outras" columns.
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Período', 'Dinheiro', 'Pix', 'Vales-refeição', 'Vendas recebidas']);
    const total = within(table).getAllByRole('row').at(-1) as HTMLElement;
    expect(
      within(total)
        .getAllByRole('cell')
        .map((c) => c.textContent?.replace(/\s/g, ' ')),
    ).toEqual(['Total', 'R$ 50,00', 'R$ 59,42', 'R$ 95,01', 'R$ 204,43']);

    // The MUI X chart: its svg, with one stacked series per method received, then the others.
    const svg = container.querySelector('svg.MuiChartsSvgLayer-root');
    expect(svg).not.toBeNull();
    expect(svg?.querySelectorAll('g.MuiBarChart-series')).toHaveLength(7);
    const legend = container.querySelector('.MuiChartsLegend-root') as HTMLElement;
    expect(
      within(legend)
        .getAllByRole('listitem')
        .map((i) => i.textContent),
    ).toEqual(['Dinheiro', 'Pix', 'Vales-refeição', 'Crediário', 'A receber', 'Saídas', 'A pagar']);

    // One bank account: the flow is read for it, and the page says what that leaves out.
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Conta' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Itaú' }));
    await waitFor(() =>
      expect(urls.some((u) => u.includes('/finance/cash-flow?') && u.includes('accountId=4'))).toBe(true),
    );
    expect(
      await screen.findByText(/Com uma conta escolhida, o fluxo mostra as contas pagas por ela/),
    ).toBeTruthy();
  });

  it("shows the period's money beside the previous period's, with the change", {
    timeout: 20_000,
  }, async () => {
    const urls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        urls.push(url);
        const body = url.includes('/payable/bank-account') ? [] : COMPARED;
        return new Response(JSON.stringify(body), { status: 200 });
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
