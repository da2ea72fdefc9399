import { FEE_PRESETS, type FeeRates } from '@balcao/core/fees';
import { describe, expect, it } from 'vitest';
import { buyerCell, simulate } from './simulation.ts';

const preset = (key: string): FeeRates => {
  const found = FEE_PRESETS.find((p) => p.key === key);
  if (!found) throw new Error(key);
  return found;
};
const sumup = preset('sumup-d1');
const pagbank = preset('pagbank-30d');
const mercadoPago = preset('mercadopago-now');
const G = 100_000;

describe('simulate: every row, side by side, the best marked', () => {
  it('rows are the union of the tables: debit when any has it, 1x..the longest', () => {
    const long: FeeRates = { ...sumup, creditRates: [...sumup.creditRates, 13, 13.5] };
    const rows = simulate([mercadoPago, long], 'receive', G);
    expect(rows.map((r) => r.label)).toEqual([
      'Débito',
      ...Array.from({ length: 14 }, (_, i) => `${i + 1}x`),
    ]);
    // Mercado Pago has no debit rate and stops at 12x: no answer there, and nothing to compare.
    expect(rows[0].cells[0].main).toBeNull();
    expect(rows[0].best).toEqual([]);
    expect(rows[13].cells.map((c) => c.main)).toEqual([null, 87_000]);
    expect(rows[14].cells.map((c) => c.main)).toEqual([null, 86_500]);
  });

  it('"Quanto recebo" marks the highest net; "Quanto cobrar" the lowest price', () => {
    const receive = simulate([sumup, pagbank], 'receive', G);
    const six = receive.find((r) => r.label === '6x');
    expect(six?.cells.map((c) => c.main)).toEqual([90_410, 96_210]);
    expect(six?.best).toEqual([1]);
    const charge = simulate([sumup, pagbank], 'charge', G);
    const twelve = charge.find((r) => r.label === '12x');
    expect(twelve?.cells.map((c) => c.main)).toEqual([114_482, 103_939]);
    expect(twelve?.best).toEqual([1]);
  });

  it('ties are all best; a single table marks nothing', () => {
    const rows = simulate([sumup, sumup], 'receive', G);
    expect(rows.every((r) => r.best.length === 2)).toBe(true);
    expect(simulate([sumup], 'receive', G).every((r) => r.best.length === 0)).toBe(true);
  });
});

describe('buyer interest mode', () => {
  it("a table with buyer interest: the Price table (12x on R$ 1.000,00 at 2,99% is R$ 1.204,83), the shop gets 1x's net", () => {
    expect(buyerCell(pagbank, G, 12)).toEqual({
      kind: 'price',
      installments: 12,
      installmentCents: 10_040,
      totalCents: 120_483,
      interestCents: 20_483,
      netCents: 96_810,
    });
    // 1x is a sale at sight: no interest.
    expect(buyerCell(pagbank, G, 1)).toMatchObject({ totalCents: G, interestCents: 0 });
  });

  it('a table without: the fees passed on, and the shop nets the price', () => {
    expect(buyerCell(sumup, G, 12)).toEqual({
      kind: 'passOn',
      installments: 12,
      installmentCents: 9_541,
      totalCents: 114_482,
      interestCents: 14_482,
      netCents: G,
    });
    expect(buyerCell(sumup, G, 13)).toBeNull();
  });
});
