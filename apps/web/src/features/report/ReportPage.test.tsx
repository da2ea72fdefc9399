import type { SalesReport } from '@balcao/core/report';
import type { StockTurnover } from '@balcao/core/stockTurnover';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import ReportPage from './ReportPage.tsx';

const SUMMARY = {
  salesCount: 3,
  grossCents: 6000,
  discountsCents: 200,
  returnsCents: 900,
  netCents: 4900,
  costCents: 1600,
  marginCents: 3300,
  averageTicketCents: 1633,
  canceledCount: 1,
  canceledCents: 9000,
};

const REPORT: SalesReport = {
  from: '2026-03-10',
  to: '2026-03-10',
  groupBy: 'day',
  timeZone: 'America/Sao_Paulo',
  summary: SUMMARY,
  previous: { ...SUMMARY, salesCount: 2, netCents: 4000, from: '2026-03-09', to: '2026-03-09' },
  byPeriod: [{ period: '2026-03-10', salesCount: 3, netCents: 4900 }],
  byMethod: [
    { method: 'creditCard', label: 'Cartão de crédito', amountCents: 3000, previousAmountCents: 1000 },
    { method: 'money', label: 'Dinheiro', amountCents: 1900, previousAmountCents: 0 },
  ],
  bySeller: [
    {
      userId: 1,
      name: 'Ana Dona',
      salesCount: 3,
      netCents: 4900,
      averageTicketCents: 1633,
      discountsCents: 200,
      previousNetCents: 4000,
    },
  ],
  byOrigin: [{ origin: 'pdv', label: 'PDV', salesCount: 3, netCents: 4900, previousNetCents: 4000 }],
  byProduct: [
    {
      productId: 5,
      name: 'Suco de laranja',
      categoryName: 'Bebidas',
      quantity: 4,
      revenueCents: 3900,
      costCents: 1600,
      marginCents: 2300,
      shareBp: 7959,
      cumulativeBp: 7959,
      abc: 'A',
      previousRevenueCents: 5200,
    },
  ],
  byCategory: [
    {
      categoryId: 2,
      name: 'Bebidas',
      quantity: 4,
      revenueCents: 3900,
      costCents: 1600,
      marginCents: 2300,
      previousRevenueCents: 5200,
    },
  ],
  heatMap: [{ weekday: 1, hour: 9, salesCount: 3, netCents: 4900 }],
  canceled: [{ userId: 1, name: 'Ana Dona', salesCount: 1, netCents: 9000 }],
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const TURNOVER: StockTurnover = {
  from: '2026-03-10',
  to: '2026-03-10',
  days: 1,
  products: [
    {
      productId: 2,
      name: 'Pano de prato',
      categoryName: null,
      openingQuantity: 20,
      closingQuantity: 14,
      soldQuantity: 6,
      cogsCents: 1500,
      averageStockCents: 1750,
      closingStockCents: 3500,
      turnover: 0.86,
      daysOfStock: null,
      previousCogsCents: 3000,
      previousTurnover: 1.5,
    },
  ],
  categories: [
    {
      categoryName: 'Bebidas',
      soldQuantity: 4,
      cogsCents: 2000,
      averageStockCents: 1500,
      closingStockCents: 3000,
      turnover: 1.33,
      daysOfStock: 45,
      previousCogsCents: 0,
      previousTurnover: null,
    },
  ],
  summary: {
    cogsCents: 1500,
    averageStockCents: 1750,
    closingStockCents: 3500,
    turnover: 0.86,
    daysOfStock: null,
  },
  previous: {
    from: '2026-03-09',
    to: '2026-03-09',
    cogsCents: 3000,
    averageStockCents: 2000,
    closingStockCents: 3000,
    turnover: 1.5,
    daysOfStock: 1,
  },
};

describe('Financeiro > Relatórios', () => {
  it("shows the period's figures against the previous one, the heat map and the ABC curve", {
    timeout: 20_000,
  }, async () => {
    const urls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        urls.push(url);
        const body = url.includes('/v1/report/stock-turnover') ? TURNOVER : REPORT;
        return new Response(JSON.stringify(body), { status: 200 });
      }),
    );
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter initialEntries={['/dashboard/finance/reports?from=2026-03-10&to=2026-03-10']}>
          <ReportPage />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    const net = await screen.findByTestId('report-net');
    expect(net.textContent).toContain('R$ 49,00');
    expect(net.textContent).toContain('+22,5% (antes R$ 40,00)');
    expect(screen.getByTestId('report-count').textContent).toContain('+50,0% (antes 2)');
    expect(screen.getByTestId('report-canceled').textContent).toContain('Canceladas (1)R$ 90,00');
    expect(urls).toContain('/v1/report/sales?from=2026-03-10&to=2026-03-10&groupBy=day');
    expect(screen.getByLabelText('Ter 9h: 3 vendas, R$ 49,00')).toBeTruthy();
    expect(screen.getByLabelText('Seg 9h: nenhuma venda')).toBeTruthy();
    const products = screen.getByRole('region', { name: 'Por produto (curva ABC)' });
    expect(within(products).getByText('Curva A: 1 produto (80% da receita); B: 0; C: 0.')).toBeTruthy();
    expect(within(products).getByText('79,6%')).toBeTruthy();
    const methods = screen.getByRole('region', { name: 'Por forma de pagamento' });
    expect(within(methods).getByText('R$ 19,00')).toBeTruthy();
    // Each row beside its previous-period figure and the change; the table's total against the period's.
    expect(
      within(methods).getByRole('row', { name: 'Cartão de crédito R$ 30,00 R$ 10,00 · +200,0%' }),
    ).toBeTruthy();
    expect(within(methods).getByRole('row', { name: 'Dinheiro R$ 19,00 R$ 0,00 · novo' })).toBeTruthy();
    expect(within(methods).getByRole('row', { name: 'Total R$ 49,00 R$ 40,00 · +22,5%' })).toBeTruthy();
    const sellers = screen.getByRole('region', { name: 'Por vendedor' });
    expect(
      within(sellers).getByRole('row', { name: 'Ana Dona 3 R$ 49,00 R$ 16,33 R$ 2,00 R$ 40,00 · +22,5%' }),
    ).toBeTruthy();
    const categories = screen.getByRole('region', { name: 'Por categoria' });
    expect(
      within(categories).getByRole('row', { name: 'Bebidas 4 R$ 39,00 R$ 16,00 R$ 23,00 R$ 52,00 · -25,0%' }),
    ).toBeTruthy();
    // The items' revenue of each period (margin + cost): 49,00 now, 49,00 before.
    expect(within(categories).getByRole('row', { name: 'Total R$ 49,00 R$ 49,00 · 0,0%' })).toBeTruthy();
    expect(within(products).getByText('R$ 52,00')).toBeTruthy();
    expect(screen.getByRole('button', { name: /Exportar CSV/ })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Exportar XLSX' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Baixar PDF' })).toBeTruthy();
    // Stock turnover and days of stock, per category and product.
    const turnover = screen.getByRole('region', { name: 'Giro de estoque' });
    expect(urls).toContain('/v1/report/stock-turnover?from=2026-03-10&to=2026-03-10');
    expect(within(turnover).getByRole('button', { name: 'Exportar giro (CSV)' })).toBeTruthy();
    expect(within(turnover).getByRole('button', { name: 'Exportar giro (XLSX)' })).toBeTruthy();
    const byCategory = within(turnover).getByRole('table', { name: 'Giro de estoque por categoria' });
    expect(
      within(byCategory).getByRole('row', { name: 'Bebidas 4 R$ 20,00 R$ 15,00 1,33 45,0 -' }),
    ).toBeTruthy();
    const byProduct = within(turnover).getByRole('table', { name: 'Giro de estoque por produto' });
    expect(
      within(byProduct).getByRole('row', { name: 'Pano de prato 6 R$ 15,00 R$ 17,50 0,86 - 1,50' }),
    ).toBeTruthy();
    // Every product together against the period before.
    const total = within(turnover).getByRole('list', { name: 'Total do giro' });
    expect(total.textContent).toContain('CMV: R$ 15,00 (antes R$ 30,00, -50,0%)');
    expect(total.textContent).toContain('Giro: 0,86 (antes 1,50, -42,7%)');
    expect(total.textContent).toContain('Dias de estoque: - (antes 1,0)');
    expect(within(turnover).getByRole('button', { name: 'Baixar giro (PDF)' })).toBeTruthy();
  });

  it('shows the bytes received while a big export downloads, then the file is saved', {
    timeout: 20_000,
  }, async () => {
    let push: (bytes: Uint8Array) => void = () => {};
    let finish: () => void = () => {};
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        push = (bytes) => controller.enqueue(bytes);
        finish = () => controller.close();
      },
    });
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) =>
        url.includes('/csv')
          ? new Response(body, {
              status: 200,
              headers: {
                'content-type': 'text/csv; charset=utf-8',
                'content-disposition': 'attachment; filename="relatorio-lines-2026-03-10-2026-03-10.csv"',
              },
            })
          : new Response(JSON.stringify(url.includes('/v1/report/stock-turnover') ? TURNOVER : REPORT), {
              status: 200,
            }),
      ),
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
        <MemoryRouter initialEntries={['/dashboard/finance/reports?from=2026-03-10&to=2026-03-10']}>
          <ReportPage />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    await screen.findByTestId('report-net');
    screen.getByRole('button', { name: /Exportar CSV/ }).click();
    expect((await screen.findByTestId('export-progress')).textContent).toContain('Gerando CSV...');
    push(new Uint8Array(1536));
    await waitFor(() =>
      expect(screen.getByTestId('export-progress').textContent).toBe('Baixando CSV: 1,5 KB recebidos'),
    );
    push(new Uint8Array(2048 * 1024));
    await waitFor(() =>
      expect(screen.getByTestId('export-progress').textContent).toBe('Baixando CSV: 2,0 MB recebidos'),
    );
    expect(screen.getByRole('button', { name: /Exportar CSV/ }).hasAttribute('disabled')).toBe(true);
    finish();
    await waitFor(() => expect(screen.queryByTestId('export-progress')).toBeNull());
    expect(saved.map((b) => b.size)).toEqual([1536 + 2048 * 1024]);
  });
  it("shows the stock turnover's export progress in its own bar, with the sales report's bar free", {
    timeout: 20_000,
  }, async () => {
    let push: (bytes: Uint8Array) => void = () => {};
    let finish: () => void = () => {};
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        push = (bytes) => controller.enqueue(bytes);
        finish = () => controller.close();
      },
    });
    const urls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        urls.push(url);
        return url.includes('/stock-turnover/xlsx')
          ? new Response(body, {
              status: 200,
              headers: {
                'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
                'content-disposition':
                  'attachment; filename="giro-de-estoque-product-2026-03-10-2026-03-10.xlsx"',
              },
            })
          : new Response(JSON.stringify(url.includes('/v1/report/stock-turnover') ? TURNOVER : REPORT), {
              status: 200,
            });
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
        <MemoryRouter initialEntries={['/dashboard/finance/reports?from=2026-03-10&to=2026-03-10']}>
          <ReportPage />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    await screen.findByTestId('report-net');
    const turnover = screen.getByRole('region', { name: 'Giro de estoque' });
    within(turnover).getByRole('button', { name: 'Exportar giro (XLSX)' }).click();
    expect((await within(turnover).findByTestId('export-progress')).textContent).toContain('Gerando XLSX...');
    push(new Uint8Array(1536));
    await waitFor(() =>
      expect(within(turnover).getByTestId('export-progress').textContent).toBe(
        'Baixando XLSX: 1,5 KB recebidos',
      ),
    );
    expect(within(turnover).getByRole('button', { name: 'Exportando...' }).hasAttribute('disabled')).toBe(
      true,
    );
    expect(
      within(turnover).getByRole('button', { name: 'Exportar giro (CSV)' }).hasAttribute('disabled'),
    ).toBe(true);
    // The sales report's own bar shows nothing and stays usable.
    expect(screen.getAllByTestId('export-progress')).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Exportar XLSX' }).hasAttribute('disabled')).toBe(false);
    finish();
    await waitFor(() => expect(within(turnover).queryByTestId('export-progress')).toBeNull());
    expect(saved.map((b) => b.size)).toEqual([1536]);
    expect(
      urls.some((u) => u.includes('/v1/report/stock-turnover/xlsx?') && u.includes('section=product')),
    ).toBe(true);
  });
});
