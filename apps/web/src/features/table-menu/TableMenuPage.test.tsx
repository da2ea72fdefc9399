import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import TableMenuPage from './TableMenuPage.tsx';

const MENU = {
  shop: 'Lanchonete',
  tableLabel: '7',
  open: true,
  closedMessage: null,
  hours: null,
  products: [
    { id: 1, name: 'X-Burger', priceCents: 2490, category: 'Lanches', imageUrl: null, additionalGroups: [] },
    { id: 2, name: 'Suco', priceCents: 900, category: 'Bebidas', imageUrl: null, additionalGroups: [] },
  ],
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  window.history.replaceState(null, '', '/');
});

describe('the table page (the walk of issue 35)', () => {
  it('lets the customer take back a tap too many: one less, one more, and the last one out', async () => {
    window.history.replaceState(null, '', '/mesa/tok-7');
    const sent: unknown[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init: RequestInit = {}) => {
        if (init.method === 'POST') {
          sent.push(JSON.parse(String(init.body)));
          return new Response(JSON.stringify({ status: 'pending' }), { status: 201 });
        }
        return new Response(JSON.stringify(MENU), { status: 200 });
      }),
    );
    render(<TableMenuPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Adicionar X-Burger' }));
    fireEvent.click(screen.getByRole('button', { name: 'Adicionar X-Burger' }));
    fireEvent.click(screen.getByRole('button', { name: 'Adicionar Suco' }));
    const order = screen.getByRole('region', { name: 'Seu pedido' });
    expect(order.textContent).toContain('2 x X-Burger — R$ 49,80');
    fireEvent.click(within(order).getByRole('button', { name: 'Um a menos: X-Burger' }));
    expect(order.textContent).toContain('1 x X-Burger — R$ 24,90');
    fireEvent.click(within(order).getByRole('button', { name: 'Um a mais: Suco' }));
    fireEvent.click(within(order).getByRole('button', { name: 'Tirar X-Burger' }));
    expect(order.textContent).not.toContain('X-Burger');
    fireEvent.click(within(order).getByRole('button', { name: 'Enviar pedido · R$ 18,00' }));
    expect(await screen.findByText('Pedido enviado! O garçom vai confirmar em instantes.')).toBeTruthy();
    expect(sent).toEqual([{ lines: [{ productId: 2, quantity: 2, additionals: [], notes: null }] }]);
  });
});
