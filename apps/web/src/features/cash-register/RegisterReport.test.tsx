import type { CashRegisterSummary } from '@balcao/core/cashRegister';
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { RegisterReport } from './RegisterReport.tsx';

afterEach(cleanup);

const ana = { id: 7, name: 'Ana Caixa' };
const summary: CashRegisterSummary = {
  id: 1,
  status: 'closed',
  user: ana,
  openingAmountCents: 10_000,
  openedAt: '2026-11-27T11:00:00.000Z',
  closedAt: '2026-11-27T20:00:00.000Z',
  closingNotes: null,
  movements: [],
  methods: [],
  money: {
    openingCents: 10_000,
    salesCents: 0,
    receiptsCents: 0,
    depositsCents: 0,
    withdrawalsCents: 0,
    refundsCents: 0,
    expectedCents: 10_000,
  },
  sales: { count: 0, canceledCount: 0, amountCents: 0, discountCents: 0, changeCents: 0 },
  totals: { expectedCents: 10_000, countedCents: 10_000, differenceCents: 0 },
  blindCount: false,
  drawerOpenings: [
    { id: 1, reason: 'sale', user: ana, createdAt: '2026-11-27T12:00:00.000Z' },
    {
      id: 2,
      reason: 'withdrawal',
      user: { id: 8, name: 'Gil Gerente' },
      createdAt: '2026-11-27T13:00:00.000Z',
    },
    { id: 3, reason: 'manual', user: ana, createdAt: '2026-11-27T14:00:00.000Z' },
  ],
};

describe('RegisterReport', () => {
  it('lists each opening of the cash drawer: when, why and who', () => {
    render(<RegisterReport summary={summary} />);
    expect(screen.getByText('Aberturas da gaveta: 3')).toBeTruthy();
    const rows = within(screen.getByRole('table', { name: 'Aberturas da gaveta' })).getAllByRole('row');
    const cells = rows.slice(1).map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    );
    expect(cells.map((c) => c.slice(1))).toEqual([
      ['Venda em dinheiro', 'Ana Caixa'],
      ['Sangria', 'Gil Gerente'],
      ['Abrir gaveta', 'Ana Caixa'],
    ]);
    expect(cells.every((c) => /\d{2}\/\d{2}\/\d{4}/.test(c[0] ?? ''))).toBe(true);
  });

  it('a register whose drawer never opened shows no such section', () => {
    render(<RegisterReport summary={{ ...summary, drawerOpenings: [] }} />);
    expect(screen.queryByText(/Aberturas da gaveta/)).toBeNull();
  });
});
