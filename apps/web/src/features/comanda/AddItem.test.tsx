import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/api.ts';
import { type AddedLine, AddItem } from './AddItem.tsx';

/** The menu's one favourite, and its product (no variants, no add-ons: straight to the draft). */
function serve() {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200 });
      if (url.endsWith('/comanda/menu')) {
        return json({
          categories: [],
          favourites: [{ productId: 9, description: 'Suco', unitPriceCents: 800, count: 3 }],
        });
      }
      return json({ id: 9, name: 'Suco', variants: [], additionalGroups: [] });
    }),
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('adding to a tab', () => {
  it("sends the draft's line once and puts a refused note's issue under the note", {
    timeout: 20_000,
  }, async () => {
    serve();
    const sent: AddedLine[] = [];
    const onAdd = vi.fn(async (line: AddedLine) => {
      sent.push(line);
      throw new ApiError(400, 'Dados inválidos', [{ path: 'notes', message: 'Observação não aceita' }]);
    });
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <AddItem clientId={1} onAdd={onAdd} />
      </QueryClientProvider>,
    );
    fireEvent.click(await screen.findByRole('button', { name: /Suco/ }));
    const draft = await screen.findByTestId('add-item-draft');
    fireEvent.click(within(draft).getByRole('button', { name: 'Mais' }));
    expect(within(draft).getByLabelText('Quantidade').textContent).toBe('2');
    const note = within(draft).getByLabelText('Observação');
    fireEvent.change(note, { target: { value: ' sem gelo ' } });
    fireEvent.click(within(draft).getByRole('button', { name: 'Adicionar' }));
    expect(await within(draft).findByText('Observação não aceita')).toBeTruthy();
    expect(note.getAttribute('aria-invalid')).toBe('true');
    expect(sent).toEqual([
      { productId: 9, variantId: null, quantity: 2, additionals: [], notes: 'sem gelo', description: 'Suco' },
    ]);
  });

  it('says a refusal of no field above the buttons and keeps the draft', { timeout: 20_000 }, async () => {
    serve();
    const onAdd = vi.fn(async () => {
      throw new ApiError(409, 'A comanda está fechada');
    });
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <AddItem clientId={1} onAdd={onAdd} />
      </QueryClientProvider>,
    );
    fireEvent.click(await screen.findByRole('button', { name: /Suco/ }));
    const draft = await screen.findByTestId('add-item-draft');
    fireEvent.click(within(draft).getByRole('button', { name: 'Adicionar' }));
    expect(await within(draft).findByText('A comanda está fechada')).toBeTruthy();
    await waitFor(() => expect(onAdd).toHaveBeenCalledTimes(1));
  });

  it('lists the found products as list items with a button each (a list holds only items)', {
    timeout: 20_000,
  }, async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200 });
        if (url.endsWith('/comanda/menu')) return json({ categories: [], favourites: [] });
        return json({
          items: [{ id: 7, name: 'X-Burger', salePriceCents: 2490 }],
          total: 1,
          page: 1,
          pageSize: 30,
        });
      }),
    );
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <AddItem clientId={1} onAdd={vi.fn()} />
      </QueryClientProvider>,
    );
    fireEvent.change(screen.getByLabelText('Buscar produto'), { target: { value: 'X-B' } });
    const list = await screen.findByRole('list', { name: 'Produtos encontrados' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(1);
    expect(within(items[0]).getByRole('button', { name: /X-Burger/ }).textContent).toContain('R$ 24,90');
  });
});
