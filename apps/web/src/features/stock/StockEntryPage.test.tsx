import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { leaveShop, renderAsShop, SLOW, serveShop, shopSession } from '../../test/shop.tsx';
import StockEntryPage from './StockEntryPage.tsx';

/** Two products at their minimum: a notebook counted in units, a cheese sold by kg. */
const LOW = [
  {
    id: 11,
    name: 'Caderno',
    sku: null,
    barcode: null,
    unit: 'un',
    stock: 0,
    minStock: 5,
    costPriceCents: 800,
  },
  {
    id: 12,
    name: 'Queijo minas',
    sku: null,
    barcode: null,
    unit: 'kg',
    stock: 0,
    minStock: 2,
    costPriceCents: 3000,
  },
];
const productOf = (p: (typeof LOW)[number]) => ({ ...p, active: true, variants: [], salePriceCents: 1500 });

afterEach(() => {
  cleanup();
  leaveShop();
});

describe('Entrada de estoque: the labels of what just arrived (issue 36)', () => {
  it('after the entry, says how many labels and opens Etiquetas with its lines (one per unit, one for a weighed quantity)', async () => {
    const posted: unknown[] = [];
    serveShop(shopSession(), (path, init) => {
      if (path.startsWith('/stock-movement/low-stock/'))
        return { items: LOW, total: 2, page: 1, pageSize: 10 };
      const product = /^\/product\/(\d+)$/.exec(path);
      if (product) return productOf(LOW.find((p) => p.id === Number(product[1])) ?? LOW[0]);
      if (path === '/stock-movement/entry' && init?.method === 'POST') {
        posted.push(JSON.parse(String(init.body)));
        return {
          movements: [
            { id: 1, quantity: 3, product: { id: 11, name: 'Caderno', unit: 'un' }, variant: null },
            { id: 2, quantity: 1.25, product: { id: 12, name: 'Queijo minas', unit: 'kg' }, variant: null },
          ],
        };
      }
    });
    renderAsShop('/dashboard/stock-movement/entry', '/dashboard/stock-movement/entry', <StockEntryPage />);

    const low = await screen.findByRole('region', { name: 'Produtos com estoque baixo' }, SLOW);
    const adds = await within(low).findAllByRole('button', { name: 'Adicionar à entrada' }, SLOW);
    fireEvent.click(adds[0]);
    const notebook = (await screen.findByLabelText('Quantidade de Caderno', {}, SLOW)) as HTMLInputElement;
    fireEvent.change(notebook, { target: { value: '3' } });
    fireEvent.click(adds[1]);
    const cheese = (await screen.findByLabelText('Quantidade de Queijo minas', {}, SLOW)) as HTMLInputElement;
    fireEvent.change(cheese, { target: { value: '1,25' } });
    // Nothing about labels before an entry is registered.
    expect(screen.queryByText(/Etiquetas da entrada registrada/)).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Registrar entrada' }));
    const notice = await screen.findByText('Etiquetas da entrada registrada: 4 etiquetas', {}, SLOW);
    expect(posted).toHaveLength(1);
    const alert = notice.closest('[role="alert"]') as HTMLElement;
    const link = within(alert).getByRole('link', { name: 'Imprimir etiquetas' });
    // 3 notebooks -> 3 labels; 1,25 kg of cheese -> 1 label.
    expect(link.getAttribute('href')).toBe('/dashboard/product-label?items=11x3,12x1');
  }, 30_000);
});
