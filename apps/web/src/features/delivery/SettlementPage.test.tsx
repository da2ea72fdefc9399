import type { SettlementPreview } from '@balcao/core/delivery';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import SettlementPage from './SettlementPage.tsx';

vi.mock('../auth/session.tsx', () => ({
  useSession: () => ({ user: { id: 2, name: 'Gerente', userType: { id: 2 }, client: { id: 1 } } }),
}));

const PREVIEW: SettlementPreview = {
  driver: { id: 3, name: 'Duda' },
  from: '2026-01-10',
  to: '2026-01-10',
  lines: [
    {
      orderId: 7,
      saleNumber: 70,
      status: 'success',
      customerName: 'Bia',
      finishedAt: null,
      onDeliveryMethod: null,
      changeCents: 0,
      cashCents: 5000,
      otherCents: 0,
      feeCents: 0,
      feeUnknown: false,
    },
  ],
  changeCents: 0,
  cashCents: 5000,
  otherCents: 0,
  feesCents: 0,
  toHandOverCents: 5000,
  owedCents: 0,
};

/** The API: the panel's drivers, the preview, an empty history, and a refused confirmation. */
function serve() {
  const posts: unknown[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });
      if (url.includes('/delivery/panel')) {
        return json({
          orders: [],
          counters: {},
          driversOnShift: 1,
          drivers: [{ id: 3, name: 'Duda', userTypeId: 10, onShift: true }],
          notifyCustomer: false,
          acceptOutsideHours: false,
        });
      }
      if (url.includes('/delivery/settlement/preview')) return json(PREVIEW);
      if (url.includes('/cash-register/client/1')) {
        const register = (id: number, user: { id: number; name: string }) => ({
          id,
          status: 'open',
          user,
          openingAmountCents: 0,
          openedAt: '2026-01-10T12:00:00.000Z',
          closedAt: null,
          closingNotes: null,
        });
        return json({
          items: [register(9, { id: 2, name: 'Gerente' }), register(11, { id: 5, name: 'Caixa Ana' })],
          total: 2,
          page: 1,
          pageSize: 100,
        });
      }
      if (init?.method === 'POST') {
        posts.push(JSON.parse(String(init.body)));
        return json(
          {
            message: 'Dados inválidos',
            issues: [{ path: 'countedCents', message: 'O valor contado não confere com o caixa' }],
          },
          400,
        );
      }
      return json([]);
    }),
  );
  return posts;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the driver settlement', () => {
  it('puts a refused confirmation under the counted field', { timeout: 20_000 }, async () => {
    const posts = serve();
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter>
          <SettlementPage />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    fireEvent.mouseDown(await screen.findByRole('combobox', { name: 'Entregador' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Duda' }));
    const counted = await screen.findByLabelText('Valor contado');
    const confirm = screen.getByRole('button', { name: 'Confirmar acerto' });
    expect(confirm).toHaveProperty('disabled', true);
    fireEvent.change(counted, { target: { value: '40,00' } });
    await waitFor(() => expect(confirm).toHaveProperty('disabled', false));
    fireEvent.click(confirm);
    const form = screen.getByRole('form', { name: 'Confirmação do acerto' });
    expect(await within(form).findByText('O valor contado não confere com o caixa')).toBeTruthy();
    expect(posts).toEqual([
      {
        driverId: 3,
        from: '2026-01-10',
        to: '2026-01-10',
        countedCents: 4000,
        cashRegisterId: 9,
        orderIds: [7],
      },
    ]);
    expect(counted.getAttribute('aria-invalid')).toBe('true');
  });

  it('sends the acerto into the open register chosen (issue 30 item 5)', { timeout: 20_000 }, async () => {
    const posts = serve();
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter>
          <SettlementPage />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    fireEvent.mouseDown(await screen.findByRole('combobox', { name: 'Entregador' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Duda' }));
    const register = await screen.findByRole('combobox', { name: 'Caixa que recebe' });
    await waitFor(() => expect(register.textContent).toBe('Meu caixa (Gerente)'));
    fireEvent.mouseDown(register);
    fireEvent.click(await screen.findByRole('option', { name: 'Caixa de Caixa Ana' }));
    fireEvent.change(screen.getByLabelText('Valor contado'), { target: { value: '50,00' } });
    fireEvent.click(screen.getByRole('button', { name: 'Confirmar acerto' }));
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0]).toMatchObject({ countedCents: 5000, cashRegisterId: 11 });
  });
});
