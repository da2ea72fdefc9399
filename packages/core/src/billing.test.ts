import { describe, expect, it } from 'vitest';
import { addMonths, fitsPlan, PLANS, periodsUntil, planLimitMessage } from './billing.ts';
import { overdueBannerText } from './billingText.ts';

describe('billing periods', () => {
  it('adds months keeping the day, clamped to the month’s end', () => {
    expect(addMonths('2026-01-15', 1)).toBe('2026-02-15');
    expect(addMonths('2026-01-31', 1)).toBe('2026-02-28');
    expect(addMonths('2028-01-31', 1)).toBe('2028-02-29');
    expect(addMonths('2026-11-30', 3)).toBe('2027-02-28');
    expect(addMonths('2026-03-31', -1)).toBe('2026-02-28');
  });

  it('lists the periods up to the one containing today, each due 7 days after it starts', () => {
    expect(periodsUntil('2026-09-10', '2026-11-09')).toEqual([
      { start: '2026-09-10', end: '2026-10-09', due: '2026-09-17' },
      { start: '2026-10-10', end: '2026-11-09', due: '2026-10-17' },
    ]);
    expect(periodsUntil('2026-09-10', '2026-11-10').at(-1)).toEqual({
      start: '2026-11-10',
      end: '2026-12-09',
      due: '2026-11-17',
    });
    expect(periodsUntil('2026-12-01', '2026-11-30')).toEqual([]);
  });
});

describe('plan limits', () => {
  it('fits up to the limit, and an unlimited plan always', () => {
    expect(fitsPlan(PLANS.essencial, 'users', 2)).toBe(true);
    expect(fitsPlan(PLANS.essencial, 'users', 3)).toBe(false);
    expect(fitsPlan(PLANS.essencial, 'products', 450, 50)).toBe(true);
    expect(fitsPlan(PLANS.essencial, 'products', 450, 51)).toBe(false);
    expect(fitsPlan(PLANS.ilimitado, 'users', 10_000)).toBe(true);
  });

  it('says the limit and where to change the plan', () => {
    expect(planLimitMessage(PLANS.profissional, 'products')).toBe(
      'Seu plano Profissional permite até 5000 produtos. Para cadastrar mais, mude de plano em Configurações > Assinatura.',
    );
    expect(overdueBannerText('2026-11-17', 14990)).toBe(
      'A fatura de R$ 149,90 da sua assinatura venceu em 17/11/2026. Pague em Configurações > Assinatura para manter o Balcão em dia.',
    );
  });
});
