import { describe, expect, it } from 'vitest';
import { couponDiscountCents } from './coupon.ts';
import {
  addMonths,
  checkPayments,
  computeSaleTotals,
  discountCentsOf,
  lineTotals,
  multiplyQuantity,
  type PaymentCheckInput,
  type PaymentInput,
  parsePercentToHundredths,
  parseQuantity,
  saleInputSchema,
  saleTotalsIssues,
  simpleSaleInputSchema,
  splitInstallments,
  toThousandths,
} from './sale.ts';

const TODAY = '2025-03-10';

describe('quantities and rounding', () => {
  it('works on thousandths and refuses a 4th decimal', () => {
    expect(toThousandths(1.25)).toBe(1250);
    expect(toThousandths(0.001)).toBe(1);
    expect(toThousandths(2)).toBe(2000);
    expect(toThousandths(1.0005)).toBeNaN();
  });

  it('rounds quantity x price half-up to the cent', () => {
    // 0,333 kg x R$ 10,00 = 3,33; 1,255 kg x R$ 1,00 = 1,255 -> 1,26 (half-up); 0,125 x 0,10 = 0,0125 -> 0,01
    expect(multiplyQuantity(333, 1000)).toBe(333);
    expect(multiplyQuantity(1255, 100)).toBe(126);
    expect(multiplyQuantity(125, 10)).toBe(1);
    expect(multiplyQuantity(1245, 100)).toBe(125);
    expect(multiplyQuantity(1244, 100)).toBe(124);
  });

  it('has no float drift where floats would have it (0,1 + 0,2 style)', () => {
    // 3 x R$ 0,10 + 3 x R$ 0,20 must be exactly R$ 0,90.
    const totals = computeSaleTotals({
      lines: [
        { unitPriceCents: 10, quantity: 3 },
        { unitPriceCents: 20, quantity: 3 },
      ],
    });
    expect(totals.totalCents).toBe(90);
    // 1,005 kg x R$ 19,99 = 20,08995 -> 20,09
    expect(lineTotals({ unitPriceCents: 1999, quantity: 1.005 }).grossCents).toBe(2009);
  });

  it('parses the PDV inputs', () => {
    expect(parseQuantity('1,250')).toBe(1.25);
    expect(parseQuantity('3')).toBe(3);
    expect(parseQuantity('1,2345')).toBeNaN();
    expect(parsePercentToHundredths('10,5')).toBe(1050);
    expect(parsePercentToHundredths('10%')).toBe(1000);
    expect(parsePercentToHundredths('abc')).toBeNaN();
  });
});

describe('discounts', () => {
  it('fixed takes cents, percentage hundredths of a percent half-up', () => {
    expect(discountCentsOf('fixed_amount', 500, 10000)).toBe(500);
    expect(discountCentsOf('percentage', 1000, 10000)).toBe(1000);
    // 12,5% of R$ 0,99 = 0,12375 -> 0,12; 15% of 0,99 = 0,1485 -> 0,15
    expect(discountCentsOf('percentage', 1250, 99)).toBe(12);
    expect(discountCentsOf('percentage', 1500, 99)).toBe(15);
    expect(discountCentsOf('percentage', 0, 99)).toBe(0);
  });

  it('line discount, add-ons, sale discount, coupon and freight make the final amount', () => {
    const lines = [
      // X-Burger R$ 20,00 + bacon R$ 3,50 + 2x cheddar R$ 2,00, 2 units, 10% off the line
      {
        unitPriceCents: 2000,
        quantity: 2,
        additionals: [
          { priceCents: 350, quantity: 1 },
          { priceCents: 200, quantity: 2 },
        ],
        discountType: 'percentage' as const,
        discountValue: 1000,
      },
      // 0,750 kg of cheese at R$ 45,90/kg = 34,425 -> 34,43, R$ 1,00 off
      { unitPriceCents: 4590, quantity: 0.75, discountValue: 100 },
    ];
    const subtotalBeforeCoupon = computeSaleTotals({ lines }).totalCents;
    const coupon = couponDiscountCents(
      { discountType: 'PERCENTAGE', discountValue: 5 },
      subtotalBeforeCoupon,
    );
    const totals = computeSaleTotals({
      lines,
      discountType: 'fixed_amount',
      discountValue: 250,
      couponDiscountCents: coupon,
      freightCents: 800,
    });
    expect(totals.lines[0]).toEqual({
      unitTotalCents: 2750,
      grossCents: 5500,
      discountCents: 550,
      totalCents: 4950,
    });
    expect(totals.lines[1]).toEqual({
      unitTotalCents: 4590,
      grossCents: 3443,
      discountCents: 100,
      totalCents: 3343,
    });
    expect(totals.totalItems).toBe(2);
    expect(totals.totalQuantity).toBe(2.75);
    expect(totals.itemsGrossCents).toBe(8943);
    expect(totals.itemsDiscountCents).toBe(650);
    expect(totals.totalCents).toBe(8293);
    expect(coupon).toBe(415); // 5% of 82,93 = 4,1465 -> 4,15
    expect(totals.discountCents).toBe(250);
    expect(totals.finalAmountCents).toBe(8293 - 250 - 415 + 800);
    expect(saleTotalsIssues({ lines })).toEqual([]);
  });

  it('refuses discounts larger than what they discount, and percentages over 100', () => {
    const lines = [{ unitPriceCents: 1000, quantity: 1, discountValue: 1001 }];
    expect(saleTotalsIssues({ lines }).map((i) => i.path)).toContain('items.0.discountValue');
    const ok = [{ unitPriceCents: 1000, quantity: 1 }];
    expect(saleTotalsIssues({ lines: ok, discountValue: 600, couponDiscountCents: 500 })[0].message).toBe(
      'O desconto não pode ser maior que o total dos itens',
    );
    expect(
      saleTotalsIssues({ lines: ok, discountType: 'percentage', discountValue: 10001 })[0].message,
    ).toMatch(/100%/);
    expect(saleTotalsIssues({ lines: ok, discountType: 'percentage', discountValue: 10000 })).toEqual([]);
  });
});

describe('payments', () => {
  /** checkPayments on TODAY: the final amount, the payments and any other input. */
  const check = (finalAmountCents: number, payments: PaymentInput[], more: Partial<PaymentCheckInput> = {}) =>
    checkPayments({ finalAmountCents, payments, today: TODAY, ...more });

  it('a single exact payment finishes the sale', () => {
    const r = check(3750, [{ method: 'pix', amountCents: 3750 }]);
    expect(r).toMatchObject({ ok: true, status: 'finished', changeCents: 0, cashDepositAmountCents: 0 });
  });

  it('split payments must add up to the final amount', () => {
    const short = check(10000, [
      { method: 'debitCard', amountCents: 6000 },
      { method: 'pix', amountCents: 3000 },
    ]);
    expect(short.ok).toBe(false);
    if (!short.ok)
      expect(short.message).toBe('Os pagamentos somam R$ 90,00: faltam R$ 10,00 para o total de R$ 100,00');
    const over = check(10000, [
      { method: 'debitCard', amountCents: 6000 },
      { method: 'pix', amountCents: 5000 },
    ]);
    expect(over.ok).toBe(false);
    if (!over.ok) expect(over.message).toMatch(/só o pagamento em dinheiro pode passar do total/);
    const exact = check(10000, [
      { method: 'debitCard', amountCents: 6000 },
      { method: 'pix', amountCents: 4000 },
    ]);
    expect(exact.ok).toBe(true);
  });

  it('money over the total gives change and records the applied amount', () => {
    const r = check(3750, [
      { method: 'creditCard', amountCents: 1000 },
      { method: 'money', amountCents: 5000 },
    ]);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.changeCents).toBe(2250);
    expect(r.cashDepositAmountCents).toBe(5000);
    expect(r.payments.map((p) => [p.method, p.amountCents])).toEqual([
      ['creditCard', 1000],
      ['money', 2750],
    ]);
  });

  it('change from cashDepositAmount', () => {
    const r = check(3750, [{ method: 'money', amountCents: 3750 }], { cashDepositAmountCents: 10000 });
    expect(r).toMatchObject({ ok: true, changeCents: 6250, cashDepositAmountCents: 10000 });
    const low = check(3750, [{ method: 'money', amountCents: 3750 }], { cashDepositAmountCents: 2000 });
    expect(low).toMatchObject({
      ok: false,
      message: 'O valor recebido em dinheiro é menor que o valor a pagar em dinheiro',
    });
    const noMoney = check(3750, [{ method: 'pix', amountCents: 3750 }], { cashDepositAmountCents: 5000 });
    expect(noMoney).toMatchObject({
      ok: false,
      message: 'Valor recebido informado sem pagamento em dinheiro',
    });
  });

  it('money that is all change is refused', () => {
    const r = check(1000, [
      { method: 'pix', amountCents: 1000 },
      { method: 'money', amountCents: 500 },
    ]);
    expect(r.ok).toBe(false);
  });

  it('installments only on credit card, crediário and boleto, 1 to 12', () => {
    expect(check(12000, [{ method: 'creditCard', amountCents: 12000, numberInstallments: 3 }])).toMatchObject(
      { ok: true, status: 'finished' },
    );
    expect(check(12000, [{ method: 'debitCard', amountCents: 12000, numberInstallments: 3 }])).toMatchObject({
      ok: false,
      message: 'Parcelamento só no cartão de crédito, crediário ou boleto',
    });
    expect(
      check(12000, [{ method: 'creditCard', amountCents: 12000, numberInstallments: 13 }]),
    ).toMatchObject({ ok: false });
  });

  it('crediário needs a customer, defaults the first due date to tomorrow, and leaves the sale pending', () => {
    const noCustomer = check(10000, [{ method: 'creditShop', amountCents: 10000 }]);
    expect(noCustomer).toMatchObject({ ok: false, message: 'Informe o cliente para vender no crediário' });
    const r = check(10000, [{ method: 'creditShop', amountCents: 10000, numberInstallments: 3 }], {
      customerId: 7,
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.status).toBe('pending');
    expect(r.payments[0].dueDate).toBe('2025-03-11');
    expect(r.payments[0].installments).toEqual([
      { number: 1, amountCents: 3334, dueDate: '2025-03-11' },
      { number: 2, amountCents: 3333, dueDate: '2025-04-11' },
      { number: 3, amountCents: 3333, dueDate: '2025-05-11' },
    ]);
    const past = check(10000, [{ method: 'creditShop', amountCents: 10000, dueDate: '2025-03-09' }], {
      customerId: 7,
    });
    expect(past).toMatchObject({ ok: false, message: 'A data de vencimento não pode ser anterior a hoje' });
    expect(check(10000, [{ method: 'boleto', amountCents: 10000 }])).toMatchObject({
      ok: false,
      message: 'Informe o cliente para vender no boleto',
    });
  });

  it('payment on delivery only for deliveries; a zero sale needs no payment', () => {
    expect(check(100, [{ method: 'paymentOnDelivery', amountCents: 100 }])).toMatchObject({
      ok: false,
      message: 'Pagamento na entrega só em vendas com entrega',
    });
    expect(
      check(100, [{ method: 'paymentOnDelivery', amountCents: 100 }], { typeOfSale: 'delivery' }),
    ).toMatchObject({ ok: true });
    expect(check(0, [])).toMatchObject({ ok: true });
    expect(check(10, [])).toMatchObject({
      ok: false,
      message: 'Informe a forma de pagamento',
    });
  });
});

describe('dates and installments', () => {
  it('adds months keeping the day, clamped to the month end', () => {
    expect(addMonths('2025-01-31', 1)).toBe('2025-02-28');
    expect(addMonths('2024-01-31', 1)).toBe('2024-02-29');
    expect(addMonths('2025-11-15', 2)).toBe('2026-01-15');
  });
  it('splits with the odd cents on the first installment', () => {
    expect(splitInstallments(1000, 3, '2025-01-31').map((i) => [i.amountCents, i.dueDate])).toEqual([
      [334, '2025-01-31'],
      [333, '2025-02-28'],
      [333, '2025-03-31'],
    ]);
  });
});

describe('input schemas', () => {
  it('parses a sale with defaults and Portuguese errors', () => {
    const parsed = saleInputSchema.parse({ items: [{ productId: 1, quantity: 1.5 }], payments: [] });
    expect(parsed).toMatchObject({
      typeOfSale: 'store',
      discountType: 'fixed_amount',
      discountValue: 0,
      customerId: null,
    });
    const empty = saleInputSchema.safeParse({ items: [] });
    expect(empty.success).toBe(false);
    expect(empty.error?.issues[0].message).toBe('Adicione ao menos um item à venda');
    const bad = saleInputSchema.safeParse({ items: [{ productId: 1, quantity: 1.2345 }] });
    expect(bad.error?.issues[0].message).toBe('Use no máximo 3 casas decimais na quantidade');
    const delivery = saleInputSchema.safeParse({
      items: [{ productId: 1, quantity: 1 }],
      typeOfSale: 'delivery',
    });
    expect(delivery.error?.issues[0].message).toBe('Informe o cliente e o endereço de entrega');
    const percent = saleInputSchema.safeParse({
      items: [{ productId: 1, quantity: 1 }],
      discountType: 'percentage',
      discountValue: 20000,
    });
    expect(percent.error?.issues[0].message).toBe('O desconto em % deve ser no máximo 100%');
  });
  it('quick sale needs a description and a positive value', () => {
    expect(
      simpleSaleInputSchema.safeParse({ description: ' ', valueCents: 100 }).error?.issues[0].message,
    ).toBe('Informe a descrição da venda');
    expect(
      simpleSaleInputSchema.safeParse({ description: 'Conserto', valueCents: 0 }).error?.issues[0].message,
    ).toBe('O valor da venda deve ser maior que zero');
  });
});
