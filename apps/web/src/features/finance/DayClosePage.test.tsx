import type { DayClose } from '@balcao/core/finance';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import DayClosePage from './DayClosePage.tsx';

const CLOSE: DayClose = {
  date: '2026-03-10',
  salesByMethod: [{ method: 'money', label: 'Dinheiro', amountCents: 5800 }],
  salesCents: 5800,
  expenses: [
    {
      paymentId: 1,
      payableId: 2,
      description: 'Aluguel',
      method: 'pix',
      fromRegister: false,
      amountCents: 150000,
    },
  ],
  expensesCents: 150000,
  netCents: -144200,
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('Financeiro > Fechamento do dia', () => {
  it("exports the day's close as CSV, XLSX and PDF from its export bar", { timeout: 20_000 }, async () => {
    const urls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        urls.push(url);
        return url.includes('/pdf')
          ? new Response(new Uint8Array([37, 80, 68, 70]), {
              status: 200,
              headers: {
                'content-type': 'application/pdf',
                'content-disposition': 'attachment; filename="fechamento-2026-03-10.pdf"',
              },
            })
          : new Response(JSON.stringify(CLOSE), { status: 200 });
      }),
    );
    const saved: Blob[] = [];
    vi.stubGlobal(
      'URL',
      Object.assign(URL, {
        createObjectURL: (blob: Blob) => {
          saved.push(blob);
          return 'blob:x';
        },
        revokeObjectURL: () => {},
      }),
    );
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter initialEntries={['/dashboard/finance/day-close?date=2026-03-10']}>
          <DayClosePage />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    expect((await screen.findByLabelText('Resultado do dia')).textContent).toBe(
      'Vendas menos contas pagas: -R$ 1.442,00',
    );
    expect(screen.getByRole('button', { name: 'Exportar CSV' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Exportar XLSX' })).toBeTruthy();
    screen.getByRole('button', { name: 'Baixar PDF' }).click();
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(urls).toContain('/v1/finance/day-close/pdf?date=2026-03-10');
  });
});
