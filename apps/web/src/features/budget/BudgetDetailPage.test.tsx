import type { Budget } from '@balcao/core/budget';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import BudgetDetailPage, { whatsappFallbackSentence } from './BudgetDetailPage.tsx';

vi.mock('../auth/session.tsx', () => ({
  useSession: () => ({ user: { id: 1, name: 'Ana', userType: { id: 1 }, client: { id: 1 } } }),
}));

/** An expired budget (the page reads only these fields here). */
const BUDGET = {
  id: 5,
  number: 12,
  status: 'pending',
  viewStatus: 'expired',
  expired: true,
  customer: null,
  user: { id: 1, name: 'Ana' },
  seller: null,
  typeOfSale: 'store',
  deliveryAddress: null,
  items: [],
  itemsGrossCents: 1000,
  itemsDiscountCents: 0,
  discountCents: 0,
  freightCents: 0,
  finalAmountCents: 1000,
  validUntil: '2026-01-01',
  notes: null,
  paymentConditions: null,
  reserveStock: false,
  reservationActive: false,
  sentAt: null,
  viewedAt: null,
  answer: null,
  answeredAt: null,
  refusalReason: null,
  sale: null,
  cancelReason: null,
  canceledAt: null,
  createdAt: '2025-12-20T12:00:00.000Z',
  updatedAt: '2025-12-20T12:00:00.000Z',
} as unknown as Budget;

const PAST = 'A validade deve ser uma data futura';

/** The budget; writes refused with an issue on the new validity. */
function serve() {
  const writes: { url: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });
      if (init?.method && init.method !== 'GET') {
        writes.push({ url, body: JSON.parse(String(init.body)) });
        return json({ message: 'Dados inválidos', issues: [{ path: 'validUntil', message: PAST }] }, 400);
      }
      return json(BUDGET);
    }),
  );
  return writes;
}

function renderPage() {
  return render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter initialEntries={['/dashboard/budget/detail/5']}>
        <BudgetDetailPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the budget detail', () => {
  it("puts a refused renewal's issue under the new validity", { timeout: 20_000 }, async () => {
    const writes = serve();
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Renovar' }));
    const dialog = await screen.findByRole('dialog');
    const date = within(dialog).getByLabelText('Nova validade');
    fireEvent.change(date, { target: { value: '2026-01-02' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Renovar' }));
    await waitFor(() => expect(date.getAttribute('aria-invalid')).toBe('true'));
    expect(within(dialog).getByText(PAST)).toBeTruthy();
    expect(within(dialog).queryByText('Em branco: a validade padrão do sistema')).toBeNull();
    expect(writes).toEqual([
      { url: expect.stringContaining('/budget/5/renew'), body: { validUntil: '2026-01-02' } },
    ]);
  });

  it('keeps a cancel refused without issues above its buttons', { timeout: 20_000 }, async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init?: RequestInit) =>
        init?.method && init.method !== 'GET'
          ? new Response(JSON.stringify({ message: 'Este orçamento já foi convertido' }), { status: 409 })
          : new Response(JSON.stringify({ ...BUDGET, expired: false, viewStatus: 'pending' }), {
              status: 200,
            }),
      ),
    );
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Cancelar orçamento' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('Motivo (opcional)'), { target: { value: 'Desistiu' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancelar orçamento' }));
    expect(await within(dialog).findByText('Este orçamento já foi convertido')).toBeTruthy();
  });

  it("sends no address of its own: the approval link is the server's (issue 31 item 2)", {
    timeout: 20_000,
  }, async () => {
    const writes: { url: string; body: unknown }[] = [];
    const link = { token: 'abc', url: 'https://balcao.example.com/orcamento/abc' };
    const open = { ...BUDGET, expired: false, viewStatus: 'pending', customer: { id: 3, name: 'Bia' } };
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        if (init?.method && init.method !== 'GET') {
          writes.push({ url, body: JSON.parse(String(init.body)) });
          return new Response(JSON.stringify({ budget: open, link, whatsapp: null }), { status: 200 });
        }
        return new Response(JSON.stringify(open), { status: 200 });
      }),
    );
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Copiar link' }));
    await waitFor(() => expect(writes).toHaveLength(1));
    expect(writes[0]).toEqual({ url: expect.stringContaining('/budget/5/send'), body: { channel: 'link' } });
    expect(await screen.findByDisplayValue(link.url)).toBeTruthy();
  });
});

describe('the Pix paid on the link (issue 33)', () => {
  it('shows the amount and the endToEndId the bank confirmed', { timeout: 20_000 }, async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(
            JSON.stringify({
              ...BUDGET,
              expired: false,
              viewStatus: 'sent',
              answer: 'approved',
              pixPayment: {
                amountCents: 8400,
                endToEndId: 'E12345678202611271500abcdef12345',
                paidAt: '2026-11-27T15:00:00.000Z',
              },
            }),
            { status: 200 },
          ),
      ),
    );
    renderPage();
    const line = await screen.findByTestId('budget-pix-paid');
    expect(line.textContent).toContain('Pago por Pix pelo cliente: R$ 84,00 em');
    expect(line.textContent).toContain('(E2E E12345678202611271500abcdef12345)');
  });
});

describe('WhatsApp fallback (issue 30 item 21)', () => {
  it('says why the shop WhatsApp did not send once, not twice', () => {
    expect(whatsappFallbackSentence('WhatsApp da loja não conectado')).toBe(
      'WhatsApp da loja não conectado: abra a conversa pelo link abaixo.',
    );
    expect(whatsappFallbackSentence('Número sem WhatsApp')).toBe(
      'Número sem WhatsApp: abra a conversa pelo link abaixo.',
    );
    expect(whatsappFallbackSentence(null)).toBe(
      'Não foi possível enviar pelo WhatsApp da loja: abra a conversa pelo link abaixo.',
    );
  });
});
