import { describe, expect, it } from 'vitest';
import {
  COUPON_MESSAGES,
  type CouponRuleInput,
  type CouponSaleContext,
  couponDiscountCents,
  couponValidateInputSchema,
  evaluateCoupon,
  formatCouponDiscount,
  makeCouponInputSchema,
} from './coupon.ts';
import { addDays, formatDateBr, formatDateLong, isIsoDate } from './date.ts';

const TODAY = '2025-03-10';
const schema = makeCouponInputSchema({ today: () => TODAY });

const valid = {
  code: 'natal10',
  discountType: 'PERCENTAGE',
  discountValue: '10',
  startDate: TODAY,
  endDate: '2025-03-31',
  isSingleUse: false,
  maxUsesPerUser: '0',
  minSaleAmount: '0',
} as const;

/** Field path -> messages of a parse that must fail. */
function errorsOf(input: unknown): Record<string, string[]> {
  const result = schema.safeParse(input);
  if (result.success) throw new Error(`expected errors, parsed ${JSON.stringify(result.data)}`);
  const out: Record<string, string[]> = {};
  for (const issue of result.error.issues) {
    const key = issue.path.join('.');
    out[key] = [...(out[key] ?? []), issue.message];
  }
  return out;
}

describe('couponInputSchema: the spec messages', () => {
  it('says each required message for an empty form', () => {
    expect(
      errorsOf({
        code: '',
        discountType: '',
        discountValue: '',
        startDate: '',
        endDate: '',
        maxUsesPerUser: '',
        minSaleAmount: '',
      }),
    ).toEqual({
      code: ['O código é obrigatório e deve ter no mínimo 3 caracteres'],
      discountType: ['Selecione um tipo de desconto válido'],
      discountValue: ['O campo é obrigatório'],
      startDate: ['A data de início é obrigatória'],
      endDate: ['A data de fim é obrigatória'],
      maxUsesPerUser: ['O campo é obrigatório'],
      minSaleAmount: ['O campo é obrigatório'],
    });
  });

  it('says the same messages when the fields are missing from an API body', () => {
    expect(errorsOf({})).toEqual({
      code: [COUPON_MESSAGES.codeRequired],
      discountType: [COUPON_MESSAGES.discountType],
      discountValue: ['O campo é obrigatório'],
      startDate: [COUPON_MESSAGES.startRequired],
      endDate: [COUPON_MESSAGES.endRequired],
    });
  });

  it('accepts a code of 3 to 100 characters and refuses 2 or 101 (decision: minimum 3, message says 3)', () => {
    expect(errorsOf({ ...valid, code: 'AB' })).toEqual({ code: [COUPON_MESSAGES.codeRequired] });
    expect(errorsOf({ ...valid, code: '  AB  ' })).toEqual({ code: [COUPON_MESSAGES.codeRequired] });
    expect(schema.parse({ ...valid, code: 'abc' }).code).toBe('ABC');
    expect(schema.parse({ ...valid, code: 'X'.repeat(100) }).code).toHaveLength(100);
    expect(errorsOf({ ...valid, code: 'X'.repeat(101) })).toEqual({
      code: ['O código deve ter no máximo 100 caracteres'],
    });
  });

  it('upper-cases and trims the code and refuses spaces or symbols', () => {
    expect(schema.parse({ ...valid, code: '  black-friday_10 ' }).code).toBe('BLACK-FRIDAY_10');
    expect(errorsOf({ ...valid, code: 'DEZ OFF' })).toEqual({ code: [COUPON_MESSAGES.codeChars] });
    expect(errorsOf({ ...valid, code: 'DEZ%' })).toEqual({ code: [COUPON_MESSAGES.codeChars] });
  });

  it('accepts only PERCENTAGE and FIXED_AMOUNT', () => {
    expect(errorsOf({ ...valid, discountType: 'percentage' })).toEqual({
      discountType: ['Selecione um tipo de desconto válido'],
    });
    expect(schema.parse({ ...valid, discountType: 'FIXED_AMOUNT' }).discountType).toBe('FIXED_AMOUNT');
  });

  it('turns comma decimals into numbers (comma becomes dot on save)', () => {
    expect(schema.parse({ ...valid, discountValue: '12,5' }).discountValue).toBe(12.5);
    expect(schema.parse({ ...valid, discountValue: '0,05' }).discountValue).toBe(0.05);
    expect(
      schema.parse({ ...valid, discountType: 'FIXED_AMOUNT', discountValue: '1234,56' }).discountValue,
    ).toBe(1234.56);
    expect(schema.parse({ ...valid, minSaleAmount: '49,9' }).minSaleAmount).toBe(49.9);
    expect(schema.parse({ ...valid, discountValue: 7.25 }).discountValue).toBe(7.25);
    expect(schema.parse({ ...valid, discountValue: '7.25' }).discountValue).toBe(7.25);
  });

  it('refuses more than 2 decimals and text that is not a number', () => {
    expect(errorsOf({ ...valid, discountValue: '1,234' })).toEqual({
      discountValue: [COUPON_MESSAGES.decimals],
    });
    expect(errorsOf({ ...valid, discountValue: 5.555 })).toEqual({
      discountValue: [COUPON_MESSAGES.decimals],
    });
    expect(errorsOf({ ...valid, discountValue: '1,2,3' })).toEqual({
      discountValue: [COUPON_MESSAGES.number],
    });
    expect(errorsOf({ ...valid, minSaleAmount: 'abc' })).toEqual({ minSaleAmount: [COUPON_MESSAGES.number] });
  });

  it('wants a percentage above 0 and at most 100', () => {
    expect(errorsOf({ ...valid, discountValue: '0' })).toEqual({
      discountValue: ['O desconto deve ser maior que 0'],
    });
    expect(errorsOf({ ...valid, discountValue: '100,01' })).toEqual({
      discountValue: ['O percentual de desconto deve ser no máximo 100'],
    });
    expect(schema.parse({ ...valid, discountValue: '100' }).discountValue).toBe(100);
    expect(schema.parse({ ...valid, discountValue: '0,01' }).discountValue).toBe(0.01);
  });

  it('wants a fixed amount above 0, with no 100 cap', () => {
    const fixed = { ...valid, discountType: 'FIXED_AMOUNT' };
    expect(errorsOf({ ...fixed, discountValue: '0' })).toEqual({
      discountValue: [COUPON_MESSAGES.discountPositive],
    });
    expect(errorsOf({ ...fixed, discountValue: -5 })).toEqual({
      discountValue: [COUPON_MESSAGES.discountPositive],
    });
    expect(schema.parse({ ...fixed, discountValue: '250' }).discountValue).toBe(250);
    expect(errorsOf({ ...fixed, discountValue: 1_000_000.01 })).toEqual({
      discountValue: [COUPON_MESSAGES.amountMax],
    });
  });

  it('ends today at the earliest: today passes, yesterday is "maior que ontem"', () => {
    expect(schema.parse({ ...valid, startDate: '2025-03-01', endDate: TODAY }).endDate).toBe(TODAY);
    expect(errorsOf({ ...valid, startDate: '2025-03-01', endDate: '2025-03-09' })).toEqual({
      endDate: ['A data de fim deve ser maior que ontem'],
    });
  });

  it('follows the clock it is given', () => {
    const later = makeCouponInputSchema({ today: () => '2025-04-01' });
    expect(later.safeParse({ ...valid, endDate: '2025-03-31' }).success).toBe(false);
    expect(later.safeParse({ ...valid, endDate: '2025-04-01' }).success).toBe(true);
  });

  it('refuses an end before the start and accepts a one-day coupon (end = start)', () => {
    expect(errorsOf({ ...valid, startDate: '2025-03-20', endDate: '2025-03-19' })).toEqual({
      endDate: ['A data de fim deve ser posterior à data de início'],
    });
    expect(schema.parse({ ...valid, startDate: '2025-03-20', endDate: '2025-03-20' }).endDate).toBe(
      '2025-03-20',
    );
  });

  it('accepts a start date in the past (an ongoing coupon being edited)', () => {
    expect(schema.parse({ ...valid, startDate: '2024-01-01' }).startDate).toBe('2024-01-01');
  });

  it('refuses dates that do not exist and takes the date part of an ISO date-time', () => {
    expect(errorsOf({ ...valid, startDate: '2025-02-30' })).toEqual({ startDate: ['Data inválida'] });
    expect(errorsOf({ ...valid, endDate: '31/03/2025' })).toEqual({ endDate: ['Data inválida'] });
    expect(schema.parse({ ...valid, endDate: '2025-03-31T00:00:00.000Z' }).endDate).toBe('2025-03-31');
  });

  it('wants maxUsesPerUser to be a whole number of at least 0', () => {
    expect(errorsOf({ ...valid, maxUsesPerUser: '-1' })).toEqual({
      maxUsesPerUser: ['O número máximo de usos deve ser no mínimo 0'],
    });
    expect(errorsOf({ ...valid, maxUsesPerUser: -1 })).toEqual({
      maxUsesPerUser: [COUPON_MESSAGES.maxUsesMin],
    });
    expect(errorsOf({ ...valid, maxUsesPerUser: 1.5 })).toEqual({
      maxUsesPerUser: [COUPON_MESSAGES.integer],
    });
    expect(schema.parse({ ...valid, maxUsesPerUser: '3' }).maxUsesPerUser).toBe(3);
  });

  it('refuses a negative minimum sale amount', () => {
    expect(errorsOf({ ...valid, minSaleAmount: -1 })).toEqual({
      minSaleAmount: [COUPON_MESSAGES.minSaleNegative],
    });
  });

  it('defaults the optional fields and keeps the client as {id}', () => {
    const parsed = schema.parse({
      code: 'abc',
      discountType: 'FIXED_AMOUNT',
      discountValue: 5,
      startDate: TODAY,
      endDate: TODAY,
      client: 7,
    });
    expect(parsed).toEqual({
      code: 'ABC',
      discountType: 'FIXED_AMOUNT',
      discountValue: 5,
      startDate: TODAY,
      endDate: TODAY,
      isSingleUse: false,
      maxUsesPerUser: 0,
      minSaleAmount: 0,
      status: 'active',
      client: { id: 7 },
    });
    expect(schema.parse({ ...valid, client: { id: 8 } }).client).toEqual({ id: 8 });
    expect(schema.safeParse({ ...valid, status: 'deleted' }).success).toBe(false);
  });
});

describe('formatCouponDiscount', () => {
  it('shows a percentage as "10%" and an amount as "R$ 5,00"', () => {
    expect(formatCouponDiscount({ discountType: 'PERCENTAGE', discountValue: 10 })).toBe('10%');
    expect(formatCouponDiscount({ discountType: 'PERCENTAGE', discountValue: 12.5 })).toBe('12,5%');
    expect(formatCouponDiscount({ discountType: 'FIXED_AMOUNT', discountValue: 5 })).toBe('R$ 5,00');
    expect(formatCouponDiscount({ discountType: 'FIXED_AMOUNT', discountValue: 1234.5 })).toBe('R$ 1.234,50');
  });
});

describe('evaluateCoupon', () => {
  const coupon: CouponRuleInput = {
    status: 'active',
    discountType: 'PERCENTAGE',
    discountValue: 10,
    startDate: '2025-03-01',
    endDate: '2025-03-31',
    isSingleUse: false,
    maxUsesPerUser: 0,
    minSaleAmount: 0,
  };
  const sale: CouponSaleContext = { subtotalCents: 10_000, usesTotal: 0, usesByCustomer: 0, today: TODAY };

  it('gives the discount in cents when every rule passes', () => {
    expect(evaluateCoupon(coupon, sale)).toEqual({ ok: true, discountCents: 1000 });
  });

  it('refuses an inactive or deleted coupon', () => {
    expect(evaluateCoupon({ ...coupon, status: 'inactive' }, sale)).toEqual({
      ok: false,
      code: 'inactive',
      reason: 'Este cupom está inativo',
    });
    expect(evaluateCoupon({ ...coupon, status: 'deleted' }, sale)).toMatchObject({
      ok: false,
      code: 'inactive',
    });
  });

  it('applies from the first to the last day, both included', () => {
    expect(evaluateCoupon(coupon, { ...sale, today: '2025-03-01' }).ok).toBe(true);
    expect(evaluateCoupon(coupon, { ...sale, today: '2025-03-31' }).ok).toBe(true);
  });

  it('refuses a coupon that has not started, saying when it starts', () => {
    expect(evaluateCoupon(coupon, { ...sale, today: '2025-02-28' })).toEqual({
      ok: false,
      code: 'not_started',
      reason: 'Este cupom ainda não está válido: vale a partir de 01/03/2025',
    });
  });

  it('refuses an expired coupon, saying when it ended', () => {
    expect(evaluateCoupon(coupon, { ...sale, today: '2025-04-01' })).toEqual({
      ok: false,
      code: 'expired',
      reason: 'Este cupom expirou em 31/03/2025',
    });
  });

  it('refuses a sale below the minimum, saying the minimum in R$', () => {
    const withMinimum = { ...coupon, minSaleAmount: 50 };
    expect(evaluateCoupon(withMinimum, { ...sale, subtotalCents: 4999 })).toEqual({
      ok: false,
      code: 'below_minimum',
      reason: 'Este cupom exige compra mínima de R$ 50,00',
    });
    expect(evaluateCoupon(withMinimum, { ...sale, subtotalCents: 5000 })).toEqual({
      ok: true,
      discountCents: 500,
    });
  });

  it('refuses a single-use coupon used once (by anybody) and allows it unused', () => {
    const single = { ...coupon, isSingleUse: true };
    expect(evaluateCoupon(single, sale).ok).toBe(true);
    expect(evaluateCoupon(single, { ...sale, usesTotal: 1 })).toEqual({
      ok: false,
      code: 'single_use_used',
      reason: 'Este cupom é de uso único e já foi utilizado',
    });
  });

  it('needs a customer when there is a per-customer limit', () => {
    expect(evaluateCoupon({ ...coupon, maxUsesPerUser: 2 }, sale)).toEqual({
      ok: false,
      code: 'customer_required',
      reason: 'Este cupom tem limite de usos por cliente: informe o cliente da venda',
    });
    expect(evaluateCoupon({ ...coupon, maxUsesPerUser: 2 }, { ...sale, customerId: null }).ok).toBe(false);
  });

  it('refuses a customer who reached the per-customer limit', () => {
    const limited = { ...coupon, maxUsesPerUser: 2 };
    expect(evaluateCoupon(limited, { ...sale, customerId: 5, usesTotal: 9, usesByCustomer: 1 }).ok).toBe(
      true,
    );
    expect(evaluateCoupon(limited, { ...sale, customerId: 5, usesTotal: 9, usesByCustomer: 2 })).toEqual({
      ok: false,
      code: 'per_user_limit',
      reason: 'Este cliente já usou este cupom o máximo permitido (2 vezes)',
    });
    expect(
      evaluateCoupon({ ...coupon, maxUsesPerUser: 1 }, { ...sale, customerId: 5, usesByCustomer: 1 }),
    ).toMatchObject({ reason: 'Este cliente já usou este cupom o máximo permitido (1 vez)' });
  });

  it('does not limit uses when maxUsesPerUser is 0, with or without a customer', () => {
    expect(evaluateCoupon(coupon, { ...sale, usesTotal: 500, usesByCustomer: 500, customerId: 1 }).ok).toBe(
      true,
    );
  });
});

describe('couponDiscountCents', () => {
  it('rounds a percentage half-up to the cent', () => {
    // 10% of R$ 0,05 = 0,5 cent -> 1 cent; 10% of R$ 0,04 = 0,4 cent -> 0.
    expect(couponDiscountCents({ discountType: 'PERCENTAGE', discountValue: 10 }, 5)).toBe(1);
    expect(couponDiscountCents({ discountType: 'PERCENTAGE', discountValue: 10 }, 4)).toBe(0);
    // 12,5% of R$ 19,99 = 249,875 cents -> 250.
    expect(couponDiscountCents({ discountType: 'PERCENTAGE', discountValue: 12.5 }, 1999)).toBe(250);
    // 33,33% of R$ 10,00 = 333,3 cents -> 333.
    expect(couponDiscountCents({ discountType: 'PERCENTAGE', discountValue: 33.33 }, 1000)).toBe(333);
    expect(couponDiscountCents({ discountType: 'PERCENTAGE', discountValue: 100 }, 1999)).toBe(1999);
  });

  it('never takes off more than the subtotal', () => {
    expect(couponDiscountCents({ discountType: 'FIXED_AMOUNT', discountValue: 50 }, 3000)).toBe(3000);
    expect(couponDiscountCents({ discountType: 'FIXED_AMOUNT', discountValue: 5.5 }, 3000)).toBe(550);
    expect(couponDiscountCents({ discountType: 'FIXED_AMOUNT', discountValue: 5 }, 0)).toBe(0);
  });

  it('uses exact cents for amounts that are not exact in binary (0,1 + 0,2 style)', () => {
    expect(couponDiscountCents({ discountType: 'FIXED_AMOUNT', discountValue: 0.29 }, 1000)).toBe(29);
    expect(couponDiscountCents({ discountType: 'FIXED_AMOUNT', discountValue: 1.15 }, 1000)).toBe(115);
  });
});

describe('dates', () => {
  it('checks, adds and formats ISO dates', () => {
    expect(isIsoDate('2024-02-29')).toBe(true);
    expect(isIsoDate('2025-02-29')).toBe(false);
    expect(addDays('2025-03-01', -1)).toBe('2025-02-28');
    expect(addDays('2024-12-31', 1)).toBe('2025-01-01');
    expect(formatDateBr('2025-03-09')).toBe('09/03/2025');
    expect(formatDateBr('2025-03-09T00:00:00.000Z')).toBe('09/03/2025');
    expect(formatDateLong('2026-11-22')).toBe('domingo, 22 de novembro');
  });
});

describe('couponValidateInputSchema', () => {
  it('takes the subtotal in cents or in reais and needs one of them', () => {
    expect(couponValidateInputSchema.parse({ code: ' vip20 ', subtotalCents: 1999 })).toEqual({
      code: 'vip20',
      subtotalCents: 1999,
      customerId: null,
    });
    expect(couponValidateInputSchema.parse({ code: 'VIP20', subtotal: 19.99, customerId: 4 })).toEqual({
      code: 'VIP20',
      subtotalCents: 1999,
      customerId: 4,
    });
    const missing = couponValidateInputSchema.safeParse({ code: 'VIP20' });
    expect(missing.success).toBe(false);
    expect(missing.error?.issues[0]).toMatchObject({
      path: ['subtotalCents'],
      message: 'O campo é obrigatório',
    });
    expect(couponValidateInputSchema.safeParse({ code: '', subtotalCents: 1 }).success).toBe(false);
    expect(couponValidateInputSchema.safeParse({ code: 'X', subtotalCents: 10.5 }).success).toBe(false);
    expect(couponValidateInputSchema.safeParse({ code: 'X', subtotal: 1.234 }).success).toBe(false);
    expect(couponValidateInputSchema.safeParse({ code: 'X', subtotalCents: -1 }).success).toBe(false);
  });
});
