import type { ComandaBoard, ComandaCard } from '@balcao/core/comanda';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import ComandaBoardPage from './ComandaBoardPage.tsx';

vi.mock('../auth/session.tsx', () => ({
  useSession: () => ({ user: { id: 2, name: 'Gerente', userType: { id: 2 }, client: { id: 1 } } }),
}));

const SERVER_NOW = '2026-11-23T15:00:00.000Z';
const minutesAgo = (n: number) => new Date(Date.parse(SERVER_NOW) - n * 60_000).toISOString();

function card(id: number, waiter: { id: number; name: string }, lastItemMinutes: number): ComandaCard {
  return {
    id,
    number: id,
    status: 'active',
    tableLabel: String(id),
    customer: null,
    customerName: null,
    customerPhone: null,
    people: 2,
    waiter,
    openedAt: minutesAgo(60),
    lastItemAt: minutesAgo(lastItemMinutes),
    updatedAt: minutesAgo(lastItemMinutes),
    stage: 'open',
    itemsCount: 1,
    unsentCount: 0,
    lastReadyAt: null,
    totalCents: 1000,
    paidCents: 0,
  };
}

const ANA = { id: 5, name: 'Ana' };
const BIA = { id: 6, name: 'Bia' };
const BOARD: ComandaBoard = {
  tabs: [card(1, ANA, 2), card(2, BIA, 27)],
  idleMinutes: 30,
  now: SERVER_NOW,
};

/**
 * The API as the board reads it: GET /v1/comanda answers BOARD (each call counted); the QR menu's
 * table orders waiting (issue 35) are none.
 */
function serve() {
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      if (url.includes('/comanda/table-orders')) return new Response('[]', { status: 200 });
      calls.push(url);
      return new Response(JSON.stringify(BOARD), { status: 200 });
    }),
  );
  return calls;
}

function renderBoard() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/dashboard/sale/command']}>
        <Routes>
          <Route path="/dashboard/sale/command" element={<ComandaBoardPage />} />
          <Route path="/dashboard/sale/command/edit/:id" element={<p>página da comanda</p>} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the comanda board', () => {
  it("counts the minutes on the server's clock and flags a tab idle once the setting's time passes", async () => {
    // The device's clock is 2 hours off: the minutes still come from the server's.
    vi.useFakeTimers({
      toFake: ['Date', 'setInterval', 'clearInterval'],
      now: Date.parse(SERVER_NOW) - 7_200_000,
    });
    serve();
    renderBoard();
    const second = await screen.findByTestId('comanda-2');
    expect(within(second).getByText('27 min')).toBeTruthy();
    expect(within(second).queryByText('Parada')).toBeNull();
    await act(async () => {
      vi.advanceTimersByTime(3 * 60_000);
    });
    expect(within(second).getByText('30 min')).toBeTruthy();
    expect(within(second).getByText('Parada')).toBeTruthy();
    expect(within(screen.getByTestId('comanda-1')).getByText('5 min')).toBeTruthy();
    expect(within(screen.getByTestId('comanda-1')).queryByText('Parada')).toBeNull();
  });

  it('filters by waiter from the tabs on the screen, without asking the server again', async () => {
    const calls = serve();
    renderBoard();
    await screen.findByTestId('comanda-1');
    expect(calls).toHaveLength(1);
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Garçom' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Bia' }));
    expect(screen.queryByTestId('comanda-1')).toBeNull();
    expect(screen.getByTestId('comanda-2')).toBeTruthy();
    expect(screen.getByText(/1 comanda aberta/)).toBeTruthy();
    expect(calls).toHaveLength(1);
  });

  it('opens a tab with a click on its card', async () => {
    serve();
    renderBoard();
    fireEvent.click(within(await screen.findByTestId('comanda-2')).getByText('Mesa 2'));
    expect(await screen.findByText('página da comanda')).toBeTruthy();
  });
});
