import type { BankAccount, Payable } from '@balcao/core/payable';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PayDialog } from './PayDialog.tsx';

const PAYABLE = {
  id: 7,
  supplier: null,
  category: { id: 1, name: 'Aluguel', group: 'operating' },
  description: 'Aluguel de março',
  amountCents: 150000,
  paidCents: 0,
  openCents: 150000,
  dueDate: '2026-03-05',
  competenceMonth: '2026-03',
  documentNumber: null,
  notes: null,
  boletoLine: null,
  attachments: [],
  status: 'open',
  overdue: false,
  lastPaidOn: null,
  paidFrom: null,
  series: null,
  payments: [],
  createdAt: '2026-03-01T12:00:00.000Z',
  updatedAt: '2026-03-01T12:00:00.000Z',
} satisfies Payable;

const ACCOUNTS: BankAccount[] = [
  { id: 3, name: 'Conta antiga', bank: null, agency: null, account: null, active: false, receives: [] },
  { id: 4, name: 'Itaú', bank: '341', agency: '1234', account: '5678-9', active: true, receives: ['pix'] },
];

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('Pagar conta', () => {
  it('offers the till and the active named accounts, the first one chosen, and sends the account that paid', {
    timeout: 20_000,
  }, async () => {
    const posted: unknown[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        if (init?.method === 'POST') {
          posted.push(JSON.parse(String(init.body)));
          return new Response(JSON.stringify(PAYABLE), { status: 200 });
        }
        return new Response(JSON.stringify(url.includes('/payable/bank-account') ? ACCOUNTS : []), {
          status: 200,
        });
      }),
    );
    const onPaid = vi.fn();
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <PayDialog payable={PAYABLE} onClose={() => undefined} onPaid={onPaid} />
      </QueryClientProvider>,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Pagar conta' });
    const source = within(dialog).getByRole('combobox', { name: 'De onde saiu o dinheiro' });
    await waitFor(() => expect(source.textContent).toBe('Itaú (ag. 1234, c/c 5678-9)'));
    fireEvent.mouseDown(source);
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual([
      'Caixa aberto (dinheiro da gaveta)',
      'Itaú (ag. 1234, c/c 5678-9)',
      'Outra conta bancária (não cadastrada)',
    ]);
    fireEvent.click(screen.getByRole('option', { name: 'Itaú (ag. 1234, c/c 5678-9)' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirmar pagamento' }));
    await waitFor(() => expect(onPaid).toHaveBeenCalled());
    expect(posted).toEqual([
      expect.objectContaining({ amountCents: 150000, method: 'pix', source: 'bank', bankAccountId: 4 }),
    ]);
  });
});
