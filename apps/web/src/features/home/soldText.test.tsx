import { describe, expect, it } from 'vitest';
import { soldText } from './HomePage.tsx';

describe('counts with Portuguese plural rules (issue 30: "1 vendidos")', () => {
  it("says a top product's quantity in the singular for one", () => {
    expect(soldText(1)).toBe('1 vendido');
    expect(soldText(3)).toBe('3 vendidos');
    expect(soldText(0)).toBe('0 vendidos');
  });
});
