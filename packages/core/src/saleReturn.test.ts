import { describe, expect, it } from 'vitest';
import { lineRefundCents, netOfLines, refundByMethod, saleReturnInputSchema } from './saleReturn.ts';

describe('the money of a return', () => {
  it('shares the sale discount and coupon over the lines to the cent', () => {
    // 3 x 33,33 + 0,01: 100,00 of items, 10,00 off, 3,33 coupon -> 86,67 net
    const nets = netOfLines({
      totalCents: 10000,
      discountCents: 1000,
      couponDiscountCents: 333,
      items: [
        { id: 1, quantity: 1, totalCents: 3333 },
        { id: 2, quantity: 1, totalCents: 3333 },
        { id: 3, quantity: 1, totalCents: 3333 },
        { id: 4, quantity: 1, totalCents: 1 },
      ],
    });
    expect([...nets.values()].reduce((a, b) => a + b, 0)).toBe(8667);
    expect([...nets.values()]).toEqual([2889, 2889, 2888, 1]);
  });

  it('adds partial returns of a line up to the whole line (kg and units)', () => {
    // 1,000 kg for 10,01: 0,333 + 0,333 + 0,334
    const parts = [
      lineRefundCents(1001, 1, 0, 0.333),
      lineRefundCents(1001, 1, 0.333, 0.333),
      lineRefundCents(1001, 1, 0.666, 0.334),
    ];
    expect(parts).toEqual([333, 334, 334]);
    expect(parts.reduce((a, b) => a + b, 0)).toBe(1001);
    expect(lineRefundCents(16173, 3, 0, 1) + lineRefundCents(16173, 3, 1, 2)).toBe(16173);
  });

  it('splits a refund over the methods in the order paid, after earlier refunds', () => {
    const payments = [
      { method: 'debitCard' as const, amountCents: 5000 },
      { method: 'money' as const, amountCents: 3000 },
    ];
    expect(refundByMethod(6000, payments, new Map())).toEqual([
      { method: 'debitCard', amountCents: 5000 },
      { method: 'money', amountCents: 1000 },
    ]);
    expect(refundByMethod(2000, payments, new Map([['debitCard', 5000]]))).toEqual([
      { method: 'money', amountCents: 2000 },
    ]);
  });

  it('refuses a line twice, nothing to return and 4 decimals, in Portuguese', () => {
    const base = { refund: 'storeCredit', reason: 'Troca' };
    const messages = (lines: unknown) =>
      saleReturnInputSchema.safeParse({ ...base, lines }).error?.issues.map((i) => i.message);
    expect(messages([])).toEqual(['Escolha ao menos um item para devolver']);
    expect(
      messages([
        { saleItemId: 1, quantity: 1 },
        { saleItemId: 1, quantity: 1 },
      ]),
    ).toEqual(['Item repetido na devolução']);
    expect(messages([{ saleItemId: 1, quantity: 0.0001 }])).toEqual([
      'Use no máximo 3 casas decimais na quantidade',
    ]);
  });
});
