import { describe, expect, it } from 'vitest';
import { creditWarnings } from './receivable.ts';

describe('credit warnings', () => {
  it('warns on delinquency and on the credit limit, never refuses', () => {
    const base = { isDelinquent: false, overdueCents: 0, pendingCents: 0, creditLimitCents: 50000 };
    expect(creditWarnings(base, 10000)).toEqual([]);
    expect(creditWarnings({ ...base, isDelinquent: true, overdueCents: 1500 }, 0)[0]).toEqual({
      code: 'delinquent',
      message: 'Cliente inadimplente: R$ 15,00 em parcelas vencidas',
    });
    expect(creditWarnings({ ...base, pendingCents: 45000 }, 10000)[0].code).toBe('over_credit_limit');
    expect(creditWarnings({ ...base, creditLimitCents: 0 }, 10000)[0].code).toBe('no_credit_limit');
  });
});
