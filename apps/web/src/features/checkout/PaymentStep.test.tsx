import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PaymentStep } from './PaymentStep.tsx';
import { emptyPdv, type PdvLine, pdvTotals } from './state.ts';

vi.mock('../auth/session.tsx', () => ({
  useSession: () => ({
    user: { id: 1, name: 'Ana', userType: { id: 1 }, client: { id: 1 } },
    paymentGateway: { pixKey: 'loja@exemplo.com.br' },
  }),
}));

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const LINE: PdvLine = {
  key: 'a',
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
};

const OFFLINE_TEXT =
  'Sem conexão: crediário e boleto ficam indisponíveis (o limite de crédito do cliente só é conferido no servidor). ' +
  'O QR do Pix usa a chave Pix salva neste aparelho. ' +
  'Cartão: confirme a aprovação na maquininha, que não é conferida pelo sistema sem conexão. ' +
  'Pix QR dinâmico indisponível: a confirmação do banco chega pelo servidor; use o Pix QR Code estático.';

/** The PDV's payment step of a R$ 49,90 sale; the methods the "Forma de pagamento" list offers. */
function offeredMethods() {
  // The one read the step makes on its own: the shop's PDV fee table and meal vouchers (none here).
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) =>
      String(url).endsWith('/v1/fee-simulator/pdv')
        ? new Response(JSON.stringify({ table: null, mealVouchers: [] }), { status: 200 })
        : new Response(JSON.stringify({ message: 'Não encontrado' }), { status: 404 }),
    ),
  );
  const state = { ...emptyPdv(), step: 1 as const, items: [LINE] };
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { enabled: false } } })}>
      <PaymentStep
        state={state}
        totals={pdvTotals(state)}
        dispatch={() => undefined}
        onFinish={() => undefined}
        finishing={false}
        finishError={null}
      />
    </QueryClientProvider>,
  );
  fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Forma de pagamento' }));
  return within(screen.getByRole('listbox'))
    .getAllByRole('option')
    .map((o) => o.textContent);
}

describe('the PDV payment step offline (issue 33)', () => {
  it('offers only the static Pix QR and says why the dynamic one is not there', () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const methods = offeredMethods();
    expect(screen.getByTestId('offline-payments').textContent).toBe(OFFLINE_TEXT);
    expect(methods).toContain('Pix QR Code estático');
    expect(methods).not.toContain('Pix QR dinâmico');
    expect(methods).not.toContain('Crediário');
    expect(methods).not.toContain('Boleto');
  });

  it('online, the dynamic Pix QR is offered and no offline notice is shown', () => {
    const methods = offeredMethods();
    expect(screen.queryByTestId('offline-payments')).toBeNull();
    expect(methods).toContain('Pix QR dinâmico');
    expect(methods).toContain('Pix QR Code estático');
  });
});
