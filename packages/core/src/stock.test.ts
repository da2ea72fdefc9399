import { describe, expect, it } from 'vitest';
import {
  averageCost,
  fractionTargetFor,
  insufficientStockMessage,
  stockEntryFormSchema,
  stockEntryFormToInput,
  stockExitInputSchema,
  stockFractionateInputSchema,
  stockMovementListQuerySchema,
  stockReasonLabel,
  toThousandths,
} from './stock.ts';

describe('toThousandths', () => {
  it('reads numbers and texts with a decimal comma or dot, exactly', () => {
    expect(toThousandths(1.5)).toBe(1500);
    expect(toThousandths(0.1 + 0.2)).toBe(300);
    expect(toThousandths('2,345')).toBe(2345);
    expect(toThousandths('0.250')).toBe(250);
    expect(toThousandths('12')).toBe(12000);
    expect(toThousandths('-3,5')).toBe(-3500);
    expect(toThousandths(99_999_999_999.999)).toBe(99_999_999_999_999);
  });

  it('refuses more than 3 decimals and junk', () => {
    expect(toThousandths(1.2345)).toBeNaN();
    expect(toThousandths('1,2345')).toBeNaN();
    expect(toThousandths('1.234,5')).toBeNaN();
    expect(toThousandths('abc')).toBeNaN();
    expect(toThousandths(Number.POSITIVE_INFINITY)).toBeNaN();
  });
});

describe('stock schemas', () => {
  it('turns the entry form (texts) into the API input', () => {
    const parsed = stockEntryFormSchema.parse({
      items: [{ productId: 3, quantity: '1,5', unitCost: '12,34' }],
      document: ' NF 10 ',
    });
    expect(stockEntryFormToInput(parsed)).toEqual({
      document: 'NF 10',
      note: null,
      items: [{ productId: 3, variantId: null, quantity: 1.5, unitCostCents: 1234 }],
    });
  });

  it('gives Portuguese messages for bad quantities and costs', () => {
    const result = stockEntryFormSchema.safeParse({
      items: [
        { productId: 1, quantity: '', unitCost: '1,00' },
        { productId: 1, quantity: '0', unitCost: 'x' },
        { productId: 1, quantity: '1,2345', unitCost: '1' },
      ],
    });
    expect(result.success).toBe(false);
    const messages = result.error?.issues.map((i) => [i.path.join('.'), i.message]);
    expect(messages).toEqual([
      ['items.0.quantity', 'O campo é obrigatório'],
      ['items.1.quantity', 'A quantidade deve ser maior que 0'],
      ['items.1.unitCost', 'Informe um custo unitário válido'],
      ['items.2.quantity', 'Use no máximo 3 casas decimais'],
    ]);
  });

  it('needs a reason on exits and a description for "other"', () => {
    expect(
      stockExitInputSchema.safeParse({ items: [{ productId: 1, quantity: 1 }] }).error?.issues[0].message,
    ).toBe('Selecione o motivo da saída');
    const other = stockExitInputSchema.safeParse({ items: [{ productId: 1, quantity: 1 }], reason: 'other' });
    expect(other.error?.issues[0]).toMatchObject({ path: ['note'], message: 'Descreva o motivo da saída' });
  });

  it('refuses the same product on both sides of a fractioning', () => {
    const same = stockFractionateInputSchema.safeParse({
      sourceProductId: 1,
      sourceQuantity: 1,
      targetProductId: 1,
      targetQuantity: 12,
    });
    expect(same.error?.issues[0].message).toBe('Escolha produtos diferentes para origem e destino');
  });

  it('reads history filters: a type list and a period', () => {
    const q = stockMovementListQuerySchema.parse({
      type: 'entry,exit',
      from: '2025-01-01',
      to: '2025-01-31',
    });
    expect(q).toMatchObject({ type: ['entry', 'exit'], from: '2025-01-01', to: '2025-01-31', page: 1 });
    expect(stockMovementListQuerySchema.safeParse({ type: 'roubo' }).success).toBe(false);
    expect(stockMovementListQuerySchema.safeParse({ from: '2025-02-30' }).success).toBe(false);
  });
});

describe('helpers', () => {
  it('formats the insufficient stock message with a decimal comma', () => {
    expect(insufficientStockMessage('Queijo', 0.35)).toBe(
      'Estoque insuficiente para Queijo (disponível: 0,35)',
    );
  });

  it('pre-fills the target quantity from a remembered ratio', () => {
    expect(fractionTargetFor({ sourceQuantity: 1, targetQuantity: 12 }, 3)).toBe(36);
    expect(fractionTargetFor({ sourceQuantity: 2, targetQuantity: 3 }, 1)).toBe(1.5);
  });

  it('labels reasons', () => {
    expect(stockReasonLabel('supplier-return')).toBe('Devolução ao fornecedor');
    expect(stockReasonLabel('initial-stock')).toBe('Saldo inicial');
    expect(stockReasonLabel(null)).toBe('');
  });
});

describe('averageCost (issue 34: the weighted average cost the stock entries keep)', () => {
  it('weights the level and the entry, rounding half up, and ignores a negative level', () => {
    expect(averageCost(10_000, 500, 10_000, 700)).toBe(600);
    expect(averageCost(1_000, 100, 2_000, 101)).toBe(101); // 100.67 -> 101
    expect(averageCost(3_000, 1000, 0, 0)).toBe(1000);
    expect(averageCost(-5_000, 900, 2_000, 300)).toBe(300);
    expect(averageCost(0, 0, 1_500, 1234)).toBe(1234);
  });

  it('keeps the cents exact through entries at different costs, fractions and half cents', () => {
    // 8 at R$ 4,00 and 10 at R$ 10,00: 132,00 / 18 = 7,333... -> R$ 7,33.
    expect(averageCost(8_000, 400, 10_000, 1000)).toBe(733);
    // 8 at R$ 4,00 and 10 at R$ 5,55: 87,50 / 18 = 4,8611... -> R$ 4,86.
    expect(averageCost(8_000, 400, 10_000, 555)).toBe(486);
    // Exactly half a cent rounds up: (1 x 1 + 1 x 2) / 2 = 1,5 -> 2.
    expect(averageCost(1_000, 1, 1_000, 2)).toBe(2);
    // 1,235 kg at R$ 39,99 onto 0,765 kg at R$ 30,00: (0,765 x 30,00 + 1,235 x 39,99) / 2 kg = 36,1688 -> R$ 36,17.
    expect(averageCost(765, 3000, 1_235, 3999)).toBe(3617);
    // No level and nothing in: the entry's cost; a huge level does not overflow.
    expect(averageCost(0, 700, 0, 900)).toBe(900);
    expect(averageCost(9_000_000_000_000, 99_999_999, 1_000, 1)).toBe(99_999_999);
  });
});
