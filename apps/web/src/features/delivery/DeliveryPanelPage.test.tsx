import type { DeliveryPanel } from '@balcao/core/delivery';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { serveOne } from '../../test/shop.tsx';
import DeliveryPanelPage from './DeliveryPanelPage.tsx';

// The logged user: a Gerente unless a test makes it an Atendente (8, who needs a manager's approval).
const who = { type: 2 };
vi.mock('../auth/session.tsx', () => ({
  useSession: () => ({ user: { id: 2, name: 'Gerente', userType: { id: who.type }, client: { id: 1 } } }),
}));

const PANEL: DeliveryPanel = {
  orders: [],
  counters: {
    pending: 0,
    waiting: 0,
    available: 0,
    accepted: 0,
    sending: 0,
    success: 0,
    failed: 0,
    canceled: 0,
  },
  driversOnShift: 1,
  drivers: [
    { id: 3, name: 'Duda', userTypeId: 10, onShift: true },
    { id: 4, name: 'Edu', userTypeId: 11, onShift: false },
  ],
  notifyCustomer: false,
  acceptOutsideHours: false,
};

const serve = () => serveOne(PANEL);

function Search() {
  return <output data-testid="search">{useLocation().search}</output>;
}

function renderPanel(url: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[url]}>
        <Routes>
          <Route
            path="/dashboard/sale/delivery"
            element={
              <>
                <DeliveryPanelPage />
                <Search />
              </>
            }
          />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  who.type = 2;
});

const FAILED: DeliveryPanel['orders'][number] = {
  id: 31,
  saleId: 310,
  saleNumber: 31,
  status: 'failed',
  customerName: 'Bia',
  customerPhone: null,
  address: null,
  neighborhood: 'Centro',
  itemsText: '1x X-Burger',
  totalCents: 3000,
  freightCents: 0,
  collectCents: 3000,
  onDeliveryMethod: 'money',
  changeForCents: 5000,
  changeCents: 2000,
  driverFeeCents: 700,
  driver: { id: 3, name: 'Duda' },
  promisedAt: '2026-01-10T20:00:00.000Z',
  failureReason: 'Cliente ausente',
  cancelReason: null,
  acceptedAt: null,
  pickedUpAt: '2026-01-10T19:30:00.000Z',
  finishedAt: '2026-01-10T19:50:00.000Z',
  settled: false,
  origin: 'phone',
  marketplaceCourier: null,
  createdAt: '2026-01-10T19:00:00.000Z',
  updatedAt: '2026-01-10T19:50:00.000Z',
};

/** The panel with one failed order; the moves posted are kept, a cancel without approval refused. */
function serveFailed() {
  const posts: { url: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });
      if (init?.method === 'POST') {
        const body = JSON.parse(String(init.body));
        posts.push({ url, body });
        if (url.endsWith('/cancel') && !body.approval)
          return json(
            {
              message:
                'Cancelar uma venda precisa da aprovação de um gerente: informe o email e a senha de um Administrador ou Gerente',
            },
            403,
          );
        return json({ ...FAILED, status: url.endsWith('/cancel') ? 'canceled' : 'available' });
      }
      return json({ ...PANEL, orders: [FAILED], counters: { ...PANEL.counters, failed: 1 } });
    }),
  );
  return posts;
}

describe('the delivery panel', () => {
  it("keeps its filters in the URL: a link's filters are asked, a change is written back", {
    timeout: 20_000,
  }, async () => {
    const calls = serve();
    renderPanel('/dashboard/sale/delivery?driverId=3&onDelivery=true');
    await screen.findByText('Entregadores em turno: 1');
    expect(calls).toEqual(['/v1/delivery/panel?driverId=3&onDelivery=true']);
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Entregador' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Edu' }));
    await waitFor(() => expect(screen.getByTestId('search').textContent).toBe('?driverId=4&onDelivery=true'));
    await waitFor(() => expect(calls).toContain('/v1/delivery/panel?driverId=4&onDelivery=true'));
  });

  it('filters by origin (iFood, Open Delivery, Mesa, Balcão, Telefone): asked of the server, kept in the URL (issue 35)', {
    timeout: 20_000,
  }, async () => {
    const calls = serve();
    renderPanel('/dashboard/sale/delivery?origin=fax');
    await screen.findByText('Entregadores em turno: 1');
    // Junk in the link reads as no filter.
    expect(calls).toEqual(['/v1/delivery/panel']);
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Origem' }));
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual([
      'Todos',
      'iFood',
      'Open Delivery',
      'Mesa',
      'Balcão',
      'Telefone',
    ]);
    fireEvent.click(screen.getByRole('option', { name: 'iFood' }));
    await waitFor(() => expect(screen.getByTestId('search').textContent).toBe('?origin=ifood'));
    await waitFor(() => expect(calls).toContain('/v1/delivery/panel?origin=ifood'));
  });

  it('a failed order goes out again, to another driver, or is canceled with a manager (issue 30 item 5)', {
    timeout: 20_000,
  }, async () => {
    who.type = 8;
    const posts = serveFailed();
    renderPanel('/dashboard/sale/delivery');
    await screen.findByText('Motivo: Cliente ausente');
    expect(screen.getByRole('button', { name: 'Reatribuir' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Enviar de novo' }));
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0]).toEqual({ url: '/v1/delivery/orders/31/status', body: { status: 'available' } });

    fireEvent.click(screen.getByRole('button', { name: 'Cancelar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancelar pedido nº 31' });
    expect(dialog.textContent).toContain('A venda nº 31 também é cancelada');
    fireEvent.change(screen.getByLabelText(/Motivo/), { target: { value: 'Cliente desistiu' } });
    fireEvent.change(screen.getByLabelText('Email do gerente'), { target: { value: 'gerente@demo.com.br' } });
    fireEvent.change(screen.getByLabelText('Senha do gerente'), { target: { value: 'demo1234' } });
    fireEvent.click(screen.getByRole('button', { name: 'Cancelar pedido' }));
    await waitFor(() => expect(posts).toHaveLength(2));
    expect(posts[1]).toEqual({
      url: '/v1/delivery/orders/31/cancel',
      body: { reason: 'Cliente desistiu', approval: { email: 'gerente@demo.com.br', password: 'demo1234' } },
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('asks to enable the new-order sound while the browser blocks it (issue 30 item 17)', {
    timeout: 20_000,
  }, async () => {
    // The browser's audio, suspended until a click resumes it.
    class BlockedAudio extends EventTarget {
      state = 'suspended';
      currentTime = 0;
      destination = {};
      async resume() {
        this.state = 'running';
        this.dispatchEvent(new Event('statechange'));
      }
      createOscillator() {
        return { frequency: {}, connect: (n: unknown) => n, start: () => undefined, stop: () => undefined };
      }
      createGain() {
        return { gain: {}, connect: (n: unknown) => n };
      }
    }
    vi.stubGlobal('AudioContext', BlockedAudio);
    vi.resetModules();
    const { default: Panel } = await import('./DeliveryPanelPage.tsx');
    serve();
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter>
          <Panel />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    expect(await screen.findByText(/O navegador bloqueou o som de novos pedidos/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Ativar som' }));
    await waitFor(() => expect(screen.queryByText(/O navegador bloqueou o som/)).toBeNull());
  });
});
