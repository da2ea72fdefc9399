import { createTheme, ThemeProvider } from '@mui/material/styles';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { leaveShop, renderAsShop, SLOW, serveShop, shopSession } from '../../test/shop.tsx';
import PayableListPage from './PayableListPage.tsx';

const SUPPLIERS = {
  items: [
    { id: 4, name: 'Atacado Sul' },
    { id: 9, name: 'Distribuidora Boa' },
  ],
  total: 2,
  page: 1,
  pageSize: 100,
};
const CATEGORIES = [
  { id: 2, name: 'Aluguel', group: 'operating' },
  { id: 5, name: 'Compra de mercadorias', group: 'cmv' },
];
const EMPTY = {
  items: [],
  total: 0,
  page: 1,
  pageSize: 20,
  totals: { amountCents: 0, paidCents: 0, openCents: 0, overdueCents: 0 },
};

/** The API's answers; the payables' list and export URLs asked, in order. */
function serve() {
  const asked: string[] = [];
  serveShop(shopSession(), (path) => {
    if (path.startsWith('/supplier')) return SUPPLIERS;
    if (path.startsWith('/payable/category')) return CATEGORIES;
    if (path.startsWith('/payable')) {
      asked.push(path);
      return EMPTY;
    }
    return undefined;
  });
  return asked;
}

afterEach(() => {
  cleanup();
  leaveShop();
});

describe('the payables list (issue 34)', () => {
  it('filters by supplier and category and exports the filtered list as XLSX beside the CSV', {
    timeout: 30_000,
  }, async () => {
    const asked = serve();
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:x', revokeObjectURL: () => {} }));
    // ListFilters asks the theme's breakpoints (a phone folds the filters away).
    renderAsShop(
      '/dashboard/payable',
      '/dashboard/payable',
      <ThemeProvider theme={createTheme()}>
        <PayableListPage />
      </ThemeProvider>,
    );
    await screen.findByText('Nenhuma conta a pagar encontrada', undefined, SLOW);

    fireEvent.mouseDown(await screen.findByRole('combobox', { name: 'Fornecedor' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Atacado Sul' }));
    await waitFor(() => expect(asked.at(-1)).toContain('supplierId=4'));
    expect(screen.getByRole('combobox', { name: 'Fornecedor' }).textContent).toBe('Atacado Sul');

    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Categoria' }));
    expect(screen.getByRole('option', { name: 'Todas' })).toBeTruthy();
    fireEvent.click(await screen.findByRole('option', { name: 'Compra de mercadorias' }));
    await waitFor(() => expect(asked.at(-1)).toContain('categoryId=5'));
    expect(asked.at(-1)).toContain('supplierId=4');

    // The XLSX button sits beside the CSV one and asks for the same filters, the whole list.
    expect(screen.getByRole('button', { name: 'Exportar CSV' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Exportar XLSX' }));
    await waitFor(() => expect(asked.some((p) => p.startsWith('/payable/export/xlsx?'))).toBe(true));
    const xlsx = new URLSearchParams(asked.find((p) => p.startsWith('/payable/export/xlsx?'))?.split('?')[1]);
    expect(xlsx.get('supplierId')).toBe('4');
    expect(xlsx.get('categoryId')).toBe('5');
    expect(xlsx.get('page')).toBe('1');

    // Back to every supplier: the filter leaves the query.
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Fornecedor' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Todos' }));
    await waitFor(() => expect(asked.at(-1)).not.toContain('supplierId'));
    expect(asked.at(-1)).toContain('categoryId=5');
  });
});
