import { describe, expect, it } from 'vitest';
import { gtinCheckDigit } from '../barcode.ts';
import { lineTotals } from '../sale.ts';
import {
  buildScaleLabel,
  gramsForAmount,
  looksLikeScaleLabel,
  parseScaleLabel,
  SCALE_LABEL_MESSAGES,
  type ScaleLayout,
  type ScaleRounding,
  weighedAmountCents,
  weighedLine,
} from './weighedLabel.ts';

/** A small deterministic generator (mulberry32): the same 100,000 labels on every run. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('weighed labels: every layout', () => {
  it('reads a Toledo price label with a 4-digit code (2 CCCC 0PPPPPP D)', () => {
    // Pão francês, code 0012, R$ 8,47: body 2 0012 0000847, check digit computed by GS1's rule.
    const layout: ScaleLayout = { codeLength: 4, content: 'price', rounding: 'truncate' };
    const label = buildScaleLabel('0012', 847, layout);
    expect(label).toBe(`200120000847${gtinCheckDigit('200120000847')}`);
    expect(parseScaleLabel(label, layout)).toEqual({ code: '0012', value: 847, content: 'price' });
  });

  it('reads code lengths 4, 5 and 6 with weight or price', () => {
    for (const codeLength of [4, 5, 6]) {
      for (const content of ['weight', 'price'] as const) {
        const layout: ScaleLayout = { codeLength, content, rounding: 'round' };
        const label = buildScaleLabel(123, 4567, layout);
        expect(label).toHaveLength(13);
        expect(label.startsWith(`2${'123'.padStart(codeLength, '0')}`)).toBe(true);
        expect(parseScaleLabel(label, layout)).toEqual({
          code: '123'.padStart(codeLength, '0'),
          value: 4567,
          content,
        });
      }
    }
  });

  it('a known label: 2000010012503 is code 00001, R$ 12,50 (5-digit code, price)', () => {
    const layout: ScaleLayout = { codeLength: 5, content: 'price', rounding: 'truncate' };
    // GS1 by hand: from the right 0·3 + 5 + 2·3 + 1 + 0 + 0 + 1·3 + 0 + 0 + 0 + 0 + 2 = 17 -> 3.
    expect(gtinCheckDigit('200001001250')).toBe(3);
    expect(parseScaleLabel('2000010012503', layout)).toEqual({
      code: '00001',
      value: 1250,
      content: 'price',
    });
  });

  it('refuses a wrong check digit, a code that is not a label and a zero value', () => {
    const layout: ScaleLayout = { codeLength: 5, content: 'weight', rounding: 'truncate' };
    expect(() => parseScaleLabel('2000010012508', layout)).toThrow(SCALE_LABEL_MESSAGES.checkDigit);
    expect(() => parseScaleLabel('7891234567895', layout)).toThrow(SCALE_LABEL_MESSAGES.notLabel);
    expect(() => parseScaleLabel('20000100125', layout)).toThrow(SCALE_LABEL_MESSAGES.notLabel);
    expect(() => parseScaleLabel(buildScaleLabel(1, 0, layout), layout)).toThrow(SCALE_LABEL_MESSAGES.zero);
    expect(looksLikeScaleLabel(' 2000010012508 ')).toBe(true);
    expect(looksLikeScaleLabel('7891234567895')).toBe(false);
  });

  it('every single wrong digit is caught by the check digit', () => {
    const layout: ScaleLayout = { codeLength: 5, content: 'price', rounding: 'truncate' };
    const label = buildScaleLabel(42, 1999, layout);
    for (let i = 1; i < 13; i++) {
      for (let d = 0; d < 10; d++) {
        if (String(d) === label[i]) continue;
        const wrong = `${label.slice(0, i)}${d}${label.slice(i + 1)}`;
        expect(() => parseScaleLabel(wrong, layout)).toThrow(SCALE_LABEL_MESSAGES.checkDigit);
      }
    }
  });
});

describe('weighed labels: the scale rule', () => {
  it('truncate cuts the fraction of a cent, round takes half a cent up', () => {
    // 0,300 kg at R$ 29,90/kg = R$ 8,97 either way; 0,347 kg = R$ 10,3753 -> 10,37 / 10,38.
    expect(weighedAmountCents(300, 2990, 'truncate')).toBe(897);
    expect(weighedAmountCents(300, 2990, 'round')).toBe(897);
    expect(weighedAmountCents(347, 2990, 'truncate')).toBe(1037);
    expect(weighedAmountCents(347, 2990, 'round')).toBe(1038);
    expect(weighedAmountCents(335, 2990, 'truncate')).toBe(1001);
    expect(weighedAmountCents(335, 2990, 'round')).toBe(1002);
  });

  it('a price label at another price per kg is flagged, with the nearest weight', () => {
    expect(gramsForAmount(1000, 2990, 'truncate')).toBeNull();
    const line = weighedLine({ code: '1', value: 1000, content: 'price' }, 2990, 'truncate');
    expect(line).toMatchObject({ grams: 334, priceMismatch: true, labelAmountCents: 1000 });
  });

  it('100,000 generated labels: the PDV line matches the label to the cent (truncate and round)', () => {
    const next = random(36);
    const mismatches = { truncate: 0, round: 0 };
    /** What a PDV that always rounds half-up would get wrong against a truncating scale. */
    let roundingPdvAgainstTruncatingScale = 0;
    for (let i = 0; i < 100_000; i++) {
      const rounding: ScaleRounding = i % 2 === 0 ? 'truncate' : 'round';
      const content = i % 4 < 2 ? 'weight' : 'price';
      const codeLength = 4 + (i % 3);
      const layout: ScaleLayout = { codeLength, content, rounding };
      const pricePerKgCents = 100 + Math.floor(next() * 19_900); // R$ 1,00 to R$ 199,99 per kg
      const grams = 5 + Math.floor(next() * 4_995); // 5 g to 5 kg
      const scaleAmount = weighedAmountCents(grams, pricePerKgCents, rounding);
      const label = buildScaleLabel(
        Math.floor(next() * 10 ** codeLength),
        content === 'weight' ? grams : scaleAmount,
        layout,
      );

      const line = weighedLine(parseScaleLabel(label, layout), pricePerKgCents, rounding);
      const pdv = lineTotals({
        quantity: line.quantity,
        unitPriceCents: pricePerKgCents,
        truncate: rounding === 'truncate',
      });
      if (pdv.totalCents !== scaleAmount || line.amountCents !== scaleAmount || line.priceMismatch)
        mismatches[rounding]++;
      if (rounding === 'truncate') {
        const halfUp = lineTotals({ quantity: grams / 1000, unitPriceCents: pricePerKgCents });
        if (halfUp.totalCents !== scaleAmount) roundingPdvAgainstTruncatingScale++;
      }
    }
    expect(mismatches).toEqual({ truncate: 0, round: 0 });
    // Without the scale's rule, about half the truncated labels would be one cent off.
    expect(roundingPdvAgainstTruncatingScale).toBeGreaterThan(10_000);
  });
});
