import { describe, expect, it } from 'vitest';
import {
  abcCurve,
  changeLabel,
  previousPeriod,
  reportExportQuerySchema,
  reportQuerySchema,
} from './report.ts';

describe('abcCurve', () => {
  it('classes products by the running share before each: A under 80%, B under 95%, C the rest', () => {
    const rows = [
      { name: 'Pão', revenueCents: 500 },
      { name: 'Café', revenueCents: 7000 },
      { name: 'Leite', revenueCents: 1000 },
      { name: 'Bala', revenueCents: 1000 },
      { name: 'Brinde', revenueCents: 0 },
      { name: 'Açúcar', revenueCents: 500 },
    ];
    expect(abcCurve(rows).map((r) => [r.name, r.abc, r.shareBp, r.cumulativeBp])).toEqual([
      ['Café', 'A', 7000, 7000],
      ['Bala', 'A', 1000, 8000],
      ['Leite', 'B', 1000, 9000],
      ['Açúcar', 'B', 500, 9500],
      ['Pão', 'C', 500, 10000],
      ['Brinde', 'C', 0, 10000],
    ]);
    expect(abcCurve([])).toEqual([]);
  });
});

describe('the period', () => {
  it('compares with the period of the same length just before', () => {
    expect(previousPeriod('2026-03-01', '2026-03-31')).toEqual({ from: '2026-01-29', to: '2026-02-28' });
    expect(previousPeriod('2026-03-10', '2026-03-10')).toEqual({ from: '2026-03-09', to: '2026-03-09' });
    expect(changeLabel(1125, 1000)).toBe('+12,5%');
    expect(changeLabel(900, 1000)).toBe('-10,0%');
    expect(changeLabel(900, 0)).toBeNull();
  });

  it('refuses a reversed or too long period and an unknown export in Portuguese', () => {
    const issues = (r: { success: boolean; error?: { issues: { message: string }[] } }) =>
      r.error?.issues.map((i) => i.message);
    expect(issues(reportQuerySchema.safeParse({ from: '2026-03-10', to: '2026-03-09' }))).toEqual([
      'A data final deve ser igual ou posterior à inicial',
    ]);
    expect(issues(reportQuerySchema.safeParse({ from: '2026-13-01', to: '2026-03-09' }))).toEqual([
      'Data inválida',
    ]);
    expect(
      issues(reportExportQuerySchema.safeParse({ from: '2026-03-01', to: '2026-03-09', section: 'x' })),
    ).toEqual(['Escolha o relatório a exportar']);
    expect(reportQuerySchema.parse({ from: '2026-03-01', to: '2026-03-09' }).groupBy).toBe('day');
  });
});
