import { afterEach, describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatTime, setShopTimeZone, shopTimeZone } from './format.ts';

afterEach(() => setShopTimeZone());

describe("dates in the shop's time zone", () => {
  const at = '2026-01-05T19:08:00.000Z';

  it('shows São Paulo time by default, whatever the machine runs in', () => {
    expect(shopTimeZone()).toBe('America/Sao_Paulo');
    expect(formatDateTime(at)).toBe('05/01/2026, 16:08');
    expect(formatTime(new Date(at))).toBe('16:08');
    expect(formatDate(at)).toBe('05/01/2026');
  });

  it("follows the shop's setting, and an unknown zone keeps the default", () => {
    setShopTimeZone('America/Manaus');
    expect(formatTime(at)).toBe('15:08');
    setShopTimeZone('Asia/Tokyo');
    expect(formatDateTime(at)).toBe('06/01/2026, 04:08');
    setShopTimeZone('Not/AZone');
    expect(shopTimeZone()).toBe('America/Sao_Paulo');
    expect(formatTime(at)).toBe('16:08');
  });
});
