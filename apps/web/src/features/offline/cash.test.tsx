import { describe, expect, it } from 'vitest';
import { expectedCash } from './cash.ts';
import type { OutboxMovement, OutboxSale } from './db.ts';

const sale = (
  payments: { method: string; amountCents: number }[],
  finalAmountCents = payments.reduce((s, p) => s + p.amountCents, 0),
): OutboxSale => ({
  clientSaleId: crypto.randomUUID(),
  madeAt: new Date().toISOString(),
  finalAmountCents,
  error: null,
  body: {
    clientSaleId: crypto.randomUUID(),
    madeAt: new Date().toISOString(),
    sale: { items: [{ productId: 1, quantity: 1 }], payments: payments as never },
    prices: [{ unitPriceCents: 100, additionals: [] }],
  },
});
const movement = (type: 'deposit' | 'withdrawal', amountCents: number): OutboxMovement => ({
  clientMovementId: crypto.randomUUID(),
  madeAt: new Date().toISOString(),
  error: null,
  body: { type, amountCents, reason: 'Troco' },
});

describe("the register's cash with what waits to be sent (issue 21)", () => {
  it('is the server total alone when nothing waits', () => {
    expect(expectedCash(5000, [], [])).toEqual({ cents: 5000, unsynced: false });
  });

  it('adds the money payments of waiting sales (not cards, not the change) and the waiting movements', () => {
    const sales = [
      sale([{ method: 'money', amountCents: 750 }]),
      sale([
        { method: 'money', amountCents: 300 },
        { method: 'debitCard', amountCents: 900 },
      ]),
      sale([{ method: 'pix', amountCents: 1200 }]),
    ];
    const movements = [movement('deposit', 2000), movement('withdrawal', 500)];
    expect(expectedCash(5000, sales, movements)).toEqual({
      cents: 5000 + 750 + 300 + 2000 - 500,
      unsynced: true,
    });
    // R$ 10,00 typed in money for a R$ 7,50 sale: R$ 2,50 went back as change.
    expect(expectedCash(5000, [sale([{ method: 'money', amountCents: 1000 }], 750)], []).cents).toBe(5750);
    // A Pix sale alone still marks the total as including unsent sales.
    expect(expectedCash(5000, [sales[2]], [])).toEqual({ cents: 5000, unsynced: true });
  });
});
