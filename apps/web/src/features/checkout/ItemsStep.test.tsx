import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { createRef } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { ItemsStep } from './ItemsStep.tsx';
import type { PdvLine } from './state.ts';

afterEach(cleanup);

const line = (key: string, changes: Partial<PdvLine>): PdvLine => ({
  key,
  productId: 7,
  variantId: null,
  name: 'Camiseta Básica',
  variantName: null,
  sku: null,
  barcode: null,
  unit: 'un',
  fractional: false,
  quantity: 1,
  unitPriceCents: 4990,
  additionals: [],
  discountType: 'fixed_amount',
  discountValue: 0,
  ...changes,
});

const names = (role: 'button' | 'textbox', prefix: string) =>
  screen
    .getAllByRole(role)
    .map((el) => el.getAttribute('aria-label') ?? '')
    .filter((name) => name.startsWith(prefix));

describe('the cart lines (issue 30 item 22: no duplicate accessible names)', () => {
  it('names two lines of one product in different variants apart, and two alike by position', () => {
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { enabled: false } } })}>
        <ItemsStep
          clientId={1}
          dispatch={() => undefined}
          searchRef={createRef<HTMLInputElement>()}
          items={[
            line('a', { variantId: 1, variantName: 'Azul M' }),
            line('b', { variantId: 2, variantName: 'Preta G' }),
            line('c', { discountValue: 500 }),
            line('d', {}),
          ]}
        />
      </QueryClientProvider>,
    );
    expect(names('button', 'Remover')).toEqual([
      'Remover Camiseta Básica (Azul M)',
      'Remover Camiseta Básica (Preta G)',
      'Remover Camiseta Básica, item 3',
      'Remover Camiseta Básica, item 4',
    ]);
    expect(names('textbox', 'Quantidade de')).toEqual([
      'Quantidade de Camiseta Básica (Azul M)',
      'Quantidade de Camiseta Básica (Preta G)',
      'Quantidade de Camiseta Básica, item 3',
      'Quantidade de Camiseta Básica, item 4',
    ]);
    expect(names('textbox', 'Desconto em')).toEqual([
      'Desconto em Camiseta Básica (Azul M) (R$ ou %)',
      'Desconto em Camiseta Básica (Preta G) (R$ ou %)',
      'Desconto em Camiseta Básica, item 3 (R$ ou %)',
      'Desconto em Camiseta Básica, item 4 (R$ ou %)',
    ]);
  });
});
