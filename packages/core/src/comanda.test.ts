import { describe, expect, it } from 'vitest';
import { comandaTotals, equalShares, itemsPaymentCents, minutesSince, serviceFeeOf } from './comanda.ts';

describe('comanda money rules', () => {
  it('totals the active lines as the sale counts them, with the fee half-up and couvert per person', () => {
    const totals = comandaTotals({
      lines: [
        { unitPriceCents: 1000, quantity: 3, status: 'active' },
        {
          unitPriceCents: 733,
          quantity: 1,
          additionals: [{ priceCents: 150, quantity: 2 }],
          status: 'active',
        },
        { unitPriceCents: 5000, quantity: 1, status: 'canceled' },
      ],
      serviceFeePercent: 1000,
      couvertPerPersonCents: 1500,
      people: 2,
      paidCents: 1000,
    });
    // 30,00 + 10,33 = 40,33; 10% = 4,033 -> 4,03; couvert 30,00
    expect(totals).toEqual({
      itemsCents: 4033,
      serviceFeePercent: 1000,
      serviceFeeCents: 403,
      couvertCents: 3000,
      totalCents: 7436,
      paidCents: 1000,
      remainingCents: 6436,
    });
  });

  it('totals a line counted n times as n separate lines, each rounded on its own', () => {
    const kilo = { unitPriceCents: 1001, quantity: 0.333, status: 'active' as const };
    const base = { serviceFeePercent: 1000, couvertPerPersonCents: 0, people: 1, paidCents: 0 };
    const separate = comandaTotals({ ...base, lines: [kilo, kilo, kilo] });
    expect(comandaTotals({ ...base, lines: [{ ...kilo, count: 3 }] })).toEqual(separate);
    // 0,333 x 10,01 = 3,33333 -> 3,33 per line: 9,99, not 3 x 3,33333 = 10,00.
    expect(separate.itemsCents).toBe(999);
  });

  it('charges no couvert on an empty tab and rounds the fee half-up', () => {
    expect(
      comandaTotals({
        lines: [],
        serviceFeePercent: 1000,
        couvertPerPersonCents: 1500,
        people: 4,
        paidCents: 0,
      }).totalCents,
    ).toBe(0);
    expect(serviceFeeOf(1005, 1000)).toBe(101);
    expect(serviceFeeOf(1004, 1000)).toBe(100);
  });

  it('splits into equal shares that add up to the cent', () => {
    expect(equalShares(4106, 3)).toEqual([1369, 1369, 1368]);
    expect(equalShares(100, 3).reduce((a, b) => a + b, 0)).toBe(100);
    expect(equalShares(1, 2)).toEqual([1, 0]);
  });

  it('prices an item payment with its share of the fee', () => {
    const line = { unitPriceCents: 1000, quantity: 3 };
    expect(itemsPaymentCents([{ line, quantity: 1 }], 1000)).toBe(1100);
    expect(itemsPaymentCents([{ line: { unitPriceCents: 733, quantity: 2 }, quantity: 0.5 }], 1000)).toBe(
      404,
    );
  });

  it('counts whole minutes against the given clock', () => {
    expect(minutesSince('2026-11-22T10:00:00Z', '2026-11-22T10:29:59Z')).toBe(29);
    expect(minutesSince(null, '2026-11-22T10:00:00Z')).toBe(0);
  });
});

describe("a comanda sale's origin (issue 30)", () => {
  it('says each of origin and type once', async () => {
    const { saleOriginText } = await import('./sale.ts');
    expect(saleOriginText({ isSimple: false, originSale: 'command', typeOfSale: 'command' })).toBe('Comanda');
    expect(saleOriginText({ isSimple: false, originSale: 'waiter', typeOfSale: 'command' })).toBe(
      'PDV Garçom · Comanda',
    );
    expect(saleOriginText({ isSimple: false, originSale: 'pdv', typeOfSale: 'delivery' })).toBe(
      'PDV · Entrega',
    );
    expect(saleOriginText({ isSimple: true, originSale: 'pdv', typeOfSale: 'store' })).toBe('Venda simples');
  });
});
