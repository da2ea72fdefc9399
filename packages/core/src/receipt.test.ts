import { describe, expect, it } from 'vitest';
import { receiptLines, receiptRow } from './receipt.ts';
import type { Sale } from './sale.ts';

describe('receipt', () => {
  const sale: Parameters<typeof receiptLines>[0] = {
    number: 42,
    createdAt: '2025-03-10T15:04:00.000Z',
    status: 'finished',
    customer: { id: 1, name: 'Maria da Silva', document: null, phone: null },
    user: { id: 1, name: 'Caixa Demo' },
    items: [
      {
        id: 1,
        productId: 1,
        variantId: null,
        description: 'Queijo minas frescal',
        variantName: null,
        sku: null,
        barcode: null,
        unit: 'kg',
        quantity: 0.75,
        unitPriceCents: 4590,
        additionals: [],
        unitTotalCents: 4590,
        grossCents: 3443,
        discountType: 'fixed_amount',
        discountValue: 0,
        discountCents: 0,
        totalCents: 3443,
        notes: null,
      },
    ] satisfies Sale['items'],
    payments: [{ id: 1, method: 'money', amountCents: 3443, numberInstallments: 1, dueDate: null }],
    receivables: [],
    totalCents: 3443,
    discountCents: 0,
    couponDiscountCents: 0,
    coupon: null,
    freightCents: 0,
    finalAmountCents: 3443,
    cashDepositAmountCents: 5000,
    changeCents: 1557,
  };

  it('fits 32 columns on 58 mm and 48 on 80 mm', () => {
    for (const [width, cols] of [
      [58, 32],
      [80, 48],
    ] as const) {
      const lines = receiptLines(sale, { name: 'Loja Demo Balcão' }, width);
      expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(cols);
      expect(lines.join('\n')).toContain('Venda nº 42');
      expect(lines.join('\n')).toContain('10/03/2025');
      expect(lines.some((l) => l.startsWith('Troco') && l.endsWith('15,57'))).toBe(true);
      expect(lines.some((l) => l.startsWith('TOTAL') && l.endsWith('R$ 34,43'))).toBe(true);
    }
  });

  it('rows put the right text flush right', () => {
    expect(receiptRow('Total', '10,00', 12)).toBe('Total  10,00');
    expect(receiptRow('Um nome muito longo', '1,00', 12)).toBe('Um nome 1,00');
  });
});
