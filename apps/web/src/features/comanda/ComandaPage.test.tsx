import type { Comanda, ComandaBoard } from '@balcao/core/comanda';
import { REQUIRED } from '@balcao/core/messages';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ComandaView } from './ComandaPage.tsx';
import { AT, LINE, TAB } from './testData.ts';

// A Garçom (no approval rights): a sent line's cancel needs a manager's e-mail and password.
vi.mock('../auth/session.tsx', () => ({
  useSession: () => ({ user: { id: 5, name: 'Ana', userType: { id: 5 }, client: { id: 1 } } }),
}));

const BOARD: ComandaBoard = {
  tabs: [
    { ...TAB, itemsCount: 1, unsentCount: 0, lastReadyAt: null, totalCents: 1760, paidCents: 0 },
    {
      ...TAB,
      id: 2,
      number: 8,
      tableLabel: '5',
      itemsCount: 0,
      unsentCount: 0,
      lastReadyAt: null,
      totalCents: 0,
      paidCents: 0,
    },
  ],
  idleMinutes: 30,
  now: AT,
};

type Sent = { method: string; url: string; body: unknown };

/** The API: the reads answer the fixtures, a write answers `write` (the tab by default); every call is kept. */
function serve(write: (sent: Sent) => Response = () => json(TAB)) {
  const calls: Sent[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const sent = {
        method: init.method ?? 'GET',
        url,
        body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
      };
      calls.push(sent);
      if (sent.method !== 'GET') return write(sent);
      if (url === '/v1/comanda') return json(BOARD);
      if (url === '/v1/comanda/menu') return json({ categories: [], favourites: [] });
      return json(TAB);
    }),
  );
  return calls;
}

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });
const writes = (calls: Sent[]) => calls.filter((c) => c.method !== 'GET');

function renderTab(comanda: Comanda = TAB) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <ComandaView comanda={comanda} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

// A whole tab page (MUI) renders per test: on a busy machine that alone may take seconds.
describe("the tab's dialogs (form kit, mutations)", { timeout: 20_000 }, () => {
  it("checks a sent line's cancel on the screen: without the approval nothing is sent", async () => {
    const calls = serve();
    renderTab();
    fireEvent.click(screen.getByRole('button', { name: 'Cancelar' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancelar item' }));
    // The approval is required by the core schema.
    await waitFor(() => expect(within(dialog).getAllByText(REQUIRED)).toHaveLength(2));
    expect(writes(calls)).toEqual([]);
  });

  it("cancels a sent line with the reason and the manager's approval, once, and closes", async () => {
    const calls = serve();
    renderTab();
    fireEvent.click(screen.getByRole('button', { name: 'Cancelar' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('Motivo'), { target: { value: 'Pediu errado' } });
    fireEvent.change(within(dialog).getByLabelText('Email do gerente'), {
      target: { value: 'gerente@demo.com.br' },
    });
    fireEvent.change(within(dialog).getByLabelText('Senha do gerente'), { target: { value: 'segredo' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancelar item' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(writes(calls)).toEqual([
      {
        method: 'POST',
        url: '/v1/comanda/1/line/10/cancel',
        body: { reason: 'Pediu errado', approval: { email: 'gerente@demo.com.br', password: 'segredo' } },
      },
    ]);
    // The write invalidated the comandas: what shows them (here the menu of "Adicionar item") asks again.
    await waitFor(() => expect(calls.filter((c) => c.url === '/v1/comanda/menu')).toHaveLength(2));
  });

  it("shows the server's refusal under its field and keeps the dialog open", async () => {
    const calls = serve(() =>
      json(
        {
          code: 'validation',
          message: 'Dados inválidos',
          issues: [{ path: 'reason', message: 'Informe o motivo da mudança da taxa' }],
        },
        400,
      ),
    );
    renderTab();
    fireEvent.click(screen.getByRole('button', { name: 'Taxa e couvert' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Tirar a taxa' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await within(dialog).findByText('Informe o motivo da mudança da taxa')).toBeTruthy();
    expect(writes(calls)).toEqual([
      {
        method: 'PUT',
        url: '/v1/comanda/1/service-fee',
        body: { serviceFeePercent: 0, reason: null, couvertPerPersonCents: 0 },
      },
    ]);
    expect(screen.getByRole('dialog')).toBeTruthy();
  });

  it('merges the tab picked from the board', async () => {
    const calls = serve();
    renderTab();
    fireEvent.click(screen.getByRole('button', { name: 'Unir comanda' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.mouseDown(within(dialog).getByRole('combobox'));
    fireEvent.click(await screen.findByRole('option', { name: 'Comanda 8 · Mesa 5' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Unir' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(writes(calls)).toEqual([
      { method: 'POST', url: '/v1/comanda/1/merge', body: { fromComandaId: 2 } },
    ]);
  });

  it('cancels the tab (issue 30): a sent tab asks the reason and the manager, then posts once', async () => {
    const calls = serve();
    renderTab();
    fireEvent.click(screen.getByRole('button', { name: 'Cancelar comanda' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancelar a comanda 7' });
    expect(
      within(dialog).getByText(
        'Itens desta comanda já foram para a produção: tickets de cancelamento serão impressos.',
      ),
    ).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Motivo'), { target: { value: 'Mesa errada' } });
    fireEvent.change(within(dialog).getByLabelText('Email do gerente'), {
      target: { value: 'gerente@demo.com.br' },
    });
    fireEvent.change(within(dialog).getByLabelText('Senha do gerente'), { target: { value: 'segredo' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancelar comanda' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(writes(calls)).toEqual([
      {
        method: 'POST',
        url: '/v1/comanda/1/cancel',
        body: { reason: 'Mesa errada', approval: { email: 'gerente@demo.com.br', password: 'segredo' } },
      },
    ]);
  });

  it('asks which sector before a reprint and lists a reprint as "Reimpressão" once (issue 30)', async () => {
    const job = (id: number, title: string, reprintOf: number | null = null) => ({
      id,
      status: 'printed' as const,
      title,
      readyAt: null,
      reprintOf,
    });
    const sent: Comanda = {
      ...TAB,
      sends: [
        {
          id: 3,
          createdAt: TAB.openedAt,
          createdBy: TAB.lines[0].addedBy,
          unrouted: [],
          jobs: [
            job(20, 'Cozinha - Comanda 7'),
            job(21, 'Bar - Comanda 7'),
            job(22, 'REIMPRESSÃO: Bar - Comanda 7', 21),
          ],
        },
      ],
    };
    const calls = serve();
    renderTab(sent);
    expect(screen.getByText(/^Reimpressão: Bar - Comanda 7/)).toBeTruthy();
    expect(screen.queryByText(/REIMPRESSÃO/)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Reimprimir' }));
    const dialog = await screen.findByRole('dialog');
    expect(writes(calls)).toEqual([]);
    fireEvent.click(within(dialog).getByRole('radio', { name: 'Cozinha - Comanda 7' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reimprimir' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(writes(calls)).toEqual([
      { method: 'POST', url: '/v1/comanda/1/send/3/reprint', body: { jobId: 20 } },
    ]);
  });
});

describe('a canceled line (the walk of issue 35)', { timeout: 20_000 }, () => {
  it('stays readable: struck through, in the secondary colour, never faded below the contrast minimum', () => {
    serve();
    renderTab({ ...TAB, lines: [{ ...LINE, status: 'canceled', cancelReason: 'Cliente desistiu' }] });
    const lines = screen.getByTestId('comanda-lines');
    const reason = within(lines).getByText(/Cancelado: Cliente desistiu/);
    for (let el: HTMLElement | null = reason; el && el !== document.body; el = el.parentElement) {
      expect(getComputedStyle(el).opacity === '' ? '1' : getComputedStyle(el).opacity).toBe('1');
    }
    expect(getComputedStyle(within(lines).getByText('2 x Suco')).textDecoration).toContain('line-through');
    expect(getComputedStyle(within(lines).getByText('R$ 16,00')).textDecoration).toContain('line-through');
  });
});
