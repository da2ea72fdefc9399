import type { PayableCategoryItem } from '@balcao/core/payable';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import CategoriesPage from './CategoriesPage.tsx';

const CATEGORIES: PayableCategoryItem[] = [
  { id: 1, name: 'Compra de mercadorias', group: 'cmv', archived: false },
  { id: 2, name: 'Aluguel', group: 'operating', archived: false },
  { id: 3, name: 'Sacolas', group: 'operating', archived: true },
];

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

type Call = { url: string; method: string; body: unknown };

function stubApi(answer: (call: Call) => Response | undefined) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const call = {
        url,
        method: init?.method ?? 'GET',
        body: init?.body ? JSON.parse(String(init.body)) : null,
      };
      calls.push(call);
      return answer(call) ?? new Response(JSON.stringify(CATEGORIES), { status: 200 });
    }),
  );
  return calls;
}

function renderPage() {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter initialEntries={['/dashboard/finance/categories']}>
        <CategoriesPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('Financeiro > Categorias de despesa', () => {
  it('lists the categories with their DRE group, an archived one flagged, and archives or brings one back', {
    timeout: 20_000,
  }, async () => {
    const calls = stubApi((c) =>
      c.method === 'PUT'
        ? new Response(JSON.stringify({ ...(c.body as object), id: 2 }), { status: 200 })
        : undefined,
    );
    renderPage();
    const table = await screen.findByRole('table', { name: 'Categorias de despesa' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell')[1].textContent)).toEqual([
      'CMV / compras',
      'Despesas operacionais',
      'Despesas operacionais',
    ]);
    expect(within(rows[2]).getByText('Arquivada')).toBeTruthy();
    expect(within(rows[2]).getByRole('button', { name: 'Reativar Sacolas' })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Arquivar Aluguel' }));
    await screen.findByText('Categoria Aluguel arquivada');
    expect(calls.find((c) => c.method === 'PUT')).toEqual({
      url: expect.stringContaining('/v1/payable/category/2'),
      method: 'PUT',
      body: { name: 'Aluguel', group: 'operating', archived: true },
    });
  });

  it('adds one in a DRE group, and says in Portuguese when the name is taken', {
    timeout: 20_000,
  }, async () => {
    let taken = true;
    const calls = stubApi((c) => {
      if (c.method !== 'POST') return undefined;
      if (taken) {
        taken = false;
        return new Response(
          JSON.stringify({
            statusCode: 409,
            code: 'conflict',
            message: 'Já existe uma categoria com este nome',
          }),
          { status: 409 },
        );
      }
      return new Response(JSON.stringify({ id: 9, ...(c.body as object), archived: false }), { status: 201 });
    });
    renderPage();
    await screen.findByRole('table', { name: 'Categorias de despesa' });
    fireEvent.click(screen.getByRole('button', { name: 'Nova categoria' }));
    const dialog = await screen.findByRole('dialog', { name: 'Nova categoria' });
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Nome' }), { target: { value: 'Aluguel' } });
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: 'Grupo do DRE' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Pessoal' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await within(dialog).findByText('Já existe uma categoria com este nome')).toBeTruthy();

    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Nome' }), {
      target: { value: 'Vale-transporte' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    await screen.findByText('Categoria Vale-transporte salva');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([
      { name: 'Aluguel', group: 'personnel' },
      { name: 'Vale-transporte', group: 'personnel' },
    ]);
  });
});
