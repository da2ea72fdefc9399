import type { NfeEntryItem, NfeReview } from '@balcao/core/payable';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NfeReviewDialog } from './NfeReviewDialog.tsx';

const SHIRT = {
  id: 7,
  name: 'Camiseta Básica',
  sku: null,
  barcode: null,
  productType: 'variants',
  unit: 'un',
  salePriceCents: 5990,
  costPriceCents: 3000,
  marginPercent: null,
  category: null,
  brand: null,
  active: true,
  stockControl: true,
  stock: 4,
  minStock: 0,
  isLowStock: false,
  variantCount: 2,
  coverThumbUrl: null,
  createdAt: '2026-11-01T12:00:00.000Z',
  updatedAt: '2026-11-01T12:00:00.000Z',
};
const variant = (id: number, name: string) => ({ id, productId: 7, name, active: true, stock: 0 });

const REVIEW: NfeReview = {
  key: '35261112345678000199550010000009011123456780',
  number: '901',
  issuedOn: '2026-11-20',
  supplier: { id: 3, name: 'Confecções Silva', document: '12345678000199' },
  totalCents: 18200,
  bills: [{ number: '1', dueDate: '2026-11-20', amountCents: 18200 }],
  items: [
    {
      index: 1,
      code: 'CAM-P',
      barcode: '7891234567895',
      description: 'CAMISETA BASICA PRETA P',
      unit: 'UN',
      quantity: 4,
      unitCostCents: 3000,
      totalCents: 12000,
      taxUnit: 'UN',
      taxQuantity: 4,
      factor: 1,
      factorFrom: null,
      match: { productId: 7, variantId: 71, name: 'Camiseta Básica - Preto / P', by: 'barcode' },
    },
    {
      index: 2,
      code: 'CAM-M',
      barcode: null,
      description: 'CAMISETA BASICA PRETA M',
      unit: 'UN',
      quantity: 2,
      unitCostCents: 3100,
      totalCents: 6200,
      taxUnit: 'UN',
      taxQuantity: 2,
      factor: 1,
      factorFrom: null,
      match: null,
    },
  ],
};

function renderReview(review: NfeReview, entries: NfeEntryItem[][]) {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <NfeReviewDialog
        review={review}
        clientId={1}
        canEnterStock
        busy={false}
        onClose={() => undefined}
        onEntry={async (items) => {
          entries.push(items);
        }}
        onBillsOnly={async () => undefined}
      />
    </QueryClientProvider>,
  );
}

function serve() {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200 });
      if (url.includes('/product/client/1'))
        return json({ items: [SHIRT], total: 1, page: 1, pageSize: 10, totalCapped: false });
      if (/\/product\/7(\?|$)/.test(url))
        return json({ ...SHIRT, variants: [variant(71, 'Preto / P'), variant(72, 'Preto / M')] });
      return json([]);
    }),
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("the review of a supplier's NF-e", () => {
  it('links an item to a variant (size/colour) of a product picked by hand', {
    timeout: 20_000,
  }, async () => {
    serve();
    const entries: NfeEntryItem[][] = [];
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <NfeReviewDialog
          review={REVIEW}
          clientId={1}
          canEnterStock
          busy={false}
          onClose={() => undefined}
          onEntry={async (items) => {
            entries.push(items);
          }}
          onBillsOnly={async () => undefined}
        />
      </QueryClientProvider>,
    );
    const first = screen.getByRole('region', { name: 'Item 1: CAMISETA BASICA PRETA P' });
    expect(within(first).getByText('Camiseta Básica - Preto / P')).toBeTruthy();
    expect(within(first).getByText('pelo código de barras')).toBeTruthy();

    const second = screen.getByRole('region', { name: 'Item 2: CAMISETA BASICA PRETA M' });
    fireEvent.click(within(second).getByRole('button', { name: 'Vincular a um produto' }));
    const search = within(second).getByRole('combobox', { name: 'Produto do item 2' });
    fireEvent.change(search, { target: { value: 'Camiseta' } });
    fireEvent.click(await screen.findByRole('option', { name: 'Camiseta Básica' }));

    // Without the variant the entry is not sent.
    fireEvent.click(screen.getByRole('button', { name: 'Dar entrada no estoque' }));
    expect(await within(second).findByText('Escolha a variação (cor/tamanho)')).toBeTruthy();
    expect(entries).toEqual([]);

    fireEvent.mouseDown(within(second).getByRole('combobox', { name: 'Variação do item 2' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Preto / M' }));
    expect(within(second).getByText('Camiseta Básica - Preto / M')).toBeTruthy();
    expect(within(second).getByText('escolhido')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Dar entrada no estoque' }));
    await waitFor(() =>
      expect(entries).toEqual([
        [
          { index: 1, productId: 7, variantId: 71, factor: 1 },
          { index: 2, productId: 7, variantId: 72, factor: 1 },
        ],
      ]),
    );
  });
});

describe("a supplier's line in the product's units", () => {
  it("offers the taxable unit's factor, shows what enters the stock and sends the factor typed", async () => {
    serve();
    const entries: NfeEntryItem[][] = [];
    renderReview(
      {
        ...REVIEW,
        totalCents: 9980,
        items: [
          {
            index: 1,
            code: 'CERV-CX',
            barcode: null,
            description: 'CERVEJA LATA 350ML CX12',
            unit: 'CX',
            quantity: 2,
            unitCostCents: 4990,
            totalCents: 9980,
            taxUnit: 'UN',
            taxQuantity: 24,
            factor: 12,
            factorFrom: 'taxUnit',
            match: { productId: 9, variantId: null, name: 'Cerveja Lata 350 ml', by: 'barcode' },
          },
        ],
      },
      entries,
    );
    const field = screen.getByRole('textbox', { name: 'Unidades do produto por CX (item 1)' });
    expect((field as HTMLInputElement).value).toBe('12');
    expect(screen.getByTestId('nfe-stock-1').textContent).toBe(
      'Entram 24 no estoque, a R$ 4,16 cada (pela unidade tributável: 24 UN)',
    );
    fireEvent.change(field, { target: { value: '0' } });
    expect(screen.getByText('As unidades por unidade da nota devem ser maiores que zero')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Dar entrada no estoque' }));
    expect(entries).toEqual([]);
    fireEvent.change(field, { target: { value: '6' } });
    expect(screen.getByTestId('nfe-stock-1').textContent).toBe('Entram 12 no estoque, a R$ 8,32 cada');
    fireEvent.click(screen.getByRole('button', { name: 'Dar entrada no estoque' }));
    await waitFor(() => expect(entries).toEqual([[{ index: 1, productId: 9, variantId: null, factor: 6 }]]));
  });
});

describe('an item matched to a product with a grid but no variant', () => {
  it('asks for the variant before the entry', { timeout: 20_000 }, async () => {
    serve();
    const entries: NfeEntryItem[][] = [];
    renderReview(
      {
        ...REVIEW,
        items: [
          {
            ...REVIEW.items[0],
            match: {
              productId: 7,
              variantId: null,
              name: 'Camiseta Básica',
              by: 'barcode',
              needsVariant: true,
            },
          },
        ],
      },
      entries,
    );
    const item = screen.getByRole('region', { name: 'Item 1: CAMISETA BASICA PRETA P' });
    fireEvent.click(screen.getByRole('button', { name: 'Dar entrada no estoque' }));
    expect(await within(item).findByText('Escolha a variação (cor/tamanho)')).toBeTruthy();
    expect(entries).toEqual([]);
    fireEvent.mouseDown(within(item).getByRole('combobox', { name: 'Variação do item 1' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Preto / P' }));
    fireEvent.click(screen.getByRole('button', { name: 'Dar entrada no estoque' }));
    await waitFor(() => expect(entries).toEqual([[{ index: 1, productId: 7, variantId: 71, factor: 1 }]]));
  });
});
