import type { ShippingRuleSet } from '@balcao/core/shipping';
import { describe, expect, it } from 'vitest';
import { feeSummary } from './ShippingSettingsListPage.tsx';

describe('a delivery rule set in one line (issue 30: "bairro(s)", "faixa(s)")', () => {
  it('says how many neighbourhoods and CEP ranges a delivery rule set has', () => {
    const rules = { neighborhoods: [{}], cepRanges: [{}, {}] } as unknown as ShippingRuleSet;
    expect(feeSummary({ ...rules, feeMode: 'neighborhood' })).toMatch(/ · 1 bairro$/);
    expect(feeSummary({ ...rules, feeMode: 'cep_range' })).toMatch(/ · 2 faixas$/);
    expect(feeSummary({ ...rules, feeMode: 'cep_range', cepRanges: [{}] } as ShippingRuleSet)).toMatch(
      / · 1 faixa$/,
    );
  });
});
