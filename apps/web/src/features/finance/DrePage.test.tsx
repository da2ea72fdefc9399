import type { DreCompared, DreEntries } from '@balcao/core/finance';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import DrePage from './DrePage.tsx';

const DRE: DreCompared = {
  month: '2026-03',
  salesCount: 3,
  purchasesCents: 0,
  lines: [
    { key: 'grossRevenue', label: 'Receita bruta', amountCents: 6000, total: false },
    { key: 'netRevenue', label: 'Receita líquida', amountCents: 6000, total: true },
    { key: 'expense:personnel', label: 'Pessoal', amountCents: -200000, total: false },
    { key: 'result', label: 'Resultado do mês', amountCents: -194000, total: true },
  ],
  previous: {
    month: '2026-02',
    salesCount: 2,
    purchasesCents: 0,
    lines: [
      { key: 'grossRevenue', label: 'Receita bruta', amountCents: 4000, total: false },
      { key: 'netRevenue', label: 'Receita líquida', amountCents: 4000, total: true },
      { key: 'expense:personnel', label: 'Pessoal', amountCents: -200000, total: false },
      { key: 'result', label: 'Resultado do mês', amountCents: -196000, total: true },
    ],
  },
};

const ENTRIES: DreEntries = {
  month: '2026-03',
  line: 'expense:personnel',
  label: 'Pessoal',
  amountCents: -200000,
  count: 1,
  entries: [{ kind: 'payable', id: 7, date: '2026-03-05', description: 'Salários', amountCents: -200000 }],
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('Financeiro > DRE', () => {
  it('opens the bills behind an expense line, each linking to its edit page', {
    timeout: 20_000,
  }, async () => {
    const urls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        urls.push(url);
        const body = url.includes('/finance/dre/entries') ? ENTRIES : DRE;
        return new Response(JSON.stringify(body), { status: 200 });
      }),
    );
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter initialEntries={['/dashboard/finance/dre?month=2026-03']}>
          <DrePage />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    // Subtotals are not links; the lines behind records are.
    const personnel = await screen.findByRole('button', { name: 'Pessoal' });
    expect(screen.queryByRole('button', { name: 'Resultado do mês' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Exportar XLSX' })).toBeTruthy();
    // The month before beside each line, as accountants read it: its value and the change.
    const table = screen.getByRole('table', { name: 'DRE' });
    expect(within(table).getByRole('row', { name: 'Linha 03/2026 02/2026 Variação' })).toBeTruthy();
    expect(within(table).getByRole('row', { name: 'Receita bruta R$ 60,00 R$ 40,00 +50,0%' })).toBeTruthy();
    expect(within(table).getByRole('row', { name: 'Pessoal -R$ 2.000,00 -R$ 2.000,00 0,0%' })).toBeTruthy();
    expect(
      within(table).getByRole('row', { name: 'Resultado do mês -R$ 1.940,00 -R$ 1.960,00 +1,0%' }),
    ).toBeTruthy();
    expect(screen.getByText(/3 vendas no mês \(2 no mês anterior\)/)).toBeTruthy();
    fireEvent.click(personnel);
    const dialog = await screen.findByRole('dialog', { name: 'Pessoal' });
    const link = await within(dialog).findByRole('link', { name: 'Salários' });
    expect(link.getAttribute('href')).toBe('/dashboard/payable/edit/7');
    expect(within(dialog).getByText('05/03/2026')).toBeTruthy();
    expect(urls.at(-1)).toContain('/v1/finance/dre/entries?month=2026-03&line=expense%3Apersonnel');
    // The line's records exported whole, as the other tables.
    expect(within(dialog).getByRole('button', { name: 'Exportar CSV' })).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Exportar XLSX' })).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Baixar PDF' })).toBeTruthy();
  });
});
