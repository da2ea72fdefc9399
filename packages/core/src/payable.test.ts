import { describe, expect, it } from 'vitest';
import {
  addMonths,
  dueDateFollowing,
  membersReached,
  monthEnd,
  nfeFactorSchema,
  nfeStockFigures,
  payableInputSchema,
  payableStatusOf,
  payInputSchema,
  paymentTotal,
  splitInstallments,
  supplierInputSchema,
} from './payable.ts';

describe('instalments and months', () => {
  it('splits an amount into instalments that add up, the cents left over on the first', () => {
    expect(splitInstallments(10000, 3)).toEqual([3334, 3333, 3333]);
    expect(splitInstallments(10000, 3).reduce((a, b) => a + b)).toBe(10000);
  });

  it('adds months keeping the day, clamped to the month end', () => {
    expect(addMonths('2026-01-31', 1)).toBe('2026-02-28');
    expect(addMonths('2028-01-31', 1)).toBe('2028-02-29');
    expect(addMonths('2026-11-10', 2)).toBe('2027-01-10');
    expect(monthEnd('2026-02')).toBe('2026-02-28');
  });
});

describe('series edits: só esta, esta e as seguintes, todas', () => {
  const members = [1, 2, 3, 4].map((index) => ({
    id: index * 10,
    index,
    dueDate: addMonths('2026-01-10', index - 1),
    paid: index === 1,
  }));
  const ids = (list: { id: number }[]) => list.map((m) => m.id);

  it('reaches only the edited one, the later ones, or every unpaid one', () => {
    expect(ids(membersReached(members, members[2], 'this'))).toEqual([30]);
    expect(ids(membersReached(members, members[1], 'following'))).toEqual([20, 30, 40]);
    // "Todas" leaves the paid January alone.
    expect(ids(membersReached(members, members[2], 'all'))).toEqual([20, 30, 40]);
  });

  it('moves the others to the new day in their own month', () => {
    expect(dueDateFollowing('2026-02-10', '2026-03-31')).toBe('2026-02-28');
    expect(dueDateFollowing('2026-04-10', '2026-03-15')).toBe('2026-04-15');
  });
});

describe('payable inputs', () => {
  it('reads a boleto line into its digits and refuses a typo with the field', () => {
    const base = { categoryId: 1, description: 'Luz', amountCents: 100, dueDate: '2026-12-10' };
    const ok = payableInputSchema.safeParse({
      ...base,
      boletoLine: '10492.00650 61000.100042 00997.263900 9 89810000021403',
    });
    expect(ok.success && ok.data.boletoLine).toBe('10492006506100010004200997263900989810000021403');
    const bad = payableInputSchema.safeParse({
      ...base,
      boletoLine: '10492006506100010004200997263900989810000021413',
    });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0].message).toBe('O dígito verificador geral não confere: confira a digitação');
  });

  it('refuses instalments that also recur, and a bad CPF/CNPJ', () => {
    const r = payableInputSchema.safeParse({
      categoryId: 1,
      description: 'x',
      amountCents: 100,
      dueDate: '2026-12-10',
      installments: 3,
      recurrence: 'monthly',
    });
    expect(r.error?.issues[0].message).toBe('Uma conta parcelada não pode ser também recorrente');
    expect(
      supplierInputSchema.safeParse({ name: 'Fornecedor', document: '11.111.111/1111-11' }).error?.issues[0]
        .message,
    ).toBe('CPF ou CNPJ inválido');
  });

  it('pays from the register only in cash; totals and status', () => {
    const r = payInputSchema.safeParse({
      paidOn: '2026-11-27',
      amountCents: 100,
      method: 'pix',
      source: 'register',
    });
    expect(r.error?.issues[0].message).toBe('Pagamento pelo caixa só em dinheiro');
    expect(paymentTotal({ amountCents: 10000, discountCents: 500, interestCents: 120, fineCents: 200 })).toBe(
      9820,
    );
    expect(payableStatusOf(10000, 0)).toBe('open');
    expect(payableStatusOf(10000, 4000)).toBe('partial');
    expect(payableStatusOf(10000, 10000)).toBe('paid');
  });
});

describe("a supplier's NF-e line in the product's units (issue 34)", () => {
  it('converts quantity and unit cost exactly, half up to the cent on the unrounded quantity', () => {
    // 2 CX of 12 for R$ 99,80: 24 units at 9980 / 24 = 415,83 -> 416 cents.
    expect(nfeStockFigures(2, 9980, 12)).toEqual({ quantity: 24, unitCostCents: 416 });
    // 3 FD of 6 for R$ 105,50: 18 at 586,11 -> 586.
    expect(nfeStockFigures(3, 10550, 6)).toEqual({ quantity: 18, unitCostCents: 586 });
    // Half a cent goes up: R$ 1,25 for 2 units is 62,5 -> 63.
    expect(nfeStockFigures(2, 125, 1)).toEqual({ quantity: 2, unitCostCents: 63 });
    // Floating point would make 0,1 x 3 = 0,30000000000000004 and 1,005 x 100 = 100,49999.
    expect(nfeStockFigures(0.1, 100, 3)).toEqual({ quantity: 0.3, unitCostCents: 333 });
    expect(nfeStockFigures(1.005, 10050, 100)).toEqual({ quantity: 100.5, unitCostCents: 100 });
    // The quantity to 3 decimals, the cost on the exact one: 1,2345 KG x 1 = 1,235 (half up).
    expect(nfeStockFigures(1.2345, 1000, 1)).toEqual({ quantity: 1.235, unitCostCents: 810 });
    expect(nfeStockFigures(0, 1000, 12)).toEqual({ quantity: 0, unitCostCents: 0 });
  });

  it('takes a factor up to 4 decimals and refuses zero', () => {
    expect(nfeFactorSchema.safeParse(0.5).success).toBe(true);
    expect(nfeFactorSchema.safeParse(12).success).toBe(true);
    expect(nfeFactorSchema.safeParse(0).error?.issues[0].message).toBe(
      'As unidades por unidade da nota devem ser maiores que zero',
    );
    expect(nfeFactorSchema.safeParse(1.23456).error?.issues[0].message).toBe(
      'Use no máximo 4 casas decimais nas unidades por unidade da nota',
    );
  });
});
