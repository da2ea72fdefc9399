import type { DeliveryPanel } from '@balcao/core/delivery';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { serveOne } from '../../test/shop.tsx';
import DeliveryPanelPage from './DeliveryPanelPage.tsx';

vi.mock('../auth/session.tsx', () => ({
  useSession: () => ({ user: { id: 2, name: 'Gerente', userType: { id: 2 }, client: { id: 1 } } }),
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
});

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
});
